#!/usr/bin/env node
// `npm run dns`: the serving tier on loopback (docs/serving.md, "The tier"). The hidden
// primary is PowerDNS Authoritative Server 4.7 (Debian's pdns-server + pdns-backend-remote)
// with this service as its remote backend; the secondary, the address resolvers ask, is
// Knot DNS 3.2 (`knotd`, Debian's knot) with its own storage: it learns the zones from the
// primary's RFC 9432 catalog zone, takes the primary's NOTIFY when a serial moves and
// transfers each zone (AXFR) into its own files. DNS UPDATE (RFC 2136) goes to the update
// gateway (scripts/update-gateway.mjs), which forwards each message to the service; PowerDNS
// takes none (`dnsupdate=no`). Start `npm start` first, in another terminal.
//
//   node scripts/dns.mjs [--api URL] [--port N] [--primary-port N] [--update-port N] [--primary-only]
//                        [--cache-ttl S] [--threads N] [--persist-to DIR] [--secondary-dir DIR]
//                        [--also-listen 127.A.B.C:PORT]
//
// --api: the service (default http://127.0.0.1:8787, or PORT from the environment);
// --port: the secondary, on 127.0.0.1, UDP and TCP (default 5300); --primary-port: the
// primary (default 5301); --update-port: the update gateway, UDP and TCP (default 5302);
// --primary-only: PowerDNS alone, answering on --port (no
// secondary: every question then reaches PowerDNS and, past its caches, the service);
// --cache-ttl: seconds PowerDNS keeps answers, positive and negative (default 2; 0 turns
// every cache off); --threads: PowerDNS's backend threads, i.e. HTTP requests in flight
// at once (default 3); --persist-to: the local D1 state dir `npm start` serves (default:
// PERSIST_TO, else .wrangler/state); --secondary-dir: where Knot keeps its zones (default:
// a private temporary directory, removed when this stops); --also-listen: one more address
// of 127.0.0.0/8 the secondary answers on, besides 127.0.0.1:--port (none by default; a DNS
// chain on loopback delegates to it on port 53: scripts/dnssec-rollover-e2e.mjs).
//
// It installs the Debian packages when missing (scripts/ensure-system-packages.mjs),
// mints a fresh token of scope dns in the local database (scripts/token.mjs), checks that
// the service names this secondary among the tier's (DNS_TIER_SECONDARIES), writes
// pdns.conf and knot.conf into a private temporary directory, runs `pdns_server`, `knotd`
// and the update gateway in the foreground (no system service, no daemon, no guardian, no
// API, no security polling) and prints when the tier answers. A server that exits by itself is
// started again (same configuration, same storage; PowerDNS exits when the service does
// not answer it) and said so; Ctrl-C or SIGTERM stops
// both by their PIDs, revokes the token and removes the directories. The token is never
// printed: PowerDNS's output passes through scripts/lib/dns-log-filter.mjs, and the gateway
// takes it from its environment.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { forwardLines, redactDnsBackend } from "./lib/dns-log-filter.mjs";
import { configuredCatalogZone, primarySettings, secondaryConfig } from "./lib/dns-tier.mjs";
import { tcpQuery, udpQuery } from "./lib/dns-wire.mjs";
import { pdnsSettings } from "./lib/pdns-settings.mjs";
import { ROOT } from "./lib/wrangler.mjs";

const USAGE =
  "usage: node scripts/dns.mjs [--api URL] [--port N] [--primary-port N] [--update-port N] [--primary-only] [--cache-ttl S] [--threads N] [--persist-to DIR] [--secondary-dir DIR] [--also-listen 127.A.B.C:PORT]";
const PDNS_SERVER = "/usr/sbin/pdns_server";
const KNOTD = "/usr/sbin/knotd";
/**
 * A server that exits by itself is started again after a pause that doubles with each
 * exit in a row (0.5 s up to 10 s), never given up on: PowerDNS exits whenever its backend
 * does not answer (its primary/secondary thread dies on a failed HTTP call), so while the
 * service is down it is restarted every 10 s, and serves again within 10 s of its return.
 */
const FIRST_PAUSE_MS = 500;
const LONGEST_PAUSE_MS = 10_000;
/** A server that ran this long without exiting starts again from the first pause. */
const STABLE_MS = 60_000;

function fail(message) {
  console.error(`[dns] ${message}\n${USAGE}`);
  process.exit(2);
}

