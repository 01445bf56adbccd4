// A small TAP-like harness for the scripts that drive a real `npm start` over HTTP
// (e2e.mjs, zone-check.mjs, the *-e2e.mjs): counts `ok - …` / `not ok - …` checks, starts
// `node scripts/start.mjs` on a free port with a throwaway D1 state dir in its own
// process group, waits for `Ready on`, and always tears the whole tree down (normal end,
// failure, deadline, SIGINT/SIGTERM/SIGHUP), the daemons a script started beside it
// first (scripts/lib/daemons.mjs), then prints `<LABEL>: N passed, M failed`. The
// assertions the checks use (assert, assertEqual, expectStatus, mustClient) are here too.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, groupAlive, killGroup, listeningBeyondLoopback, stopDaemons } from "./daemons.mjs";
import { ROOT, stripAnsi } from "./wrangler.mjs";

// The process pieces live in daemons.mjs; these are re-exported for the scripts that took them from here.
export { freePort, groupAlive, killGroup, lastLines, runCommand, sleep, startDaemon, startDnsTier, startPowerDns, stopDaemon, waitFor } from "./daemons.mjs";

/**
 * An answer of httpClient: the body as text, and parsed when it is JSON.
 * @typedef {{ status: number, headers: Headers, text: string, json: any }} HttpAnswer
 */
/**
 * A request through httpClient: a string or bytes body is sent as is, anything else as JSON.
 * @typedef {(method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<HttpAnswer>} HttpRequest
 */

/**
 * The assertions of the scripts' checks: each throws, and check() reports the message.
 * @param {unknown} condition
 * @param {string} message
 * @returns {asserts condition}
 */
export function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/**
 * Equal as JSON (arrays in order); the message names both, after `what`.
 * @param {unknown} actual
 * @param {unknown} expected
 * @param {string} [what]
 */
export function assertEqual(actual, expected, what = "value") {
  const [a, e] = [JSON.stringify(actual), JSON.stringify(expected)];
  if (a !== e) throw new Error(`${what}: ${a.slice(0, 600)}, expected ${e.slice(0, 600)}`);
}

/**
 * An httpClient answer with status `status`, else its status and the start of its body.
 * @param {{ status: number, text: string }} res
 * @param {number} status
 * @param {number} [bodyChars]
 */
export function expectStatus(res, status, bodyChars = 400) {
  assert(res.status === status, `expected ${status}, got ${res.status}: ${res.text.slice(0, bodyChars)}`);
}

/**
 * `must(method, path, body, status)`: the request through `api` (httpClient), its status asserted, its JSON body.
 * @param {HttpRequest} api
 * @returns {(method: string, path: string, body: unknown, status: number) => Promise<any>}
 */
export function mustClient(api) {
  return async (method, path, body, status) => {
    const response = await api(method, path, body);
    assert(response.status === status, `${method} ${path} answered ${response.status}: ${response.text.slice(0, 400)}`);
    return response.json;
  };
}

/**
 * A JSON-first HTTP client for `base`: `body` that is a string or bytes is sent as is
 * (give its content-type in `headers`), anything else as JSON.
 * @param {string} base
 * @param {{ timeoutMs?: number }} [options]
 * @returns {HttpRequest}
 */
