// Shared helpers for the scripts that run the local wrangler (start.mjs, e2e.mjs).
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { constants } from "node:os";

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
    console.error(`[start] ${WRANGLER} not found: run \`npm install\` (or \`npm ci\`) first.`);
    process.exit(1);
  }
}

// The exit status a shell would report for a child that ended with (code, signal).
export function exitStatus(code, signal) {
  if (code !== null && code !== undefined) return code;
  const number = signal ? constants.signals[signal] : undefined;
  return number ? 128 + number : 1;
}

// Strips ANSI colour/cursor sequences so output can be matched as plain text.
export function stripAnsi(text) {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*(\x07|\x1b\\)/g, "");
}
