#!/usr/bin/env node
// `npm run bench -- --dns [--quick]`: the serving tier (docs/serving.md) against PowerDNS
// serving the same zone from its own SQLite database, measured with Debian's `dnsperf`
// on the same machine, in one run:
//
// - the secondary of `npm run dns` (Knot DNS 3.2, answering from the copy it transferred
//   from the primary, PowerDNS on this service), and PowerDNS 4.7 with its gsqlite3 backend
//   loaded with the service's export of the zone (`pdnsutil load-zone`), its caches on
//   (60 s, as a deployment would keep them);
// - (a) a flood in which every question names a different name that does not exist (the
//   "random subdomain" attack: no cache holds any of them), (b) a realistic mix: existing
//   names of several types 80 %, names that do not exist 10 %, names a wildcard answers
//   10 %, 600 distinct questions asked round and round;
// - every question with EDNS0 and the DO bit (RFC 6891, RFC 3225), as resolvers ask an
//   authoritative server: the validating ones (BIND, Unbound, Knot Resolver and the
//   public resolvers by default) set DO on every query, signed zone or not;
// - the API requests the tier makes while it answers, counted by a proxy between the
//   primary and the service, per 1 000 questions: the primary's once-a-second poll
//   (getUpdatedMasters) and anything a question causes (nothing: the secondary asks no one).
//
// Each scenario runs the two servers one after the other, in rounds (quick 3, full 5),
// the order swapped every round, and each server's figure is the median of its runs (the
// machine is shared, and one run against the same server moved by half), `dnsperf -c 8
// -q 64 -D` for a fixed time (`--dns-rounds N`, `--dns-seconds S` change the rounds and
// the time, to explore). Results go to bench/results.json under "dns" with the machine's load average.
// Everything on 127.0.0.1; every process is stopped by its PID (process group), temp dirs
// removed.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import { cpus, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runCommand, startDaemon, startDnsTier, startPowerDns, stopDaemon, stopDaemons, waitFor } from "../scripts/lib/daemons.mjs";
import { tierSecondaryVar } from "../scripts/lib/dns-tier.mjs";
import { freePort } from "../scripts/lib/harness.mjs";
import { pdnsSettings } from "../scripts/lib/pdns-settings.mjs";
import { benchLog, loads, mustBeReady } from "./common.mjs";
import { writeResults } from "./results.mjs";

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, "..");
const PDNSUTIL = "/usr/bin/pdnsutil";
const ZONE = "bench-dns.test";
/** PowerDNS on SQLite with its caches on, as one would run it. */
const CACHE_TTL = 60;
const CLIENTS = 8;
const OUTSTANDING = 64;
const SQLITE_SCHEMAS = ["/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql", "/usr/share/doc/pdns-backend-sqlite3/schema.sqlite3.sql"];

const log = benchLog("dns");

// ---------------------------------------------------------------- processes
// Started and stopped by scripts/lib/daemons.mjs (process groups, stopped by PID).

/** True when the server answers the zone's SOA (at `serial`, when given). */
async function answers(port, serial = null) {
  const soa = await runCommand("dig", ["@127.0.0.1", "-p", String(port), "+short", "+norec", "+time=1", "+tries=1", ZONE, "SOA"], { timeoutMs: 10_000 });
  const answered = soa.stdout.trim().split(" ");
  return answered.length === 7 && (serial === null || answered[2] === String(serial));
}

// ---------------------------------------------------------------- the pieces
function ensurePackages() {
  const result = spawnSync(process.execPath, [join(ROOT, "scripts", "ensure-system-packages.mjs")], {
    stdio: "inherit",
    env: {
      ...process.env,
      SYSTEM_PACKAGES:
        "pdns-server pdns-backend-remote pdns-backend-sqlite3:/usr/lib/*/pdns/libgsqlite3backend.so sqlite3:sqlite3 knot:knotd bind9-dnsutils:dig dnsperf:dnsperf",
    },
  });
  if (result.status !== 0) throw new Error("the Debian packages for the DNS bench are missing (see above)");
}

