#!/usr/bin/env node
// Webhooks end to end (docs/webhooks.md): `npm start` with its local queue, a receiver in
// this process on loopback that verifies every delivery with the Standard Webhooks
// reference library (`standardwebhooks`' Webhook.verify), and a DNS-over-HTTPS stand-in
// that answers the URL checks' lookups of test names. It checks:
//
//   - every event an account sees, in commit order, each body exactly GET /v1/events/{event},
//     signed so that Webhook.verify accepts it; filters; another account's webhook gets none;
//   - a receiver that fails 3 times then recovers gets every event, the first 4 times (3
//     failures + 1 success) and the others once, the retries at 5 s, 1 min and 5 min
//     (driven by POST /v1/webhooks/dispatch's as_of, the clock a loopback server lets
//     tests move);
//   - the server SIGKILLed right after writes whose deliveries were not made yet, restarted
//     on the same state, still delivers them;
//   - rotation: both signatures during the 24 h overlap, then only the new one;
//   - replay from a resume cursor, ping, redirects not followed, a slow receiver cut at 10 s,
//     URL checks on a loopback server (the service itself, names resolving to private
//     addresses at creation and at delivery);
//   - a receiver that always fails: the retry schedule over 3 days, the event given up,
//     and the webhook disabled after 5 days, with its event.
//
//   node scripts/webhooks-e2e.mjs        (npm run webhooks-e2e)
import { createServer } from "node:http";
import { Webhook } from "standardwebhooks";
import { assert, createHarness, freePort, httpClient, sleep } from "./lib/harness.mjs";

const harness = createHarness({ name: "webhooks-e2e", label: "WEBHOOKS-E2E", totalTimeoutMs: 420_000, readyTimeoutMs: 90_000 });
const { check, ok } = harness;

/** Polls `probe` until it returns a truthy value (returned), or fails after `timeoutMs`. */
async function waitFor(what, probe, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until || harness.aborting) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(100);
  }
}

// --- the receiver ----------------------------------------------------------------------

/**
 * One endpoint per path `/hook/<name>`. `mode`: "ok" (204), "fail" (503), "redirect"
 * (302), "big" (500 with a 64 KiB body), "slow" (answers after 15 s). `failFirst`: that
 * many requests answered 503 before the mode applies. `secrets`: what it verifies with.
 */
class Receiver {
  hooks = new Map();
  server = null;

  hook(name, { mode = "ok", failFirst = 0 } = {}) {
    const hook = { name, mode, failFirst, secrets: [], received: [] };
    this.hooks.set(name, hook);
    return hook;
  }

