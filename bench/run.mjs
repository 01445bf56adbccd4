#!/usr/bin/env node
// `npm run bench [-- --quick] [-- --keep]`: the service against a bare baseline Worker.
//
// 1. seeds a fresh local D1 (a temp dir) through SQL files (bench/seed.mjs, applied with
//    `wrangler d1 execute --local --persist-to DIR --file`), and mints a write token with
//    scripts/token.mjs;
// 2. starts the service (`node scripts/start.mjs --auth --persist-to DIR --port P`, with
//    the rate limit raised: see serviceConfig) and the baseline (bench/baseline/, plain
//    `fetch` handler, same workerd, same D1 state) with `wrangler dev` on another port,
//    each in its own process group, always torn down at the end;
// 3. drives both with autocannon (fixed connections, a warm-up run first), prints a table
//    and the ratios against their targets, and writes bench/results.json.
//
// --quick: 10,000 domains, a 2,000-record zone, 4 s per scenario (well under 3 minutes on
// 2 cores). Default (full): 100,000 domains, a 10,000-record zone, 10 s per scenario.
// --keep: keep the temp dir (D1 state, seed SQL, server logs) and print where it is.
import autocannon from "autocannon";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, groupAlive, killGroup } from "../scripts/lib/harness.mjs";
import { generateSeed, masterFile, SIZES } from "./seed.mjs";

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, "..");
const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");
const ENV = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
  FORCE_COLOR: "0",
};

const args = process.argv.slice(2);
const QUICK = args.includes("--quick");
const KEEP = args.includes("--keep");
const MODE = QUICK ? "quick" : "full";
const SIZE = SIZES[MODE];
const CONNECTIONS = 10;
const DURATION = QUICK ? 4 : 10; // seconds measured per scenario
const WARMUP = QUICK ? 1 : 2; // seconds of warm-up per scenario (not measured)
const BULK_RUNS = QUICK ? 3 : 5; // measured zone imports / baseline batch inserts (one at a time)

const TARGETS = {
  get_by_id_vs_baseline: { op: ">=", value: 0.7 },
  create_vs_baseline_insert: { op: ">=", value: 0.5 },
  list_deep_vs_first_page: { op: "<=", value: 1.3 },
  import_per_record_vs_baseline_insert: { op: "<=", value: 3 },
};

const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(0).padStart(3)}s`;
const log = (message) => console.log(`[bench ${elapsed()}] ${message}`);
const stripAnsi = (text) => text.replace(/\x1b\[[0-9;?]*[ -\/]*[@-~]/g, ""); // eslint-disable-line no-control-regex

// ---------------------------------------------------------------- processes and cleanup
const work = mkdtempSync(join(tmpdir(), "domain-api-bench-"));
const servers = []; // { name, child, output, exited }
let cleaning = null;

async function cleanup() {
  cleaning ??= (async () => {
    for (const server of servers) killGroup(server.child.pid, "SIGTERM");
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline && servers.some((s) => groupAlive(s.child.pid))) await new Promise((r) => setTimeout(r, 100));
    for (const server of servers) killGroup(server.child.pid, "SIGKILL");
    if (KEEP) {
      for (const server of servers) writeFileSync(join(work, `${server.name}.log`), server.output);
      log(`kept ${work}`);
    } else rmSync(work, { recursive: true, force: true });
  })();
  return cleaning;
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    console.error(`\n[bench] interrupted by ${signal}`);
    cleanup().finally(() => process.exit(130));
  });
}
// Last resort if something exits without the cleanup (synchronous kills only).
process.on("exit", () => {
  for (const server of servers) killGroup(server.child.pid, "SIGKILL");
});

/** Spawns a server as leader of its own process group; resolves when it prints "Ready on". */
function startServer(name, command, argv, timeoutMs = 90_000) {
  const child = spawn(command, argv, { cwd: ROOT, env: ENV, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const server = { name, child, output: "" };
  servers.push(server);
  return new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name}: no "Ready on" within ${timeoutMs / 1000} s\n${tail(server.output)}`)), timeoutMs);
    const onData = (chunk) => {
      server.output += chunk.toString();
      if (/Ready on http/.test(stripAnsi(server.output))) {
        clearTimeout(timer);
        resolveReady();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("error", (error) => reject(new Error(`${name}: ${error.message}`)));
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited before it was ready (code ${code}, signal ${signal})\n${tail(server.output)}`));
    });
  });
}
const tail = (text, lines = 30) => stripAnsi(text).trimEnd().split("\n").slice(-lines).join("\n");

function run(command, argv, what) {
  const result = spawnSync(command, argv, { cwd: ROOT, env: ENV, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${what} failed (exit ${result.status})\n${tail(result.stdout + result.stderr)}`);
  return result.stdout;
}

