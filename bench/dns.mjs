#!/usr/bin/env node
// `npm run bench -- --dns [--quick]`: DNS queries per second through PowerDNS 4.7 with
// this service as its remote backend (contract §13), against PowerDNS with its own SQLite
// backend (gsqlite3) loaded with the same zone, on the same machine, in one run:
//
// - remote, caches 2 s: `npm run dns` as it is (scripts/dns.mjs), a hot set of questions;
// - remote, caches off: every question reaches the service (PowerDNS's packet, query,
//   negative and zone caches all off);
// - sqlite, the same two settings, the zone loaded with `pdnsutil load-zone` from the
//   service's own export;
// - the service's connector calls per uncached question, counted by a proxy in front of
//   the service in a run of its own; each call is one D1 round trip
//   (test/pdns-backend.test.ts), so that is also D1 round trips per uncached question.
//
// The load: a small UDP client here (no dnsperf on this machine): a fixed number of
// questions in flight, a warm-up, then a fixed duration; a question unanswered after 2 s
// counts as lost and is replaced. Questions: existing names (80 %), names that do not
// exist (10 %), names a wildcard answers (10 %), 600 distinct, asked round and round.
// Results go to bench/results.json under "dns". Everything on 127.0.0.1; every process is
// stopped by its PID (process group), temp dirs removed.
import { spawn, spawnSync } from "node:child_process";
import { createSocket } from "node:dgram";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { decodeHeader, encodeQuery, udpQuery } from "../scripts/lib/dns-wire.mjs";
import { freePort, groupAlive, killGroup } from "../scripts/lib/harness.mjs";
import { pdnsSettings } from "../scripts/lib/pdns-settings.mjs";

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, "..");
const PDNS_SERVER = "/usr/sbin/pdns_server";
const PDNSUTIL = "/usr/bin/pdnsutil";
const ZONE = "bench-dns.test";
/** Warm caches: long enough that the measured run is answered from PowerDNS's caches once every question was asked. */
const CACHE_TTL = 60;
const CONCURRENCY = 32;
const SQLITE_SCHEMAS = ["/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql", "/usr/share/doc/pdns-backend-sqlite3/schema.sqlite3.sql"];

