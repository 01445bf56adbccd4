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
//
// Scaling (full mode, after the main scenarios; or alone with --scaling-only; skipped with
// --no-scaling): the read scenarios (get by id / by name, list first / deep page,
// filtered list) at 1k, 10k and 100k domains, each size on its own freshly seeded D1 (the
// 100k point reuses the main run's D1 and service in full mode), SCALE_DURATION s each.
// Prints the table, stores it under "scaling" in bench/results.json and draws
// bench/scaling.svg (p50 per scenario against rows, log x axis).
//
// Memory (quick and full mode, last; or alone with --memory-only; skipped with
// --no-memory): peak memory and CPU of the workerd process for one master-file import,
// export and zone delete at growing sizes, in two shapes (bench/memory.mjs), each on a
// freshly started service; per-record figures under "memory" in bench/results.json.
// --memory-sizes N,N,… overrides the record counts (default: fractions of the import
// limits read from src/resources/zones/master-file.ts); --memory-shapes picks among
// typical, dense, long and full (all four by default).
import autocannon from "autocannon";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, groupAlive, killGroup } from "../scripts/lib/harness.mjs";
import { BYTES_PER_LINE, memoryPhase, printMemory } from "./memory.mjs";
import { peerPhase, peerProcessGroups } from "./peer.mjs";
import { writeResults } from "./results.mjs";
import { printWebhooks, webhooksPhase } from "./webhooks.mjs";
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
// --dns: the DNS serving phase alone (bench/dns.mjs): queries per second through PowerDNS on
// this service against PowerDNS on its own SQLite backend, with caches warm and off.
// --dns-rounds N, --dns-seconds S: its rounds and the time of each run (to explore).
const numberOption = (name) => {
  if (!args.some((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`))) return null;
  const value = args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1] ?? args[args.indexOf(`--${name}`) + 1];
  if (/^[1-9][0-9]{0,3}$/.test(value ?? "")) return Number(value);
  console.error(`--${name} takes a whole number from 1 to 9999, got ${JSON.stringify(value ?? "")}`);
  process.exit(2);
};
if (args.includes("--dns"))
  process.exit(
    await (await import("./dns.mjs")).dnsBench({ quick: args.includes("--quick"), rounds: numberOption("dns-rounds"), seconds: numberOption("dns-seconds") }),
  );
// --update: DNS UPDATE through the tier's update gateway alone (bench/update.mjs): a 1 000-record
// update's time and records per second, and another account's one-record update meanwhile.
// --update-rounds N: its rounds (to explore).
// --registry: registering through a connected registry (the local registry, over EPP) against
// the builtin registry (bench/registry.mjs): the p50 ratio, target ≤ 1.5.
if (args.includes("--registry")) process.exit(await (await import("./registry.mjs")).registryBench({ quick: args.includes("--quick") }));
if (args.includes("--update"))
  process.exit(await (await import("./update.mjs")).updateBench({ quick: args.includes("--quick"), rounds: numberOption("update-rounds") }));
// --cost: the D1 cost table of every operation (bench/cost.mjs runs test/cost.test.ts), in seconds.
if (args.includes("--cost")) process.exit(await (await import("./cost.mjs")).costBench());
const QUICK = args.includes("--quick");
// --peer: the same scenarios against this service and a private PowerDNS (bench/peer.mjs).
const PEER = args.includes("--peer");
const SCALING_ONLY = args.includes("--scaling-only");
const MEMORY_ONLY = args.includes("--memory-only");
const SCALING = SCALING_ONLY || (!QUICK && !MEMORY_ONLY && !args.includes("--no-scaling"));
const MEMORY = MEMORY_ONLY || (!SCALING_ONLY && !args.includes("--no-memory"));
// --webhooks: the webhook phase alone (bench/webhooks.mjs); it also runs last in quick and full mode (--no-webhooks skips it).
// --webhook-rounds N, --webhook-seconds S: its rounds and the time of each run (to explore).
const WEBHOOKS_ONLY = args.includes("--webhooks");
const WEBHOOKS = WEBHOOKS_ONLY || (!SCALING_ONLY && !MEMORY_ONLY && !args.includes("--no-webhooks"));
const MEMORY_SIZES = args.includes("--memory-sizes") ? args[args.indexOf("--memory-sizes") + 1].split(",").map(Number) : null;
const MEMORY_SHAPES = args.includes("--memory-shapes") ? args[args.indexOf("--memory-shapes") + 1].split(",") : ["typical", "dense", "long", "full"];
const SCALE_SIZES = [1_000, 10_000, 100_000];
const SCALE_DURATION = 4; // seconds measured per scenario and size (after 1 s of warm-up)
const SCALE_SCENARIOS = ["domain_by_id", "domain_by_name", "list_first_page", "list_deep_page", "list_filtered"];
const KEEP = args.includes("--keep");
const MODE = SCALING_ONLY ? "scaling-only" : MEMORY_ONLY ? "memory-only" : WEBHOOKS_ONLY ? "webhooks-only" : QUICK ? "quick" : "full";
const SIZE = SIZES[QUICK ? "quick" : "full"];
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
const stripAnsi = (text) => text.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, ""); // eslint-disable-line no-control-regex

// ---------------------------------------------------------------- processes and cleanup
const work = mkdtempSync(join(tmpdir(), "domain-api-bench-"));
const servers = []; // { name, child, output, exited }
let cleaning = null;

async function cleanup() {
  cleaning ??= (async () => {
    // The servers this file started, and the PowerDNS of --peer (bench/peer.mjs): each leads
    // a process group of its own, so the signal that stops the bench reaches none of them.
    const pids = [...servers.map((server) => server.child.pid), ...peerProcessGroups()];
    for (const pid of pids) killGroup(pid, "SIGTERM");
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline && pids.some((pid) => groupAlive(pid))) await new Promise((r) => setTimeout(r, 100));
    for (const pid of pids) killGroup(pid, "SIGKILL");
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
  for (const pid of peerProcessGroups()) killGroup(pid, "SIGKILL");
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
 * The service's wrangler.toml with absolute paths and the rate limits raised: the
 * simulated local limiters (600 requests a minute per token, 1 200 per account) would
 * otherwise turn a benchmark into a test of 429s. The limiter bindings are still called
 * on every request.
 */
function serviceConfig() {
  let toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
  toml = toml.replace(/^(main\s*=\s*)"([^"]+)"/m, (_, key, path) => `${key}${JSON.stringify(resolve(ROOT, path))}`);
  toml = toml.replace(/^(migrations_dir\s*=\s*)"([^"]+)"/m, (_, key, path) => `${key}${JSON.stringify(resolve(ROOT, path))}`);
  // Every limiter: the per-token one, the account's shares and the failed-lookup budget.
  // And the account quotas (LIMIT_*): the write phases create more contacts than an
  // account may hold by default (10 000), which would turn the later runs into 422s.
  const raised = toml.replace(/(simple\s*=\s*\{\s*limit\s*=\s*)\d+/g, "$11000000000").replace(/^(LIMIT_[A-Z_]+\s*=\s*)"\d+"/gm, '$1"1000000000"');
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
async function scenario(
  name,
  base,
  request,
  { connections = CONNECTIONS, duration = DURATION, warmup = WARMUP, amount, warmupAmount, perRecord, into = results } = {},
) {
  const common = { url: base, connections, requests: [request] };
  if (amount) {
    if (warmupAmount) await runAutocannon({ ...common, amount: warmupAmount });
    const result = await runAutocannon({ ...common, amount }, `${name} (${amount} requests, ${connections} connection${connections > 1 ? "s" : ""})`);
    return record(name, result, perRecord, into);
  }
  if (warmup) await runAutocannon({ ...common, duration: warmup });
  const result = await runAutocannon({ ...common, duration }, `${name} (${duration} s, ${connections} connections)`);
  return record(name, result, perRecord, into);
}

function record(name, result, perRecord, into = results) {
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
  into[name] = figures;
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

// ---------------------------------------------------------------- setup helpers
/** Mints a write token in the D1 state dir `state` (applying the migrations first); returns it. */
function mintToken(state) {
  const tokenOut = run(
    process.execPath,
    [join(ROOT, "scripts", "token.mjs"), "create", "--name", "bench", "--scope", "write", "--persist-to", state],
    "scripts/token.mjs",
  );
  const token = tokenOut.match(/tok_[0-9A-HJKMNP-TV-Z]{26}\.[A-Za-z0-9_-]+/)?.[0];
  if (!token) throw new Error(`no token in the output of scripts/token.mjs:\n${tokenOut}`);
  return token;
}

/** Seeds a fresh D1 state dir through SQL files and mints a write token; returns { token, meta }. */
function seedState(state, size, seedDir, label = "") {
  const { files, meta } = generateSeed({ ...size, dir: seedDir });
  log(`${label}seed SQL written (${files.length} file(s), ${size.domains} domains); minting a write token (applies the migrations)`);
  const token = mintToken(state);
  for (const [i, file] of files.entries()) {
    log(`${label}seeding ${i + 1}/${files.length} (wrangler d1 execute --file)`);
    run(WRANGLER, ["d1", "execute", "domain-api", "--local", "--persist-to", state, "--file", file, "--yes"], `seeding ${file}`);
  }
  return { token, meta };
}

async function startService(state, port, name = "service", wranglerArgs = [], startArgs = []) {
  await startServer(name, process.execPath, [
    join(ROOT, "scripts", "start.mjs"),
    "--auth",
    ...startArgs,
    "--persist-to",
    state,
    "--port",
    String(port),
    "--",
    "--config",
    serviceConfig(),
    ...wranglerArgs,
  ]);
  return servers.find((s) => s.name === name);
}

/** Stops one server (its whole process group) and forgets it. */
async function stopServer(server) {
  if (!server) return;
  server.child.removeAllListeners("exit");
  killGroup(server.child.pid, "SIGTERM");
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline && groupAlive(server.child.pid)) await new Promise((r) => setTimeout(r, 100));
  killGroup(server.child.pid, "SIGKILL");
  if (KEEP) writeFileSync(join(work, `${server.name}.log`), server.output);
  servers.splice(servers.indexOf(server), 1);
}

const rotate = (list) => {
  let i = Math.floor(Math.random() * list.length);
  return () => list[i++ % list.length];
};

/** A real cursor from the API, near the end of the default listing (paging with limit=200). */
async function findDeepCursor(svc, auth, total) {
  log(`finding a cursor near the end of /v1/domains (paging with limit=200)`);
  let cursor = null;
  let fetched = 0;
  while (fetched < total - 250) {
    const response = await fetch(`${svc}/v1/domains?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { headers: auth });
    if (response.status !== 200) throw new Error(`paging /v1/domains: ${response.status} ${(await response.text()).slice(0, 300)}`);
    const page = await response.json();
    fetched += page.data.length;
    cursor = page.next_cursor;
    if (!cursor) break;
  }
  let listLimit = "";
  const deepCheck = await fetch(`${svc}/v1/domains?cursor=${encodeURIComponent(cursor)}`, { headers: auth });
  if (deepCheck.status !== 200) listLimit = "limit=200&"; // the cursor is bound to its limit: compare pages of 200
  log(`deep cursor after row ${fetched} of ${total}`);
  return { cursor, listLimit };
}

/** The read scenarios (also the scaling ones): [name, url, request, expected status]. */
function readScenarios(svc, auth, meta, { cursor, listLimit }) {
  const ids = meta.domainSample.map((d) => d.id);
  const names = meta.domainSample.map((d) => d.name);
  return [
    [
      "domain_by_id",
      svc,
      { path: `/v1/domains/${ids[0]}`, headers: auth, setupRequest: ((next) => (req) => ({ ...req, path: `/v1/domains/${next()}` }))(rotate(ids)) },
      200,
    ],
    [
      "domain_by_name",
      svc,
      { path: `/v1/domains/${names[0]}`, headers: auth, setupRequest: ((next) => (req) => ({ ...req, path: `/v1/domains/${next()}` }))(rotate(names)) },
      200,
    ],
    ["list_first_page", svc, { path: `/v1/domains${listLimit ? `?${listLimit.slice(0, -1)}` : ""}`, headers: auth }, 200],
    ["list_deep_page", svc, { path: `/v1/domains?${listLimit}cursor=${encodeURIComponent(cursor)}`, headers: auth }, 200],
    ["list_filtered", svc, { path: "/v1/domains?extension=org&status=clientTransferProhibited", headers: auth }, 200],
  ];
}
const bodyOf = (req) => (req.setupRequest ? req.setupRequest({ ...req }).body : req.body);
const probeOf = (name, url, req, expect) =>
  probe(
    name,
    url,
    {
      method: req.method,
      path: req.setupRequest && req.method === undefined ? req.setupRequest({ ...req }).path : req.path,
      headers: req.headers,
      body: bodyOf(req),
    },
    expect,
  );

// ---------------------------------------------------------------- main
async function main() {
  if (SCALING_ONLY) return scalingPhase(null);
  if (MEMORY_ONLY) return memoryRun();
  if (WEBHOOKS_ONLY) return webhooksRun();
  if (PEER) return peerRun();
  log(`mode ${MODE}: ${SIZE.domains} domains, a ${SIZE.zoneRecords}-record zone, ${CONNECTIONS} connections, ${DURATION} s per scenario; work dir ${work}`);
  const state = join(work, "state");
  const { token, meta } = seedState(state, SIZE, join(work, "seed"));

  const [servicePort, baselinePort] = [await freePort(), await freePort()];
  log(`starting the service on :${servicePort} and the baseline on :${baselinePort}`);
  // One after the other: a wrangler dev starting picks a random free port for its
  // inspector, which could be the other server's port before that server has bound it
  // (seen once: "Address already in use" for the service's port).
  const service = await startService(state, servicePort);
  await startServer("baseline", WRANGLER, [
    "dev",
    "--config",
    join(BENCH, "baseline", "wrangler.toml"),
    "--local",
    "--ip",
    "127.0.0.1",
    "--port",
    String(baselinePort),
    "--persist-to",
    state,
    "--show-interactive-dev-session=false",
  ]);
  const svc = `http://127.0.0.1:${servicePort}`;
  const base = `http://127.0.0.1:${baselinePort}`;
  const auth = { authorization: `Bearer ${token}` };
  const json = { ...auth, "content-type": "application/json" };
  const tag = Date.now().toString(36);
  let counter = 0;
  const ids = meta.domainSample.map((d) => d.id);

  const deep = await findDeepCursor(svc, auth, meta.domains);
  if (deep.listLimit) notes.push("list pages are limit=200 (the cursor is bound to the limit it was made with)");
  // The 100k scaling point, measured now on the freshly seeded data (before the writes).
  const scaleTop = SCALING ? await measureScalingPoint(svc, auth, meta, deep) : null;

  const scenarios = [
    ["index", svc, { path: "/v1", headers: auth }, 200],
    ...readScenarios(svc, auth, meta, deep),
    [
      "create_contact",
      svc,
      {
        method: "POST",
        path: "/v1/contacts",
        headers: json,
        setupRequest: (req) => {
          const n = counter++;
          return {
            ...req,
            body: JSON.stringify({
              name: `Bench Writer ${tag}-${n}`,
              email: `writer-${tag}-${n}@bench.example.org`,
              address: { city: "London", country_code: "GB" },
            }),
          };
        },
      },
      201,
    ],
    [
      "patch_domain",
      svc,
      {
        method: "PATCH",
        path: `/v1/domains/${ids[0]}`,
        headers: { ...auth, "content-type": "application/merge-patch+json" },
        setupRequest: ((state) => (req) => {
          const i = state.i++;
          // Each pass over the domains flips auto_renew, so every PATCH is a real write.
          return { ...req, path: `/v1/domains/${ids[i % ids.length]}`, body: JSON.stringify({ auto_renew: Math.floor(i / ids.length) % 2 === 1 }) };
        })({ i: 0 }),
      },
      200,
    ],
    [
      "create_record",
      svc,
      {
        method: "POST",
        path: "/v1/records",
        headers: json,
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ zone: meta.zones.records.id, name: `r-${tag}-${counter++}`, type: "A", content: "192.0.2.10" }),
        }),
      },
      201,
    ],
    ["zone_export", svc, { path: `/v1/zones/${meta.zones.big.id}`, headers: { ...auth, accept: "text/dns" } }, 200],
  ];
  const total = scenarios.length + 5;
  let index = 0;
  // Every scenario warmed up equally (issue 18 item 6): a round over all the reads first,
  // so the first one measured does not alone pay the isolate's cold start and the first
  // reads of the D1 pages (the quick bench measured domain by id slower than by name for
  // that reason); then each scenario still has its own warm-up run.
  log(`warm-up round: each read scenario for ${WARMUP} s`);
  for (const [, url, req] of scenarios.filter(([, , r]) => (r.method ?? "GET") === "GET"))
    await runAutocannon({ url, connections: CONNECTIONS, requests: [req], duration: WARMUP });
  for (const [name, url, req, expect] of scenarios) {
    log(`(${++index}/${total}) ${name}`);
    const check = await probeOf(name, url, req, expect);
    if (name === "zone_export") {
      const lines = check.text.split("\n").filter((l) => l && !l.startsWith("$")).length;
      log(`  export has ${lines} lines (SOA + records), ${(check.text.length / 1024).toFixed(0)} KiB`);
    }
    await scenario(name, url, req);
  }

  // Import: a zone the size of the big one, one request, one at a time, a new name each.
  log(`(${++index}/${total}) zone_import (${SIZE.zoneRecords} records per request)`);
  const importReq = {
    method: "POST",
    path: "/v1/zones",
    headers: { ...auth, "content-type": "text/dns" },
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
  // What this run does not measure stays as the last run left it (each part carries its
  // own date): the scaling phase when skipped (a full run writes it next), and the phases
  // of their own (--cost, --peer, --dns, memory).
  writeResults(out);
  log(`wrote bench/results.json`);
  if (SCALING || MEMORY || WEBHOOKS) await stopServer(service); // the later phases start their own services
  if (SCALING) await scalingPhase(scaleTop);
  if (MEMORY) await memoryRun();
  if (WEBHOOKS) await webhooksRun();
}

