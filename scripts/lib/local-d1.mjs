// The local D1 database that `npm start` (wrangler dev) serves, for the scripts that read
// or write it: where it lives (one rule for every script), how it gets its migrations,
// and a direct connection to it.
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { applyLocalMigrations, DB_NAME, ROOT } from "./wrangler.mjs";

/**
 * The local state dir (wrangler's --persist-to): the `--persist-to` option when given,
 * else the PERSIST_TO environment variable, else wrangler's default `.wrangler/state`.
 * Relative paths are from the current directory. Returns null for the default, so callers
 * pass no --persist-to to wrangler at all then.
 * @param {string | null} [option]
 * @returns {string | null}
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
  /** @type {Record<string, string | undefined>[]} */
  const tables = [];
  /** @type {Record<string, string | undefined> | null} */
  let current = null;
  for (const line of lines) {
    const header = /^\s*\[\[?\s*([A-Za-z0-9_.]+)\s*\]\]?\s*(#.*)?$/.exec(line);
    if (header) {
      current = header[1] === "d1_databases" && line.includes("[[") ? {} : null;
      if (current) tables.push(current);
      continue;
    }
    const pair = /^\s*([A-Za-z0-9_]+)\s*=\s*"([^"]*)"\s*(#.*)?$/.exec(line);
    if (current && pair) current[/** @type {string} */ (pair[1])] = pair[2];
  }
  const table = tables.find((t) => t.database_name === DB_NAME);
  const id = table?.preview_database_id ?? table?.database_id;
  if (!id) throw new Error(`wrangler.toml has no [[d1_databases]] entry with database_name = "${DB_NAME}" and a database_id`);
  return { id, migrationsDir: join(ROOT, table?.migrations_dir ?? "migrations") };
}

/**
 * Where wrangler keeps the local D1 databases of a state dir (null: the default one).
 * @param {string | null | undefined} stateDir
 */
export function d1PersistDir(stateDir) {
  return join(stateDir ?? join(ROOT, ".wrangler", "state"), "v3", "d1");
}

/**
 * True when no local D1 database has been made in this state dir yet.
 * @param {string | null | undefined} stateDir
 */
export function noLocalD1Yet(stateDir) {
  return !existsSync(d1PersistDir(stateDir));
}

/**
 * The migration files wrangler applies, in its order (file name order).
 * @param {string} migrationsDir
 */
export function migrationNames(migrationsDir) {
  return readdirSync(migrationsDir)
    .filter((name) => name.endsWith(".sql"))
    .sort();
}

/** Where the migrated databases are kept (migratedTemplate): node_modules, so a clean install has none. */
export const TEMPLATE_CACHE = join(ROOT, "node_modules", ".cache", "domain-api-d1");

/**
 * What a migrated database depends on: the migration files (names and bytes), the
 * database's id (it names the SQLite file) and the versions of wrangler and miniflare
 * (which write the files).
 */
function templateKey() {
  const { id, migrationsDir } = d1Config();
  const hash = createHash("sha256");
  const version = (/** @type {string} */ pkg) => JSON.parse(readFileSync(join(ROOT, "node_modules", pkg, "package.json"), "utf8")).version;
  hash.update(`wrangler ${version("wrangler")} miniflare ${version("miniflare")} ${DB_NAME} ${id}\n`);
  for (const name of migrationNames(migrationsDir))
    hash.update(
      `${name} ${createHash("sha256")
        .update(readFileSync(join(migrationsDir, name)))
        .digest("hex")}\n`,
    );
  return hash.digest("hex").slice(0, 16);
}

/**
 * A state dir holding a D1 database migrated by `wrangler d1 migrations apply` from
 * nothing, for exactly the migration files of the checkout, made once and kept in
 * TEMPLATE_CACHE: { dir, applied, built } (built: made now), or { error } when wrangler
 * failed (its output). Each migration is a Miniflare of its own in wrangler (about 10 s
 * of CPU for all of them), while copying the result takes milliseconds, so every fresh
 * state dir (each end-to-end suite's) starts from a copy. Runs side by side that find
 * none build their own; the first one finished is kept (renamed into place whole).
 * @returns {Promise<{ dir: string, applied: string[], built: boolean, error?: undefined } | { error: string, code?: number }>}
 */
