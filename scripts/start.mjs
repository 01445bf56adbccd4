#!/usr/bin/env node
// `npm start`: apply the local D1 migrations, then run `wrangler dev` on 127.0.0.1.
//
//   node scripts/start.mjs [--port N] [--persist-to DIR] [-- <extra wrangler dev args>]
//
// PORT (env) sets the port too; --port wins; default 8787. --persist-to keeps the local
// D1 state in DIR for both the migrations and the server; without it the PERSIST_TO
// environment variable does, else .wrangler/state (the rule `npm run token` follows too:
// scripts/lib/local-d1.mjs).
// Arguments after `--`, and any option this script does not know, go to `wrangler dev`
// unchanged (e.g. `--var NAME:VALUE`). Never touches the internet; stdin is not used.
// Authentication is off (AUTH_DISABLED=true, honoured for loopback requests only) unless
// --auth is given; the script says which when it starts. CLOCK_OVERRIDE=true (honoured for
// loopback requests only as well) lets POST /v1/lifecycle/sweep and POST /v1/webhooks/dispatch
// run at a given `as_of`. wrangler dev runs the webhooks' queue (wrangler.toml) locally, its
// consumer in the same Worker, with no flag; the minute cron runs on
// `curl "http://127.0.0.1:PORT/__scheduled?cron=*+*+*+*+*"`. Before the API, the webhook
// sender (src/sender.ts) starts in a process of its own (scripts/sender.mjs), which the
// API's WEBHOOK_SENDER binding finds through a wrangler dev registry kept in the state dir;
// --sender-priority normal|low|idle sets its CPU priority (default normal). It stops with
// the API, and the API stops if it does. --no-inspector runs the API without wrangler's
// inspector (no Chrome DevTools; about half the CPU per request: scripts/dev-worker.mjs),
// taking only --config and --var for the Worker. While the API serves, the state dir holds
// local-server.json (mode 0600: the port and a credential made for the run), with which
// `npm run token` goes through the API instead of opening the database file.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import { forwardLines, withoutDnsBackendPaths } from "./lib/dns-log-filter.mjs";
import { localStateDir, seedFromTemplate } from "./lib/local-d1.mjs";
import { redactGatewaySecrets, startRegistryGateway } from "./lib/registry-gateway.mjs";
import { writeLocalServer } from "./lib/local-server.mjs";
import { applyLocalMigrations, assertWranglerInstalled, exitStatus, ROOT, WRANGLER, wranglerEnv } from "./lib/wrangler.mjs";

const USAGE =
  "usage: node scripts/start.mjs [--port N] [--persist-to DIR] [--auth] [--sender-priority normal|low|idle] [--no-inspector] [--registries FILE] [-- <wrangler dev args>]";
/** How the webhook sender's processes share the CPU with the API's (scripts/sender.mjs). */
const SENDER_PRIORITIES = ["normal", "low", "idle"];

function fail(message) {
  console.error(`[start] ${message}\n${USAGE}`);
  process.exit(2);
}

function parsePort(value, source) {
  if (!/^[0-9]+$/.test(String(value)) || Number(value) < 1 || Number(value) > 65535) {
    fail(`${source} must be a port number 1-65535, got "${value}"`);
  }
  return Number(value);
}

/** This script's own options; any other goes to wrangler dev. */
const OPTIONS = {
  help: { type: "boolean", short: "h" },
  port: { type: "string" },
  "persist-to": { type: "string" },
  auth: { type: "boolean" },
  "sender-priority": { type: "string" },
  "no-inspector": { type: "boolean" },
  registries: { type: "string" },
};

function parseOptions(argv) {
  // Everything after `--` goes to wrangler dev as it is.
  const cut = argv.indexOf("--");
  const own = cut === -1 ? argv : argv.slice(0, cut);
  const passThrough = cut === -1 ? [] : argv.slice(cut + 1);
  let parsed;
  try {
    parsed = parseArgs({
      args: own,
      // Arguments of wrangler dev may also come before any `--` (as `npm start -- --var X:Y` gives them).
      strict: false,
      allowPositionals: true,
      tokens: true,
      options: OPTIONS,
    });
  } catch (error) {
    fail(error.message);
  }
  const ownOptions = {};
  const rest = [];
  for (const token of parsed.tokens) {
    if (token.kind === "option" && Object.hasOwn(OPTIONS, token.name)) {
      if (OPTIONS[token.name].type === "string" && token.value === undefined) fail(`--${token.name} needs a value`);
      ownOptions[token.name] = token.value ?? true;
    } else if (token.kind === "option") rest.push(token.rawName + (token.inlineValue ? `=${token.value}` : ""));
    else if (token.kind === "positional") rest.push(token.value);
  }
  if (ownOptions.help) {
    console.log(USAGE);
    process.exit(0);
  }
  passThrough.unshift(...rest);
  const port = ownOptions.port !== undefined ? parsePort(ownOptions.port, "--port") : process.env.PORT ? parsePort(process.env.PORT, "PORT") : 8787;
  let persistTo = ownOptions["persist-to"] ?? null;
  const auth = ownOptions.auth === true;
  const senderPriority = ownOptions["sender-priority"] ?? "normal";
  if (!SENDER_PRIORITIES.includes(senderPriority)) fail(`--sender-priority must be one of ${SENDER_PRIORITIES.join(", ")}, got "${senderPriority}"`);
  // `--persist-to` given among the wrangler dev arguments must reach the migrations too.
  for (let i = 0; i < passThrough.length; i++) {
    const arg = passThrough[i];
    if (arg === "--persist-to" && i + 1 < passThrough.length) persistTo = passThrough.splice(i, 2)[1];
    else if (arg.startsWith("--persist-to=")) persistTo = passThrough.splice(i, 1)[0].slice("--persist-to=".length);
    else continue;
    i--;
  }
  return {
    port,
    persistTo: localStateDir(persistTo),
    auth,
    senderPriority,
    inspector: ownOptions["no-inspector"] !== true,
    passThrough,
    registries: ownOptions.registries ?? null,
  };
}

