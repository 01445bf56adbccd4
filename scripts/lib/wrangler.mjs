// Shared helpers for the scripts that run the local wrangler (start.mjs, token.mjs, e2e.mjs).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { constants } from "node:os";
import { onceMoreIfInternal } from "./migrations-retry.mjs";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");
export const DB_NAME = "domain-api";

// Keeps wrangler offline and quiet: no telemetry, no Cloudflare request-metadata fetch,
// no banner (printing it asks the npm registry whether a newer wrangler exists).
export const OFFLINE_ENV = {
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
};

export function wranglerEnv(extra = {}) {
  return { ...process.env, ...OFFLINE_ENV, ...extra };
}

export function assertWranglerInstalled() {
  if (!existsSync(WRANGLER)) {
    console.error(`${WRANGLER} not found: run \`npm install\` (or \`npm ci\`) first.`);
    process.exit(1);
  }
}

/**
 * The exit status a shell would report for a child that ended with (code, signal).
 * @param {number | null | undefined} code
 * @param {NodeJS.Signals | null | undefined} signal
 * @returns {number}
 */
export function exitStatus(code, signal) {
  if (code !== null && code !== undefined) return code;
  const number = signal ? constants.signals[signal] : undefined;
  return number ? 128 + number : 1;
}

/**
 * Stops a Worker started in this process with wrangler's `unstable_startWorker` (its
 * workerd with it) on SIGINT, SIGTERM or SIGHUP, then exits 0: scripts/sender.mjs and
 * scripts/dev-worker.mjs.
 * @param {{ dispose: () => Promise<unknown> }} worker
 */
export function disposeOnSignals(worker) {
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, async () => {
      if (stopping) return;
      stopping = true;
      await worker.dispose().catch(() => undefined);
      process.exit(0);
    });
  }
}

/**
 * Strips ANSI colour/cursor sequences so output can be matched as plain text.
 * @param {string} text
 * @returns {string}
 */
export function stripAnsi(text) {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*(\x07|\x1b\\)/g, "");
}

/**
 * `wrangler d1 migrations apply --local` with its output kept, not printed (it draws a
 * table of every migration, twice): resolves to { ok, code, output, applied } where
 * applied lists the migrations it applied now (none when the database was up to date),
 * tried once more when it failed in wrangler itself rather than in a migration's SQL
 * (migrations-retry.mjs).
 * `stateDir` null means wrangler's default state dir; `stopping()` true (the caller was
 * asked to stop) means no second try; `signalChild` is given wrangler's process as it starts.
 * @param {string | null | undefined} stateDir
 * @param {{ signalChild?: (child: import("node:child_process").ChildProcess) => void, stopping?: () => boolean }} [options]
 * @returns {Promise<import("./migrations-retry.mjs").MigrationRun>}
 */
export function applyLocalMigrations(stateDir, { signalChild, stopping = () => false } = {}) {
  return onceMoreIfInternal(() => applyLocalMigrationsOnce(stateDir, signalChild), stopping);
}

/**
 * @param {string | null | undefined} stateDir
 * @param {((child: import("node:child_process").ChildProcess) => void) | undefined} signalChild
 * @returns {Promise<import("./migrations-retry.mjs").MigrationRun>}
 */
function applyLocalMigrationsOnce(stateDir, signalChild) {
  const args = ["d1", "migrations", "apply", DB_NAME, "--local", ...(stateDir ? ["--persist-to", stateDir] : [])];
  return new Promise((resolvePromise) => {
    const child = spawn(WRANGLER, args, { cwd: ROOT, env: wranglerEnv({ FORCE_COLOR: "0" }), stdio: ["ignore", "pipe", "pipe"] });
    signalChild?.(child);
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", (error) => resolvePromise({ ok: false, code: 1, output: `${output}\ncould not run ${WRANGLER}: ${error.message}`, applied: [] }));
    child.on("close", (code, signal) => {
      const text = stripAnsi(output);
      // The result table has one row per migration applied now, with a ✅ beside it.
      const applied = [...new Set([...text.matchAll(/(\d+_[^\s│|]+\.sql)\s*[│|]\s*✅/g)].map((m) => /** @type {string} */ (m[1])))];
      resolvePromise({ ok: code === 0, code: exitStatus(code, signal), signalled: signal !== null, output: text, applied });
    });
  });
}