function options() {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        api: { type: "string" },
        port: { type: "string", default: "5300" },
        "primary-port": { type: "string", default: "5301" },
        "update-port": { type: "string", default: "5302" },
        "primary-only": { type: "boolean", default: false },
        "cache-ttl": { type: "string", default: "2" },
        threads: { type: "string", default: "3" },
        "persist-to": { type: "string" },
        "secondary-dir": { type: "string" },
        "also-listen": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (error) {
    fail(error.message);
  }
  if (parsed.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const whole = (name, min, max) => {
    const value = parsed[name];
    if (!/^[0-9]{1,6}$/.test(value) || Number(value) < min || Number(value) > max)
      fail(`--${name} must be a whole number from ${min} to ${max}, got "${value}"`);
    return Number(value);
  };
  const api = (parsed.api ?? `http://127.0.0.1:${process.env.PORT || 8787}`).replace(/\/+$/, "");
  let url;
  try {
    url = new URL(api);
  } catch {
    fail(`--api must be a URL, got "${api}"`);
  }
  // The token is minted in the local database: it is good only for the local service.
  if (!["127.0.0.1", "localhost", "[::1]"].includes(url.hostname) || url.protocol !== "http:") fail("--api must be the local service (http://127.0.0.1:PORT)");
  const port = whole("port", 1, 65535);
  const primaryOnly = parsed["primary-only"];
  const primaryPort = primaryOnly ? port : whole("primary-port", 1, 65535);
  if (!primaryOnly && primaryPort === port) fail("--port and --primary-port must differ");
  const updatePort = whole("update-port", 1, 65535);
  const alsoListen = parsed["also-listen"] ?? null;
  if (alsoListen !== null) {
    const [, a, b, c, p] = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3}):(\d{1,5})$/.exec(alsoListen) ?? [];
    if (![a, b, c].every((n) => n !== undefined && Number(n) <= 255) || !(Number(p) >= 1 && Number(p) <= 65535))
      fail(`--also-listen must be an address of 127.0.0.0/8 and a port (127.A.B.C:PORT), got "${alsoListen}"`);
    if (primaryOnly) fail("--also-listen is the secondary's: not with --primary-only");
  }
  if (updatePort === port || updatePort === primaryPort) fail("--update-port must differ from --port and --primary-port");
  return {
    api,
    port,
    primaryPort,
    updatePort,
    primaryOnly,
    cacheTtl: whole("cache-ttl", 0, 3600),
    threads: whole("threads", 1, 64),
    persistTo: parsed["persist-to"] ?? null,
    secondaryDir: parsed["secondary-dir"] ? resolve(parsed["secondary-dir"]) : null,
    alsoListen,
  };
}

const opts = options();
const persistArgs = opts.persistTo ? ["--persist-to", opts.persistTo] : [];
const catalog = configuredCatalogZone();

// 1. The Debian packages (as the tests get them: root installs, anyone else is told how).
const ensured = spawnSync(process.execPath, [join(ROOT, "scripts", "ensure-system-packages.mjs")], {
  stdio: "inherit",
  env: { ...process.env, SYSTEM_PACKAGES: `pdns-server pdns-backend-remote${opts.primaryOnly ? "" : " knot:knotd"}` },
});
if (ensured.status !== 0) process.exit(ensured.status ?? 1);

// 2. The service must answer: PowerDNS asks it on every cache miss, and for every change.
try {
  const index = await fetch(`${opts.api}/v1`, { signal: AbortSignal.timeout(5_000) });
  if (!index.ok) throw new Error(`GET /v1 answered ${index.status}`);
} catch (error) {
  console.error(`[dns] nothing answers at ${opts.api} (${error.message}): start the service first, in another terminal: npm start`);
  process.exit(1);
}

// 3. A fresh dns token, revoked when this stops.
const tokenName = `npm-run-dns-${new Date().toISOString().replace(/[-:.]/g, "").slice(0, 15)}-${randomBytes(3).toString("hex")}`;
function tokenCommand(args) {
  return spawnSync(process.execPath, [join(ROOT, "scripts", "token.mjs"), ...args, "--name", tokenName, ...persistArgs], { cwd: ROOT, encoding: "utf8" });
}
const minted = tokenCommand(["create", "--scope", "dns"]);
const token = minted.stdout
  ?.split("\n")
  .find((line) => /^tok_\S+$/.test(line.trim()))
  ?.trim();
if (minted.status !== 0 || !token) {
  console.error(`${minted.stdout ?? ""}${minted.stderr ?? ""}\n[dns] could not mint a dns token (npm run token -- create --scope dns)`);
  process.exit(1);
}