  async start() {
    const port = await freePort();
    this.server = createServer((req, res) => {
      const chunks = [];
      req.on("data", (chunk) => chunks.push(chunk));
      req.on("end", () => this.#answer(req, res, Buffer.concat(chunks).toString("utf8")));
    });
    await new Promise((resolve) => this.server.listen(port, "127.0.0.1", resolve));
    this.base = `http://127.0.0.1:${port}`;
    return this.base;
  }

  url(name) {
    return `${this.base}/hook/${name}`;
  }

  #answer(req, res, body) {
    const hook = this.hooks.get(req.url.replace(/^\/hook\//, ""));
    if (!hook) return res.writeHead(404).end("no such hook");
    const headers = {
      "webhook-id": req.headers["webhook-id"],
      "webhook-timestamp": req.headers["webhook-timestamp"],
      "webhook-signature": req.headers["webhook-signature"],
    };
    const entry = {
      id: headers["webhook-id"],
      headers,
      body,
      // Which of the hook's secrets the reference library accepts the delivery with, asked
      // when a check looks (within the 5 minutes it allows): a webhook's first delivery, of
      // its own creation, can arrive before this script has read the secret from the
      // creation's answer, on a loaded machine.
      get verifiedWith() {
        return hook.secrets.filter((secret) => {
          try {
            new Webhook(secret).verify(body, headers);
            return true;
          } catch {
            return false;
          }
        });
      },
      at: Date.now(),
      contentType: req.headers["content-type"],
      status: 0,
    };
    hook.received.push(entry);
    const answer = (status, text = "", extra = {}) => {
      entry.status = status;
      res.writeHead(status, { "content-type": "text/plain", ...extra }).end(text);
    };
    if (hook.failFirst > 0) {
      hook.failFirst--;
      return answer(503, "receiver is starting up");
    }
    switch (hook.mode) {
      case "fail":
        return answer(500, "receiver is broken");
      case "redirect":
        return answer(302, "", { location: `${this.base}/elsewhere` });
      case "big":
        return answer(500, "x".repeat(64 * 1024));
      case "slow":
        setTimeout(() => answer(204), 15_000).unref();
        return;
      default:
        return answer(204);
    }
  }

  /** The deliveries a hook answered 2xx. */
  delivered(hook) {
    return hook.received.filter((entry) => entry.status >= 200 && entry.status < 300);
  }

  stop() {
    this.server?.closeAllConnections();
    this.server?.close();
  }
}

// --- a DNS-over-HTTPS stand-in (the JSON API the URL checks use) --------------------------

const dnsAnswers = new Map([
  ["public.hooks.example", "93.184.215.14"],
  ["private.hooks.example", "10.1.2.3"],
  ["rebind.hooks.example", "93.184.215.14"],
]);

async function startResolver() {
  const port = await freePort();
  const server = createServer((req, res) => {
    const url = new URL(req.url, "http://resolver");
    const name = url.searchParams.get("name");
    const type = url.searchParams.get("type");
    const address = dnsAnswers.get(name);
    const body = address === undefined ? { Status: 3, Answer: [] } : { Status: 0, Answer: type === "A" ? [{ name, type: 1, TTL: 60, data: address }] : [] };
    res.writeHead(200, { "content-type": "application/dns-json" }).end(JSON.stringify(body));
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${port}/dns-query`, server };
}

// --- the run ----------------------------------------------------------------------------

const receiver = new Receiver();

harness.run(async () => {
  await receiver.start();
  const resolver = await startResolver();
  const stateDir = harness.tempDir("domain-api-webhooks-e2e-");
  const serverArgs = ["--var", `WEBHOOK_DNS_RESOLVER:${resolver.url}`];
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = await harness.startServer(port, { persistTo: stateDir, args: serverArgs });
  if (started) throw new Error(`npm start did not come up: ${started}`);
  ok(`npm start comes up on ${base} with its local queue`);
  let request = httpClient(base, { timeoutMs: 30_000 });

  async function call(method, path, body, status) {
    const res = await request(method, path, body);
    assert(res.status === status, `${method} ${path}: expected ${status}, got ${res.status} ${res.text.slice(0, 300)}`);
    return res.json;
  }
  const account = async (name) => (await call("POST", "/v1/accounts", { name }, 201)).id;
  let contacts = 0;
  const contact = async (accountId) => {
    const n = ++contacts;
    const res = await request("POST", "/v1/contacts", { name: `Hook Person ${n}`, email: `hook${n}@example.org`, account: accountId });
    assert(res.status === 201, `POST /v1/contacts: ${res.status} ${res.text.slice(0, 200)}`);
    return { ...res.json, committedAt: Date.now() };
  };
  async function webhook(accountId, hook, fields = {}) {
    const created = await call("POST", "/v1/webhooks", { url: receiver.url(hook.name), account: accountId, ...fields }, 201);
    hook.secrets = [created.secret];
    hook.id = created.id;
    return created;
  }
  const deliveries = async (id) => (await call("GET", `/v1/webhooks/${id}/deliveries?limit=200`, undefined, 200)).data;
  const dispatch = async (asOf) => call("POST", "/v1/webhooks/dispatch", asOf ? { as_of: asOf } : undefined, 200);
  const eventIdsOf = (hook, resourceType) =>
    receiver
      .delivered(hook)
      .filter((entry) => !resourceType || JSON.parse(entry.body).type === resourceType)
      .map((entry) => entry.id);

  const alice = await account("Alice Hooks");
  const bob = await account("Bob Hooks");

  // --- 1. delivery, order, bodies, signatures, filters, tenancy ----------------------------
  const all = receiver.hook("alice-all");
  const updates = receiver.hook("alice-updates");
  const bobs = receiver.hook("bob-all");
  let allHook;
  await check("POST /v1/webhooks answers the secret once (whsec_…); GET never shows it", async () => {
    allHook = await webhook(alice, all);
    assert(/^whsec_[A-Za-z0-9+/]{43}=$/.test(allHook.secret), `secret ${allHook.secret}`);
    const read = await request("GET", `/v1/webhooks/${allHook.id}`);
    assert(read.status === 200 && !read.text.includes(allHook.secret.slice(6)) && !("secret" in read.json), "GET shows the secret");
    await webhook(alice, updates, { event_types: ["contact.update"] });
    await webhook(bob, bobs);
  });

  const written = [];
  await check("10 writes of Alice's are delivered to her webhook within seconds, each once, in commit order", async () => {
    for (let i = 0; i < 5; i++) written.push(await contact(alice));
    for (const c of written.slice(0, 5)) await call("PATCH", `/v1/contacts/${c.id}`, { organization: "Updated Ltd" }, 200);
    await waitFor("10 contact events at alice-all", () => eventIdsOf(all, "contact").length >= 10);
    const trail = (await call("GET", "/v1/events?type=contact&limit=200", undefined, 200)).data.filter((e) => written.some((c) => c.id === e.resource));
    const delivered = eventIdsOf(all, "contact");
    assert(
      JSON.stringify(delivered) === JSON.stringify(trail.map((e) => e.id)),
      `delivered ${delivered.join(",")} but the trail is ${trail.map((e) => e.id).join(",")}`,
    );
    const latencies = written.map((c) => {
      const entry = receiver.delivered(all).find((d) => JSON.parse(d.body).resource === c.id);
      return entry.at - c.committedAt;
    });
    console.log(`# commit-to-delivery of the 5 creates: ${latencies.sort((a, b) => a - b).join(", ")} ms`);
  });

  await check(
    "every delivery verifies with standardwebhooks' Webhook.verify, webhook-id is the event id, the body is GET /v1/events/{event} byte for byte",
    async () => {
      for (const entry of all.received) {
        assert(entry.verifiedWith.length === 1, `delivery ${entry.id} does not verify: ${JSON.stringify(entry.headers)}`);
        assert(entry.contentType === "application/json", `content-type ${entry.contentType}`);
        const event = await request("GET", `/v1/events/${entry.id}`);
        assert(event.status === 200, `GET /v1/events/${entry.id}: ${event.status}`);
        assert(event.text === entry.body, `body of ${entry.id} differs from GET /v1/events/${entry.id}`);
      }
    },
  );

  await check("the webhook's own creation is its first delivery (an event Alice's account sees)", async () => {
    const first = JSON.parse(all.received[0].body);
    assert(first.type === "webhook" && first.operation === "create" && first.resource === allHook.id, `first delivery: ${all.received[0].body.slice(0, 200)}`);
  });

  await check('event_types ["contact.update"] receives the 5 updates only', async () => {
    await waitFor("5 updates at alice-updates", () => receiver.delivered(updates).length >= 5);
    await sleep(1500);
    const kinds = receiver.delivered(updates).map((entry) => JSON.parse(entry.body));
    assert(
      kinds.length === 5 && kinds.every((e) => e.type === "contact" && e.operation === "update"),
      JSON.stringify(kinds.map((e) => `${e.type}.${e.operation}`)),
    );
  });

  await check("tenancy: Bob's webhook received none of Alice's events; Bob's write reaches Bob only", async () => {
    const mine = receiver.delivered(bobs).map((entry) => JSON.parse(entry.body));
    assert(
      mine.every((e) => e.type === "webhook" || !written.some((c) => c.id === e.resource)),
      "Bob received Alice's contacts",
    );
    const before = eventIdsOf(all).length;
    const bobContact = await contact(bob);
    await waitFor("Bob's contact at bob-all", () => receiver.delivered(bobs).some((entry) => JSON.parse(entry.body).resource === bobContact.id));
    await sleep(1500);
    assert(!receiver.delivered(all).some((entry) => JSON.parse(entry.body).resource === bobContact.id), "Alice received Bob's contact");
    assert(eventIdsOf(all).length === before, "Alice's webhook received something of Bob's");
  });

  // --- 2. a receiver that fails 3 times, then recovers --------------------------------------
  const flaky = receiver.hook("alice-flaky", { failFirst: 3 });
  await check("a receiver failing 3 times then recovering gets every event: the first after 3 retries, none twice more than the retries explain", async () => {
    const hook = await webhook(alice, flaky, { event_types: ["contact.create"] });
    const made = [await contact(alice), await contact(alice), await contact(alice)];
    // The retries come due at 5 s, 1 min and 5 min: the clock moves to each in turn.
    for (let i = 0; i < 6 && receiver.delivered(flaky).length < 3; i++) {
      const latest = await waitFor("a recorded attempt", async () => (await deliveries(hook.id))[0]);
      if (latest.outcome === "retrying") await dispatch(latest.next_attempt_at);
      else await sleep(300);
    }
    await waitFor("3 deliveries at alice-flaky", () => receiver.delivered(flaky).length >= 3);
    const ids = receiver.delivered(flaky).map((entry) => JSON.parse(entry.body).resource);
    assert(JSON.stringify(ids) === JSON.stringify(made.map((c) => c.id)), `delivered ${ids.join(",")}`);
    const perEvent = new Map();
    for (const entry of flaky.received) perEvent.set(entry.id, (perEvent.get(entry.id) ?? 0) + 1);
    const counts = [...perEvent.values()];
    assert(JSON.stringify(counts) === "[4,1,1]", `requests per event: ${JSON.stringify(counts)}`);
    assert(
      flaky.received.every((entry) => entry.verifiedWith.length === 1),
      "a delivery did not verify",
    );
    const attempts = (await deliveries(hook.id)).reverse();
    const first = attempts.filter((a) => a.event === attempts[0].event);
    assert(
      JSON.stringify(first.map((a) => [a.attempt, a.outcome, a.status_code])) ===
        JSON.stringify([
          [1, "retrying", 503],
          [2, "retrying", 503],
          [3, "retrying", 503],
          [4, "succeeded", 204],
        ]),
      JSON.stringify(first),
    );
    const gaps = first.slice(1).map((a, i) => Date.parse(a.at) - Date.parse(first[i].next_attempt_at));
    assert(
      gaps.every((gap) => gap >= 0),
      `an attempt came before its time: ${gaps}`,
    );
    const delays = first.slice(0, 3).map((a) => (Date.parse(a.next_attempt_at) - Date.parse(a.at)) / 1000);
    assert(JSON.stringify(delays) === "[5,60,300]", `retry delays ${delays}`);
  });

  // --- 3. rotation: both signatures during the overlap, then only the new one --------------
  const rotating = receiver.hook("alice-rotating");
  await check("rotate-secret: for 24 h each delivery carries two signatures, either secret verifies; after, only the new one signs", async () => {
    const hook = await webhook(alice, rotating, { event_types: ["contact.create"] });
    const old = hook.secret;
    const rotated = await call("POST", `/v1/webhooks/${hook.id}/rotate-secret`, undefined, 200);
    rotating.secrets = [rotated.secret, old];
    const made = await contact(alice);
    const entry = await waitFor("the delivery at alice-rotating", () => receiver.delivered(rotating).find((d) => JSON.parse(d.body).resource === made.id));
    assert(entry.headers["webhook-signature"].split(" ").length === 2, `signature header: ${entry.headers["webhook-signature"]}`);
    assert(entry.verifiedWith.length === 2, "not both secrets verify");
    // After the overlap: a delivery made 25 hours on (the receiver fails once, so the retry runs at the clock given).
    rotating.failFirst = 1;
    const later = await contact(alice);
    const retry = await waitFor("the failed attempt", async () => (await deliveries(hook.id)).find((d) => d.outcome === "retrying"));
    await dispatch(new Date(Date.parse(rotated.previous_secret_expires_at) + 3600_000).toISOString());
    const after = await waitFor("the late delivery", () => receiver.delivered(rotating).find((d) => JSON.parse(d.body).resource === later.id));
    assert(retry.event === after.id, "another event was retried");
    assert(after.headers["webhook-signature"].split(" ").length === 1, `signature header after the overlap: ${after.headers["webhook-signature"]}`);
    assert(JSON.stringify(after.verifiedWith) === JSON.stringify([rotated.secret]), "the new secret alone should verify");
  });

  // --- 4. SIGKILL between writes and their deliveries -----------------------------------------
  const crash = receiver.hook("alice-crash", { mode: "fail" });
  await check("SIGKILL right after 5 writes whose deliveries were not made; restarted on the same state, every one is delivered", async () => {
    await webhook(alice, crash, { event_types: ["contact.*"] });
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await contact(alice));
    const stopped = await harness.stopServer({ signal: "SIGKILL" });
    assert(stopped, "no server to stop");
    assert(receiver.delivered(crash).length === 0, "delivered before the crash");
    crash.mode = "ok";
    const again = await harness.startServer(port, { persistTo: stateDir, args: serverArgs });
    assert(!again, `restart: ${again}`);
    request = httpClient(base, { timeoutMs: 30_000 });
    // The cron's safety net (npm start runs it on /__scheduled), until every owed event is in.
    await waitFor(
      "5 deliveries after the restart",
      async () => {
        await fetch(`${base}/__scheduled?cron=${encodeURIComponent("* * * * *")}`).then((res) => res.text());
        return receiver.delivered(crash).length >= 5;
      },
      90_000,
    );
    const ids = receiver.delivered(crash).map((entry) => JSON.parse(entry.body).resource);
    assert(JSON.stringify([...new Set(ids)]) === JSON.stringify(made.map((c) => c.id)), `delivered ${ids.join(",")}`);
    console.log(
      `# after the restart: ${crash.received.length} requests for 5 events (${crash.received.length - receiver.delivered(crash).length} failed before the crash)`,
    );
  });

  // --- 5. replay and ping ----------------------------------------------------------------------
  await check("replay from a resume cursor sends those events again, with the same webhook-ids, verified", async () => {
    const page = await call("GET", "/v1/events?limit=1", undefined, 200);
    const trail = [];
    let cursor = page.resume_cursor;
    for (;;) {
      const next = await call("GET", `/v1/events?limit=200&cursor=${encodeURIComponent(cursor)}`, undefined, 200);
      trail.push(...next.data);
      if (!next.next_cursor) break;
      cursor = next.next_cursor;
    }
    // Alice's events: those of her objects, and of her account itself.
    const expected = trail.filter((e) => e.resource === alice || (e.after ?? e.before)?.account === alice).map((e) => e.id);
    const before = all.received.length;
    const answer = await call("POST", `/v1/webhooks/${allHook.id}/replay`, { since: page.resume_cursor }, 202);
    assert(answer.from_event === expected[0], `from_event ${answer.from_event}, expected ${expected[0]}`);
    await waitFor("the replayed events", () => all.received.length - before >= expected.length, 30_000);
    const replayed = all.received.slice(before).map((entry) => entry.id);
    assert(
      expected.every((id) => replayed.includes(id)),
      `not replayed: ${expected.filter((id) => !replayed.includes(id))}`,
    );
    assert(
      all.received.slice(before).every((entry) => entry.verifiedWith.length === 1),
      "a replayed delivery did not verify",
    );
  });

  await check("ping sends a signed test delivery (png_…, type ping) and answers its outcome; it is no event", async () => {
    const result = await call("POST", `/v1/webhooks/${allHook.id}/ping`, undefined, 200);
    assert(result.outcome === "succeeded" && result.status_code === 204 && result.kind === "ping", JSON.stringify(result));
    const entry = all.received.find((d) => d.id === result.message_id);
    assert(entry && entry.verifiedWith.length === 1, "the ping did not arrive verified");
    assert(JSON.parse(entry.body).type === "ping", entry.body);
    assert((await request("GET", `/v1/events/${result.message_id}`)).status === 404, "the ping is an event");
  });

  await check("a redirect is not followed, a 64 KiB answer is read only in part, a receiver slower than 10 s is cut off", async () => {
    const redirect = receiver.hook("redirect", { mode: "redirect" });
    const big = receiver.hook("big", { mode: "big" });
    const slow = receiver.hook("slow", { mode: "slow" });
    for (const hook of [redirect, big, slow]) await webhook(alice, hook, { enabled: false });
    const moved = await call("POST", `/v1/webhooks/${redirect.id}/ping`, undefined, 200);
    assert(moved.outcome === "failed" && moved.status_code === 302 && moved.error.includes("not followed"), JSON.stringify(moved));
    const large = await call("POST", `/v1/webhooks/${big.id}/ping`, undefined, 200);
    assert(large.outcome === "failed" && large.status_code === 500 && large.error.length < 300, JSON.stringify(large).slice(0, 400));
    const started = Date.now();
    const late = await call("POST", `/v1/webhooks/${slow.id}/ping`, undefined, 200);
    const took = Date.now() - started;
    assert(late.outcome === "failed" && late.status_code === null && late.error.includes("10 s"), JSON.stringify(late));
    assert(took >= 9_000 && took < 14_000, `the ping took ${took} ms`);
  });

  // --- 6. URL checks on a loopback server ---------------------------------------------------------
  await check("URL checks: the service itself, private addresses, and names resolving to them are refused; http to loopback is allowed here", async () => {
    const refused = async (url) => {
      const res = await request("POST", "/v1/webhooks", { url, account: alice });
      assert(res.status === 422 && res.json?.errors?.[0]?.field === "url", `${url}: ${res.status} ${res.text.slice(0, 200)}`);
      return res.json.errors[0].message;
    };
    assert((await refused(`${base}/v1/contacts`)).includes("this service itself"), "the service itself");
    assert((await refused("http://10.0.0.1/h")).includes("plain http"), "http to a private address");
    assert((await refused("https://10.0.0.1/h")).includes("private address"), "a private address");
    assert((await refused("https://private.hooks.example/h")).includes("resolves to 10.1.2.3"), "a name resolving to a private address");
    const rebinding = await call("POST", "/v1/webhooks", { url: "https://rebind.hooks.example/h", account: alice, enabled: false }, 201);
    dnsAnswers.set("rebind.hooks.example", "192.168.7.7");
    const ping = await call("POST", `/v1/webhooks/${rebinding.id}/ping`, undefined, 200);
    assert(ping.outcome === "failed" && ping.error.includes("resolves to 192.168.7.7"), JSON.stringify(ping));
    const gone = await call("POST", "/v1/webhooks", { url: "https://nowhere.hooks.example/h", account: alice, enabled: false }, 201);
    const unresolved = await call("POST", `/v1/webhooks/${gone.id}/ping`, undefined, 200);
    assert(unresolved.outcome === "failed" && unresolved.error.includes("NXDOMAIN"), JSON.stringify(unresolved));
  });

  // --- 7. a receiver that always fails: retries over 3 days, given up, disabled after 5 --------
  const broken = receiver.hook("alice-broken", { mode: "fail" });
  await check(
    "an always-failing receiver: 11 attempts over 3+ days (5 s … 24 h), the event failed; at 5 days the webhook is disabled, with its event",
    async () => {
      const hook = await webhook(alice, broken, { event_types: ["host.create"] });
      await call("POST", "/v1/hosts", { name: "ns1.broken-hooks.example.com", account: alice }, 201);
      let attempts = [];
      for (let i = 0; i < 12; i++) {
        attempts = await waitFor("an attempt", async () => {
          const list = await deliveries(hook.id);
          return list.length > i ? list : null;
        });
        if (attempts[0].outcome !== "retrying") break;
        await dispatch(attempts[0].next_attempt_at);
      }
      attempts.reverse();
      assert(attempts.length === 11, `${attempts.length} attempts`);
      assert(attempts.at(-1).outcome === "failed" && attempts.slice(0, -1).every((a) => a.outcome === "retrying"), attempts.map((a) => a.outcome).join(","));
      const delays = attempts.slice(0, -1).map((a) => (Date.parse(a.next_attempt_at) - Date.parse(a.at)) / 1000);
      assert(JSON.stringify(delays) === JSON.stringify([5, 60, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]), `delays ${delays}`);
      const span = (Date.parse(attempts.at(-1).at) - Date.parse(attempts[0].at)) / 3600_000;
      assert(span >= 72, `retried for ${span} h`);
      console.log(
        `# retried for ${span.toFixed(1)} h over ${attempts.length} attempts, every one verified: ${broken.received.every((d) => d.verifiedWith.length === 1)}`,
      );
      const report = await dispatch(new Date(Date.parse(attempts[0].at) + 5 * 24 * 3600_000 + 60_000).toISOString());
      assert(report.disabled >= 1, JSON.stringify(report));
      const disabled = await call("GET", `/v1/webhooks/${hook.id}`, undefined, 200);
      assert(disabled.enabled === false && disabled.disabled_reason.startsWith("failing:"), JSON.stringify(disabled));
      const events = await call("GET", `/v1/events?resource=${hook.id}`, undefined, 200);
      const update = events.data.at(-1);
      assert(update.operation === "update" && update.token === "webhooks" && update.after.enabled === false, JSON.stringify(update));
      // Alice's other webhook hears of it: the disabling is an event of her account.
      await waitFor("the disabling event at alice-all", () => all.received.some((d) => d.id === update.id), 30_000);
    },
  );

  receiver.stop();
  resolver.server.close();
});
