#!/usr/bin/env node
// The webhook sender beside `npm start`'s API (src/sender.ts, wrangler.sender.toml;
// docs/webhooks.md, "The sender"). scripts/start.mjs runs it before the API; alone:
//
//   WRANGLER_REGISTRY_PATH=DIR node scripts/sender.mjs
//
// The API's `wrangler dev` finds it through wrangler's dev registry in the same DIR (its
// WEBHOOK_SENDER service binding). It runs in processes of its own, so that its CPU
// priority can be set apart from the API's once it is ready (SENDER_PRIORITY):
//
//   normal  the default: deliveries as prompt as the API's answers, whatever else runs;
//   low     nice 10: on a busy machine the API's requests mostly go first;
//   idle    Linux SCHED_IDLE (else nice 19): deliveries take only CPU time nothing else
//           wants, and catch up when the API is idle. What a deployment gets, where the
//           sender's requests run on other machines than the API's: `npm run bench`
//           measures what webhooks cost the API this way (bench/README.md).
//
// No inspector (a deployed Worker has none, and wrangler's costs more per request sent
// than sending it). Prints "[sender] ready" once the API can reach it; stops on
// SIGINT/SIGTERM/SIGHUP.
import { execFileSync } from "node:child_process";
import { setPriority } from "node:os";
import { join } from "node:path";
import { processTable } from "./lib/daemons.mjs";
import { disposeOnSignals, ROOT } from "./lib/wrangler.mjs";

if (!process.env.WRANGLER_REGISTRY_PATH) {
  console.error("[sender] WRANGLER_REGISTRY_PATH must name the dev registry the API uses (scripts/start.mjs sets it)");
  process.exit(2);
}

const PRIORITIES = ["normal", "low", "idle"];
const wanted = process.env.SENDER_PRIORITY || "normal";
if (!PRIORITIES.includes(wanted)) {
  console.error(`[sender] SENDER_PRIORITY must be one of ${PRIORITIES.join(", ")}, got "${wanted}"`);
  process.exit(2);
}

/** This process and every process under it (its workerd), from /proc; just this one elsewhere. */
function processTree() {
  const table = processTable();
  const tree = [process.pid];
  for (let i = 0; i < tree.length; i++) tree.push(...table.filter((entry) => entry.ppid === tree[i]).map((entry) => entry.pid));
  return tree.map(String);
}

/** Lowers the priority of this process tree, every thread of it (after the start, which should not wait); how, or why not. */
function lowerPriority(level) {
  if (level === "normal") return "the normal CPU priority";
  const tree = processTree();
  if (level === "idle") {
    try {
      // util-linux's chrt: SCHED_IDLE for every thread of each process.
      for (const pid of tree) execFileSync("chrt", ["--all-tasks", "--idle", "--pid", "0", pid], { stdio: "ignore" });
      return "the idle CPU priority (SCHED_IDLE)";
    } catch {
      // no chrt (not Linux): the lowest nice level instead
    }
  }
  const nice = level === "idle" ? 19 : 10;
  try {
    for (const pid of tree) setPriority(Number(pid), nice);
    return `nice ${nice} (its main threads)`;
  } catch (error) {
    return `the normal CPU priority (could not lower it: ${error.message})`;
  }
}

const { unstable_startWorker } = await import("wrangler");
const worker = await unstable_startWorker({
  config: join(ROOT, "wrangler.sender.toml"),
  dev: {
    inspector: false,
    server: { hostname: "127.0.0.1", port: 0 },
    registry: process.env.WRANGLER_REGISTRY_PATH,
    persist: join(process.env.WRANGLER_REGISTRY_PATH, "..", "sender-state"),
    logLevel: "warn",
  },
});
await worker.ready;
console.log(`[sender] ready: the webhook sender (src/sender.ts) runs at ${lowerPriority(wanted)}`);

disposeOnSignals(worker);
