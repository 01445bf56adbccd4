// The webhook phase of `npm run bench` (alone: `npm run bench -- --webhooks`): what
// delivering events costs the API, and how fast they arrive.
//
// One service (scripts/start.mjs --auth --sender-priority idle --no-inspector on a fresh D1, the rate limit raised) and a
// receiver on loopback in a worker thread of this process (bench/webhook-receiver.mjs)
// that answers 204 and notes when each delivery arrived. Ten webhooks subscribed to every
// event are made at the start (the bench token's account, the operator's, sees them all),
// and 0, 1 or 10 of them are enabled for each run:
//
//   - the API's write rate: POST /v1/contacts with 10 connections for DURATION s, the
//     delivery passes running meanwhile in the API's workerd and their requests in the
//     webhook sender's processes, at the idle CPU priority (scripts/sender.mjs), as the
//     receiver's thread is: what a deployment runs elsewhere takes only idle CPU here;
//     the three counts run in rounds (quick 2, full 9), each round in another order (0 1 10,
//     1 10 0, 10 0 1: in full mode each count is first, second and third three times), and
//     each count's figure is the median of its runs;
//   - events delivered per second: every delivery the receiver got for those writes,
//     counted from the first write to the last delivery, once all arrived;
//   - commit-to-delivery: writes one at a time (a few a second) after the load, each timed
//     from its 201 to its delivery at the first webhook: p50 and p99.
//
// Targets (same run): the write rate with 1 and with 10 webhooks at least 0.95 of the rate
// with none; p99 commit-to-delivery under 2 s. The ratios judged are paired: each round's
// rate with webhooks over its own run without (the three are next to each other in time),
// and the median of those. On this shared VM the rate without webhooks moves by ±15 %
// within a minute (every process slowing alike), so the ratio of the counts' medians
// compares runs up to minutes apart and swings by more than the 5 % it is to judge; it is
// printed beside (`unpaired_ratios`).
import autocannon from "autocannon";
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { Worker } from "node:worker_threads";
import { processTable } from "../scripts/lib/daemons.mjs";
import { sleep } from "../scripts/lib/harness.mjs";
import { median } from "./common.mjs";

export const WEBHOOK_TARGETS = {
  write_rate_1_vs_0_webhooks: { op: ">=", value: 0.95 },
  write_rate_10_vs_0_webhooks: { op: ">=", value: 0.95 },
  commit_to_delivery_p99_ms: { op: "<=", value: 2000 },
};

/** The fixed write rate of the delivery-cost runs (a second), and how long after the load their CPU window lasts. */
const FIXED_RATE = 40;
const FIXED_SETTLE_S = 4;

const round1 = (value, digits = 1) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : null);

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The receiver (bench/webhook-receiver.mjs) in a worker thread; `arrivals` fills as it reports them. */
async function startReceiver(freePort) {
  const arrivals = []; // { hook, resource, at }
  const port = await freePort();
  const worker = new Worker(new URL("./webhook-receiver.mjs", import.meta.url), { workerData: { port } });
  await new Promise((resolve, reject) => {
    worker.on("message", (message) => {
      if (message.listening) resolve();
      if (message.arrivals) arrivals.push(...message.arrivals);
    });
    worker.once("error", reject);
  });
  return { url: (name) => `http://127.0.0.1:${port}/hook/${name}`, arrivals, close: () => worker.terminate() };
}

/**
 * CPU time (user + system, ms) used so far by the processes of a process group, the
 * service's (scripts/start.mjs, wrangler, its two workerd, the webhook sender's), by role
 * (processRole).
 * Linux /proc; null elsewhere.
 */
function groupCpu(pgid) {
  const processes = new Map(
    processTable()
      .filter((proc) => proc.pgrp === pgid)
      .map((proc) => [proc.pid, proc]),
  );
  if (processes.size === 0) return null;
  const byProcess = {};
  for (const proc of processes.values()) {
    const role = processRole(proc, processes);
    byProcess[role] = (byProcess[role] ?? 0) + proc.cpuMs;
  }
  return byProcess;
}