// 3b. Whom the primary NOTIFYs is the service's to say: each zone's ALSO-NOTIFY metadata
// holds the tier's secondaries (DNS_TIER_SECONDARIES), read by PowerDNS for each zone it
// NOTIFYs, not pdns.conf's `also-notify`, which PowerDNS 4.7 reads only after its NOTIFY
// loop has started (docs/serving.md, "Restarts"). It must name this secondary.
if (!opts.primaryOnly) {
  const ours = `127.0.0.1:${opts.port}`;
  /** @type {unknown} */
  let named = null;
  try {
    const answer = await fetch(`${opts.api}/v1/pdns/${token}/getDomainMetadata/${catalog}./ALSO-NOTIFY`, { signal: AbortSignal.timeout(10_000) });
    named = answer.ok ? (await answer.json()).result : `HTTP ${answer.status}`;
  } catch (error) {
    named = error.message;
  }
  if (!Array.isArray(named) || !named.includes(ours)) {
    tokenCommand(["revoke"]);
    console.error(
      `[dns] the service NOTIFYs ${Array.isArray(named) ? `[${named.join(", ")}]` : `nobody it could name (${named})`}, not this secondary (${ours}): ` +
        `start it with \`npm start -- --var DNS_TIER_SECONDARIES:${ours}\` (or set DNS_TIER_SECONDARIES in wrangler.toml), or give npm run dns the --port it names`,
    );
    process.exit(1);
  }
}

// 4. The configurations, in a directory only this user can read (pdns.conf holds the token).
const dir = mkdtempSync(join(tmpdir(), "domain-api-pdns-"));
const cache = opts.cacheTtl;
const secondaries = opts.primaryOnly ? [] : [{ address: "127.0.0.1", port: opts.port }];
const config = [
  "# written by scripts/dns.mjs (npm run dns); removed when it stops",
  "launch=remote",
  // PowerDNS's HTTP connector sends no headers of its own: the token is in the URL path.
  `remote-connection-string=http:url=${opts.api}/v1/pdns/${token},timeout=5000`,
  // Zones with DNSSEC on are signed online with the key getDomainKeys hands over (docs/dnssec.md).
  "remote-dnssec=yes",
  // DNS UPDATE (RFC 2136) goes to the update gateway, never to PowerDNS (docs/dns-update.md).
  "dnsupdate=no",
  ...pdnsSettings({ port: opts.primaryPort, cache, threads: opts.threads }),
  // The tier's primary: NOTIFY to the addresses of each zone's ALSO-NOTIFY metadata (the
  // tier's secondaries, checked above, and the zone's declared ones), zone transfers to the
  // secondaries alone (and to each zone's declared secondaries, by the zone's metadata).
  ...(opts.primaryOnly ? [] : primarySettings({ axfrFrom: secondaries.map(({ address }) => `${address}/32`) })),
  "",
].join("\n");
writeFileSync(join(dir, "pdns.conf"), config, { mode: 0o600 });
const secondaryDir = opts.secondaryDir ?? join(dir, "secondary");
if (!opts.primaryOnly) {
  mkdirSync(join(secondaryDir, "zones"), { recursive: true });
  writeFileSync(
    join(dir, "knot.conf"),
    secondaryConfig({ dir: secondaryDir, port: opts.port, primaryPort: opts.primaryPort, catalog, alsoListen: opts.alsoListen }),
  );
}

// 5. The servers in the foreground, supervised: one that exits by itself starts again.
let stopping = null;
const redact = (prefix) => (line) => `${prefix ? `${prefix} ` : ""}${redactDnsBackend(line, [token])}`;

