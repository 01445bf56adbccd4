// The database an operator's command-line tool acts on (`npm run token`, `npm run
// zone-conflicts`): the local D1 that `npm start` serves, opened directly
// (./local-d1.mjs, about a second; migrations still pending are applied first, as `npm
// start` would), or with --remote the deployed one through `wrangler d1 execute
// --remote`. Either way { execute(sql) → rows, close() }. `npm run token` comes here only
// when no server runs on the state dir; while one does, it goes through that server
// (./local-server.mjs).
import { spawnSync } from "node:child_process";
import { noLocalD1Yet, openLocalD1 } from "./local-d1.mjs";
import { applyLocalMigrations, assertWranglerInstalled, DB_NAME, ROOT, WRANGLER, wranglerEnv } from "./wrangler.mjs";

/**
 * @param {string} label
 * @param {string[]} args
 * @returns {any} wrangler's JSON output
 */
function wrangler(label, args) {
  const result = spawnSync(WRANGLER, args, { cwd: ROOT, env: wranglerEnv(), stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  if (result.status !== 0) {
    console.error(result.stdout, result.stderr);
    console.error(`[${label}] wrangler ${args.slice(0, 3).join(" ")} failed (exit ${result.status})`);
    process.exit(1);
  }
  return JSON.parse(result.stdout.slice(result.stdout.indexOf("[")));
}

/** @typedef {{ execute: (sql: string) => Promise<Record<string, unknown>[]>, close: () => Promise<void> }} CliDatabase */

/**
 * `label` prefixes the tool's messages; `persistTo` is the local state dir (null: wrangler's default).
 * @param {{ label: string, remote?: boolean, persistTo: string | null }} options
 * @returns {Promise<CliDatabase>}
 */
export async function cliDatabase({ label, remote, persistTo }) {
  if (remote) {
    assertWranglerInstalled();
    return {
      execute: async (sql) => wrangler(label, ["d1", "execute", DB_NAME, "--remote", "--json", "--command", sql])[0].results,
      close: async () => {},
    };
  }
  // A fresh clone, or new migrations since the last `npm start`: wrangler applies them
  // (and records them), exactly as `npm start` would. Without a database at all there is
  // nothing to ask first.
  let local = noLocalD1Yet(persistTo) ? null : await openLocalD1(persistTo);
  if (!local || (await local.pendingMigrations()).length > 0) {
    await local?.close();
    assertWranglerInstalled();
    const migrated = await applyLocalMigrations(persistTo);
    if (!migrated.ok) {
      console.error(migrated.output);
      console.error(`[${label}] applying the local D1 migrations failed (exit ${migrated.code})`);
      process.exit(1);
    }
    console.error(`[${label}] applied ${migrated.applied.length} migration(s) to the local D1 first`);
    local = await openLocalD1(persistTo);
  }
  return {
    execute: async (sql) => {
      try {
        return await local.query(sql);
      } catch (error) {
        console.error(local.runtimeOutput().trimEnd());
        throw error;
      }
    },
    close: () => local.close(),
  };
}