const commandOf = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return ""; // gone meanwhile
  }
};

/**
 * Which part of `npm start` a process is: the webhook sender (scripts/sender.mjs and its
 * workerd), the workerd that runs the API Worker (the one with a debug port),
 * wrangler's own workerd (its proxy and inspector proxy), wrangler (node), or something
 * else (scripts/start.mjs, esbuild).
 */
function processRole({ pid, name }, processes) {
  for (let at = pid; processes.has(at); at = processes.get(at).ppid) {
    if (commandOf(at).includes("scripts/sender.mjs")) return "sender";
  }
  const command = commandOf(pid);
  // The Worker's workerd has a debug port (and, under wrangler dev, an inspector); wrangler's own has neither.
  if (name === "workerd") return command.includes("--inspector-addr") || command.includes("--debug-port") ? "worker" : "wrangler_proxy";
  if (command.includes("wrangler")) return "wrangler";
  return "other";
}

/** What each process used between two readings of groupCpu, and the total. */
function cpuSince(before, after) {
  if (!before || !after) return { total: null, byProcess: {} };
  const byProcess = {};
  for (const [name, ms] of Object.entries(after)) byProcess[name] = ms - (before[name] ?? 0);
  return { total: Object.values(byProcess).reduce((a, b) => a + b, 0), byProcess };
}

/** The sum of a field over runs (NaN when a run lacks it). */
const sum = (list, field) => list.reduce((total, run) => total + (run[field] ?? Number.NaN), 0);

/** The CPU of one role (processRole) over runs, from each run's by-process figures under `field`. */
const roleCpu = (field, role) => (list) => list.reduce((total, run) => total + (run[field]?.[role] ?? 0), 0);

/**
 * CPU per write of the runs without webhooks (`cpuOf` over their writes), and per delivered
 * event of the runs with: what they used beyond their writes' share at that cost, over
 * their deliveries.
 */
function cpuShares(without, withHooks, cpuOf) {
  const perWrite = cpuOf(without) / sum(without, "writes");
  return { perWrite, perDelivery: (cpuOf(withHooks) - perWrite * sum(withHooks, "writes")) / sum(withHooks, "deliveries") };
}

/**
 * ctx: { log, freePort, startService(state, port, name), stopServer(server), freshState(label) → { state, token } }.
 * options: { quick, rounds, seconds } (rounds and seconds: null for the mode's). Returns the figures and ratios (written into bench/results.json by the caller).
 */
