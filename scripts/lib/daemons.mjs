// The processes the end-to-end scripts and the benches start besides `npm start`
// (scripts/lib/harness.mjs): daemons (pebble, named, pdns_server, `npm run dns`, …) and
// commands (dig, nsupdate, knsupdate, certbot, openssl, …). One definition each of:
//
// - spawnGroup: a child leading a process group of its own, its output kept; every group
//   this process started is SIGKILLed when it exits, however it exits (a last resort:
//   the orderly stop is stopGroup / stopDaemons);
// - runCommand: a command run to its end, with a time limit (SIGTERM to its group, SIGKILL
//   after a grace), its output captured;
// - startDaemon: a daemon started and waited for: a ready line, or a TCP or UDP port that
//   answers on 127.0.0.1; the limit is a hang detector, the failure names what it printed
//   last; a daemon listening beyond loopback is refused (Linux: read from /proc);
// - stopGroup / stopDaemons: SIGTERM to the leader's PID (so that a supervisor such as
//   scripts/dns.mjs stops its own servers its own way), SIGKILL to the whole group after
//   a grace, waiting for the exit; whatever of the group outlived its leader is killed.
//
// createHarness's cleanup calls stopDaemons(), so every exit path of a script (success,
// failure, deadline, SIGINT/SIGTERM/SIGHUP) stops the daemons it started.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { createSocket } from "node:dgram";
import { createConnection, createServer } from "node:net";
import { join } from "node:path";
import { udpQuery } from "./dns-wire.mjs";
import { ROOT, stripAnsi } from "./wrangler.mjs";

/**
 * A process group spawnGroup started: its leader, and what it printed.
 * @typedef {object} Group
 * @property {string} name
 * @property {import("node:child_process").ChildProcess} child
 * @property {number | undefined} pid
 * @property {(Error & { code?: string }) | null} error set when it could not be spawned
 * @property {Promise<Exit>} exited
 * @property {Promise<unknown>} closed resolves when its output pipes have closed
 * @property {boolean} running
 * @property {string} stdout
 * @property {string} stderr
 * @property {string} output stdout and stderr, in the order read
 * @property {string[]} fds the text of each extra pipe (fd 3, …)
 * @property {boolean} [leftovers] set by stopGroup: some of the group outlived its leader
 */
/** @typedef {{ code: number | null, signal: NodeJS.Signals | null }} Exit */
/**
 * A daemon startDaemon started: `notReady` null when it became ready, else why not.
 * @typedef {Group & { graceMs: number, notReady?: string | null, updatePort?: number }} Daemon
 */
/**
 * When a daemon is ready: a line of its output, a TCP or UDP port answering on 127.0.0.1, or a function.
 * @typedef {RegExp | { tcp: number, udp?: undefined } | { udp: number, tcp?: undefined } | (() => unknown)} Readiness
 */
/** @typedef {{ tcp?: number[], udp?: number[] }} Ports */

/** @type {(ms: number) => Promise<void>} */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @type {(text: string, n?: number) => string} The last `n` lines of a process's output on one line, for a failure message. */
export const lastLines = (text, n = 12) => stripAnsi(text).trimEnd().split("\n").slice(-n).join(" | ");

/**
 * Calls `predicate` every `intervalMs` until it is truthy; resolves to the milliseconds it
 * took, or null when `timeoutMs` passed (or `stop()` said so) first.
 * @param {() => unknown} predicate
 * @param {{ timeoutMs: number, intervalMs?: number, stop?: () => boolean }} options
 * @returns {Promise<number | null>}
 */
export async function waitFor(predicate, { timeoutMs, intervalMs = 250, stop = () => false }) {
  const started = Date.now();
  for (;;) {
    if (await predicate()) return Date.now() - started;
    if (Date.now() - started >= timeoutMs || stop()) return null;
    await sleep(intervalMs);
  }
}

/**
 * Signals every process of the group led by `pid` (spawned with detached: true).
 * @param {number} pid
 * @param {NodeJS.Signals | number} signal
 */
export function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone (ESRCH)
  }
}

/**
 * True while any process of the group led by `pid` is still alive.
 * @param {number} pid
 */
export function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** @type {Set<Group & { pid: number }>} */
const groups = new Set(); // process groups started here and not yet stopped
process.on("exit", () => {
  for (const proc of groups) killGroup(proc.pid, "SIGKILL");
});