// ---------------------------------------------------------------- phases of their own
/** What a phase in a file of its own (webhooks, peer) is given: the log, the work dir, ports, the service's start and stop, fresh D1 states. */
function phaseContext() {
  let count = 0;
  return {
    log,
    work,
    freePort,
    startService,
    stopServer,
    freshState: (label) => {
      const state = join(work, `${label}-${++count}`);
      log(`${label}: fresh D1 state, minting a write token`);
      return { state, token: mintToken(state) };
    },
  };
}

// ---------------------------------------------------------------- webhooks
async function webhooksRun() {
  const webhooks = await webhooksPhase(phaseContext(), { quick: QUICK, rounds: numberOption("webhook-rounds"), seconds: numberOption("webhook-seconds") });
  printWebhooks(webhooks);
  writeResults({ webhooks });
  log(`wrote "webhooks" into bench/results.json`);
}

// ---------------------------------------------------------------- peer
async function peerRun() {
  const peer = await peerPhase(phaseContext(), { quick: QUICK });
  writeResults({ peer, peer_ratios: peer.peer_ratios });
  log(`wrote "peer" and "peer_ratios" into bench/results.json`);
}

// ---------------------------------------------------------------- memory
/** The import limits as the service states them (one source of truth: the TypeScript). */
function importLimits() {
  const source = readFileSync(join(ROOT, "src", "resources", "zones", "master-file.ts"), "utf8");
  const constant = (name) => {
    // A product of integer literals, such as `4 * 1024 * 1024` or `50_000`.
    const match = new RegExp(`export const ${name} = ([0-9_ *]+);`).exec(source);
    return match ? match[1].split("*").reduce((product, factor) => product * Number(factor.trim().replaceAll("_", "")), 1) : null;
  };
  return { bytes: constant("MAX_MASTER_FILE_BYTES"), records: constant("MAX_MASTER_FILE_RECORDS"), zoneBytes: constant("MAX_ZONE_RECORD_BYTES") };
}