/**
 * The service's wrangler.toml with absolute paths and the rate limit raised: the
 * simulated local limiter (600 requests a minute per token) would otherwise turn a
 * benchmark into a test of 429s. The limiter binding is still called on every request.
 */
function serviceConfig() {
  let toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
  toml = toml.replace(/^(main\s*=\s*)"([^"]+)"/m, (_, key, path) => `${key}${JSON.stringify(resolve(ROOT, path))}`);
  toml = toml.replace(/^(migrations_dir\s*=\s*)"([^"]+)"/m, (_, key, path) => `${key}${JSON.stringify(resolve(ROOT, path))}`);
  const raised = toml.replace(/(simple\s*=\s*\{\s*limit\s*=\s*)\d+/, "$11000000000");
  if (raised === toml && /\[\[ratelimits\]\]/.test(toml)) log("warning: could not raise the rate limit in wrangler.toml; expect 429s");
  const file = join(work, "service.wrangler.toml");
  writeFileSync(file, raised);
  return file;
}

// ---------------------------------------------------------------- measuring
const results = {}; // scenario -> figures
const notes = [];

function runAutocannon(options, label) {
  return new Promise((resolveRun, reject) => {
    let ticks = 0;
    const instance = autocannon({ timeout: 120, ...options }, (error, result) => {
      if (label) process.stdout.write("\n");
      if (error) reject(error);
      else resolveRun(result);
    });
    if (label) {
      process.stdout.write(`[bench ${elapsed()}]   ${label} `);
      instance.on("tick", (counter) => {
        ticks++;
        if (counter?.counter) process.stdout.write(`${ticks}s:${counter.counter} `);
      });
    }
  });
}

/**
 * One scenario: an optional warm-up run, then the measured run. `request` is an autocannon
 * request object (method, path, headers, body, setupRequest). `amount` instead of a
 * duration runs exactly that many requests (the bulk scenarios).
 */
async function scenario(name, base, request, { connections = CONNECTIONS, duration = DURATION, warmup = WARMUP, amount, warmupAmount, perRecord } = {}) {
  const common = { url: base, connections, requests: [request] };
  if (amount) {
    if (warmupAmount) await runAutocannon({ ...common, amount: warmupAmount });
    const result = await runAutocannon({ ...common, amount }, `${name} (${amount} requests, ${connections} connection${connections > 1 ? "s" : ""})`);
    return record(name, result, perRecord);
  }
  if (warmup) await runAutocannon({ ...common, duration: warmup });
  const result = await runAutocannon({ ...common, duration }, `${name} (${duration} s, ${connections} connections)`);
  return record(name, result, perRecord);
}

function record(name, result, perRecord) {
  const errors = result.errors + result.timeouts + result.non2xx;
  const figures = {
    rps: round(result.requests.average, 1),
    p50_ms: round(result.latency.p50, 2),
    p99_ms: round(result.latency.p99, 2),
    errors,
    requests: result.requests.total,
  };
  if (perRecord) figures.per_record_ms = round(result.latency.p50 / perRecord, 4);
  if (errors > 0) {
    const codes = Object.entries(result.statusCodeStats ?? {})
      .filter(([code]) => !code.startsWith("2"))
      .map(([code, { count }]) => `${code}×${count}`)
      .join(", ");
    notes.push(`${name}: ${errors} errors (${codes || `${result.errors} socket errors, ${result.timeouts} timeouts`})`);
  }
  results[name] = figures;
  return figures;
}
const round = (value, digits) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : null);

