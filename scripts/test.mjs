#!/usr/bin/env node
// `npm test`: every check there is, in three stages, each printed as a block when it ends.
//
//   node scripts/test.mjs [--lanes N]
//
// 1. The Debian packages the tests use (scripts/ensure-system-packages.mjs): a machine
//    without them stops here, in the first seconds.
// 2. The fast checks and the vitest suite, side by side: tsc, Biome, repo-check,
//    openapi-lint and `vitest run`. A failure here stops the run before the end-to-end
//    suites (they would mostly repeat it, minutes later).
// 3. The end-to-end suites, N at a time (default 3, or TEST_LANES): each starts its own
//    `npm start` (and PowerDNS, BIND, Chromium…) on free loopback ports with throwaway
//    state, so they do not meet. The longest start first. Every suite runs to its end, and
//    the run fails if any failed.
//
// Why side by side: these steps wait far more than they compute (a workerd or wrangler
// dev starting, a D1 migrating, dig waiting on a cache), so on 2 cores the whole run is
// about half as long as one step after the other (CONTRIBUTING.md has the figures). Each
// step is also a script of its own (`npm run e2e`, `npm run dns-e2e`, …) for running alone.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runInLanes, seconds } from "./lib/steps.mjs";
import { ROOT } from "./lib/wrangler.mjs";

const USAGE = "usage: node scripts/test.mjs [--lanes N]   (N end-to-end suites at a time, 1–8; default 3 or TEST_LANES)";

/** The end-to-end suites, longest first (measured, CONTRIBUTING.md), so the lanes end together. */
const END_TO_END = [
  "acme-e2e",
  "dns-e2e",
  "safety-e2e",
  "readme-tour",
  "webhooks-e2e",
  "deploy-tour",
  "zone-check",
  "update-e2e",
  "archive-e2e",
  "dnssec-e2e",
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
  { name: "biome", command: [bin("biome"), "check", "."] },
  { name: "repo-check", command: [process.execPath, "scripts/repo-check.mjs"] },
  { name: "openapi-lint", command: [process.execPath, "scripts/openapi-lint.mjs"] },
  { name: "vitest", command: [bin("vitest"), "run"] },
];

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

function summary(results, started) {
  console.log("Summary:");
  for (const { name, ok, ms } of results) console.log(`  ${ok ? "ok    " : "FAILED"}  ${name.padEnd(14)} ${seconds(ms)}`);
  const failed = results.filter((result) => !result.ok);
  console.log(
    failed.length === 0
      ? `npm test passed in ${seconds(Date.now() - started)}`
      : `npm test FAILED (${failed.map((result) => result.name).join(", ")}) after ${seconds(Date.now() - started)}`,
  );
  return failed.length === 0;
}

const lanes = parseLanes();
const started = Date.now();

// Stage 1, in the foreground: its one line (when something is missing) is the whole answer.
const packages = spawn(process.execPath, ["scripts/ensure-system-packages.mjs"], { cwd: ROOT, stdio: "inherit" });
const packagesCode = await new Promise((resolve) => packages.on("close", (code) => resolve(code ?? 1)));
if (packagesCode !== 0) process.exit(packagesCode);

const checks = await runInLanes(CHECKS, CHECKS.length);
if (!checks.every((result) => result.ok)) {
  console.log("The end-to-end suites did not run: mend the failures above first.\n");
  summary(checks, started);
  process.exit(1);
}

const suites = await runInLanes(
  END_TO_END.map((name) => ({ name, command: [process.execPath, `scripts/${name}.mjs`] })),
  lanes,
);
process.exit(summary([...checks, ...suites], started) ? 0 : 1);
