// Steps run side by side for `npm test` (scripts/test.mjs): each child's output is kept
// until it ends and printed as one block, so lines of steps running at once never mix.
import { spawn } from "node:child_process";
import { ROOT } from "./wrangler.mjs";

export const seconds = (ms) => `${Math.round(ms / 1000)} s`;

/**
 * Runs one step with its output (stdout and stderr, in the order written) kept until it
 * ends, then printed as one block under its name, so steps running side by side never mix
 * their lines. Resolves to { name, ok, ms }.
 */
export function runStep({ name, command }, { log = console.log } = {}) {
  const started = Date.now();
  log(`▶ ${name} started`);
  return new Promise((resolve) => {
    const chunks = [];
    // Plain text, which is what a block of a log wants: NO_COLOR, and no FORCE_COLOR at
    // all, since some tools (vitest's colours) take any FORCE_COLOR, even 0, as "on".
    const { FORCE_COLOR, ...inherited } = process.env;
    const child = spawn(command[0], command.slice(1), { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...inherited, NO_COLOR: "1" } });
    child.stdout.on("data", (chunk) => chunks.push(chunk));
    child.stderr.on("data", (chunk) => chunks.push(chunk));
    let finished = false;
    // A child that cannot start reports 'error' and may still report 'close': answer once.
    const finish = (ok, why) => {
      if (finished) return;
      finished = true;
      const ms = Date.now() - started;
      const output = Buffer.concat(chunks).toString("utf8").trimEnd();
      log(`\n━━━ ${name} ━━━`);
      if (output) log(output);
      log(`━━━ ${name}: ${ok ? "passed" : `FAILED (${why})`} in ${seconds(ms)} ━━━\n`);
      resolve({ name, ok, ms });
    };
    child.on("error", (error) => finish(false, error.message));
    child.on("close", (code, signal) => finish(code === 0, signal ? `killed by ${signal}` : `exit ${code}`));
  });
}

/** Runs the steps `lanes` at a time, in order; resolves to every step's result. */
export async function runInLanes(steps, lanes, options) {
  const queue = [...steps];
  const results = [];
  const lane = async () => {
    for (let step = queue.shift(); step; step = queue.shift()) results.push(await runStep(step, options));
  };
  await Promise.all(Array.from({ length: Math.min(lanes, steps.length) }, lane));
  return results;
}