const started = Date.now();
const log = (message) => console.log(`[bench dns ${String(Math.round((Date.now() - started) / 1000)).padStart(3)}s] ${message}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Keeps `concurrency` questions in flight to 127.0.0.1:`port` for `seconds` after `warmup` seconds. */
export function udpLoad(port, questions, { seconds, warmup, concurrency = CONCURRENCY, timeoutMs = 2_000, total = null }) {
  return new Promise((resolveLoad) => {
    const socket = createSocket("udp4");
    const inFlight = new Map(); // id -> sent at (ms, hrtime)
    const latencies = [];
    const rcodes = {};
    let next = 0;
    let nextId = 0;
    let lost = 0;
    let measuring = false;
    let stopping = false;
    let measuredFrom = 0;
    let answered = 0;
    let sent = 0;
    let finish = null;
    const send = () => {
      if (stopping) return;
      if (total !== null && sent >= total) {
        if (inFlight.size === 0) finish?.();
        return;
      }
      sent++;
      do nextId = (nextId + 1) & 0xffff;
      while (inFlight.has(nextId));
      const [name, type] = questions[next++ % questions.length];
      inFlight.set(nextId, performance.now());
      socket.send(encodeQuery(nextId, name, type), port, "127.0.0.1");
    };
    socket.on("message", (message) => {
      const header = decodeHeader(message);
      const sentAt = header && inFlight.get(header.id);
      if (sentAt === undefined || !header) return;
      inFlight.delete(header.id);
      if (measuring) {
        answered++;
        latencies.push(performance.now() - sentAt);
        rcodes[header.rcode] = (rcodes[header.rcode] ?? 0) + 1;
      }
      send();
    });
    const sweeper = setInterval(() => {
      const now = performance.now();
      for (const [id, sentAt] of inFlight) {
        if (now - sentAt > timeoutMs) {
          inFlight.delete(id);
          if (measuring) lost++;
          send();
        }
      }
    }, 100);
    socket.bind(0, "127.0.0.1", () => {
      for (let i = 0; i < concurrency; i++) send();
      setTimeout(() => {
        measuring = true;
        measuredFrom = performance.now();
        let finished = false;
        finish = () => {
          if (finished) return;
          finished = true;
          measuring = false;
          stopping = true;
          const elapsed = (performance.now() - measuredFrom) / 1000;
          clearInterval(sweeper);
          socket.close();
          latencies.sort((a, b) => a - b);
          const at = (q) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] : null);
          resolveLoad({
            qps: Math.round(answered / elapsed),
            p50_ms: at(0.5) === null ? null : Number(at(0.5).toFixed(2)),
            p99_ms: at(0.99) === null ? null : Number(at(0.99).toFixed(2)),
            answered,
            lost,
            rcodes,
            seconds: Number(elapsed.toFixed(1)),
          });
        };
        if (total === null) setTimeout(finish, seconds * 1000);
      }, warmup * 1000);
    });
  });
}

// ---------------------------------------------------------------- processes
const groups = []; // children that lead their own process group

function spawnGroup(command, args, options = {}) {
  const child = spawn(command, args, { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, FORCE_COLOR: "0" }, ...options });
  const handle = { child, output: "", exited: new Promise((r) => child.on("exit", (code, signal) => r({ code, signal }))) };
  child.stdout.on("data", (chunk) => (handle.output += chunk));
  child.stderr.on("data", (chunk) => (handle.output += chunk));
  groups.push(handle);
  return handle;
}

async function stopGroup(handle, graceMs = 30_000) {
  if (!handle || !groupAlive(handle.child.pid)) return;
  killGroup(handle.child.pid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && groupAlive(handle.child.pid)) await sleep(100);
  killGroup(handle.child.pid, "SIGKILL");
}

async function waitForOutput(handle, pattern, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (pattern.test(handle.output)) return;
    if (handle.child.exitCode !== null) break;
    await sleep(100);
  }
  throw new Error(`${what} did not come up:\n${handle.output.split("\n").slice(-20).join("\n")}`);
}

async function waitForAnswer(port, what) {
  for (let i = 0; i < 150; i++) {
    if ((await udpQuery(port, ZONE, "SOA", { timeoutMs: 300 }))?.aa) return;
    await sleep(200);
  }
  throw new Error(`${what} does not answer for ${ZONE} on 127.0.0.1:${port}`);
}

// ---------------------------------------------------------------- the pieces
function ensurePackages() {
  const result = spawnSync(process.execPath, [join(ROOT, "scripts", "ensure-system-packages.mjs")], {
    stdio: "inherit",
    env: {
      ...process.env,
      SYSTEM_PACKAGES: "pdns-server pdns-backend-remote pdns-backend-sqlite3:/usr/lib/*/pdns/libgsqlite3backend.so sqlite3:sqlite3",
    },
  });
  if (result.status !== 0) throw new Error("the Debian packages for the DNS bench are missing (see above)");
}

function zoneFile(records) {
  const lines = [
    `$ORIGIN ${ZONE}.`,
    "$TTL 300",
    `@ SOA ns1.${ZONE}. hostmaster.${ZONE}. 1 7200 900 1209600 300`,
    `@ NS ns1.${ZONE}.`,
    `@ NS ns2.example.net.`,
    "ns1 A 192.0.2.53",
  ];
  for (let i = 0; i < records; i++) lines.push(`h${i} A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
  lines.push("*.wild A 192.0.2.99", '*.wild TXT "wildcard"');
  return `${lines.join("\n")}\n`;
}

/** 600 questions: existing names 80 %, names that do not exist 10 %, wildcard names 10 %, mixed at random (seeded). */
function questionSet(records) {
  let seed = 42;
  const random = () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
  const out = [];
  for (let i = 0; i < 600; i++) {
    const pick = random();
    if (pick < 0.8) out.push([`h${Math.floor(random() * records)}.${ZONE}`, "A"]);
    else if (pick < 0.9) out.push([`nx${i}.${ZONE}`, "A"]);
    else out.push([`w${i}.wild.${ZONE}`, "A"]);
  }
  return out;
}

function pdnsConfig({ port, cache, backend }) {
  return [...backend, ...pdnsSettings({ port, cache }), ""].join("\n");
}

