// For tests of the migrations on a database that has data: start over from no schema at
// all, so that migrations can run from the first one again.
import { applyD1Migrations, env } from "cloudflare:test";

/** Drops every table and view (their indexes and triggers go with them). */
export async function emptyDatabase(db: D1Database) {
  const { results } = await db
    .prepare(
      "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'",
    )
    .all<{ type: string; name: string }>();
  await db.batch([
    db.prepare("PRAGMA defer_foreign_keys = ON"),
    ...results.map((o) => db.prepare(`DROP ${o.type === "view" ? "VIEW" : "TABLE"} "${o.name.replaceAll('"', '""')}"`)),
  ]);
}

/** The test database emptied and migrated up to just before migration `before` (as "0030"): data is then put in as that schema held it. */
export async function migratedBefore(before: string) {
  await emptyDatabase(env.DB);
  await applyD1Migrations(
    env.DB,
    env.TEST_MIGRATIONS.filter((m) => m.name < before),
  );
}