export async function migratedTemplate() {
  const { migrationsDir } = d1Config();
  const names = migrationNames(migrationsDir);
  const dir = join(TEMPLATE_CACHE, templateKey());
  if (existsSync(join(dir, "v3", "d1"))) return { dir, applied: names, built: false };
  mkdirSync(TEMPLATE_CACHE, { recursive: true });
  // What a run stopped mid-build left (an hour is far beyond a build).
  for (const entry of readdirSync(TEMPLATE_CACHE)) {
    const path = join(TEMPLATE_CACHE, entry);
    if (entry.startsWith("building-") && Date.now() - statSync(path).mtimeMs > 3_600_000) rmSync(path, { recursive: true, force: true });
  }
  const building = mkdtempSync(join(TEMPLATE_CACHE, "building-"));
  try {
    const migrated = await applyLocalMigrations(building);
    if (!migrated.ok) return { error: migrated.output, code: migrated.code };
    try {
      renameSync(building, dir);
    } catch (error) {
      // Another run put its own there first: the same files made it, so it is as good.
      if (!existsSync(join(dir, "v3", "d1"))) throw error;
    }
    return { dir, applied: names, built: true };
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}

/**
 * Gives a state dir that has no D1 database yet a copy of the migrated one
 * (migratedTemplate), and returns the template's { dir, applied, built }; null when the
 * state dir has a database already (wrangler applies what is pending) or no template
 * could be made (then wrangler migrates the state dir itself, as without this).
 * The copy leaves out SQLite's shared-memory index (-shm), which the first connection
 * rebuilds from the database and its log.
 * @param {string | null | undefined} stateDir
 */
export async function seedFromTemplate(stateDir) {
  if (!noLocalD1Yet(stateDir)) return null;
  const template = await migratedTemplate().catch((/** @type {Error} */ error) => ({ error: error.message }));
  if (template.error !== undefined) return null;
  // Copied beside its place and renamed into it: a copy cut short is never taken for a database.
  const target = d1PersistDir(stateDir);
  mkdirSync(join(target, ".."), { recursive: true });
  const copying = mkdtempSync(`${target}-copying-`);
  try {
    cpSync(join(template.dir, "v3", "d1"), copying, { recursive: true, filter: (source) => !source.endsWith("-shm") });
    renameSync(copying, target);
  } finally {
    rmSync(copying, { recursive: true, force: true });
  }
  return template;
}

// SQLite allows one writer per file. `wrangler dev` holds the same file, so a statement
// may meet it mid-write: workerd reports that as "database is locked" (SQLITE_BUSY), or
// only as an internal error. Neither changed anything; waiting and trying again works.
const BUSY = /SQLITE_BUSY|database is locked|internal error/i;

/**
 * @template T
 * @param {() => Promise<T>} run
 * @param {{ attempts?: number, delayMs?: number }} [options]
 * @returns {Promise<T>}
 */
async function retryWhileBusy(run, { attempts = 40, delayMs = 250 } = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (caught) {
      const error = /** @type {{ message?: string, cause?: { message?: string } } | undefined} */ (caught);
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
 * @param {string | null | undefined} stateDir
 */
export async function openLocalD1(stateDir) {
  const { Miniflare } = await import("miniflare");
  const { id, migrationsDir } = d1Config();
  const d1Persist = d1PersistDir(stateDir);
  let runtimeOutput = "";
  const keep = (/** @type {import("node:stream").Readable} */ stream) => stream.on("data", (chunk) => (runtimeOutput += chunk));
  const mf = new Miniflare({
    modules: true,
    script: "",
    d1Persist,
    d1Databases: { DATABASE: id },
    handleRuntimeStdio: (/** @type {import("node:stream").Readable} */ stdout, /** @type {import("node:stream").Readable} */ stderr) => {
      keep(stdout);
      keep(stderr);
    },
  });
  try {
    const db = await mf.getD1Database("DATABASE");
    const statement = (/** @type {string} */ sql, /** @type {unknown[]} */ params) => db.prepare(sql).bind(...params);
    /** @type {(sql: string, ...params: unknown[]) => Promise<Record<string, unknown>[]>} */
    const query = (sql, ...params) => retryWhileBusy(async () => (await statement(sql, params).all()).results);
    /** @type {(sql: string, ...params: unknown[]) => Promise<unknown>} */
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