/**
 * Spawns `command` as the leader of a process group of its own (so that a stop reaches
 * its children), stdin closed, stdout and stderr kept. `extraFds`: more pipes after
 * stderr (fd 3, …), their text in `proc.fds[i]`.
 * @param {string} command
 * @param {readonly string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, name?: string, extraFds?: number }} [options]
 * @returns {Group}
 */
export function spawnGroup(command, args, { cwd = ROOT, env = process.env, name = command, extraFds = 0 } = {}) {
  const child = spawn(command, args, {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe", ...Array(extraFds).fill("pipe")],
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  let output = ""; // both, in the order read
  /** @type {string[]} */
  const fds = Array(extraFds).fill("");
  /** @type {Group} */
  const proc = {
    name,
    child,
    pid: child.pid,
    error: null, // set when it could not be spawned
    exited: new Promise((resolve) => {
      child.on("exit", (code, signal) => resolve({ code, signal }));
      child.on("error", (error) => {
        proc.error = error;
        resolve({ code: null, signal: null });
      });
    }),
    closed: new Promise((resolve) => {
      child.on("close", resolve);
      child.on("error", resolve);
    }),
    get running() {
      return child.exitCode === null && child.signalCode === null && !proc.error;
    },
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    get output() {
      return output;
    },
    fds,
  };
  child.stdout?.on("data", (chunk) => {
    stdout += chunk;
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
    output += chunk;
  });
  for (let i = 0; i < extraFds; i++) /** @type {import("node:stream").Readable} */ (child.stdio[3 + i]).on("data", (chunk) => (fds[i] += chunk));
  if (child.pid) groups.add(/** @type {Group & { pid: number }} */ (proc));
  return proc;
}

/**
 * Stops a group: SIGTERM to its leader's PID, SIGKILL to the whole group after `graceMs`,
 * waiting for the leader's exit; then whatever of the group is still alive gets 2 s and
 * SIGKILL (`proc.leftovers` says whether any did). Resolves to whether the leader exited
 * within the grace (true when it had exited before).
 * @param {Group | null | undefined} proc
 * @param {{ graceMs?: number }} [options]
 * @returns {Promise<boolean>}
 */
export async function stopGroup(proc, { graceMs = 15_000 } = {}) {
  if (!proc?.pid) return true;
  const { pid } = proc;
  let inTime = true;
  if (proc.running) {
    try {
      process.kill(pid, "SIGTERM");
    } catch {}
    inTime = await Promise.race([proc.exited.then(() => true), sleep(graceMs).then(() => false)]);
    if (!inTime) {
      killGroup(pid, "SIGKILL");
      await proc.exited;
    }
  }
  // leftovers: some of the group outlived its leader by 2 s (a supervisor that did not stop its children).
  proc.leftovers = (await waitFor(() => !groupAlive(pid), { timeoutMs: 2_000, intervalMs: 100 })) === null;
  killGroup(pid, "SIGKILL");
  await Promise.race([proc.closed, sleep(2_000)]);
  groups.delete(/** @type {Group & { pid: number }} */ (proc));
  return inTime;
}

/**
 * Runs a command to its end without blocking the event loop (a server this process runs
 * may have to answer it); past `timeoutMs` its group gets SIGTERM, and SIGKILL `graceMs`
 * later. Resolves to { code, signal, timedOut, stdout, stderr, output: stdout then
 * stderr, interleaved: both in the order read, fds }; code is the exit code, 1 when a
 * signal ended it, the error's code (ENOENT, …) when it could not start.
 * @param {string} file
 * @param {readonly string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, timeoutMs?: number, graceMs?: number, extraFds?: number }} [options]
 * @returns {Promise<CommandResult>}
 */
export async function runCommand(file, args, { cwd = ROOT, env = process.env, timeoutMs = 120_000, graceMs = 2_000, extraFds = 0 } = {}) {
  const proc = spawnGroup(file, args, { cwd, env, extraFds });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void stopGroup(proc, { graceMs });
  }, timeoutMs);
  const { code, signal } = await proc.exited;
  clearTimeout(timer);
  await stopGroup(proc, { graceMs }); // what it left behind; waits for its output
  const exitCode = proc.error ? (proc.error.code ?? 1) : (code ?? 1);
  return {
    code: exitCode,
    signal,
    timedOut,
    stdout: proc.stdout,
    stderr: proc.stderr,
    output: `${proc.stdout}${proc.stderr}`,
    interleaved: proc.output,
    fds: proc.fds,
  };
}

/**
 * @typedef {{ code: number | string, signal: NodeJS.Signals | null, timedOut: boolean, stdout: string, stderr: string, output: string, interleaved: string, fds: string[] }} CommandResult
 */

