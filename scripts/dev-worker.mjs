#!/usr/bin/env node
// The API Worker on 127.0.0.1 without wrangler's inspector: what `npm start -- --no-inspector`
// runs instead of `wrangler dev` (scripts/start.mjs). The same Worker, configuration, local
// D1/Queues/R2 state and dev registry (the webhook sender is found as with `wrangler dev`),
// through wrangler's `unstable_startWorker`, which can leave the inspector out: `wrangler
// dev` always starts one (for Chrome DevTools), and its proxy forwards every message of the
// runtime's to wrangler's node process, which cost about as much CPU as the Worker itself
// in the webhook bench (README, "Performance"; bench/README.md). No DevTools then: use
// plain `npm start` to debug.
//
//   node scripts/dev-worker.mjs --port N [--persist-to DIR] [--config FILE] [--var NAME:VALUE]…
//
// WRANGLER_REGISTRY_PATH (env): the dev registry (scripts/start.mjs sets it). Prints
// "Ready on http://127.0.0.1:N" once it serves, logs each request as wrangler dev does,
// and stops on SIGINT/SIGTERM/SIGHUP.
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { disposeOnSignals, ROOT } from "./lib/wrangler.mjs";

const USAGE = "usage: node scripts/dev-worker.mjs --port N [--persist-to DIR] [--config FILE] [--var NAME:VALUE]…";

function fail(message) {
  console.error(`[dev-worker] ${message}\n${USAGE}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: "string" },
      "persist-to": { type: "string" },
      config: { type: "string" },
      var: { type: "string", multiple: true, default: [] },
      // wrangler dev's devtools port (the test harness gives it to every start): no inspector here.
      "inspector-port": { type: "string" },
    },
  }));
} catch (error) {
  // Any other wrangler dev option: this runner knows only these (plain `npm start` takes them all).
  fail(`${error.message} (with --no-inspector, only --config and --var go to the Worker)`);
}
if (!/^[0-9]{1,5}$/.test(values.port ?? "")) fail("--port must be a port number");
const bindings = {};
for (const pair of values.var) {
  const at = pair.indexOf(":");
  if (at < 1) fail(`--var takes NAME:VALUE, got "${pair}"`);
  bindings[pair.slice(0, at)] = { type: "plain_text", value: pair.slice(at + 1) };
}

const { unstable_startWorker } = await import("wrangler");
const worker = await unstable_startWorker({
  config: values.config ? resolve(values.config) : join(ROOT, "wrangler.toml"),
  bindings,
  dev: {
    inspector: false,
    server: { hostname: "127.0.0.1", port: Number(values.port) },
    persist: values["persist-to"] ? resolve(values["persist-to"]) : join(ROOT, ".wrangler", "state"),
    registry: process.env.WRANGLER_REGISTRY_PATH,
    // As start.mjs gives wrangler dev: the cron can be run by hand (/__scheduled).
    testScheduled: true,
    watch: false,
    // wrangler dev's level: "info" would drop the Worker's console.log lines (the cron's
    // and the queue's reports), which wrangler's logger ranks below it.
    logLevel: "log",
  },
});
await worker.ready;
console.log(`Ready on ${(await worker.url).origin}`);

disposeOnSignals(worker);
