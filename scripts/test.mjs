#!/usr/bin/env node
// `npm test`: every check there is, each step printed as a block when it ends.
//
//   node scripts/test.mjs [--lanes N]
//
// 1. The Debian packages the tests use (scripts/ensure-system-packages.mjs): a machine
//    without them stops here, in the first seconds.
// 2. The checks, side by side: tsc, Biome, repo-check, openapi-lint and `vitest run`, and
//    d1-migrations (wrangler applies every migration to an empty local D1, once: each
//    end-to-end suite's `npm start` copies that database, scripts/lib/local-d1.mjs).
// 3. The end-to-end suites, longest first: each starts its own `npm start` (and PowerDNS,
//    BIND, Chromium…) on free loopback ports with throwaway state, so they do not meet.
//    They start once d1-migrations has passed, beside the checks: N - 1 at a time (at
//    least 1) while the checks run, N once they have all passed (default 3, or
//    TEST_LANES). A failed check stops them (they tear down what they started) and
//    starts no more: the suites would mostly repeat the failure, minutes later. Otherwise
//    every suite runs to its end, and the run fails if any failed.
//
// Why side by side: these steps wait far more than they compute (a workerd or wrangler
// dev starting, vitest's runtimes fetching their modules, dig waiting on a cache), so on
// 2 cores one step leaves much of the CPU idle; the suites take it while the checks run
// (CONTRIBUTING.md has the figures). Each step is also a script of its own (`npm run
// e2e`, `npm run dns-e2e`, …) for running alone.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { migratedTemplate } from "./lib/local-d1.mjs";
import { startQueue, seconds } from "./lib/steps.mjs";
import { ROOT } from "./lib/wrangler.mjs";

const USAGE =
  "usage: node scripts/test.mjs [--lanes N]   (N end-to-end suites at a time once the checks have passed, N - 1 beside them; 1–8; default 3 or TEST_LANES)";

/** The end-to-end suites, longest first (measured, CONTRIBUTING.md), so the lanes end together. */
const END_TO_END = [
  "acme-e2e",
  "dns-e2e",
  "registry-authority-e2e",
  "safety-e2e",
  "readme-tour",
  "webhooks-e2e",
  "deploy-tour",
  "zone-check",
  "update-e2e",
  "archive-e2e",
  "dnssec-e2e",
  "dnssec-rollover-e2e",
  "registry-e2e",
  "docs-e2e",
  "import-e2e",
  "e2e",
];

/** A tool of node_modules/.bin, run directly (npx would add its own start-up and notices). */
const bin = (tool) => join(ROOT, "node_modules", ".bin", tool);

const CHECKS = [
  { name: "tsc", command: [bin("tsc"), "--noEmit"] },
  // The Node programs (the local registry) and their tests, with Node's types.
  { name: "tsc node", command: [bin("tsc"), "--noEmit", "-p", "tsconfig.node.json"] },
  // The scripts' shared library (scripts/lib/*.mjs), JavaScript checked from its JSDoc.
  { name: "tsc scripts", command: [bin("tsc"), "--noEmit", "-p", "tsconfig.scripts.json"] },
  { name: "biome", command: [bin("biome"), "check", "."] },
  { name: "repo-check", command: [process.execPath, "scripts/repo-check.mjs"] },
  { name: "openapi-lint", command: [process.execPath, "scripts/openapi-lint.mjs"] },
  { name: "vitest", command: [bin("vitest"), "run"] },
];

/** The migrated D1 every suite's `npm start` copies (scripts/lib/local-d1.mjs); a failure is wrangler's output. */
const MIGRATIONS = {
  name: "d1-migrations",
  run: async () => {
    const template = await migratedTemplate();
    if (template.error) return { ok: false, output: `${template.error}\nwrangler d1 migrations apply failed on an empty database (exit ${template.code})` };
    const what = `${template.applied.length} migrations, ${template.applied[0]} to ${template.applied.at(-1)}`;
    return {
      ok: true,
      output: template.built ? `wrangler applied ${what} to an empty database` : `${what}: already applied to an empty database by an earlier run`,
    };
  },
};

function parseLanes() {
  try {
    const { values } = parseArgs({ options: { lanes: { type: "string" } } });
    const text = values.lanes ?? process.env.TEST_LANES ?? "3";
    const lanes = Number(text);
    if (!/^\d+$/.test(text) || lanes < 1 || lanes > 8) throw new Error(`lanes must be a whole number from 1 to 8, not ${JSON.stringify(text)}`);
    return lanes;
  } catch (error) {
    console.error(`${error.message}\n${USAGE}`);
    process.exit(2);
  }
}

function summary(results, notRun, started) {
  console.log("Summary:");
  for (const { name, ok, ms, stopped } of results) console.log(`  ${stopped ? "stopped" : ok ? "ok     " : "FAILED "}  ${name.padEnd(14)} ${seconds(ms)}`);
  if (notRun.length > 0) console.log(`  not run: ${notRun.join(", ")}`);
  const failed = results.filter((result) => !result.ok && !result.stopped);
  const passed = failed.length === 0 && notRun.length === 0 && results.every((result) => result.ok);
  console.log(
    passed
      ? `npm test passed in ${seconds(Date.now() - started)}`
      : `npm test FAILED (${failed.map((result) => result.name).join(", ")}) after ${seconds(Date.now() - started)}`,
  );
  return passed;
}

const lanes = parseLanes();
const started = Date.now();

// Stage 1, in the foreground: its one line (when something is missing) is the whole answer.
const packages = spawn(process.execPath, ["scripts/ensure-system-packages.mjs"], { cwd: ROOT, stdio: "inherit" });
const packagesCode = await new Promise((resolve) => packages.on("close", (code) => resolve(code ?? 1)));
if (packagesCode !== 0) process.exit(packagesCode);

// Held (0 lanes) until d1-migrations has passed.
const suites = startQueue(
  END_TO_END.map((name) => ({ name, command: [process.execPath, `scripts/${name}.mjs`] })),
  0,
);
const checkSteps = [...CHECKS, MIGRATIONS];
let checksLeft = checkSteps.length;
let checksFailed = false;
const checks = await startQueue(checkSteps, checkSteps.length, {
  onResult(result) {
    checksLeft--;
    if (checksFailed) return;
    if (!result.ok) {
      checksFailed = true;
      console.log(`${result.name} failed: the end-to-end suites stop, and no more start (mend the failure first).\n`);
      suites.stop();
    } else if (checksLeft === 0) suites.setLanes(lanes);
    else if (result.name === MIGRATIONS.name) suites.setLanes(Math.max(1, lanes - 1));
  },
}).done;
// All checks passed before d1-migrations ended, or with it: the suites start now.
if (!checksFailed) suites.setLanes(lanes);
const e2e = await suites.done;
process.exit(summary([...checks.results, ...e2e.results], e2e.notRun, started) ? 0 : 1);