export async function webhooksPhase(ctx, { quick, rounds: roundsAsked = null, seconds = null }) {
  const duration = seconds ?? (quick ? 4 : 10);
  const loadBefore = loadavg().map((l) => round1(l, 2));
  const latencySamples = quick ? 40 : 100;
  const { state, token } = ctx.freshState("webhooks");
  const port = await ctx.freePort();
  const base = `http://127.0.0.1:${port}`;
  const receiver = await startReceiver(ctx.freePort);
  // The sender at the idle priority: what webhooks cost the API, apart from the CPU their
  // requests take, which a deployment spends on other machines (scripts/sender.mjs).
  // And without wrangler's inspector (scripts/dev-worker.mjs): a deployed Worker has none, and
  // wrangler's forwards every message of the runtime's to its node process, which cost the
  // API's processes about as much per delivery as the Worker's own work (README, "Performance").
  const service = await ctx.startService(state, port, "webhooks-service", [], ["--sender-priority", "idle", "--no-inspector"]);
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const api = async (method, path, body) => {
    const response = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : null;
  };
  let counter = 0;
  const contactBody = () => JSON.stringify({ name: `Bench Hook ${counter}`, email: `bench-hook-${counter++}@example.org` });
  const hooks = [];
  const figures = {};

  // Full: nine rounds (each order three times), since single runs spread by ±15 % on a
  // shared machine: with six, one run's medians of the paired ratios moved by ±0.06 from
  // the next run's (README, "Performance").
  const rounds = roundsAsked ?? (quick ? 2 : 9);
  const runs = { 0: [], 1: [], 10: [] };
  try {
    // The ten webhooks, made now and disabled: each run enables as many as it counts
    // (enabling one starts it at the newest event: no backlog from the runs before).
    for (let i = 0; i < 10; i++) {
      const made = await api("POST", "/v1/webhooks", { url: receiver.url(`w${i}`), description: `bench w${i}` });
      hooks.push(made.id);
      await api("PATCH", `/v1/webhooks/${made.id}`, { enabled: false });
    }
    let enabled = 0;
    const enable = async (count) => {
      for (let i = 0; i < hooks.length; i++) {
        if (i < count !== i < enabled) await api("PATCH", `/v1/webhooks/${hooks[i]}`, { enabled: i < count });
      }
      enabled = count;
    };
    // Warm the isolate and D1 before the first measured run, as long as a run.
    await runLoad(base, headers, contactBody, duration);
    const orders = [
      [0, 1, 10],
      [1, 10, 0],
      [10, 0, 1],
    ];
    for (let round = 0; round < rounds; round++) {
      for (const subscribed of orders[round % orders.length]) {
        await enable(subscribed);
        await drain(receiver, () => true);
        const cpuBefore = groupCpu(service.child.pid);
        const firstWrite = Date.now();
        const arrivedBefore = receiver.arrivals.length;
        const created = [];
        const result = await runLoad(base, headers, contactBody, duration, (id) => created.push(id));
        const writes = result.requests.total;
        const expected = created.length * subscribed;
        let deliveredPerSecond = null;
        let deliveryNote = "";
        if (subscribed > 0) {
          const ids = new Set(created);
          const mine = () => receiver.arrivals.slice(arrivedBefore).filter((a) => ids.has(a.resource));
          const all = await drain(receiver, () => mine().length >= expected, 120_000);
          const arrived = mine();
          const last = Math.max(...arrived.map((a) => a.at));
          deliveredPerSecond = round1(arrived.length / ((last - firstWrite) / 1000));
          deliveryNote = `; ${arrived.length} of ${expected} deliveries in ${((last - firstWrite) / 1000).toFixed(1)} s${all ? "" : " (some never came)"}`;
        }
        const load = loadavg()[0];
        // The service's CPU for these writes and their deliveries (until the last one arrived).
        const cpu = cpuSince(cpuBefore, groupCpu(service.child.pid));
        const cpuMs = cpu.total;
        ctx.log(
          `webhooks: round ${round + 1}, ${subscribed} enabled: ${round1(result.requests.average)} writes/s (${writes} writes, ${result.non2xx} non-2xx)${deliveryNote}; service CPU ${cpuMs} ms (${Object.entries(
            cpu.byProcess,
          )
            .filter(([, ms]) => ms > 0)
            .map(([name, ms]) => `${name}: ${ms}`)
            .join(", ")}); load ${load.toFixed(2)}`,
        );
        runs[subscribed].push({
          write_rps: round1(result.requests.average),
          write_p50_ms: round1(result.latency.p50, 2),
          write_p99_ms: round1(result.latency.p99, 2),
          write_errors: result.errors + result.timeouts + result.non2xx,
          delivered_per_s: deliveredPerSecond,
          writes,
          deliveries: expected,
          service_cpu_ms: cpuMs,
          service_cpu_by_process: cpu.byProcess,
          load_1m: round1(load, 2),
        });
      }
    }
    for (const [count, list] of Object.entries(runs)) {
      const of = (field) => (list.some((run) => run[field] === null) ? null : round1(median(list.map((run) => run[field])), 2));
      figures[`webhooks_${count}`] = {
        write_rps: of("write_rps"),
        write_p50_ms: of("write_p50_ms"),
        write_p99_ms: of("write_p99_ms"),
        write_errors: list.reduce((sum, run) => sum + run.write_errors, 0),
        delivered_per_s: of("delivered_per_s"),
        runs: list,
      };
    }
    // The same ratios round by round (the three runs of a round are next to each other in
    // time, so a drift of the machine's load moves them together), and their medians.
    const roundRatios = (count) => runs[count].map((run, i) => round1(run.write_rps / runs[0][i].write_rps, 3));
    figures.round_ratios = { 1: roundRatios(1), 10: roundRatios(10) };
    figures.round_ratio_medians = { 1: round1(median(figures.round_ratios[1]), 3), 10: round1(median(figures.round_ratios[10]), 3) };
    // The service's CPU per write (the runs without webhooks), and per delivered event.
    const serviceCpu = (list) => sum(list, "service_cpu_ms");
    figures.service_cpu = {
      ms_per_write: round1(cpuShares(runs[0], runs[0], serviceCpu).perWrite, 2),
      ms_per_delivery_1: round1(cpuShares(runs[0], runs[1], serviceCpu).perDelivery, 3),
      ms_per_delivery_10: round1(cpuShares(runs[0], runs[10], serviceCpu).perDelivery, 3),
      by_role: {},
    };
    // The same, process by process: the Worker's own workerd, and what wrangler dev adds.
    for (const role of ["worker", "wrangler_proxy", "wrangler", "sender", "other"]) {
      const shares = cpuShares(runs[0], runs[10], roleCpu("service_cpu_by_process", role));
      figures.service_cpu.by_role[role] = { ms_per_write: round1(shares.perWrite, 2), ms_per_delivery_10: round1(shares.perDelivery, 3) };
    }
    ctx.log(
      `webhooks: service CPU ${figures.service_cpu.ms_per_write} ms per write; per delivered event ${figures.service_cpu.ms_per_delivery_1} ms (1 webhook), ${figures.service_cpu.ms_per_delivery_10} ms (10)`,
    );

    // What a delivered event costs the API's own processes, measured where nothing competes
    // for the CPU: writes at a fixed rate well below the machine's (FIXED_RATE a second),
    // with no webhook and with ten, each run's CPU read over the same window (the load and
    // FIXED_SETTLE_S after it, by which the ten webhooks' deliveries are done), so that what
    // wrangler dev spends by the second weighs the same in both. The API's processes are
    // everything but the sender: what the ten-webhook runs spent beyond the others, over
    // their deliveries. Under the saturating load above, this is what deliveries take from
    // the writes; the sender's CPU is shown beside it (a deployment's is elsewhere).
    const fixed = { 0: [], 10: [] };
    for (let pair = 0; pair < (quick ? 2 : 3); pair++) {
      for (const subscribed of [0, 10]) {
        await enable(subscribed);
        await drain(receiver, () => true);
        const cpuBefore = groupCpu(service.child.pid);
        const windowEnds = Date.now() + (duration + FIXED_SETTLE_S) * 1000;
        const created = [];
        const result = await runLoad(base, headers, contactBody, duration, (id) => created.push(id), FIXED_RATE);
        await sleep(Math.max(0, windowEnds - Date.now()));
        const cpu = cpuSince(cpuBefore, groupCpu(service.child.pid));
        const ids = new Set(created);
        const delivered = subscribed === 0 ? 0 : receiver.arrivals.filter((a) => ids.has(a.resource)).length;
        const api = cpu.total === null ? null : cpu.total - (cpu.byProcess.sender ?? 0);
        fixed[subscribed].push({
          writes: result.requests.total,
          deliveries: delivered,
          expected: created.length * subscribed,
          api_cpu_ms: api,
          sender_cpu_ms: cpu.byProcess.sender ?? 0,
          cpu_by_process: cpu.byProcess,
        });
        ctx.log(
          `webhooks: fixed rate ${FIXED_RATE}/s, ${subscribed} enabled: ${result.requests.total} writes, ${delivered} deliveries in the window; API processes' CPU ${api} ms, the sender's ${cpu.byProcess.sender ?? 0} ms`,
        );
      }
    }
    const apiCpu = cpuShares(fixed[0], fixed[10], (list) => sum(list, "api_cpu_ms"));
    figures.fixed_rate = {
      writes_per_s: FIXED_RATE,
      api_cpu_ms_per_write: round1(apiCpu.perWrite, 2),
      api_cpu_ms_per_delivery: round1(apiCpu.perDelivery, 3),
      sender_cpu_ms_per_delivery: round1(sum(fixed[10], "sender_cpu_ms") / sum(fixed[10], "deliveries"), 3),
      all_delivered: fixed[10].every((run) => run.deliveries >= run.expected),
      // The same by role (processRole): which of the API's processes the deliveries cost.
      by_role: Object.fromEntries(
        ["worker", "wrangler_proxy", "wrangler", "other"].map((role) => [
          role,
          round1(cpuShares(fixed[0], fixed[10], roleCpu("cpu_by_process", role)).perDelivery, 3),
        ]),
      ),
      runs: fixed,
    };
    ctx.log(
      `webhooks: at ${FIXED_RATE} writes/s the API's processes spend ${figures.fixed_rate.api_cpu_ms_per_write} ms per write and ${figures.fixed_rate.api_cpu_ms_per_delivery} ms per delivered event (10 webhooks); the sender ${figures.fixed_rate.sender_cpu_ms_per_delivery} ms`,
    );

    // Commit to delivery, one write at a time, with the 10 webhooks subscribed again.
    await enable(10);
    const latencies = [];
    for (let i = 0; i < latencySamples; i++) {
      const sent = await fetch(`${base}/v1/contacts`, { method: "POST", headers, body: contactBody() });
      const committed = Date.now();
      const { id } = await sent.json();
      const arrival = await waitArrival(receiver, id, 30_000);
      if (arrival) latencies.push(arrival.at - committed);
      await sleep(quick ? 100 : 200);
    }
    latencies.sort((a, b) => a - b);
    figures.commit_to_delivery = {
      samples: latencies.length,
      p50_ms: percentile(latencies, 50),
      p99_ms: percentile(latencies, 99),
      max_ms: latencies.at(-1) ?? null,
    };
    ctx.log(
      `webhooks: commit to delivery p50 ${figures.commit_to_delivery.p50_ms} ms, p99 ${figures.commit_to_delivery.p99_ms} ms (${latencies.length} writes)`,
    );
  } finally {
    await ctx.stopServer(service);
    receiver.close();
  }

  const ratio = (a, b) => (a && b ? round1(a / b, 3) : null);
  const none = figures.webhooks_0.write_rps;
  // Judged paired (the header says why); the counts' medians compared are shown beside.
  const ratios = {
    write_rate_1_vs_0_webhooks: figures.round_ratio_medians[1],
    write_rate_10_vs_0_webhooks: figures.round_ratio_medians[10],
    commit_to_delivery_p99_ms: figures.commit_to_delivery.p99_ms,
  };
  const unpairedRatios = {
    write_rate_1_vs_0_webhooks: ratio(figures.webhooks_1.write_rps, none),
    write_rate_10_vs_0_webhooks: ratio(figures.webhooks_10.write_rps, none),
  };
  return {
    date: new Date().toISOString(),
    mode: quick ? "quick" : "full",
    duration_s: duration,
    connections: 10,
    rounds,
    cpus: cpus().length,
    load_before: loadBefore,
    load_after: loadavg().map((l) => round1(l, 2)),
    ...figures,
    unpaired_ratios: unpairedRatios,
    ratios,
  };
}