/** The most records one owner name holds in the dense shape: one RRset fits one DNS message (docs/dns.md), about 4 600 short TXT. */
const DENSE_RRSET_RECORDS = 4_000;

async function memoryRun() {
  const limits = importLimits();
  const fractions = QUICK ? [1] : [1 / 4, 1 / 2, 1];
  // Records for typical (the record limit binds first); for dense, one RRset (the most one name holds); for long, as many as the
  // byte limits (the file's, the zone's) admit.
  const sizes = (shape) =>
    MEMORY_SIZES ??
    fractions.map((f) => {
      // A record counts toward the zone's byte limit a few bytes over its line (TTL, class).
      if (shape === "long") return Math.floor((f * Math.min(limits.bytes, limits.zoneBytes) - 1_000) / (BYTES_PER_LINE.long + 14));
      if (shape === "dense") return Math.round(f * DENSE_RRSET_RECORDS);
      return Math.round(f * (limits.records ?? 100_000));
    });
  log(`memory: records ${MEMORY_SHAPES.map((s) => `${s} ${sizes(s).join("/")}`).join(", ")}; limits ${JSON.stringify(limits)}`);
  let count = 0;
  const figures = await memoryPhase(
    {
      log,
      freePort,
      startService,
      stopServer,
      freshState: (label) => {
        const state = join(work, `memory-${++count}`);
        log(`${label}: fresh D1 state, minting a write token`);
        return { state, token: mintToken(state) };
      },
    },
    // "full": lines as long as the file's limit and the zone's byte limit allow together
    // (the SOA and NS lines aside; a record counts 9 bytes more than its line here, its TTL
    // and class as the export writes them: drizzle/0028_zone_record_bytes.sql).
    {
      sizes,
      shapes: MEMORY_SHAPES,
      maxBytes: limits.bytes,
      lineBytes: Math.min(
        Math.floor((limits.bytes - 300) / (limits.records ?? 100_000)),
        Math.floor((limits.zoneBytes - 1_000) / (limits.records ?? 100_000)) - 9,
      ),
    },
  );
  printMemory(figures);
  writeResults({ memory: { ...figures, limits, machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? null, node: process.version } } });
  log(`wrote "memory" into bench/results.json`);
}