// Fails fast, with a plain message, when something already listens on the port
// (workerd would otherwise die later with a stack trace).
function portIsFree(port) {
  return new Promise((resolvePromise) => {
    const probe = createServer();
    probe.once("error", () => resolvePromise(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolvePromise(true)));
  });
}

const { port, persistTo, auth, senderPriority, inspector, passThrough, registries } = parseOptions(process.argv.slice(2));
assertWranglerInstalled();
if (!(await portIsFree(port))) {
  console.error(`[start] port ${port} on 127.0.0.1 is already in use: stop the other server or pick another port (--port N or PORT=N).`);
  process.exit(1);
}

const persistArgs = persistTo ? ["--persist-to", persistTo] : [];
// wrangler's dev registry, where the API's WEBHOOK_SENDER binding finds the webhook sender:
// one per state dir, so that servers on other state dirs never reach each other's.
const registry = join(persistTo ?? join(ROOT, ".wrangler", "state"), "dev-registry");
const env = wranglerEnv({ WRANGLER_REGISTRY_PATH: registry });
let child = null;
let sender = null;
/** The registry gateway (--registries FILE): scripts/lib/registry-gateway.mjs. */
let gateway = null;
let stopSignal = null;

const running = (proc) => proc && proc.exitCode === null && proc.signalCode === null;

// Ctrl-C / kill: pass the signal to whichever wrangler is running and to the sender, then exit with the API's code.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    stopSignal ??= signal;
    if (running(sender)) sender.kill(signal);
    if (gateway?.running()) void gateway.stop();
    if (running(child)) child.kill(signal);
    else if (!running(sender)) process.exit(exitStatus(null, signal));
  });
}

/**
 * The webhook sender (scripts/sender.mjs), in a process of its own at --sender-priority:
 * resolves once the API can reach it, or with the reason it could not start.
 */
