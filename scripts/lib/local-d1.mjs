// The local D1 database that `npm start` (wrangler dev) serves, for the scripts that read
// or write it: where it lives (one rule for every script), and a direct connection to it.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { DB_NAME, ROOT } from "./wrangler.mjs";

/**
 * The local state dir (wrangler's --persist-to): the `--persist-to` option when given,
 * else the PERSIST_TO environment variable, else wrangler's default `.wrangler/state`.
 * Relative paths are from the current directory. Returns null for the default, so callers
 * pass no --persist-to to wrangler at all then.
 */
export function localStateDir(option = null) {
  const chosen = option ?? (process.env.PERSIST_TO || null);
  return chosen === null ? null : resolve(process.cwd(), chosen);
}

/**
 * The `[[d1_databases]]` entry of wrangler.toml for DB_NAME: its local id (what names the
 * SQLite file under the state dir) and its migrations directory. Only the simple
 * `key = "value"` lines of that table are read, which is all this project's file has.
 */
export function d1Config() {
  const lines = readFileSync(join(ROOT, "wrangler.toml"), "utf8").split("\n");
  const tables = [];
  let current = null;
  for (const line of lines) {
    const header = /^\s*\[\[?\s*([A-Za-z0-9_.]+)\s*\]\]?\s*(#.*)?$/.exec(line);
    if (header) {
      current = header[1] === "d1_databases" && line.includes("[[") ? {} : null;
      if (current) tables.push(current);
      continue;
    }
    const pair = /^\s*([A-Za-z0-9_]+)\s*=\s*"([^"]*)"\s*(#.*)?$/.exec(line);
    if (current && pair) current[pair[1]] = pair[2];
  }
  const table = tables.find((t) => t.database_name === DB_NAME);
  const id = table?.preview_database_id ?? table?.database_id;
  if (!id) throw new Error(`wrangler.toml has no [[d1_databases]] entry with database_name = "${DB_NAME}" and a database_id`);
  return { id, migrationsDir: join(ROOT, table.migrations_dir ?? "migrations") };
}

/** Where wrangler keeps the local D1 databases of a state dir (null: the default one). */
export function d1PersistDir(stateDir) {
  return join(stateDir ?? join(ROOT, ".wrangler", "state"), "v3", "d1");
}

/** True when no local D1 database has been made in this state dir yet. */
export function noLocalD1Yet(stateDir) {
  return !existsSync(d1PersistDir(stateDir));
}

/** The migration files wrangler applies, in its order (file name order). */
export function migrationNames(migrationsDir) {
  return readdirSync(migrationsDir)
    .filter((name) => name.endsWith(".sql"))
    .sort();
}

// SQLite allows one writer per file. `wrangler dev` holds the same file, so a statement
// may meet it mid-write: workerd reports that as "database is locked" (SQLITE_BUSY), or
// only as an internal error. Neither changed anything; waiting and trying again works.
const BUSY = /SQLITE_BUSY|database is locked|internal error/i;

async function retryWhileBusy(run, { attempts = 40, delayMs = 250 } = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const message = `${error?.message ?? ""} ${error?.cause?.message ?? ""}`;
      if (attempt >= attempts || !BUSY.test(message)) throw error;
      await new Promise((done) => setTimeout(done, delayMs));
    }
  }
}

/**
 * Opens the local D1 database exactly as `wrangler d1 execute --local` does (Miniflare,
 * the same persistence dir and database id, so the same SQLite file), without loading
 * wrangler. Returns { query(sql, ...params) → rows, run(sql, ...params), pendingMigrations(),
 * runtimeOutput(), close() }. `stateDir` null means wrangler's default. workerd's own
 * output (a stack trace for every SQLITE_BUSY, retried or not) is kept, not printed:
 * runtimeOutput() has it, for a failure's report.
 */
export async function openLocalD1(stateDir) {
  const { Miniflare } = await import("miniflare");
  const { id, migrationsDir } = d1Config();
  const d1Persist = d1PersistDir(stateDir);
  let runtimeOutput = "";
  const keep = (stream) => stream.on("data", (chunk) => (runtimeOutput += chunk));
  const mf = new Miniflare({
    modules: true,
    script: "",
    d1Persist,
    d1Databases: { DATABASE: id },
    handleRuntimeStdio: (stdout, stderr) => {
      keep(stdout);
      keep(stderr);
    },
  });
  try {
    const db = await mf.getD1Database("DATABASE");
    const statement = (sql, params) => db.prepare(sql).bind(...params);
    const query = (sql, ...params) => retryWhileBusy(async () => (await statement(sql, params).all()).results);
    const run = (sql, ...params) => retryWhileBusy(() => statement(sql, params).run());
    return {
      query,
      run,
      /** Migration files not yet recorded in wrangler's d1_migrations table. */
      async pendingMigrations() {
        const table = await query("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'd1_migrations'");
        const applied = new Set(table.length ? (await query("SELECT name FROM d1_migrations")).map((row) => row.name) : []);
        return migrationNames(migrationsDir).filter((name) => !applied.has(name));
      },
      runtimeOutput: () => runtimeOutput,
      close: () => mf.dispose(),
    };
  } catch (error) {
    await mf.dispose();
    throw error;
  }
}
