// `npm run bench -- --peer [--quick]`: the same DNS-management scenarios against this
// service and against PowerDNS 4.7's HTTP API on its SQLite backend (gsqlite3), on the
// same machine, with the same client, in one run (issue 18 item 4):
//
// - record create, one record per request, at concurrency 1 and at 16, no retries (errors
//   counted: PowerDNS 4.7's gsqlite3 fails most concurrent writes with "database is
//   locked", PowerDNS issue 14564, fixed in 4.9);
// - export of a 10,000-record zone (text/dns; PowerDNS's /export);
// - a zone read (JSON, the zone without its records; PowerDNS's ?rrsets=false);
// - import of 10,000 records in one request (text/dns; PowerDNS's zone-file `zone` field).
//
// Each scenario warms both servers up the same way (a few seconds, or requests, of the
// same load) before it is measured, PowerDNS first, then the service. Rates are taken
// over a fixed window: PowerDNS answers every request with `Connection: close` and its
// API socket listens with a backlog of 10, so at 16 connections some connects wait for a
// SYN retransmit (1 s); requests still in flight when the window ends would otherwise
// stretch the wall time. PowerDNS runs privately: its own config dir and SQLite file in
// the run's temp dir, the API and DNS on free loopback ports, no security poll, a 64 MB
// request limit (the 2 MB default refuses larger imports), never the system service (the
// package install goes through scripts/ensure-system-packages.mjs, which keeps Debian's
// maintainer scripts from starting it); it is stopped by its PID (process group).
// Figures and `peer_ratios` (ours ÷ PowerDNS, rates; > 1 means the service is faster) go
// into bench/results.json under "peer".
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { startPowerDns, stopDaemon } from "../scripts/lib/daemons.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SQLITE_SCHEMAS = ["/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql", "/usr/share/doc/pdns-backend-sqlite3/schema.sqlite3.sql"];
const PDNS_KEY = "peer-bench-key";
const round = (value, digits = 2) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : null);
const ipFor = (i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

function ensurePackages() {
  const result = spawnSync(process.execPath, [join(ROOT, "scripts", "ensure-system-packages.mjs")], {
    stdio: "inherit",
    env: { ...process.env, SYSTEM_PACKAGES: "pdns-server pdns-backend-sqlite3:/usr/lib/*/pdns/libgsqlite3backend.so sqlite3:sqlite3" },
  });
  if (result.status !== 0) throw new Error("pdns-server and pdns-backend-sqlite3 are missing (see above)");
}

/** A master file of `n` A records h0…h{n-1}, the SOA and two apex NS: what both servers import. */
function zoneFile(zone, n) {
  const lines = [
    `$ORIGIN ${zone}.`,
    "$TTL 3600",
    `@ IN SOA ns1.${zone}. hostmaster.${zone}. 1 10800 3600 604800 3600`,
    "@ IN NS ns1.example.net.",
    "@ IN NS ns2.example.net.",
  ];
  for (let i = 0; i < n; i++) lines.push(`h${i} 300 IN A ${ipFor(i)}`);
  return `${lines.join("\n")}\n`;
}
const hostLines = (text) => text.split("\n").filter((l) => /^h\d+[.\s]/.test(l)).length;

// ---------------------------------------------------------------- the client
function request(base, { method = "GET", path, headers = {}, body }, agent) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? null : Buffer.from(body);
    const url = new URL(base);
    const started = performance.now();
    const req = http.request(
      { host: url.hostname, port: url.port, method, path, agent, headers: payload ? { ...headers, "content-length": payload.length } : headers },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(chunks), ms: performance.now() - started }));
        res.on("error", reject);
      },
    );
    req.setTimeout(600_000, () => req.destroy(new Error("timeout")));
    req.on("error", reject);
    if (payload) req.write(payload);
    req.end();
  });
}
const ok = (r) => r.status >= 200 && r.status < 300;

/**
 * A closed loop of `concurrency` workers, each with one request in flight, until `total`
 * requests or `seconds` have passed; never retries. With `seconds`, the rate is the 2xx
 * answers completed inside the window over the window.
 */
