// For tests of the migrations on a database that has data: start over from no schema at
// all, so that migrations can run from the first one again.
import { applyD1Migrations, env } from "cloudflare:test";

/**
 * Drops every table and view (their indexes and triggers go with them). A table is dropped
 * before the tables its foreign keys reference: dropping a referenced table first would
 * leave the later DROP's implicit DELETE looking for it ("no such table"), and migrations
 * that rebuilt a table make sqlite_master's order no guide to which came first.
 */
export async function emptyDatabase(db: D1Database) {
  const { results } = await db
    .prepare(
      "SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'",
    )
    .all<{ type: string; name: string; sql: string }>();
  // D1 does not authorize pragma_foreign_key_list: the references are read from each table's SQL.
  const references = results.flatMap((o) => [...(o.sql ?? "").matchAll(/REFERENCES\s+[`"[]?(\w+)/gi)].map((match) => ({ child: o.name, parent: match[1]! })));
  const remaining = new Set(results.filter((o) => o.type === "table").map((o) => o.name));
  const order: { type: string; name: string }[] = results.filter((o) => o.type === "view");
  while (remaining.size > 0) {
    const referenced = new Set(references.filter((r) => r.child !== r.parent && remaining.has(r.child)).map((r) => r.parent));
    const free = [...remaining].filter((name) => !referenced.has(name));
    // A circle of references (none today) is dropped together, its checks deferred.
    for (const name of free.length > 0 ? free : [...remaining]) {
      order.push({ type: "table", name });
      remaining.delete(name);
    }
  }
  await db.batch([
    db.prepare("PRAGMA defer_foreign_keys = ON"),
    ...order.map((o) => db.prepare(`DROP ${o.type === "view" ? "VIEW" : "TABLE"} "${o.name.replaceAll('"', '""')}"`)),
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
