// Runs `npm run capacity` (scripts/capacity.mjs) with --json and the given arguments, and
// resolves to its report; for test/unit/capacity.test.ts, which runs in Node without
// Node's type definitions.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT } from "./wrangler.mjs";

/** @type {typeof import("./capacity-report.mjs").capacityReport} */
export async function capacityReport(args = [], timeoutMs = 110_000) {
  const { stdout } = await promisify(execFile)(process.execPath, [join(ROOT, "scripts", "capacity.mjs"), "--json", ...args], {
    cwd: ROOT,
    timeout: timeoutMs,
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout);
}