async function pool(base, make, { concurrency, total = Number.POSITIVE_INFINITY, seconds = null }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies = [];
  let next = 0;
  let errors = 0;
  let okInWindow = 0;
  const samples = [];
  const started = performance.now();
  const deadline = seconds === null ? Number.POSITIVE_INFINITY : started + seconds * 1000;
  const worker = async () => {
    while (next < total && performance.now() < deadline) {
      const i = next++;
      try {
        const r = await request(base, make(i), agent);
        latencies.push(r.ms);
        if (ok(r)) {
          if (performance.now() <= deadline) okInWindow++;
        } else {
          errors++;
          if (samples.length < 3) samples.push(`${r.status} ${r.body.toString().slice(0, 120)}`);
        }
      } catch (error) {
        errors++;
        if (samples.length < 3) samples.push(String(error.message ?? error));
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const wall = (performance.now() - started) / 1000;
  agent.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  const pct = (p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
  return {
    requests: next,
    errors,
    error_samples: samples,
    ok_per_s: round(seconds === null ? (next - errors) / wall : okInWindow / seconds, 1),
    p50_ms: round(pct(50)),
    p99_ms: round(pct(99)),
    wall_s: round(wall),
  };
}

// ---------------------------------------------------------------- the two APIs
function pdnsApi(base) {
  const P = "/api/v1/servers/localhost";
  const H = { "x-api-key": PDNS_KEY };
  const HJ = { ...H, "content-type": "application/json" };
  const zonePath = (zone) => `${P}/zones/${zone}.`;
  return {
    name: "PowerDNS",
    base,
    createZone: (zone) => ({
      method: "POST",
      path: `${P}/zones`,
      headers: HJ,
      body: JSON.stringify({ name: `${zone}.`, kind: "Native", nameservers: ["ns1.example.net.", "ns2.example.net."] }),
    }),
    addRecord: (zone, i) => ({
      method: "PATCH",
      path: zonePath(zone),
      headers: HJ,
      body: JSON.stringify({
        rrsets: [{ name: `h${i}.${zone}.`, type: "A", ttl: 300, changetype: "REPLACE", records: [{ content: ipFor(i), disabled: false }] }],
      }),
    }),
    exportZone: (zone) => ({ path: `${zonePath(zone)}/export`, headers: H }),
    readZone: (zone) => ({ path: `${zonePath(zone)}?rrsets=false`, headers: H }),
    importZone: (zone, n) => ({
      method: "POST",
      path: `${P}/zones`,
      headers: HJ,
      body: JSON.stringify({ name: `${zone}.`, kind: "Native", zone: zoneFile(zone, n) }),
    }),
  };
}

function serviceApi(base, token) {
  const auth = { authorization: `Bearer ${token}` };
  const json = { ...auth, "content-type": "application/json" };
  return {
    name: "service",
    base,
    createZone: (zone) => ({ method: "POST", path: "/v1/zones", headers: json, body: JSON.stringify({ name: zone }) }),
    addRecord: (zone, i) => ({
      method: "POST",
      path: "/v1/records",
      headers: json,
      body: JSON.stringify({ zone, name: `h${i}`, type: "A", content: ipFor(i), ttl: 300 }),
    }),
    exportZone: (zone) => ({ path: `/v1/zones/${zone}`, headers: { ...auth, accept: "text/dns" } }),
    readZone: (zone) => ({ path: `/v1/zones/${zone}`, headers: { ...auth, accept: "application/json" } }),
    importZone: (zone, n) => ({ method: "POST", path: "/v1/zones", headers: { ...auth, "content-type": "text/dns" }, body: zoneFile(zone, n) }),
  };
}

async function must(api, spec, what) {
  const r = await request(api.base, spec);
  if (!ok(r)) throw new Error(`${api.name} ${what}: ${r.status} ${r.body.toString().slice(0, 300)}`);
  return r;
}

// ---------------------------------------------------------------- PowerDNS, private
/**
 * The PowerDNS servers running now: each leads a process group of its own (detached), so a
 * signal to the bench reaches none of them; bench/run.mjs stops these on SIGINT, SIGTERM,
 * SIGHUP and exit.
 */
const runningPdns = new Set();

/** The process groups of the PowerDNS servers this phase started and has not stopped. */
export function peerProcessGroups() {
  return [...runningPdns].map((handle) => handle.pid);
}

async function startPdns(dir, freePort) {
  const schema = SQLITE_SCHEMAS.find((file) => existsSync(file));
  if (!schema) throw new Error("the gsqlite3 schema file is missing");
  mkdirSync(dir, { recursive: true });
  const db = join(dir, "pdns.sqlite3");
  const created = spawnSync("sqlite3", [db], { input: readFileSync(schema, "utf8"), encoding: "utf8" });
  if (created.status !== 0) throw new Error(`sqlite3: ${created.stderr}`);
  const [apiPort, dnsPort] = [await freePort(), await freePort()];
  const config = [
    "launch=gsqlite3",
    `gsqlite3-database=${db}`,
    "api=yes",
    `api-key=${PDNS_KEY}`,
    "webserver=yes",
    "webserver-address=127.0.0.1",
    `webserver-port=${apiPort}`,
    "webserver-allow-from=127.0.0.0/8",
    "webserver-loglevel=none",
    // The default (2 MB) answers a bare 400 to an import much above 15,000 records.
    "webserver-max-bodysize=64",
    "local-address=127.0.0.1",
    `local-port=${dnsPort}`,
    // No outbound DNS query for this version's security status.
    "security-poll-suffix=",
    // Zones created through the API without a SOA get one that names themselves.
    "default-soa-content=ns1.@ hostmaster.@ 0 10800 3600 604800 3600",
    "disable-syslog=yes",
    "loglevel=3",
  ];
  writeFileSync(join(dir, "pdns.conf"), `${config.join("\n")}\n`);
  const base = `http://127.0.0.1:${apiPort}`;
  const apiAnswers = async () => {
    try {
      return (await request(base, { path: "/api/v1/servers/localhost", headers: { "x-api-key": PDNS_KEY } })).status === 200;
    } catch {
      return false; // not listening yet
    }
  };
  const daemon = await startPowerDns(dir, {
    ready: apiAnswers,
    timeoutMs: 30_000,
    graceMs: 10_000,
  });
  if (daemon.notReady) throw new Error(daemon.notReady);
  runningPdns.add(daemon);
  return Object.assign(daemon, { base, config });
}

/** SIGTERM to its PID, SIGKILL to its group after 10 s (PowerDNS takes up to ~2 s to exit). */
async function stopPdns(handle) {
  if (!handle) return;
  await stopDaemon(handle);
  runningPdns.delete(handle);
}

function pdnsVersion() {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own format syntax
  const out = spawnSync("dpkg-query", ["-W", "-f=${Version}", "pdns-server"], { encoding: "utf8" });
  return out.status === 0 ? out.stdout.trim() : null;
}

// ---------------------------------------------------------------- the run
/**
 * `context`: from bench/run.mjs — log, work (temp dir), freePort, startService(state, port)
 * and freshState(label) → { state, token }.
 */
export async function peerPhase(context, { quick = false } = {}) {
  const { log, work, freePort } = context;
  const size = quick ? 2_000 : 10_000;
  const creates = quick ? 300 : 1_000;
  const window = quick ? 4 : 8;
  const warmupSeconds = quick ? 1 : 2;
  const importRuns = 3;
  ensurePackages();
  const load = { before: loadavg().map((l) => round(l)) };

  const { state, token } = context.freshState("peer");
  const port = await freePort();
  const service = await context.startService(state, port, "peer-service");
  const pdns = await startPdns(join(work, "pdns"), freePort);
  const apis = [pdnsApi(pdns.base), serviceApi(`http://127.0.0.1:${port}`, token)];
  log(`peer: PowerDNS ${pdnsVersion()} (pid ${pdns.child.pid}) on ${pdns.base}, the service on :${port}; ${size}-record zones, ${creates} creates per variant`);
  const figures = { PowerDNS: {}, service: {} };
  try {
    // The zones: one per record-create variant (and a warm-up one), the big one for export and read.
    for (const api of apis) {
      for (const zone of ["peer-warm.test", "peer-c1.test", "peer-c16.test"]) await must(api, api.createZone(zone), `create ${zone}`);
      await must(api, api.importZone("peer-big.test", size), "import the big zone");
    }
    const scenario = async (name, run) => {
      for (const api of apis) {
        figures[api.name][name] = await run(api);
        const f = figures[api.name][name];
        log(`peer: ${name} ${api.name}: ${f.ok_per_s ?? "-"} ok/s, p50 ${f.p50_ms} ms, ${f.errors ?? 0} errors`);
      }
    };
    // Every scenario warms both servers with its own load first: `warmupSeconds`, or 20 requests.
    let warm = 0;
    await scenario("record_create_c1", async (api) => {
      await pool(api.base, (i) => api.addRecord("peer-warm.test", 100_000 + warm++ + i), { concurrency: 1, total: 20 });
      return pool(api.base, (i) => api.addRecord("peer-c1.test", i), { concurrency: 1, total: creates });
    });
    await scenario("record_create_c16", async (api) => {
      await pool(api.base, (i) => api.addRecord("peer-warm.test", 200_000 + warm++ + i), { concurrency: 16, total: 20 });
      return pool(api.base, (i) => api.addRecord("peer-c16.test", i), { concurrency: 16, total: creates });
    });
    for (const api of apis) {
      for (const [zone, expected] of [
        ["peer-c1.test", creates],
        ["peer-c16.test", creates - figures[api.name].record_create_c16.errors],
      ]) {
        const lines = hostLines((await must(api, api.exportZone(zone), `export ${zone}`)).body.toString());
        if (lines !== expected) log(`peer: warning: ${api.name} ${zone} holds ${lines} host records, ${expected} expected`);
      }
    }
    await scenario("zone_export", async (api) => {
      await pool(api.base, () => api.exportZone("peer-big.test"), { concurrency: 4, seconds: warmupSeconds });
      const f = await pool(api.base, () => api.exportZone("peer-big.test"), { concurrency: 4, seconds: window });
      const body = (await must(api, api.exportZone("peer-big.test"), "export")).body;
      return { ...f, bytes: body.length, host_records: hostLines(body.toString()) };
    });
    await scenario("zone_read", async (api) => {
      await pool(api.base, () => api.readZone("peer-big.test"), { concurrency: 16, seconds: warmupSeconds });
      return pool(api.base, () => api.readZone("peer-big.test"), { concurrency: 16, seconds: window });
    });
    await scenario("zone_import", async (api) => {
      await must(api, api.importZone("peer-import-warm.test", size), "import (warm-up)");
      const runs = [];
      for (let r = 0; r < importRuns; r++) runs.push((await must(api, api.importZone(`peer-import-${r}.test`, size), "import")).ms);
      const median = runs.sort((a, b) => a - b)[Math.floor(runs.length / 2)];
      return {
        records: size,
        runs_ms: runs.map((ms) => round(ms)),
        p50_ms: round(median),
        records_per_s: round(size / (median / 1000), 0),
        ok_per_s: round(1000 / median, 2),
      };
    });
  } finally {
    await stopPdns(pdns);
    await context.stopServer(service);
  }
  load.after = loadavg().map((l) => round(l));
  const ratio = (name) => round(figures.service[name].ok_per_s / figures.PowerDNS[name].ok_per_s, 2);
  const peer = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? null, node: process.version, load_average: load },
    powerdns: { package: pdnsVersion(), backend: "gsqlite3", config: pdns.config.filter((l) => !/api-key/.test(l)) },
    settings: { zone_records: size, creates_per_variant: creates, window_s: window, warmup_s: warmupSeconds, import_runs: importRuns },
    figures,
    peer_ratios: {
      record_create_c1: ratio("record_create_c1"),
      record_create_c16: ratio("record_create_c16"),
      zone_export: ratio("zone_export"),
      zone_read: ratio("zone_read"),
      zone_import: ratio("zone_import"),
    },
  };
  printPeer(peer);
  return peer;
}

function printPeer(peer) {
  const rows = [["scenario", "PowerDNS ok/s", "p50 ms", "errors", "service ok/s", "p50 ms", "errors", "ours ÷ PowerDNS"]];
  for (const [name, value] of Object.entries(peer.peer_ratios)) {
    const [p, s] = [peer.figures.PowerDNS[name], peer.figures.service[name]];
    rows.push([name, String(p.ok_per_s), String(p.p50_ms), String(p.errors ?? 0), String(s.ok_per_s), String(s.p50_ms), String(s.errors ?? 0), String(value)]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log("");
  for (const [i, row] of rows.entries()) {
    console.log(`| ${row.map((cell, j) => (j === 0 ? cell.padEnd(widths[j]) : cell.padStart(widths[j]))).join(" | ")} |`);
    if (i === 0) console.log(`|${widths.map((w, j) => (j === 0 ? "-".repeat(w + 2) : "-".repeat(w + 1) + ":")).join("|")}|`);
  }
  console.log(`\nload average before / after: ${peer.machine.load_average.before.join(" ")} / ${peer.machine.load_average.after.join(" ")}\n`);
}
