#!/usr/bin/env node
// `npm run dns`: serve the local API's zones on the DNS protocol with PowerDNS
// Authoritative Server 4.7 (Debian's pdns-server + pdns-backend-remote), this service
// being its remote backend (contract §13). Start `npm start` first, in another terminal.
//
//   node scripts/dns.mjs [--api URL] [--port N] [--cache-ttl S] [--threads N] [--persist-to DIR]
//
// --api: the service (default http://127.0.0.1:8787, or PORT from the environment);
// --port: where PowerDNS answers, on 127.0.0.1, UDP and TCP (default 5300);
// --cache-ttl: seconds PowerDNS keeps answers, positive and negative (default 2; 0 turns
// every cache off, so each query reaches the service); --threads: PowerDNS's backend
// threads, i.e. HTTP requests in flight at once (default 3); --persist-to: the local D1
// state dir `npm start` serves (default: PERSIST_TO, else .wrangler/state).
//
// It installs the two Debian packages when missing (scripts/ensure-system-packages.mjs),
// mints a fresh token of scope dns in the local database (scripts/token.mjs), writes a
// pdns.conf into a private temporary directory, runs `pdns_server` in the foreground (no
// system service, no daemon, no guardian, no API, no security polling) and prints when it
// answers. Ctrl-C or SIGTERM stops it: PowerDNS by its PID, the token revoked, the
// directory removed. The token is never printed: PowerDNS's output passes through
// scripts/lib/dns-log-filter.mjs.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { forwardLines, redactDnsBackend } from "./lib/dns-log-filter.mjs";
import { udpQuery } from "./lib/dns-wire.mjs";
import { pdnsSettings } from "./lib/pdns-settings.mjs";
import { ROOT } from "./lib/wrangler.mjs";

const USAGE = "usage: node scripts/dns.mjs [--api URL] [--port N] [--cache-ttl S] [--threads N] [--persist-to DIR]";
const PDNS_SERVER = "/usr/sbin/pdns_server";

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
        "cache-ttl": { type: "string", default: "2" },
        threads: { type: "string", default: "3" },
        "persist-to": { type: "string" },
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
  return {
    api,
    port: whole("port", 1, 65535),
    cacheTtl: whole("cache-ttl", 0, 3600),
    threads: whole("threads", 1, 64),
    persistTo: parsed["persist-to"] ?? null,
  };
}

const opts = options();
const persistArgs = opts.persistTo ? ["--persist-to", opts.persistTo] : [];

// 1. The Debian packages (as the tests get them: root installs, anyone else is told how).
const ensured = spawnSync(process.execPath, [join(ROOT, "scripts", "ensure-system-packages.mjs")], {
  stdio: "inherit",
  env: { ...process.env, SYSTEM_PACKAGES: "pdns-server pdns-backend-remote" },
});
if (ensured.status !== 0) process.exit(ensured.status ?? 1);

// 2. The service must answer: PowerDNS asks it on every cache miss.
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

// 4. The configuration, in a directory only this user can read (it holds the token).
const dir = mkdtempSync(join(tmpdir(), "domain-api-pdns-"));
const cache = opts.cacheTtl;
const config = [
  "# written by scripts/dns.mjs (npm run dns); removed when it stops",
  "launch=remote",
  // PowerDNS's HTTP connector sends no headers of its own: the token is in the URL path.
  `remote-connection-string=http:url=${opts.api}/v1/pdns/${token},timeout=5000`,
  // Zones with DNSSEC on are signed online with the key getDomainKeys hands over (contract §14).
  "remote-dnssec=yes",
  // DNS UPDATE (RFC 2136) signed with a zone's update key (docs/dns-update.md).
  "dnsupdate=yes",
  ...pdnsSettings({ port: opts.port, cache, threads: opts.threads }),
  "",
].join("\n");
writeFileSync(join(dir, "pdns.conf"), config, { mode: 0o600 });

// 5. PowerDNS in the foreground, its output without the token.
const pdns = spawn(PDNS_SERVER, [`--config-dir=${dir}`, "--daemon=no", "--guardian=no", `--socket-dir=${dir}`], {
  cwd: dir,
  stdio: ["ignore", "pipe", "pipe"],
});
const redact = (line) => `[pdns] ${redactDnsBackend(line, [token])}`;
const printed = Promise.all([forwardLines(pdns.stdout, process.stdout, redact), forwardLines(pdns.stderr, process.stderr, redact)]);
const exited = new Promise((resolve) => pdns.on("exit", (code, signal) => resolve({ code, signal })));
pdns.on("error", (error) => console.error(`[dns] could not run ${PDNS_SERVER}: ${error.message}`));

let stopping = null;
async function stop(reason) {
  stopping ??= (async () => {
    if (pdns.exitCode === null && pdns.signalCode === null) {
      pdns.kill("SIGTERM");
      const late = await Promise.race([exited.then(() => false), new Promise((resolve) => setTimeout(() => resolve(true), 10_000))]);
      if (late) {
        console.error(`[dns] pdns_server (pid ${pdns.pid}) still running 10 s after SIGTERM: SIGKILL`);
        pdns.kill("SIGKILL");
        await exited;
      }
    }
    await printed;
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
exited.then(async ({ code, signal }) => {
  if (stopping) return;
  console.error(`[dns] pdns_server exited by itself (code ${code}, signal ${signal})`);
  await stop("pdns_server exited");
  process.exit(code || 1);
});

// 6. Ready when it answers: a question for the root, which no zone here holds, is REFUSED.
const started = Date.now();
while (!stopping && Date.now() - started < 30_000) {
  const answer = await udpQuery(opts.port, ".", "SOA", { timeoutMs: 300 });
  if (answer) {
    console.log(
      `[dns] PowerDNS (pdns_server pid ${pdns.pid}) answers on 127.0.0.1:${opts.port} (UDP and TCP) from ${opts.api}/v1/pdns/<dns token>, caches ${cache} s; try: dig @127.0.0.1 -p ${opts.port} <zone> SOA — Ctrl-C stops it`,
    );
    break;
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
}
if (!stopping && Date.now() - started >= 30_000) {
  console.error(`[dns] PowerDNS did not answer on 127.0.0.1:${opts.port} within 30 s`);
  await stop("not ready");
  process.exit(1);
}