// ---------------------------------------------------------------- scaling
/** The read scenarios at one size, SCALE_DURATION s each: { scenario: figures }. */
async function measureScalingPoint(svc, auth, meta, deep) {
  const figures = {};
  log(`scaling: ${meta.domains} domains`);
  for (const [name, url, req, expect] of readScenarios(svc, auth, meta, deep)) {
    await probeOf(`scaling ${meta.domains} ${name}`, url, req, expect);
    await scenario(`${name}@${meta.domains}`, url, req, { duration: SCALE_DURATION, warmup: 1, into: figures });
  }
  return Object.fromEntries(Object.entries(figures).map(([k, v]) => [k.replace(/@\d+$/, ""), v]));
}

/** Each size on its own freshly seeded D1 with its own service; `top` is the 100k point if already measured. */
async function scalingPhase(top) {
  const points = {};
  for (const rows of SCALE_SIZES) {
    if (rows === SIZES.full.domains && top) {
      points[rows] = top;
      continue;
    }
    const state = join(work, `scale-${rows}`);
    const { token, meta } = seedState(state, { domains: rows, zoneRecords: 10 }, join(work, `scale-${rows}-seed`), `scaling ${rows}: `);
    const port = await freePort();
    const server = await startService(state, port, `service-${rows}`);
    try {
      const svc = `http://127.0.0.1:${port}`;
      const auth = { authorization: `Bearer ${token}` };
      points[rows] = await measureScalingPoint(svc, auth, meta, await findDeepCursor(svc, auth, meta.domains));
    } finally {
      await stopServer(server);
    }
    if (!KEEP) rmSync(state, { recursive: true, force: true });
  }
  printScaling(points);
  const scaling = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? null, node: process.version },
    settings: { connections: CONNECTIONS, duration_s: SCALE_DURATION, warmup_s: 1, sizes: SCALE_SIZES },
    rows: points,
    // Largest ÷ smallest p50 per scenario: flat cost keeps these near 1.
    growth_p50_100k_vs_1k: Object.fromEntries(
      SCALE_SCENARIOS.map((s) => [
        s,
        points[SCALE_SIZES.at(-1)]?.[s] && points[SCALE_SIZES[0]]?.[s]
          ? round(points[SCALE_SIZES.at(-1)][s].p50_ms / points[SCALE_SIZES[0]][s].p50_ms, 2)
          : null,
      ]),
    ),
  };
  writeResults({ scaling });
  writeFileSync(join(BENCH, "scaling.svg"), scalingSvg(points));
  log(`wrote "scaling" into bench/results.json and bench/scaling.svg`);
}