function startSender() {
  return new Promise((resolvePromise) => {
    sender = spawn(process.execPath, [join(ROOT, "scripts", "sender.mjs")], {
      cwd: ROOT,
      env: { ...env, SENDER_PRIORITY: senderPriority },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let ready = false;
    forwardLines(sender.stdout, process.stdout, (line) => {
      if (!ready && line.startsWith("[sender] ready")) {
        ready = true;
        resolvePromise(null);
      }
      return line;
    });
    forwardLines(sender.stderr, process.stderr, (line) => line);
    sender.on("error", (error) => resolvePromise(`could not run the webhook sender: ${error.message}`));
    sender.on("exit", (code, signal) => {
      if (!ready) resolvePromise(`the webhook sender stopped before it was ready (exit ${exitStatus(code, signal)})`);
      else if (!stopSignal && running(child)) {
        // Without it no webhook is delivered: stop the API too rather than run half a service.
        console.error(`[start] the webhook sender stopped (exit ${exitStatus(code, signal)}); stopping the API`);
        child.kill("SIGTERM");
      }
    });
  });
}

function run(command, args) {
  return new Promise((resolvePromise) => {
    // wrangler dev logs every request's path, and a DNS backend path carries its token:
    // those lines are never printed (scripts/lib/dns-log-filter.mjs).
    child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    forwardLines(child.stdout, process.stdout, (line) => redactGatewaySecrets(withoutDnsBackendPaths(line), gateway?.secrets ?? []));
    forwardLines(child.stderr, process.stderr, (line) => redactGatewaySecrets(withoutDnsBackendPaths(line), gateway?.secrets ?? []));
    child.on("error", (error) => {
      console.error(`[start] could not run ${command}: ${error.message}`);
      resolvePromise(1);
    });
    // "close": after its output has been printed in full.
    child.on("close", (code, signal) => resolvePromise(exitStatus(code, signal)));
  });
}

// wrangler prints a table of every migration after each one it applies; one line says
// the same. Its whole output is shown when it fails. A state dir without a database gets
// a copy of one wrangler migrated from nothing with the same files (scripts/lib/local-d1.mjs,
// seedFromTemplate: made once, about 10 s of CPU less for every fresh state dir).
const stateName = persistTo ?? ".wrangler/state";
const seeded = await seedFromTemplate(persistTo);
const migrated = seeded
  ? { ok: true, applied: seeded.applied }
  : await applyLocalMigrations(persistTo, {
      signalChild: (migrating) => {
        child = migrating;
      },
      stopping: () => stopSignal !== null,
    });
if (migrated.retried) console.error(`${migrated.retried.trimEnd()}\n[start] wrangler failed applying the migrations (above) and succeeded on a second try`);
if (!migrated.ok || stopSignal) {
  if (!stopSignal) console.error(`${migrated.output.trimEnd()}\n[start] applying the local D1 migrations in ${stateName} failed (exit ${migrated.code})`);
  process.exit(stopSignal && migrated.ok ? exitStatus(null, stopSignal) : migrated.code);
}
console.log(
  migrated.applied.length === 0
    ? `[start] local D1 in ${stateName}: migrations up to date`
    : `[start] local D1 in ${stateName}: applied ${migrated.applied.length} migration(s), ${migrated.applied[0]} to ${migrated.applied.at(-1)}${seeded ? ` (a copy of the database wrangler migrated in ${relative(ROOT, seeded.dir)})` : ""}`,
);

// Local development runs without authentication unless asked (--auth): the Worker honours
// AUTH_DISABLED only for requests to a loopback host, so this cannot leak into a deploy.
const authArgs = auth ? [] : ["--var", "AUTH_DISABLED:true"];
// The lifecycle sweep may act at a time the request names (`as_of`), to walk a domain
// through years of its life on one afternoon; obeyed for loopback requests only, too.
const clockArgs = ["--var", "CLOCK_OVERRIDE:true"];
console.log(
  auth
    ? "[start] authentication is ON: send Authorization: Bearer <token> (npm run token -- create --name dev --scope write)"
    : "[start] authentication is OFF for this local server (AUTH_DISABLED=true, loopback only); use --auth to keep it on",
);
// --registries FILE: the registry gateway beside the API, on a loopback port of its own
// with a secret made for this run; the Worker learns both (and the connectors' ids) as --vars.
if (registries) {
  console.log(`[start] starting the registry gateway (src/gateway/) for ${registries}`);
  try {
    // Poll messages go to this server's registry-messages route (the gateway retries until it is up).
    // Poll messages the API never takes are set aside in the state dir (docs/registries.md), beside the D1 state.
    gateway = await startRegistryGateway(registries, process.env, {
      messagesUrl: `http://127.0.0.1:${port}/v1/registry-messages`,
      stateDir: join(persistTo ?? join(ROOT, ".wrangler", "state"), "registry-gateway"),
    });
  } catch (error) {
    console.error(`[start] ${error.message}`);
    process.exit(1);
  }
  passThrough.push(...gateway.vars);
}
console.log("[start] starting the webhook sender (src/sender.ts)");
const senderProblem = await startSender();
if (senderProblem || stopSignal) {
  if (senderProblem && !stopSignal) console.error(`[start] ${senderProblem}`);
  if (running(sender)) sender.kill("SIGTERM");
  process.exit(stopSignal ? exitStatus(null, stopSignal) : 1);
}
// The run's local credential, in a file of the state dir only this user reads (mode 0600):
// `npm run token` finds it and goes through this server instead of opening its database
// file (scripts/lib/local-server.mjs); wrangler dev gets only its hash, and the Worker
// honours it for loopback requests only, as AUTH_DISABLED. Removed when the server stops.
const localServer = writeLocalServer(persistTo, port);
const credentialArgs = ["--var", `LOCAL_CREDENTIAL_SHA256:${localServer.sha256}`];
console.log(
  inspector
    ? `[start] starting wrangler dev on http://127.0.0.1:${port}`
    : `[start] starting the Worker on http://127.0.0.1:${port} without wrangler's inspector (scripts/dev-worker.mjs)`,
);
const served = inspector
  ? await run(WRANGLER, [
      "dev",
      "--local",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--show-interactive-dev-session=false",
      // Lets the hourly Cron Trigger be run by hand (curl http://127.0.0.1:PORT/__scheduled)
      // and keeps wrangler from warning, on every start, that crons do not fire locally.
      "--test-scheduled",
      ...persistArgs,
      ...authArgs,
      ...clockArgs,
      ...credentialArgs,
      ...passThrough,
    ])
  : await run(process.execPath, [
      join(ROOT, "scripts", "dev-worker.mjs"),
      "--port",
      String(port),
      ...persistArgs,
      ...authArgs,
      ...clockArgs,
      ...credentialArgs,
      ...passThrough,
    ]);
localServer.remove();
if (running(sender)) {
  // It lets its workerd go first; one that does not stop within 10 s is killed.
  const stopped = new Promise((resolvePromise) => sender.once("exit", resolvePromise));
  sender.kill("SIGTERM");
  const late = setTimeout(() => sender.kill("SIGKILL"), 10_000);
  await stopped;
  clearTimeout(late);
}
if (gateway) await gateway.stop();
process.exit(served);
