// Steps run side by side for `npm test` (scripts/test.mjs): each child's output is kept
// until it ends and printed as one block, so lines of steps running at once never mix.
import { spawn } from "node:child_process";
import { ROOT } from "./wrangler.mjs";

/** @type {typeof import("./steps.mjs").seconds} */
export const seconds = (ms) => `${Math.round(ms / 1000)} s`;

/**
 * Starts one step: `command` (a program and its arguments, run in the repository's root)
 * or `run` (an async function in this process resolving to { ok, output }). Its output
 * (stdout and stderr, in the order read) is kept until it ends, then printed as one
 * block under its name, so steps running side by side never mix their lines. Returns
 * { done, stop }: done resolves to { name, ok, ms } (and stopped: true when stop() ended
 * it); stop() sends SIGTERM to a command's child (its own cleanup runs), and marks it
 * stopped.
 * @type {typeof import("./steps.mjs").startStep}
 */
export function startStep({ name, command, run }, { log = console.log } = {}) {
  const started = Date.now();
  log(`▶ ${name} started`);
  let stopped = false;
  /** @type {import("node:child_process").ChildProcess | null} */
  let child = null;
  /** @type {(result: import("./steps.mjs").StepResult) => void} */
  let resolveDone;
  /** @type {Promise<import("./steps.mjs").StepResult>} */
  const done = new Promise((resolve) => (resolveDone = resolve));
  let finished = false;
  // A child that cannot start reports 'error' and may still report 'close': answer once.
  /** @type {(ok: boolean, why: string, output: string | undefined) => void} */
  const finish = (ok, why, output) => {
    if (finished) return;
    finished = true;
    const ms = Date.now() - started;
    log(`\n━━━ ${name} ━━━`);
    if (output) log(output);
    const verdict = stopped ? `stopped (${why})` : ok ? "passed" : `FAILED (${why})`;
    log(`━━━ ${name}: ${verdict} in ${seconds(ms)} ━━━\n`);
    resolveDone(stopped ? { name, ok: false, ms, stopped: true } : { name, ok, ms });
  };
  if (run) {
    run().then(
      ({ ok, output }) => finish(ok, "see above", output?.trimEnd()),
      (/** @type {Error} */ error) => finish(false, error.message, error.stack),
    );
  } else {
    /** @type {Buffer[]} */
    const chunks = [];
    // Plain text, which is what a block of a log wants: NO_COLOR, and no FORCE_COLOR at
    // all, since some tools (vitest's colours) take any FORCE_COLOR, even 0, as "on".
    const { FORCE_COLOR, ...inherited } = process.env;
    const [program = "", ...args] = /** @type {string[]} */ (command);
    const spawned = spawn(program, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...inherited, NO_COLOR: "1" } });
    child = spawned;
    spawned.stdout.on("data", (chunk) => chunks.push(chunk));
    spawned.stderr.on("data", (chunk) => chunks.push(chunk));
    const output = () => Buffer.concat(chunks).toString("utf8").trimEnd();
    spawned.on("error", (error) => finish(false, error.message, output()));
    spawned.on("close", (code, signal) => finish(code === 0, signal ? `killed by ${signal}` : `exit ${code}`, output()));
  }
  return {
    done,
    stop() {
      if (finished || stopped) return;
      stopped = true;
      if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    },
  };
}

/**
 * Runs one step (startStep) to its end; resolves to { name, ok, ms }.
 * @type {typeof import("./steps.mjs").runStep}
 */
export function runStep(step, options) {
  return startStep(step, options).done;
}

/**
 * A queue of steps run in order, `lanes` at a time; 0 lanes holds them until setLanes()
 * raises the number. Returns { done, setLanes(n), stop() }: done resolves, once no step
 * runs and none is left to start, to { results, notRun }: the results in the order the
 * steps ended, and the names of the steps stop() kept from starting; stop() starts no
 * more and stops the running ones (startStep's stop()). options.onResult(result) is
 * called as each step ends, before the next one starts.
 * @type {typeof import("./steps.mjs").startQueue}
 */
export function startQueue(steps, lanes, options = {}) {
  const queue = [...steps];
  /** @type {import("./steps.mjs").StepResult[]} */
  const results = [];
  /** @type {Set<import("./steps.mjs").Started>} */
  const running = new Set();
  let limit = lanes;
  let stopping = false;
  /** @type {(value: { results: import("./steps.mjs").StepResult[], notRun: string[] }) => void} */
  let resolveDone;
  /** @type {Promise<{ results: import("./steps.mjs").StepResult[], notRun: string[] }>} */
  const done = new Promise((resolve) => (resolveDone = resolve));
  const pump = () => {
    while (!stopping && running.size < limit && queue.length > 0) {
      const started = startStep(/** @type {import("./steps.mjs").Step} */ (queue.shift()), options);
      running.add(started);
      started.done.then((result) => {
        running.delete(started);
        results.push(result);
        options.onResult?.(result);
        pump();
      });
    }
    if (running.size === 0 && (queue.length === 0 || stopping)) resolveDone({ results, notRun: queue.map((step) => step.name) });
  };
  pump();
  return {
    done,
    setLanes(n) {
      limit = n;
      pump();
    },
    stop() {
      stopping = true;
      for (const step of running) step.stop();
      pump();
    },
  };
}

/**
 * Runs the steps `lanes` at a time, in order; resolves to every step's result.
 * @type {typeof import("./steps.mjs").runInLanes}
 */
export async function runInLanes(steps, lanes, options) {
  return (await startQueue(steps, lanes, options).done).results;
}