/** POST /v1/contacts with 10 connections for `duration` s (at most `overallRate` a second when not 0); `onCreated(id)` for each 201. */
function runLoad(base, headers, body, duration, onCreated, overallRate = 0) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: base,
        connections: 10,
        ...(overallRate > 0 ? { overallRate } : {}),
        duration,
        timeout: 120,
        requests: [
          {
            method: "POST",
            path: "/v1/contacts",
            headers,
            setupRequest: (req) => ({ ...req, body: body() }),
            onResponse: (status, text) => {
              if (status === 201 && onCreated) onCreated(JSON.parse(text).id);
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/** Waits until `done()` holds or deliveries stop arriving for 3 s (or `timeoutMs`); true when done. */
async function drain(receiver, done, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  let count = receiver.arrivals.length;
  let quietSince = Date.now();
  while (Date.now() < until) {
    if (done() && Date.now() - quietSince > 500) return true;
    await sleep(200);
    if (receiver.arrivals.length !== count) {
      count = receiver.arrivals.length;
      quietSince = Date.now();
    } else if (Date.now() - quietSince > 3_000) return done();
  }
  return done();
}

async function waitArrival(receiver, resource, timeoutMs) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const arrival = receiver.arrivals.find((a) => a.resource === resource);
    if (arrival) return arrival;
    await sleep(5);
  }
  return null;
}

/** The phase's table. */
export function printWebhooks(out) {
  console.log("");
  console.log(`medians of ${out.rounds} runs each, interleaved; load average ${out.load_before.join(" ")} → ${out.load_after.join(" ")}`);
  console.log("| webhooks enabled | writes/s (median) | each run | write p50 ms | write p99 ms | delivered events/s |");
  console.log("|---:|---:|---|---:|---:|---:|");
  for (const n of ["0", "1", "10"]) {
    const f = out[`webhooks_${n}`];
    console.log(
      `| ${n} | ${f.write_rps} | ${f.runs.map((run) => run.write_rps).join(", ")} | ${f.write_p50_ms} | ${f.write_p99_ms} | ${f.delivered_per_s ?? "–"} |`,
    );
  }
  if (out.round_ratios) {
    for (const n of ["1", "10"])
      console.log(
        `write rate with ${n} vs none, round by round: ${out.round_ratios[n].join(", ")} (median ${out.round_ratio_medians[n]}, judged; the medians' ratio ${out.unpaired_ratios?.[`write_rate_${n}_vs_0_webhooks`] ?? "–"})`,
      );
  }
  if (out.service_cpu) {
    const cpu = out.service_cpu;
    console.log(
      `\nservice CPU (all its processes): ${cpu.ms_per_write} ms per write; per delivered event ${cpu.ms_per_delivery_1} ms with 1 webhook, ${cpu.ms_per_delivery_10} ms with 10`,
    );
    for (const [role, f] of Object.entries(cpu.by_role ?? {})) {
      console.log(`  ${role}: ${f.ms_per_write} ms per write, ${f.ms_per_delivery_10} ms per delivered event (10 webhooks)`);
    }
  }
  if (out.fixed_rate) {
    const f = out.fixed_rate;
    console.log(
      `\nat a fixed ${f.writes_per_s} writes/s: the API's processes spend ${f.api_cpu_ms_per_write} ms per write and ${f.api_cpu_ms_per_delivery} ms per delivered event (10 webhooks${f.all_delivered ? "" : "; some deliveries fell outside the window"}); the sender ${f.sender_cpu_ms_per_delivery} ms per delivery`,
    );
    const windows = (n) => f.runs[n].map((run) => `${run.api_cpu_ms} ms / ${run.writes} writes`).join(", ");
    console.log(`  the API's processes in each window: no webhook ${windows(0)}; ten ${windows(10)}`);
    if (f.by_role)
      console.log(
        `  per delivered event, by process: ${Object.entries(f.by_role)
          .map(([role, ms]) => `${role} ${ms} ms`)
          .join(", ")}`,
      );
  }
  console.log(`\ncommit to delivery (one write at a time, 10 webhooks): p50 ${out.commit_to_delivery.p50_ms} ms, p99 ${out.commit_to_delivery.p99_ms} ms`);
  console.log("\n| ratio | value | target | met |");
  console.log("|---|---:|---:|:---:|");
  for (const [name, value] of Object.entries(out.ratios)) {
    const { op, value: target } = WEBHOOK_TARGETS[name];
    const met = value === null ? "?" : (op === ">=" ? value >= target : value <= target) ? "yes" : "no";
    console.log(`| ${name} | ${value} | ${op} ${target} | ${met} |`);
  }
  console.log("");
}