/**
 * A port free on 127.0.0.1 for TCP and for UDP (DNS servers take both) when asked: not kept.
 * @returns {Promise<number>}
 */
export async function freePort() {
  for (let attempt = 1; ; attempt++) {
    /** @type {number} */
    const port = await new Promise((resolve, reject) => {
      const probe = createServer();
      probe.unref();
      probe.on("error", reject);
      probe.listen(0, "127.0.0.1", () => {
        const { port } = /** @type {import("node:net").AddressInfo} */ (probe.address());
        probe.close(() => resolve(port));
      });
    });
    /** @type {boolean} */
    const udpFree = await new Promise((resolve) => {
      const socket = createSocket("udp4");
      socket.unref();
      socket.once("error", () => resolve(false));
      socket.bind(port, "127.0.0.1", () => socket.close(() => resolve(true)));
    });
    if (udpFree || attempt >= 5) return port;
  }
}

/** @type {Daemon[]} */
const daemons = []; // started by startDaemon, stopped by stopDaemons (last first)

/**
 * Starts a daemon and waits until it is ready: `ready` is a RegExp its output matches, or
 * { tcp: port } / { udp: port } (a TCP connection, or a DNS question answered, on
 * 127.0.0.1), or an async function. Resolves to the daemon ({ name, pid, output, exited,
 * … }) with `notReady`: null when ready, else why not (its last lines of output included).
 * `timeoutMs` is a hang detector: give it generous room. A daemon that listens on an
 * address other than loopback is stopped and reported (`loopbackOnly: false` to allow),
 * and so is one that does not hold the ports of `holds` ({ tcp: [...], udp: [...] }).
 * @param {string} command
 * @param {readonly string[]} args
 * @param {DaemonOptions} [options]
 * @returns {Promise<Daemon>}
 */
export async function startDaemon(command, args, { name = command, ready, timeoutMs = 60_000, cwd, env, graceMs = 15_000, loopbackOnly = true, holds } = {}) {
  /** @type {Daemon} */
  const daemon = Object.assign(spawnGroup(command, args, { cwd, env: { ...(env ?? process.env), FORCE_COLOR: "0" }, name }), { graceMs });
  const pid = /** @type {number} */ (daemon.pid);
  daemons.push(daemon);
  const probe =
    ready instanceof RegExp
      ? () => ready.test(stripAnsi(daemon.output))
      : typeof ready === "function"
        ? ready
        : ready?.tcp
          ? () => tcpAnswers(ready.tcp)
          : ready?.udp
            ? async () => Boolean(await udpQuery(ready.udp, ".", "SOA", { timeoutMs: 300 }))
            : () => true;
  let exited = false;
  daemon.exited.then(() => (exited = true));
  const took = await waitFor(probe, { timeoutMs, intervalMs: 100, stop: () => exited });
  const port = typeof ready === "object" && !(ready instanceof RegExp) ? ready : undefined;
  const what =
    ready instanceof RegExp
      ? `no line matching ${ready}`
      : typeof ready === "function"
        ? "its readiness check never passed"
        : port?.tcp
          ? `nothing on TCP 127.0.0.1:${port.tcp}`
          : `no answer on UDP 127.0.0.1:${port?.udp}`;
  if (took === null) {
    if (exited || !daemon.running) {
      await Promise.race([daemon.closed, sleep(1_000)]);
      const { code, signal } = await daemon.exited;
      daemon.notReady = `${name} exited before it was ready (${daemon.error ? daemon.error.message : `code ${code}, signal ${signal}`}): ${lastLines(daemon.output, 15)}`;
    } else daemon.notReady = `${name}: ${what} within ${timeoutMs / 1000} s: ${lastLines(daemon.output, 15)}`;
    return daemon;
  }
  const beyond = loopbackOnly ? listeningBeyondLoopback(pid) : [];
  // Its ports, when given: a server its supervisor is starting again may take a moment (10 s: a hang detector).
  let missing = holds ? portsNotHeld(pid, holds) : [];
  if (holds && missing.length && (await waitFor(() => portsNotHeld(pid, holds).length === 0, { timeoutMs: 10_000, intervalMs: 200 })) !== null) missing = [];
  if (beyond.length) daemon.notReady = `${name} listens beyond loopback (${beyond.join(", ")}): stopped`;
  else if (missing.length)
    daemon.notReady = `${name} does not listen on ${missing.join(", ")} (another process took the port?): stopped: ${lastLines(daemon.output, 15)}`;
  else daemon.notReady = null;
  if (daemon.notReady) await stopGroup(daemon, { graceMs });
  return daemon;
}