function supervise(label, command, args, prefix, beforeStart = () => {}, env = process.env) {
  const server = { label, child: null, exited: null, printed: Promise.resolve(), inARow: 0 };
  const start = () => {
    beforeStart();
    const child = spawn(command, args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"], env });
    server.child = child;
    server.printed = Promise.all([forwardLines(child.stdout, process.stdout, redact(prefix)), forwardLines(child.stderr, process.stderr, redact(prefix))]);
    server.exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
    child.on("error", (error) => console.error(`[dns] could not run ${command}: ${error.message}`));
    const startedAt = Date.now();
    server.exited.then(async ({ code, signal }) => {
      if (stopping) return;
      server.inARow = Date.now() - startedAt > STABLE_MS ? 0 : server.inARow + 1;
      const pause = Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (server.inARow - 1));
      console.error(`[dns] ${label} (pid ${child.pid}) exited by itself (code ${code}, signal ${signal}): starting it again in ${pause / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, pause));
      if (stopping) return;
      start();
      console.log(`[dns] ${label} started again (pid ${server.child.pid})`);
    });
  };
  start();
  return server;
}

async function stopServer(server) {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const late = await Promise.race([server.exited.then(() => false), new Promise((resolve) => setTimeout(() => resolve(true), 10_000))]);
  if (late) {
    console.error(`[dns] ${server.label} (pid ${child.pid}) still running 10 s after SIGTERM: SIGKILL`);
    child.kill("SIGKILL");
    await server.exited;
  }
  await server.printed;
}

const primary = supervise("pdns_server", PDNS_SERVER, [`--config-dir=${dir}`, "--daemon=no", "--guardian=no", `--socket-dir=${dir}`], "[pdns]");
// knotd runs in the foreground unless told otherwise, logging to stderr (knot.conf); one UDP
// worker, as PowerDNS answers from one receiver thread by default (README, "Speed and cost").
// Before each start its timer database goes (docs/serving.md, "Restarts"): Knot then knows
// of no SOA check done, and checks every zone it loads from its files against the primary
// at once, so that a change whose NOTIFY it missed while down arrives within seconds (kept,
// the next check would wait for the SOA refresh, 2 hours by default).
const secondary = opts.primaryOnly
  ? null
  : supervise("knotd", KNOTD, ["-c", join(dir, "knot.conf")], "[knotd]", () => rmSync(join(secondaryDir, "timers"), { recursive: true, force: true }));

// The update gateway (scripts/update-gateway.mjs): DNS UPDATE over UDP and TCP, each
// message forwarded to the service, which decides; the token reaches it in its environment.
const gateway = supervise(
  "the update gateway",
  process.execPath,
  [join(ROOT, "scripts", "update-gateway.mjs"), "--api", opts.api, "--port", String(opts.updatePort)],
  "",
  () => {},
  { ...process.env, DNS_BACKEND_TOKEN: token },
);

async function stop(reason) {
  stopping ??= (async () => {
    await Promise.all([primary, secondary, gateway].filter(Boolean).map(stopServer));
    // The directory holds the token: it goes first, before the slower revocation.
    rmSync(dir, { recursive: true, force: true });
    const revoked = tokenCommand(["revoke"]).status === 0;
    if (!revoked) console.error(`[dns] could not revoke the token "${tokenName}": npm run token -- revoke --name ${tokenName}`);
    console.log(`[dns] stopped (${reason}); token "${tokenName}" ${revoked ? "revoked" : "NOT revoked"}`);
  })();
  return stopping;
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    void stop(signal).then(() => process.exit(0));
  });
}

// 6. Ready when each answers: PowerDNS (a question for the root, which no zone here
// holds, is REFUSED), then the secondary, once it holds the catalog (it transfers it).
async function until(predicate, what, timeoutMs = 60_000) {
  const started = Date.now();
  while (!stopping && Date.now() - started < timeoutMs) {
    if (await predicate()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (!stopping) {
    console.error(`[dns] ${what} within ${timeoutMs / 1000} s`);
    await stop("not ready");
    process.exit(1);
  }
  return false;
}
if (
  await until(async () => Boolean(await udpQuery(opts.primaryPort, ".", "SOA", { timeoutMs: 300 })), `PowerDNS did not answer on 127.0.0.1:${opts.primaryPort}`)
) {
  console.log(
    `[dns] PowerDNS (pdns_server pid ${primary.child.pid}) answers on 127.0.0.1:${opts.primaryPort} (UDP and TCP) from ${opts.api}/v1/pdns/<dns token>, caches ${cache} s${opts.primaryOnly ? "" : ": the hidden primary"}`,
  );
}
// The gateway answers through the service: an unsigned UPDATE is REFUSED (the service's answer).
if (
  await until(
    async () => (await tcpQuery(opts.updatePort, ".", "SOA", { timeoutMs: 2000, opcode: 5 }))?.rcode === "REFUSED",
    `the update gateway did not answer on 127.0.0.1:${opts.updatePort}`,
  )
) {
  console.log(
    `[dns] the update gateway (pid ${gateway.child.pid}) takes DNS UPDATE on 127.0.0.1:${opts.updatePort} (UDP and TCP), each message decided by ${opts.api}`,
  );
}
if (opts.primaryOnly) {
  if (!stopping) console.log(`[dns] try: dig @127.0.0.1 -p ${opts.port} <zone> SOA — Ctrl-C stops it`);
} else if (
  await until(
    // Knot answers no question for the catalog it interprets (REFUSED), but transfers it on
    // loopback: it holds the catalog once the transfer's first message carries records.
    async () => {
      const first = await tcpQuery(opts.port, catalog, "AXFR", { timeoutMs: 1000 });
      return first?.rcode === "NOERROR" && first.answers > 0;
    },
    `Knot did not serve the catalog zone ${catalog} on 127.0.0.1:${opts.port}`,
  )
) {
  console.log(
    `[dns] Knot (knotd pid ${secondary.child.pid}) answers on 127.0.0.1:${opts.port}${opts.alsoListen ? ` and ${opts.alsoListen}` : ""} (UDP and TCP), the secondary: it serves every zone of the catalog ${catalog}, kept in ${secondaryDir}`,
  );
  console.log(`[dns] tier ready: ask the secondary, dig @127.0.0.1 -p ${opts.port} <zone> SOA — Ctrl-C stops it`);
}