/** The zone: `records` hosts with an A record, every fourth an AAAA too, a wildcard, and apex NS, MX and TXT (the mix asks for each). */
function zoneFile(records) {
  const lines = [
    `$ORIGIN ${ZONE}.`,
    "$TTL 300",
    `@ SOA ns1.${ZONE}. hostmaster.${ZONE}. 1 7200 900 1209600 300`,
    `@ NS ns1.${ZONE}.`,
    `@ NS ns2.example.net.`,
    `@ MX 10 mail.${ZONE}.`,
    '@ TXT "v=spf1 mx -all"',
    "ns1 A 192.0.2.53",
    "mail A 192.0.2.25",
  ];
  for (let i = 0; i < records; i++) {
    lines.push(`h${i} A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    if (i % 4 === 0) lines.push(`h${i} AAAA 2001:db8::${i.toString(16)}`);
  }
  lines.push("*.wild A 192.0.2.99", '*.wild TXT "wildcard"');
  return `${lines.join("\n")}\n`;
}

function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** (b) 600 questions: existing names of several types 80 %, names that do not exist 10 %, wildcard names 10 % (seeded). */
function mixedQuestions(records) {
  const random = seededRandom(42);
  const out = [];
  for (let i = 0; i < 600; i++) {
    const pick = random();
    if (pick < 0.6) out.push(`h${Math.floor(random() * records)}.${ZONE} A`);
    else if (pick < 0.65) out.push(`h${Math.floor(random() * records)}.${ZONE} AAAA`);
    else if (pick < 0.7) out.push(`${ZONE} MX`);
    else if (pick < 0.75) out.push(`${ZONE} TXT`);
    else if (pick < 0.8) out.push(`${ZONE} NS`);
    else if (pick < 0.9) out.push(`nx${i}.${ZONE} A`);
    else out.push(`w${i}.wild.${ZONE} A`);
  }
  return out;
}

/** (a) `count` names that do not exist, each different (a random label under the zone); `run` keeps every run's names apart. */
function floodQuestions(count, run) {
  const random = seededRandom(7 + run);
  const out = [];
  for (let i = 0; i < count; i++) out.push(`r${run}-${i.toString(36)}-${Math.floor(random() * 2 ** 32).toString(36)}.${ZONE} A`);
  return out;
}

function pdnsConfig({ port, cache, backend }) {
  return [...backend, ...pdnsSettings({ port, cache }), ""].join("\n");
}

/** A proxy to the service that counts the DNS backend's requests by method (and forwards everything). */
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

/** A process's CPU time so far, user + system, in seconds (/proc/PID/stat), or NaN. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

// ---------------------------------------------------------------- the run
/** One dnsperf run: its figures, or an error when dnsperf did not report. */
async function dnsperf(port, file, seconds) {
  const { output } = await runCommand(
    "dnsperf",
    ["-s", "127.0.0.1", "-p", String(port), "-d", file, "-l", String(seconds), "-c", String(CLIENTS), "-q", String(OUTSTANDING), "-t", "2", "-D"],
    { timeoutMs: (seconds + 30) * 1000 },
  );
  const number = (label) => Number(new RegExp(`${label}:\\s+([0-9.]+)`).exec(output)?.[1] ?? Number.NaN);
  const sent = number("Queries sent");
  const completed = number("Queries completed");
  const qps = number("Queries per second");
  if (!Number.isFinite(qps)) return { error: output.trim().split("\n").slice(-5).join(" | ") };
  return {
    qps: Math.round(qps),
    sent,
    completed,
    lost: number("Queries lost"),
    avg_latency_ms: Number((number("Average Latency \\(s\\)") * 1000).toFixed(3)),
    rcodes: Object.fromEntries([...(/Response codes:([^\n]*)/.exec(output)?.[1] ?? "").matchAll(/([A-Z]+) (\d+)/g)].map((m) => [m[1], Number(m[2])])),
  };
}

export async function dnsBench({ quick = false, rounds: roundsAsked = null, seconds: secondsAsked = null } = {}) {
  const records = quick ? 1_000 : 10_000;
  const seconds = secondsAsked ?? (quick ? 5 : 10);
  const rounds = roundsAsked ?? (quick ? 3 : 5);
  const work = mkdtempSync(join(tmpdir(), "domain-api-bench-dns-"));
  const stateDir = join(work, "state");
  const results = {
    mode: quick ? "quick" : "full",
    records,
    seconds,
    rounds,
    clients: CLIENTS,
    outstanding: OUTSTANDING,
    edns_do: true,
    sqlite_cache_ttl: CACHE_TTL,
    cpus: cpus().length,
    load_before: loads(),
    scenarios: {},
  };
  let exitCode = 0;
  try {
    ensurePackages();
    const mixed = join(work, "mixed.txt");
    writeFileSync(mixed, `${mixedQuestions(records).join("\n")}\n`);
    // Each flood run its own names, enough that no run asks one twice (dnsperf would start
    // the file again) and none an earlier run asked (PowerDNS would have it cached).
    let floodRuns = 0;
    const floodFile = () => {
      const file = join(work, `flood-${floodRuns}.txt`);
      writeFileSync(file, `${floodQuestions(quick ? 150_000 : 400_000, floodRuns++).join("\n")}\n`);
      return file;
    };

    // The service, with a fresh D1, authentication off for the import (the DNS backend
    // still takes only its dns token).
    const apiPort = await freePort();
    const base = `http://127.0.0.1:${apiPort}`;
    // The tier's secondary, which the service names in every zone's ALSO-NOTIFY (DNS_TIER_SECONDARIES).
    const secondaryPort = await freePort();
    log(`starting the service on ${base}`);
    const startArgs = ["--port", String(apiPort), "--persist-to", stateDir, "--inspector-port=0", ...tierSecondaryVar(secondaryPort)];
    const service = mustBeReady(
      await startDaemon(process.execPath, [join(ROOT, "scripts", "start.mjs"), ...startArgs], {
        name: "the service",
        ready: /Ready on http/,
        timeoutMs: 180_000,
        graceMs: 10_000,
      }),
    );
    const imported = await fetch(`${base}/v1/zones`, { method: "POST", headers: { "content-type": "text/dns" }, body: zoneFile(records) });
    if (imported.status !== 201) throw new Error(`zone import answered ${imported.status}: ${(await imported.text()).slice(0, 300)}`);
    const serial = (await imported.json()).soa.serial;
    const exported = await (await fetch(`${base}/v1/zones/${ZONE}`, { headers: { accept: "text/dns" } })).text();
    writeFileSync(join(work, `${ZONE}.zone`), exported);
    log(`zone ${ZONE} imported through the API: ${records} A records, ${Math.ceil(records / 4)} AAAA, a wildcard, apex NS, MX and TXT`);

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
    const sqlitePort = await freePort();
    writeFileSync(join(sqliteDir, "pdns.conf"), pdnsConfig({ port: sqlitePort, cache: CACHE_TTL, backend: sqliteBackend }));
    const sqlite = mustBeReady(
      await startPowerDns(sqliteDir, {
        name: "PowerDNS on SQLite",
        ready: () => answers(sqlitePort),
        timeoutMs: 60_000,
        graceMs: 10_000,
      }),
    );
    log(`PowerDNS on its own SQLite (pdnsutil load-zone of the export) answers on 127.0.0.1:${sqlitePort}, caches ${CACHE_TTL} s`);

    // The tier, its primary reaching the service through the counting proxy.
    const { server: proxy, counter } = countingProxy(base);
    const proxyPort = await freePort();
    await new Promise((r) => proxy.listen(proxyPort, "127.0.0.1", r));
    const primaryPort = await freePort();
    const tier = await startDnsTier({
      api: `http://127.0.0.1:${proxyPort}`,
      port: secondaryPort,
      primaryPort,
      persistTo: stateDir,
      timeoutMs: 180_000,
      graceMs: 30_000,
    });
    try {
      mustBeReady(tier);
      if ((await waitFor(() => answers(secondaryPort, serial), { timeoutMs: 60_000, intervalMs: 200 })) === null)
        throw new Error(`the secondary does not answer for ${ZONE} at serial ${serial} on 127.0.0.1:${secondaryPort}`);
      log(
        `the tier: the secondary (Knot) holds ${ZONE} at serial ${serial} on 127.0.0.1:${secondaryPort}; the primary (PowerDNS on the service) on ${primaryPort}`,
      );

      const servers = [
        ["secondary", secondaryPort],
        ["sqlite", sqlitePort],
      ];
      const runsOf = {};
      for (const scenario of ["flood", "mix"]) {
        const file = () => (scenario === "mix" ? mixed : floodFile());
        // Warm-up: the mix's answers into PowerDNS's caches, and each server's sockets.
        for (const [, port] of servers) await dnsperf(port, file(), 2);
        for (let round = 0; round < rounds; round++) {
          for (const [server, port] of round % 2 ? [...servers].reverse() : servers) {
            const questions = file();
            const before = { ...counter.byMethod };
            const calls = counter.pdnsCalls;
            const pid = server === "secondary" ? Number([...tier.output.matchAll(/knotd (?:pid |started again \(pid )(\d+)/g)].at(-1)?.[1]) : sqlite.child.pid;
            const cpuBefore = cpuSeconds(pid);
            const figures = await dnsperf(port, questions, seconds);
            // The server's own CPU time per answer (user + system, /proc): what a shared
            // machine's load moves least, unlike q/s (dnsperf and the server share 2 cores).
            figures.cpu_us_per_answer = Number((((cpuSeconds(pid) - cpuBefore) / Math.max(1, figures.completed)) * 1e6).toFixed(2));
            if (figures.error) throw new Error(`dnsperf against the ${server} (${scenario}): ${figures.error}`);
            const name = `${server}_${scenario}`;
            if (server === "secondary") {
              const byMethod = Object.fromEntries(
                Object.entries(counter.byMethod)
                  .map(([method, count]) => [method, count - (before[method] ?? 0)])
                  .filter(([, count]) => count > 0),
              );
              const total = counter.pdnsCalls - calls;
              const polls = byMethod.getUpdatedMasters ?? 0;
              figures.api_requests = total;
              figures.api_requests_by_method = byMethod;
              figures.api_requests_per_1000_questions = Number(((total / Math.max(1, figures.sent)) * 1000).toFixed(4));
              figures.question_driven_api_requests_per_1000_questions = Number((((total - polls) / Math.max(1, figures.sent)) * 1000).toFixed(4));
            }
            figures.load = loads();
            (runsOf[name] ??= []).push(figures);
            log(
              `${name}: ${figures.qps} q/s, avg ${figures.avg_latency_ms} ms, ${figures.cpu_us_per_answer} µs CPU per answer, lost ${figures.lost} of ${figures.sent}, ${JSON.stringify(figures.rcodes)}${server === "secondary" ? `; API requests ${figures.api_requests} ${JSON.stringify(figures.api_requests_by_method)}` : ""}; load ${figures.load.join(" ")}`,
            );
          }
        }
      }
      // Each server's median run (by q/s), with every run's q/s beside it.
      for (const [name, list] of Object.entries(runsOf)) {
        const sorted = [...list].sort((x, y) => x.qps - y.qps);
        const cpu = list.map((run) => run.cpu_us_per_answer).sort((x, y) => x - y);
        results.scenarios[name] = {
          ...sorted[Math.floor((sorted.length - 1) / 2)],
          runs: list.map((run) => run.qps),
          cpu_us_per_answer_runs: list.map((run) => run.cpu_us_per_answer),
          median_cpu_us_per_answer: cpu[Math.floor((cpu.length - 1) / 2)],
          loads: list.map((run) => run.load[0]),
        };
      }
    } finally {
      await stopDaemon(tier);
      await stopDaemon(sqlite);
      proxy.close();
    }

    const ratio = (a, b) => (a && b ? Number((a / b).toPrecision(3)) : null);
    const s = results.scenarios;
    results.ratios = {
      secondary_vs_sqlite_flood_qps: ratio(s.secondary_flood?.qps, s.sqlite_flood?.qps),
      secondary_vs_sqlite_mix_qps: ratio(s.secondary_mix?.qps, s.sqlite_mix?.qps),
      // PowerDNS's CPU per answer over the secondary's: how many answers the secondary gives for one of PowerDNS's, CPU for CPU.
      sqlite_vs_secondary_flood_cpu_per_answer: ratio(s.sqlite_flood?.median_cpu_us_per_answer, s.secondary_flood?.median_cpu_us_per_answer),
      sqlite_vs_secondary_mix_cpu_per_answer: ratio(s.sqlite_mix?.median_cpu_us_per_answer, s.secondary_mix?.median_cpu_us_per_answer),
    };
    results.targets = { secondary_vs_sqlite_qps: 0.8, question_driven_api_requests_per_1000_questions: 0 };
    results.load_after = loads();
    results.date = new Date().toISOString();
    printTable(results);
    writeResults({ dns: results });
    log("wrote bench/results.json (dns)");
    await stopDaemon(service);
  } catch (error) {
    console.error(`[bench dns] ${error.stack ?? error}`);
    exitCode = 1;
  } finally {
    await stopDaemons();
    rmSync(work, { recursive: true, force: true });
  }
  return exitCode;
}

function printTable(results) {
  const rows = Object.entries(results.scenarios).map(
    ([name, f]) =>
      `| ${name.padEnd(16)} | ${String(f.qps).padStart(7)} | ${String(f.avg_latency_ms).padStart(7)} | ${String(f.median_cpu_us_per_answer).padStart(9)} | ${String(f.lost).padStart(6)} | ${String(f.api_requests_per_1000_questions ?? "").padStart(11)} |`,
  );
  console.log(
    [
      "| scenario         |     q/s |  avg ms | CPU µs/ans |   lost | API req/1k q |",
      "| ---------------- | ------: | ------: | ---------: | -----: | -----------: |",
      ...rows,
    ].join("\n"),
  );
  console.log(`ratios: ${JSON.stringify(results.ratios)}; load ${results.load_before.join(" ")} → ${results.load_after.join(" ")}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => {
      void stopDaemons().finally(() => process.exit(130));
    });
  }
  process.exit(await dnsBench({ quick: process.argv.includes("--quick") }));
}