export function httpClient(base, { timeoutMs = 10_000 } = {}) {
  return async function request(method, path, body, headers = {}) {
    const raw = typeof body === "string" || body instanceof Uint8Array;
    const response = await fetch(base + path, {
      method,
      headers: body === undefined || raw ? headers : { "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : raw ? /** @type {string | Uint8Array} */ (body) : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "manual",
    });
    const text = await response.text();
    /** @type {any} */
    let json;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  };
}

/**
 * The least time a server is given to say "Ready on", whatever a script asks: a hang
 * detector's bound, not a speed check. A start takes about 5 s of CPU (from a migrated
 * copy), but suites side by side with vitest (npm test), and another npm test beside that,
 * have stretched one past 90 s.
 */
const READY_AT_LEAST_MS = 300_000;

/** @typedef {{ code: number | null, signal: NodeJS.Signals | null }} ServerExit */
/** @typedef {{ persistTo?: string, args?: string[] }} StartOptions */

/**
 * name: the run's name in `not ok - <name> run (…)`; label: the summary's prefix;
 * startArgs: extra arguments for start.mjs (after `--port N --persist-to DIR`);
 * readyTimeoutMs: how long a start may take (READY_AT_LEAST_MS at least).
 * @param {{ name: string, label: string, startArgs?: string[], readyTimeoutMs?: number, totalTimeoutMs?: number }} options
 */
export function createHarness({ name, label, startArgs = [], readyTimeoutMs: asked = 120_000, totalTimeoutMs = 90_000 }) {
  const readyTimeoutMs = Math.max(asked, READY_AT_LEAST_MS);
  let passed = 0;
  let failed = 0;
  /** @type {import("node:child_process").ChildProcessByStdio<null, import("node:stream").Readable, import("node:stream").Readable> | null} */
  let server = null; // the start.mjs child, leader of its own process group
  /** @type {Promise<ServerExit> | null} */
  let serverExited = null; // resolves when it has exited
  /** @type {Promise<unknown> | null} */
  let serverClosed = null; // resolves when its output pipes have closed (all output read)
  let output = ""; // everything the server printed
  /** @type {Promise<void> | null} */
  let cleanupPromise = null;
  let aborting = false;
  /** @type {string[]} */
  const tempDirs = [];

  /** @param {string} what */
  function ok(what) {
    if (aborting) return;
    passed++;
    console.log(`ok - ${what}`);
  }
  /**
   * @param {string} what
   * @param {string} [why]
   */
  function notOk(what, why) {
    if (aborting) return; // the server is being torn down under the check: not its fault
    failed++;
    console.log(`not ok - ${what}${why ? ` (${why})` : ""}`);
  }

  /**
   * Runs one named check; a thrown error (or failed assertion) marks it failed.
   * Resolves to true when it passed.
   * @param {string} what
   * @param {() => unknown} fn
   * @returns {Promise<boolean>}
   */
  async function check(what, fn) {
    try {
      await fn();
      ok(what);
      return true;
    } catch (error) {
      notOk(what, /** @type {Error | undefined} */ (error)?.message ?? String(error));
      return false;
    }
  }

  /**
   * A fresh temporary directory, removed at cleanup.
   * @param {string} prefix
   */
  function tempDir(prefix) {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    tempDirs.push(dir);
    return dir;
  }

  function printServerOutput() {
    const lines = stripAnsi(output).trimEnd().split("\n");
    console.log(`# server output (last ${Math.min(lines.length, 80)} lines):`);
    for (const line of lines.slice(-80)) console.log(`#   ${line}`);
  }

  // Stops the server's whole process tree and removes the temp dirs. Idempotent.
  function cleanup() {
    cleanupPromise ??= stopAndRemove();
    return cleanupPromise;
  }
  async function stopAndRemove() {
    await stopDaemons(); // they may ask the service: stopped first
    await stopServer();
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  }

  /**
   * Stops the running server (SIGTERM to its whole process group, SIGKILL after
   * `graceMs`; `signal: "SIGKILL"` kills it at once, as a crash would), waits for it to
   * exit, and resolves to { code, signal, forced, leftovers }:
   * forced = SIGKILL was needed; leftovers = processes of the group still alive after the
   * leader exited (then killed). Resolves to null when no server was running.
   * @param {{ graceMs?: number, signal?: NodeJS.Signals }} [options]
   * @returns {Promise<(ServerExit & { forced: boolean, leftovers: boolean }) | null>}
   */
  async function stopServer({ graceMs = 5_000, signal = "SIGTERM" } = {}) {
    if (!server) return null;
    const pid = /** @type {number} */ (server.pid);
    const exited = /** @type {Promise<ServerExit>} */ (serverExited);
    const closed = serverClosed;
    let forced = false;
    if (server.exitCode === null && server.signalCode === null) {
      killGroup(pid, signal);
      const timer = new Promise((resolve) => setTimeout(resolve, graceMs).unref());
      if ((await Promise.race([exited.then(() => "exited"), timer])) !== "exited") {
        forced = true;
        killGroup(pid, "SIGKILL");
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
      }
    }
    // Give the group's other members (wrangler, workerd) a moment to follow their leader.
    for (let i = 0; i < 20 && groupAlive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    const leftovers = groupAlive(pid);
    killGroup(pid, "SIGKILL"); // stragglers (workerd) that outlived their parent
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
    const result = await Promise.race([exited, Promise.resolve({ code: null, signal: null })]);
    server = null;
    return { ...result, forced, leftovers };
  }

  /**
   * @param {string} message
   * @param {number} status
   * @param {boolean} [showOutput]
   */
  async function abort(message, status, showOutput = false) {
    if (aborting) return;
    console.log(`not ok - ${name} run (${message})`);
    failed++;
    aborting = true;
    if (showOutput && output) printServerOutput();
    await cleanup();
    console.log(`${label}: ${passed} passed, ${failed} failed`);
    process.exit(status);
  }

  /**
   * Starts the service; resolves to null when it is ready, else to why it is not.
   * options.persistTo: the D1 state dir (default: a fresh temp dir); options.args: more
   * start.mjs arguments for this start only. One server at a time: stopServer() first.
   * @param {number} port
   * @param {StartOptions} [options]
   * @returns {Promise<string | null>}
   */
  async function startServer(port, { persistTo, args = [] } = {}) {
    if (aborting) return "the run is being torn down";
    if (server) throw new Error("startServer: a server is running already (stopServer() first)");
    const stateDir = persistTo ?? tempDir(`domain-api-${name}-`);
    // --inspector-port=0: the OS picks the devtools port. wrangler dev's default probes
    // 9229 and up and binds later, so end-to-end suites starting side by side (npm test)
    // could both pick 9229, and one server would exit before it was ready.
    const argv = ["--port", String(port), "--persist-to", stateDir, "--inspector-port=0", ...startArgs, ...args];
    const from = output.length; // this start's output begins here
    output += `--- node scripts/start.mjs ${argv.join(" ")}\n`;
    const child = spawn(process.execPath, [join(ROOT, "scripts", "start.mjs"), ...argv], {
      cwd: ROOT,
      detached: true, // own process group: process.kill(-pid) reaches wrangler and workerd too
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, FORCE_COLOR: "0" },
    });
    server = child;
    /** @type {Promise<ServerExit>} */
    const exitedNow = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
    serverExited = exitedNow;
    serverClosed = new Promise((resolve) => child.on("close", resolve));
    const exited = exitedNow;
    const closed = serverClosed;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(`no "Ready on" line within ${readyTimeoutMs / 1000} s`), readyTimeoutMs);
      const onData = (/** @type {Buffer} */ chunk) => {
        output += chunk.toString();
        const since = stripAnsi(output.slice(from));
        if (/Ready on (http:\/\/[^\s]+)/.test(since)) {
          clearTimeout(timer);
          const beyond = listeningBeyondLoopback(/** @type {number} */ (child.pid)); // wrangler and workerd: loopback only
          resolve(beyond.length ? `listens beyond loopback: ${beyond.join(", ")}` : null);
        } else if (/Address already in use/.test(since)) {
          // workerd died on the bind, but wrangler dev stays up with nothing to serve:
          // waiting for "Ready on" would only wait out the limit.
          clearTimeout(timer);
          resolve(`could not bind: Address already in use (127.0.0.1:${port})`);
        }
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
      child.on("error", (error) => resolve(`could not start: ${error.message}`));
      exited.then(async ({ code, signal }) => {
        clearTimeout(timer);
        // Its last lines say why; they may still be in the pipe (a grandchild can hold it open: 1 s at most).
        await Promise.race([closed, new Promise((done) => setTimeout(done, 1_000))]);
        const last = stripAnsi(output.slice(from)).trimEnd().split("\n").slice(-5).join(" | ");
        resolve(`server exited before it was ready (code ${code}, signal ${signal}): ${last}`);
      });
    });
  }

  /**
   * Runs main(), cleans up whatever happens, prints the summary and exits.
   * @param {() => Promise<unknown>} main
   * @returns {Promise<never>}
   */
  async function run(main) {
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => void abort(`interrupted by ${signal}`, 130));
    const deadline = setTimeout(() => void abort(`timed out after ${totalTimeoutMs / 1000} s`, 1, true), totalTimeoutMs);
    try {
      await main();
    } catch (error) {
      notOk(`${name} run`, /** @type {Error | undefined} */ (error)?.stack ?? String(error));
    } finally {
      await cleanup();
      clearTimeout(deadline);
    }
    if (aborting) return new Promise(() => {}); // abort() exits
    if (failed > 0 && output) printServerOutput(); // after the stop, so every line is in
    console.log(`${label}: ${passed} passed, ${failed} failed`);
    process.exit(failed > 0 ? 1 : 0);
  }

  /**
   * Starts the service on a free port and reports it as the run's first check; returns
   * its base URL, or null when it did not come up (the failure is already reported).
   * @param {string} what
   * @param {StartOptions} [options]
   * @returns {Promise<string | null>}
   */
  async function startReported(what, options = {}) {
    const started = Date.now();
    // A free port is free when asked, not when wrangler binds it: suites running side by
    // side start servers (wrangler, PowerDNS, BIND) on ports of their own, and one may take
    // it in between. Only then is the start tried again, on another port.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const notReady = await startServer(port, options);
      if (notReady && /Address already in use/.test(notReady) && attempt < 3) {
        console.log(`# ${base} was taken before the server bound it; trying another port`);
        await stopServer();
        continue;
      }
      if (notReady) {
        notOk(`${what} comes up on ${base}`, notReady);
        return null;
      }
      ok(`${what} comes up on ${base} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      return base;
    }
  }

  /**
   * run() for a script that runs daemons beside the service: a state dir and a work dir
   * (removed at cleanup), the service started on that state and reported, then
   * main({ base, stateDir, work }); main is not called when the service did not come up.
   * @param {(service: { base: string, stateDir: string, work: string }) => Promise<unknown>} main
   */
  function runWithService(main) {
    return run(async () => {
      const stateDir = tempDir(`domain-api-${name}-state-`);
      const work = tempDir(`domain-api-${name}-`);
      const base = await startReported("npm start", { persistTo: stateDir });
      if (base) await main({ base, stateDir, work });
    });
  }

  return {
    ok,
    notOk,
    check,
    startReported,
    runWithService,
    assert,
    tempDir,
    startServer,
    stopServer,
    run,
    /** The running server's pid, the leader of its process group (null when none runs). */
    get serverPid() {
      return server?.pid ?? null;
    },
    /** Everything the servers printed so far (ANSI codes stripped). */
    get serverOutput() {
      return stripAnsi(output);
    },
    /** True once the run is being torn down: long loops should stop. */
    get aborting() {
      return aborting;
    },
  };
}
