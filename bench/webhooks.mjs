// The webhook phase of `npm run bench` (alone: `npm run bench -- --webhooks`): what
// delivering events costs the API, and how fast they arrive.
//
// One service (scripts/start.mjs --auth on a fresh D1, the rate limit raised) and a
// receiver in this process on loopback that answers 204 and notes when each delivery
// arrived. Then, with 0, 1 and 10 webhooks subscribed to every event (the bench token's
// account, the operator's, sees them all):
//
//   - the API's write rate: POST /v1/contacts with 10 connections for DURATION s, the
//     deliveries running meanwhile in the same workerd (as they do in one isolate locally);
//   - events delivered per second: every delivery the receiver got for those writes,
//     counted from the first write to the last delivery, once all arrived;
//   - commit-to-delivery: writes one at a time (a few a second) after the load, each timed
//     from its 201 to its delivery at the first webhook: p50 and p99.
//
// Targets (same run): the write rate with 1 and with 10 webhooks at least 0.95 of the rate
// with none (measured first and again last, with the 10 disabled: the mean of the two);
// p99 commit-to-delivery under 2 s.
import autocannon from "autocannon";
import { createServer } from "node:http";

export const WEBHOOK_TARGETS = {
  write_rate_1_vs_0_webhooks: { op: ">=", value: 0.95 },
  write_rate_10_vs_0_webhooks: { op: ">=", value: 0.95 },
  commit_to_delivery_p99_ms: { op: "<=", value: 2000 },
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value, digits = 1) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : null);

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** A receiver on loopback: 204 for everything, noting each delivery's arrival by the resource it concerns. */
async function startReceiver(freePort) {
  const arrivals = []; // { hook, resource, at }
  const port = await freePort();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const at = Date.now();
      let resource = null;
      try {
        resource = JSON.parse(Buffer.concat(chunks).toString("utf8")).resource ?? null;
      } catch {
        // not an event
      }
      arrivals.push({ hook: req.url, resource, at });
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { url: (name) => `http://127.0.0.1:${port}/hook/${name}`, arrivals, close: () => server.close() };
}

/**
 * ctx: { log, freePort, startService(state, port, name), stopServer(server), freshState(label) → { state, token } }.
 * options: { quick }. Returns the figures and ratios (written into bench/results.json by the caller).
 */
export async function webhooksPhase(ctx, { quick }) {
  const duration = quick ? 4 : 10;
  const latencySamples = quick ? 40 : 100;
  const { state, token } = ctx.freshState("webhooks");
  const port = await ctx.freePort();
  const base = `http://127.0.0.1:${port}`;
  const receiver = await startReceiver(ctx.freePort);
  const service = await ctx.startService(state, port, "webhooks-service");
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

  try {
    // Warm the isolate and D1 before the first measured run, as long as a run.
    await runLoad(base, headers, contactBody, duration);
    // None, 1, 10, then none again (the 10 disabled): the rate with none is the mean of the
    // first and the last run, so that a machine whose load drifts during the phase does
    // not favour either side.
    for (const [run, subscribed] of [
      ["webhooks_0", 0],
      ["webhooks_1", 1],
      ["webhooks_10", 10],
      ["webhooks_0_again", 0],
    ]) {
      while (hooks.length < subscribed) {
        const name = `w${hooks.length}`;
        const made = await api("POST", "/v1/webhooks", { url: receiver.url(name), description: `bench ${name}` });
        hooks.push(made.id);
      }
      if (run === "webhooks_0_again") for (const id of hooks) await api("PATCH", `/v1/webhooks/${id}`, { enabled: false });
      await drain(receiver, () => true);
      const firstWrite = Date.now();
      const arrivedBefore = receiver.arrivals.length;
      const created = [];
      const result = await runLoad(base, headers, contactBody, duration, (id) => created.push(id));
      const writes = result.requests.total;
      ctx.log(`webhooks: ${subscribed} subscribed: ${round(result.requests.average)} writes/s (${writes} writes, ${result.non2xx} non-2xx)`);
      const expected = created.length * subscribed;
      let deliveredPerSecond = null;
      if (subscribed > 0) {
        const ids = new Set(created);
        const mine = () => receiver.arrivals.slice(arrivedBefore).filter((a) => ids.has(a.resource));
        const all = await drain(receiver, () => mine().length >= expected, 120_000);
        const arrived = mine();
        const last = Math.max(...arrived.map((a) => a.at));
        deliveredPerSecond = round(arrived.length / ((last - firstWrite) / 1000));
        ctx.log(`webhooks: ${arrived.length} of ${expected} deliveries in ${((last - firstWrite) / 1000).toFixed(1)} s${all ? "" : " (some never came)"}`);
      }
      figures[run] = {
        write_rps: round(result.requests.average),
        write_p50_ms: round(result.latency.p50, 2),
        write_p99_ms: round(result.latency.p99, 2),
        write_errors: result.errors + result.timeouts + result.non2xx,
        delivered_per_s: deliveredPerSecond,
      };
    }

    // Commit to delivery, one write at a time, with the 10 webhooks subscribed again.
    for (const id of hooks) await api("PATCH", `/v1/webhooks/${id}`, { enabled: true });
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

  const ratio = (a, b) => (a && b ? round(a / b, 3) : null);
  const none = (figures.webhooks_0.write_rps + figures.webhooks_0_again.write_rps) / 2;
  const ratios = {
    write_rate_1_vs_0_webhooks: ratio(figures.webhooks_1.write_rps, none),
    write_rate_10_vs_0_webhooks: ratio(figures.webhooks_10.write_rps, none),
    commit_to_delivery_p99_ms: figures.commit_to_delivery.p99_ms,
  };
  return { date: new Date().toISOString(), mode: quick ? "quick" : "full", duration_s: duration, connections: 10, ...figures, ratios };
}

/** POST /v1/contacts with 10 connections for `duration` s; `onCreated(id)` for each 201. */
function runLoad(base, headers, body, duration, onCreated) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: base,
        connections: 10,
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
  console.log("| webhooks subscribed | writes/s | write p50 ms | write p99 ms | delivered events/s |");
  console.log("|---:|---:|---:|---:|---:|");
  for (const [run, n] of [
    ["webhooks_0", "0"],
    ["webhooks_1", "1"],
    ["webhooks_10", "10"],
    ["webhooks_0_again", "0 (the 10 disabled)"],
  ]) {
    const f = out[run];
    console.log(`| ${n} | ${f.write_rps} | ${f.write_p50_ms} | ${f.write_p99_ms} | ${f.delivered_per_s ?? "–"} |`);
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