function printScaling(points) {
  console.log("\nscaling (p50 ms / req/s, " + SCALE_DURATION + " s per scenario and size):\n");
  const header = ["rows", ...SCALE_SCENARIOS];
  const rows = [
    header,
    ...Object.entries(points).map(([n, f]) => [Number(n).toLocaleString("en"), ...SCALE_SCENARIOS.map((s) => (f[s] ? `${f[s].p50_ms} / ${f[s].rps}` : "-"))]),
  ];
  const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const [i, row] of rows.entries()) {
    console.log(`| ${row.map((cell, j) => cell.padStart(widths[j])).join(" | ")} |`);
    if (i === 0) console.log(`|${widths.map((w) => "-".repeat(w + 1) + ":").join("|")}|`);
  }
  console.log("");
}

/** A small hand-written SVG line chart: p50 ms per scenario against rows (log x). */
function scalingSvg(points) {
  const W = 640,
    H = 360,
    L = 60,
    R = 170,
    T = 40,
    B = 50;
  const sizes = Object.keys(points)
    .map(Number)
    .sort((a, b) => a - b);
  const colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd"];
  const maxP50 = Math.max(1, ...sizes.flatMap((n) => SCALE_SCENARIOS.map((s) => points[n][s]?.p50_ms ?? 0)));
  const step = maxP50 > 200 ? 50 : maxP50 > 100 ? 25 : maxP50 > 40 ? 10 : 5;
  const yMax = Math.ceil((maxP50 * 1.1) / step) * step;
  const [lo, hi] = [Math.log10(sizes[0]), Math.log10(sizes.at(-1))];
  const x = (n) => L + ((Math.log10(n) - lo) / (hi - lo || 1)) * (W - L - R);
  const y = (v) => T + (1 - v / yMax) * (H - T - B);
  const esc = (t) => String(t).replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${L}" y="22" font-size="14" font-weight="bold">p50 latency (ms) vs rows in domains — flat is the goal</text>`,
  ];
  for (let v = 0; v <= yMax; v += step) {
    out.push(`<line x1="${L}" y1="${y(v)}" x2="${W - R}" y2="${y(v)}" stroke="#e5e5e5"/>`, `<text x="${L - 6}" y="${y(v) + 4}" text-anchor="end">${v}</text>`);
  }
  for (const n of sizes)
    out.push(
      `<line x1="${x(n)}" y1="${T}" x2="${x(n)}" y2="${H - B}" stroke="#e5e5e5"/>`,
      `<text x="${x(n)}" y="${H - B + 18}" text-anchor="middle">${n >= 1000 ? `${n / 1000}k` : n}</text>`,
    );
  out.push(`<line x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}" stroke="#333"/>`, `<line x1="${L}" y1="${T}" x2="${L}" y2="${H - B}" stroke="#333"/>`);
  out.push(
    `<text x="${(L + W - R) / 2}" y="${H - 12}" text-anchor="middle">rows (log scale)</text>`,
    `<text transform="translate(16 ${(T + H - B) / 2}) rotate(-90)" text-anchor="middle">p50 ms</text>`,
  );
  SCALE_SCENARIOS.forEach((s, i) => {
    const pts = sizes.filter((n) => points[n][s]).map((n) => [x(n), y(points[n][s].p50_ms)]);
    out.push(`<polyline fill="none" stroke="${colors[i]}" stroke-width="2" points="${pts.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(" ")}"/>`);
    for (const [a, b] of pts) out.push(`<circle cx="${a.toFixed(1)}" cy="${b.toFixed(1)}" r="3" fill="${colors[i]}"/>`);
    const ly = T + 10 + i * 20;
    out.push(
      `<line x1="${W - R + 15}" y1="${ly}" x2="${W - R + 35}" y2="${ly}" stroke="${colors[i]}" stroke-width="2"/>`,
      `<text x="${W - R + 40}" y="${ly + 4}">${esc(s)}</text>`,
    );
  });
  out.push(
    `<text x="${W - R + 15}" y="${T + 10 + SCALE_SCENARIOS.length * 20 + 10}" fill="#666" font-size="10">${CONNECTIONS} connections, ${SCALE_DURATION} s each</text>`,
  );
  out.push("</svg>");
  return out.join("\n") + "\n";
}

function printTable(ratios) {
  const rows = [["scenario", "req/s", "p50 ms", "p99 ms", "errors", "per record ms"]];
  for (const [name, f] of Object.entries(results))
    rows.push([name, String(f.rps), String(f.p50_ms), String(f.p99_ms), String(f.errors), f.per_record_ms === undefined ? "" : String(f.per_record_ms)]);
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