/** A proxy to the service that counts the DNS backend's requests (and forwards everything). */
function countingProxy(target) {
  const counter = { pdnsCalls: 0, byMethod: {} };
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    if (req.url.startsWith("/v1/pdns/")) {
      counter.pdnsCalls++;
      // The method, and for lookups the type asked: what PowerDNS asks per question.
      const [method, , qtype] = req.url.split("?")[0].split("/").slice(4);
      const key = method === "lookup" ? `lookup ${qtype}` : method;
      counter.byMethod[key] = (counter.byMethod[key] ?? 0) + 1;
    }
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        res.writeHead(answer.statusCode, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  return { server, counter };
}

// ---------------------------------------------------------------- the run
export async function dnsBench({ quick = false } = {}) {
  const records = quick ? 1_000 : 10_000;
  const seconds = quick ? 4 : 10;
  const warmup = quick ? 1 : 2;
  const work = mkdtempSync(join(tmpdir(), "domain-api-bench-dns-"));
  const stateDir = join(work, "state");
  const results = { mode: quick ? "quick" : "full", records, seconds, concurrency: CONCURRENCY, cache_ttl: CACHE_TTL, scenarios: {} };
  let exitCode = 0;
  const cleanupOnExit = () => {
    for (const handle of groups) killGroup(handle.child.pid, "SIGKILL");
  };
  process.on("exit", cleanupOnExit);
  try {
    ensurePackages();
    const questions = questionSet(records);

    // The service, with a fresh D1, authentication off for the import (the DNS backend
    // still takes only its dns token).
    const apiPort = await freePort();
    const base = `http://127.0.0.1:${apiPort}`;
    log(`starting the service on ${base}`);
    const service = spawnGroup(process.execPath, [join(ROOT, "scripts", "start.mjs"), "--port", String(apiPort), "--persist-to", stateDir]);
    await waitForOutput(service, /Ready on http/, 120_000, "the service");
    const imported = await fetch(`${base}/v1/zones`, { method: "POST", headers: { "content-type": "text/dns" }, body: zoneFile(records) });
    if (imported.status !== 201) throw new Error(`zone import answered ${imported.status}: ${(await imported.text()).slice(0, 300)}`);
    const exported = await (await fetch(`${base}/v1/zones/${ZONE}`, { headers: { accept: "text/dns" } })).text();
    writeFileSync(join(work, `${ZONE}.zone`), exported);
    log(`zone ${ZONE} imported through the API: ${records} A records, a wildcard, apex NS`);

    // PowerDNS on its own SQLite database, loaded from the service's export.
    const sqliteDir = join(work, "sqlite");
    mkdirSync(sqliteDir);
    const schema = SQLITE_SCHEMAS.find((file) => existsSync(file));
    if (!schema) throw new Error("the gsqlite3 schema file is missing");
    const db = join(sqliteDir, "pdns.sqlite3");
    const created = spawnSync("sqlite3", [db], { input: readFileSync(schema, "utf8"), encoding: "utf8" });
    if (created.status !== 0) throw new Error(`sqlite3: ${created.stderr}`);
    const sqliteBackend = ["launch=gsqlite3", `gsqlite3-database=${db}`];
    writeFileSync(join(sqliteDir, "pdns.conf"), pdnsConfig({ port: 1, cache: 0, backend: sqliteBackend }));
    const loaded = spawnSync(PDNSUTIL, [`--config-dir=${sqliteDir}`, "load-zone", ZONE, join(work, `${ZONE}.zone`)], { encoding: "utf8" });
    if (loaded.status !== 0) throw new Error(`pdnsutil load-zone: ${loaded.stdout}${loaded.stderr}`);
    log(`zone ${ZONE} loaded into PowerDNS's SQLite backend (pdnsutil load-zone)`);

    const runRemote = async (name, cache, threads = 3) => {
      const port = await freePort();
      const dns = spawnGroup(process.execPath, [
        join(ROOT, "scripts", "dns.mjs"),
        "--api",
        base,
        "--port",
        String(port),
        "--persist-to",
        stateDir,
        "--cache-ttl",
        String(cache),
        "--threads",
        String(threads),
      ]);
      try {
        await waitForOutput(dns, /\[dns\] PowerDNS \(pdns_server pid \d+\) answers/, 120_000, "npm run dns");
        await waitForAnswer(port, name);
        return await measure(name, port, cache > 0);
      } finally {
        await stopGroup(dns);
      }
    };
    const runSqlite = async (name, cache) => {
      const port = await freePort();
      const dir = join(work, `sqlite-${cache}`);
      mkdirSync(dir);
      writeFileSync(join(dir, "pdns.conf"), pdnsConfig({ port, cache, backend: sqliteBackend }));
      const pdns = spawnGroup(PDNS_SERVER, [`--config-dir=${dir}`, "--daemon=no", "--guardian=no", `--socket-dir=${dir}`]);
      try {
        await waitForAnswer(port, name);
        return await measure(name, port, cache > 0);
      } finally {
        await stopGroup(pdns);
      }
    };
    const measure = async (name, port, cached) => {
      if (cached) {
        // Every question once, so that the measured run finds them all in the caches.
        const primed = await udpLoad(port, questions, { seconds: 0, warmup: 0, concurrency: 8, total: questions.length });
        log(`${name}: caches warmed with each of the ${questions.length} questions (${primed.lost} lost)`);
      }
      log(`${name}: ${warmup} s warm-up, ${seconds} s measured, ${CONCURRENCY} questions in flight`);
      const figures = await udpLoad(port, questions, { seconds, warmup });
      results.scenarios[name] = figures;
      log(`  ${figures.qps} q/s, p50 ${figures.p50_ms} ms, p99 ${figures.p99_ms} ms, lost ${figures.lost}, ${JSON.stringify(figures.rcodes)}`);
      return figures;
    };

    const remoteCached = await runRemote("remote_cached", CACHE_TTL);
    const remoteUncached = await runRemote("remote_uncached", 0);
    const sqliteCached = await runSqlite("sqlite_cached", CACHE_TTL);
    const sqliteUncached = await runSqlite("sqlite_uncached", 0);

    // Calls per uncached question, through a counting proxy (a run of its own: the proxy
    // costs time, so it is not the measured run).
    const { server: proxy, counter } = countingProxy(base);
    const proxyPort = await freePort();
    await new Promise((r) => proxy.listen(proxyPort, "127.0.0.1", r));
    try {
      const port = await freePort();
      const dns = spawnGroup(process.execPath, [
        join(ROOT, "scripts", "dns.mjs"),
        "--api",
        `http://127.0.0.1:${proxyPort}`,
        "--port",
        String(port),
        "--persist-to",
        stateDir,
        "--cache-ttl",
        "0",
      ]);
      try {
        await waitForOutput(dns, /\[dns\] PowerDNS \(pdns_server pid \d+\) answers/, 120_000, "npm run dns (counted)");
        await waitForAnswer(port, "counted");
        const before = counter.pdnsCalls;
        counter.byMethod = {};
        const counted = await udpLoad(port, questions, { seconds: 2, warmup: 0, concurrency: 4 });
        await sleep(200);
        const calls = counter.pdnsCalls - before;
        results.backend_calls_per_uncached_question = Number((calls / Math.max(1, counted.answered + counted.lost)).toFixed(2));
        results.d1_round_trips_per_uncached_question = results.backend_calls_per_uncached_question;
        results.backend_calls_by_method = counter.byMethod;
        log(
          `uncached: ${calls} backend calls for ${counted.answered} questions = ${results.backend_calls_per_uncached_question} calls (D1 round trips) per question: ${JSON.stringify(counter.byMethod)}`,
        );
      } finally {
        await stopGroup(dns);
      }
    } finally {
      proxy.close();
    }

    const ratio = (a, b) => (a && b ? Number((a / b).toPrecision(3)) : null);
    results.ratios = {
      remote_vs_sqlite_cached_qps: ratio(remoteCached.qps, sqliteCached.qps),
      remote_vs_sqlite_uncached_qps: ratio(remoteUncached.qps, sqliteUncached.qps),
      remote_uncached_vs_cached_qps: ratio(remoteUncached.qps, remoteCached.qps),
    };
    results.date = new Date().toISOString();
    printTable(results);
    const file = join(BENCH, "results.json");
    let previous = {};
    try {
      previous = JSON.parse(readFileSync(file, "utf8"));
    } catch {}
    writeFileSync(file, `${JSON.stringify({ ...previous, dns: results }, null, 2)}\n`);
    log("wrote bench/results.json (dns)");
    await stopGroup(service);
  } catch (error) {
    console.error(`[bench dns] ${error.stack ?? error}`);
    exitCode = 1;
  } finally {
    for (const handle of groups) await stopGroup(handle, 10_000);
    process.off("exit", cleanupOnExit);
    rmSync(work, { recursive: true, force: true });
  }
  return exitCode;
}

function printTable(results) {
  const rows = Object.entries(results.scenarios).map(
    ([name, f]) =>
      `| ${name.padEnd(26)} | ${String(f.qps).padStart(6)} | ${String(f.p50_ms).padStart(6)} | ${String(f.p99_ms).padStart(7)} | ${String(f.lost).padStart(4)} |`,
  );
  console.log(
    ["| scenario                   |    q/s | p50 ms |  p99 ms | lost |", "| -------------------------- | -----: | -----: | ------: | ---: |", ...rows].join(
      "\n",
    ),
  );
  console.log(
    `ratios: ${JSON.stringify(results.ratios)}; backend calls (D1 round trips) per uncached question: ${results.d1_round_trips_per_uncached_question}`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => {
      for (const handle of groups) killGroup(handle.child.pid, "SIGTERM");
      setTimeout(() => process.exit(130), 3_000);
    });
  }
  process.exit(await dnsBench({ quick: process.argv.includes("--quick") }));
}