/** One request before a scenario, so a misconfigured scenario says why instead of timing 4xx. */
async function probe(name, base, { method = "GET", path, headers = {}, body }, expect) {
  const response = await fetch(base + path, { method, headers, body });
  const text = await response.text();
  if (response.status !== expect) {
    notes.push(`${name}: probe got ${response.status} (expected ${expect}): ${text.slice(0, 200)}`);
    log(`warning: ${name} probe answered ${response.status}: ${text.slice(0, 200)}`);
  }
  return { status: response.status, text, headers: response.headers };
}

// ---------------------------------------------------------------- main
async function main() {
  log(`mode ${MODE}: ${SIZE.domains} domains, a ${SIZE.zoneRecords}-record zone, ${CONNECTIONS} connections, ${DURATION} s per scenario; work dir ${work}`);
  const state = join(work, "state");
  const { files, meta } = generateSeed({ ...SIZE, dir: join(work, "seed") });
  log(`seed SQL written (${files.length} file(s)); minting a write token (applies the migrations)`);
  const tokenOut = run(process.execPath, [join(ROOT, "scripts", "token.mjs"), "create", "--name", "bench", "--scope", "write", "--persist-to", state], "scripts/token.mjs");
  const token = tokenOut.match(/tok_[0-9A-HJKMNP-TV-Z]{26}\.[A-Za-z0-9_-]+/)?.[0];
  if (!token) throw new Error(`no token in the output of scripts/token.mjs:\n${tokenOut}`);
  for (const [i, file] of files.entries()) {
    log(`seeding ${i + 1}/${files.length} (wrangler d1 execute --file)`);
    run(WRANGLER, ["d1", "execute", "domain-api", "--local", "--persist-to", state, "--file", file, "--yes"], `seeding ${file}`);
  }

  const [servicePort, baselinePort] = [await freePort(), await freePort()];
  log(`starting the service on :${servicePort} and the baseline on :${baselinePort}`);
  await Promise.all([
    startServer("service", process.execPath, [join(ROOT, "scripts", "start.mjs"), "--auth", "--persist-to", state, "--port", String(servicePort), "--", "--config", serviceConfig()]),
    startServer("baseline", WRANGLER, ["dev", "--config", join(BENCH, "baseline", "wrangler.toml"), "--local", "--ip", "127.0.0.1", "--port", String(baselinePort), "--persist-to", state, "--show-interactive-dev-session=false"]),
  ]);
  const svc = `http://127.0.0.1:${servicePort}`;
  const base = `http://127.0.0.1:${baselinePort}`;
  const auth = { authorization: `Bearer ${token}` };
  const json = { ...auth, "content-type": "application/json" };
  const tag = Date.now().toString(36);
  let counter = 0;
  const ids = meta.domainSample.map((d) => d.id);
  const names = meta.domainSample.map((d) => d.name);
  const rotate = (list) => {
    let i = Math.floor(Math.random() * list.length);
    return () => list[i++ % list.length];
  };

  // The deep-page cursor: a real one, from the API, near the end of the default listing.
  log(`finding a cursor near the end of /v1/domains (paging with limit=200)`);
  let cursor = null;
  let fetched = 0;
  while (fetched < meta.domains - 250) {
    const response = await fetch(`${svc}/v1/domains?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { headers: auth });
    if (response.status !== 200) throw new Error(`paging /v1/domains: ${response.status} ${(await response.text()).slice(0, 300)}`);
    const page = await response.json();
    fetched += page.data.length;
    cursor = page.next_cursor;
    if (!cursor) break;
  }
  let listLimit = "";
  const deepCheck = await fetch(`${svc}/v1/domains?cursor=${encodeURIComponent(cursor)}`, { headers: auth });
  if (deepCheck.status !== 200) {
    listLimit = "limit=200&"; // the cursor is bound to its limit: compare pages of 200
    notes.push("list pages are limit=200 (the cursor is bound to the limit it was made with)");
  }
  log(`deep cursor after row ${fetched} of ${meta.domains}`);

  const scenarios = [
    ["index", svc, { path: "/v1", headers: auth }, 200],
    ["domain_by_id", svc, { path: `/v1/domains/${ids[0]}`, headers: auth, setupRequest: ((next) => (req) => ({ ...req, path: `/v1/domains/${next()}` }))(rotate(ids)) }, 200],
    ["domain_by_name", svc, { path: `/v1/domains/${names[0]}`, headers: auth, setupRequest: ((next) => (req) => ({ ...req, path: `/v1/domains/${next()}` }))(rotate(names)) }, 200],
    ["list_first_page", svc, { path: `/v1/domains${listLimit ? `?${listLimit.slice(0, -1)}` : ""}`, headers: auth }, 200],
    ["list_deep_page", svc, { path: `/v1/domains?${listLimit}cursor=${encodeURIComponent(cursor)}`, headers: auth }, 200],
    ["list_filtered", svc, { path: "/v1/domains?extension=org&status=clientTransferProhibited", headers: auth }, 200],
    ["create_contact", svc, {
      method: "POST", path: "/v1/contacts", headers: json,
      setupRequest: (req) => {
        const n = counter++;
        return { ...req, body: JSON.stringify({ name: `Bench Writer ${tag}-${n}`, email: `writer-${tag}-${n}@bench.example.org`, address: { city: "London", country_code: "GB" } }) };
      },
    }, 201],
    ["patch_domain", svc, {
      method: "PATCH", path: `/v1/domains/${ids[0]}`, headers: { ...auth, "content-type": "application/merge-patch+json" },
      setupRequest: ((state) => (req) => {
        const i = state.i++;
        // Each pass over the domains flips auto_renew, so every PATCH is a real write.
        return { ...req, path: `/v1/domains/${ids[i % ids.length]}`, body: JSON.stringify({ auto_renew: Math.floor(i / ids.length) % 2 === 1 }) };
      })({ i: 0 }),
    }, 200],
    ["create_record", svc, {
      method: "POST", path: "/v1/records", headers: json,
      setupRequest: (req) => ({ ...req, body: JSON.stringify({ zone: meta.zones.records.id, name: `r-${tag}-${counter++}`, type: "A", content: "192.0.2.10" }) }),
    }, 201],
    ["zone_export", svc, { path: `/v1/zones/${meta.zones.big.id}`, headers: { ...auth, accept: "text/dns" } }, 200],
  ];
  const bodyOf = (req) => (req.setupRequest ? req.setupRequest({ ...req }).body : req.body);
  const total = scenarios.length + 5;
  let index = 0;
  for (const [name, url, req, expect] of scenarios) {
    log(`(${++index}/${total}) ${name}`);
    const check = await probe(name, url, { method: req.method, path: req.setupRequest && req.method === undefined ? req.setupRequest({ ...req }).path : req.path, headers: req.headers, body: bodyOf(req) }, expect);
    if (name === "zone_export") {
      const lines = check.text.split("\n").filter((l) => l && !l.startsWith("$")).length;
      log(`  export has ${lines} lines (SOA + records), ${(check.text.length / 1024).toFixed(0)} KiB`);
    }
    await scenario(name, url, req);
  }

  // Import: a zone the size of the big one, one request, one at a time, a new name each.
  log(`(${++index}/${total}) zone_import (${SIZE.zoneRecords} records per request)`);
  const importReq = {
    method: "POST", path: "/v1/zones", headers: { ...auth, "content-type": "text/dns" },
    setupRequest: (req) => ({ ...req, body: masterFile(`import-${tag}-${counter++}.bench`, SIZE.zoneRecords) }),
  };
  await probe("zone_import", svc, { method: "POST", path: "/v1/zones", headers: importReq.headers, body: bodyOf(importReq) }, 201);
  await scenario("zone_import", svc, importReq, { connections: 1, amount: BULK_RUNS, warmupAmount: 0, perRecord: SIZE.zoneRecords });

  // The baseline.
  const baselineScenarios = [
    ["baseline_json", { path: "/json" }, 200],
    ["baseline_get_by_id", { path: `/domains/${ids[0]}`, setupRequest: ((next) => (req) => ({ ...req, path: `/domains/${next()}` }))(rotate(ids)) }, 200],
    ["baseline_insert", { method: "POST", path: "/contacts" }, 201],
  ];
  for (const [name, req, expect] of baselineScenarios) {
    log(`(${++index}/${total}) ${name}`);
    await probe(name, base, { method: req.method, path: req.path }, expect);
    await scenario(name, base, req);
  }
  log(`(${++index}/${total}) baseline_batch_insert (${SIZE.zoneRecords} rows per batch)`);
  const batchReq = { method: "POST", path: `/records?zone=${meta.zones.baseline.id}&n=${SIZE.zoneRecords}` };
  await probe("baseline_batch_insert", base, batchReq, 201);
  await scenario("baseline_batch_insert", base, batchReq, { connections: 1, amount: BULK_RUNS, warmupAmount: 0, perRecord: SIZE.zoneRecords });

  // Ratios, each ours ÷ baseline (or deep ÷ first page) from this run.
  const ratio = (a, b) => (a && b ? round(a / b, 3) : null);
  const ratios = {
    get_by_id_vs_baseline: ratio(results.domain_by_id.rps, results.baseline_get_by_id.rps),
    create_vs_baseline_insert: ratio(results.create_contact.rps, results.baseline_insert.rps),
    list_deep_vs_first_page: ratio(results.list_deep_page.p50_ms, results.list_first_page.p50_ms),
    import_per_record_vs_baseline_insert: ratio(results.zone_import.per_record_ms, results.baseline_batch_insert.per_record_ms),
  };

  printTable(ratios);
  const out = {
    mode: MODE,
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? null, node: process.version },
    settings: { connections: CONNECTIONS, duration_s: DURATION, warmup_s: WARMUP, bulk_runs: BULK_RUNS, ...SIZE },
    figures: results,
    ratios,
    targets: Object.fromEntries(Object.entries(TARGETS).map(([k, { op, value }]) => [k, `${op} ${value}`])),
    notes,
  };
  writeFileSync(join(BENCH, "results.json"), JSON.stringify(out, null, 2) + "\n");
  log(`wrote bench/results.json`);
}

function printTable(ratios) {
  const rows = [["scenario", "req/s", "p50 ms", "p99 ms", "errors", "per record ms"]];
  for (const [name, f] of Object.entries(results)) rows.push([name, String(f.rps), String(f.p50_ms), String(f.p99_ms), String(f.errors), f.per_record_ms === undefined ? "" : String(f.per_record_ms)]);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log("");
  for (const [i, row] of rows.entries()) {
    console.log(`| ${row.map((cell, j) => (j === 0 ? cell.padEnd(widths[j]) : cell.padStart(widths[j]))).join(" | ")} |`);
    if (i === 0) console.log(`|${widths.map((w, j) => (j === 0 ? "-".repeat(w + 2) : "-".repeat(w + 1) + ":")).join("|")}|`);
  }
  console.log("");
  console.log("| ratio | value | target | met |");
  console.log("|---|---:|---:|:---:|");
  for (const [name, value] of Object.entries(ratios)) {
    const { op, value: target } = TARGETS[name];
    const met = value === null ? "?" : (op === ">=" ? value >= target : value <= target) ? "yes" : "no";
    console.log(`| ${name} | ${value} | ${op} ${target} | ${met} |`);
  }
  if (notes.length) {
    console.log("\nnotes:");
    for (const note of notes) console.log(`- ${note}`);
  }
  console.log("");
}

let status = 0;
try {
  await main();
} catch (error) {
  console.error(`[bench] failed: ${error?.stack ?? error}`);
  status = 1;
} finally {
  await cleanup();
}
log(`done in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
process.exit(status);