/**
 * @typedef {{ name?: string, ready?: Readiness, timeoutMs?: number, cwd?: string, env?: NodeJS.ProcessEnv, graceMs?: number, loopbackOnly?: boolean, holds?: Ports }} DaemonOptions
 */

/**
 * Stops a daemon startDaemon started; resolves to whether it exited within its grace.
 * @param {Daemon | null | undefined} daemon
 * @param {number} [graceMs]
 */
export function stopDaemon(daemon, graceMs = daemon?.graceMs) {
  return stopGroup(daemon, { graceMs });
}

/** Stops every daemon startDaemon started, the last started first. */
export async function stopDaemons() {
  for (const daemon of daemons.splice(0).reverse()) await stopGroup(daemon, { graceMs: daemon.graceMs });
}

/**
 * PowerDNS (pdns_server) in the foreground on the pdns.conf in `dir`: no daemon, no guardian, its control socket in `dir`.
 * @param {string} dir
 * @param {DaemonOptions} [options]
 */
export function startPowerDns(dir, options) {
  return startDaemon("/usr/sbin/pdns_server", [`--config-dir=${dir}`, "--daemon=no", "--guardian=no", `--socket-dir=${dir}`], {
    name: "pdns_server",
    ...options,
  });
}

/**
 * `npm run dns` (scripts/dns.mjs: PowerDNS as the hidden primary on `primaryPort`, Knot as
 * the secondary on `port`, the update gateway on `updatePort`, a free one when not given)
 * for the service at `api`, waited for until it says the tier is ready; `args`: more of
 * its options. The daemon has `updatePort`.
 * @param {{ api: string, port: number, primaryPort: number, updatePort?: number, persistTo?: string, args?: string[], timeoutMs?: number, graceMs?: number }} options
 * @returns {Promise<Daemon & { updatePort: number }>}
 */
export async function startDnsTier({ api, port, primaryPort, updatePort, persistTo, args = [], timeoutMs = 120_000, graceMs = 15_000 }) {
  const gatewayPort = updatePort ?? (await freePort());
  const argv = [
    "--api",
    api,
    "--port",
    String(port),
    "--primary-port",
    String(primaryPort),
    "--update-port",
    String(gatewayPort),
    ...(persistTo ? ["--persist-to", persistTo] : []),
    ...args,
  ];
  // Every server on UDP and TCP: a port freePort() found free may be taken by another suite's server before the bind.
  const ports = [port, primaryPort, gatewayPort];
  const holds = { tcp: ports, udp: ports };
  const daemon = await startDaemon(process.execPath, [join(ROOT, "scripts", "dns.mjs"), ...argv], {
    name: "npm run dns",
    ready: /\[dns\] tier ready/,
    timeoutMs,
    graceMs,
    holds,
  });
  return Object.assign(daemon, { updatePort: gatewayPort });
}

/**
 * @param {number} port
 * @returns {Promise<boolean>}
 */
function tcpAnswers(port) {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.setTimeout(1_000);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Every process this user can see, from /proc/PID/stat (Linux; empty elsewhere): its pid,
 * parent, process group, command name, start time (clock ticks since boot) and CPU time so
 * far (user + system, ms: USER_HZ is 100).
 * @returns {{ pid: number, name: string, ppid: number, pgrp: number, started: number, cpuMs: number }[]}
 */
export function processTable() {
  let entries;
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  /** @type {ReturnType<typeof processTable>} */
  const table = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid pgrp … utime(13) stime(14) … starttime(21): comm may hold
    // spaces and parentheses, so the fields are split after its last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    table.push({
      pid: Number(entry),
      name: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")),
      ppid: Number(fields[1]),
      pgrp: Number(fields[2]),
      started: Number(fields[19]),
      cpuMs: (Number(fields[11]) + Number(fields[12])) * 10,
    });
  }
  return table;
}

/**
 * The sockets the processes of the group led by `pid` hold, by /proc (Linux; null where
 * /proc cannot tell): { tcp, address, port, listening } where listening is a TCP socket
 * in LISTEN or an unconnected UDP socket.
 * @param {number} pid
 * @returns {{ tcp: boolean, address: string, port: number, listening: boolean }[] | null}
 */
export function groupSockets(pid) {
  if (!existsSync("/proc/net/tcp")) return null;
  /** @type {Set<string>} */
  const inodes = new Set();
  for (const proc of processTable()) {
    if (proc.pgrp !== pid) continue;
    try {
      for (const fd of readdirSync(`/proc/${proc.pid}/fd`)) {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${proc.pid}/fd/${fd}`))?.[1];
        if (inode) inodes.add(inode);
      }
    } catch {
      // gone, or not ours to read
    }
  }
  /** @type {NonNullable<ReturnType<typeof groupSockets>>} */
  const sockets = [];
  for (const { table, fields: f } of socketTable(["tcp", "tcp6", "udp", "udp6"])) {
    if (!inodes.has(f[9] ?? "")) continue;
    const [address = "", port = ""] = (f[1] ?? "").split(":");
    const tcp = table.startsWith("tcp");
    const listening = tcp ? f[3] === "0A" : (f[2] ?? "").split(":")[1] === "0000";
    sockets.push({ tcp, address: decodeAddress(address), port: Number.parseInt(port, 16), listening });
  }
  return sockets;
}

/**
 * The rows of the kernel's socket tables (Linux, /proc/net/<table>; none elsewhere), each
 * split into its fields: local address:port is fields[1] (hex), the inode fields[9].
 * @param {readonly string[]} tables
 * @returns {{ table: string, fields: string[] }[]}
 */
export function socketTable(tables) {
  /** @type {{ table: string, fields: string[] }[]} */
  const rows = [];
  for (const table of tables) {
    let text = "";
    try {
      text = readFileSync(`/proc/net/${table}`, "utf8");
    } catch {
      continue;
    }
    for (const line of text.trim().split("\n").slice(1)) rows.push({ table, fields: line.trim().split(/\s+/) });
  }
  return rows;
}

/**
 * The addresses the process group led by `pid` listens on that are not loopback: every
 * listening TCP socket, and every unconnected UDP socket on a port the group also listens
 * on by TCP (a DNS server's; a UDP socket for outgoing queries may be bound to any
 * address). Empty where /proc cannot tell (not Linux).
 * @param {number} pid
 * @returns {string[]}
 */
export function listeningBeyondLoopback(pid) {
  const sockets = (groupSockets(pid) ?? []).filter((s) => s.listening);
  const tcpPorts = new Set(sockets.filter((s) => s.tcp).map((s) => s.port));
  return sockets
    .filter((s) => s.tcp || tcpPorts.has(s.port))
    .filter((s) => !/^127\.|^::1$|^::ffff:127\./.test(s.address))
    .map((s) => `${s.tcp ? "TCP" : "UDP"} ${s.address}:${s.port}`);
}

/**
 * The ports of `ports` ({ tcp: [...], udp: [...] }) the group led by `pid` does not
 * listen on: taken by another process between freePort() and the bind, say (freePort
 * asks for a port free then, not kept). Empty where /proc cannot tell.
 * @param {number} pid
 * @param {Ports} ports
 * @returns {string[]}
 */
export function portsNotHeld(pid, { tcp = [], udp = [] }) {
  const sockets = groupSockets(pid);
  if (!sockets) return [];
  const held = (/** @type {boolean} */ isTcp, /** @type {number} */ port) => sockets.some((s) => s.listening && s.tcp === isTcp && s.port === port);
  return [...tcp.filter((port) => !held(true, port)).map((port) => `TCP ${port}`), ...udp.filter((port) => !held(false, port)).map((port) => `UDP ${port}`)];
}

/**
 * The matches of `piece` in `text`, none when it has none.
 * @param {string} text
 * @param {RegExp} piece
 */
const pieces = (text, piece) => text.match(piece) ?? [];

/**
 * An address as /proc/net prints it (hex, each 32-bit word in host order: little-endian here).
 * @param {string} hex
 */
export function decodeAddress(hex) {
  const words = pieces(hex, /.{8}/g).map((word) => pieces(word, /../g).reverse().join(""));
  if (words.length === 1)
    return pieces(words[0] ?? "", /../g)
      .map((byte) => Number.parseInt(byte, 16))
      .join(".");
  const groups16 = pieces(words.join(""), /.{4}/g).map((group) => Number.parseInt(group, 16).toString(16));
  if (groups16.slice(0, 5).every((g) => g === "0") && groups16[5] === "ffff")
    return `::ffff:${pieces(words[3] ?? "", /../g)
      .map((byte) => Number.parseInt(byte, 16))
      .join(".")}`;
  const text = groups16.join(":");
  return text === "0:0:0:0:0:0:0:1" ? "::1" : text === "0:0:0:0:0:0:0:0" ? "::" : text;
}
