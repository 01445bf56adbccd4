// The webhook sender and what the delivery machinery around it does (docs/webhooks.md,
// "The sender", "Delivery"), in the Workers runtime with this file's D1:
// - the API reaches the sender (src/sender.ts) over the real WEBHOOK_SENDER service binding
//   (vitest.config.ts binds it to test/worker.ts's WebhookSender), and pings go through it;
// - a pass's lease (lease.ts): a pass turned away from a held webhook marks it, and only
//   then does the holder, letting go, report it as still owed;
// - the kick (kick.ts): a burst of writes asks the queue once a second per isolate, with a
//   message delayed a second, which the real local queue's consumer acts on.
// The tests' runtime reaches no network: vitest.config.ts's outboundService throws, which
// the runtime answers as HTTP 500 with the error's text ("no network in the tests"), so a
// send the target rules allow reaches that and fails as "HTTP 500: …". Sends to a receiver that answers are
// test/unit/webhook-send.test.ts (in Node) and scripts/webhooks-e2e.mjs (npm start).
//
// Every request here but those of the last describe reaches an app whose WEBHOOK_QUEUE is
// absent or a recorder, as a deployment without a queue: a message on the real queue makes
// its consumer run a delivery pass in this runtime a second later, which would take
// leases and record deliveries under the tests' feet.
import { createExecutionContext, createMessageBatch, env, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MAX_STATEMENTS_PER_BATCH } from "../src/db/d1-limits";
import { database } from "../src/db/client";
import type { Env } from "../src/env";
import worker from "../src/index";
import { emptyReport } from "../src/delivery/deliver";
import { dispatchOwed, PASS_WEBHOOKS, type WebhookMessage } from "../src/delivery/dispatch";
import { deliverPass } from "../src/delivery/pass";
import { KICK_DELAY_SECONDS, KICK_EVERY_MS } from "../src/delivery/kick";
import { claimAll, LEASE_MS, owedAmong, owedCondition, recordAll, releaseAll } from "../src/delivery/lease";
import { newSigningSecret, sealSecret } from "../src/delivery/secrets";
import { MAX_JOB_BYTES, type SendJob, SEALED_SECRET_UNREADABLE, webhookSender } from "../src/delivery/send";
import { DEFAULT_DNS_RESOLVER } from "../src/delivery/target";
import { api, RFC3339_MS_UTC } from "./helpers";
import { bearer } from "./tokens";

/** A public address (no name to resolve): the target rules allow it. */
const PUBLIC_URL = "https://93.184.215.14/hooks/dns";
const PRIVATE_URL = "https://10.9.8.7/h";
const PRIVATE_REFUSAL = "Not sent: The URL names 10.9.8.7, a private address (10.0.0.0/8, RFC 1918); webhooks go to public Internet addresses only.";
/** What a request that leaves the runtime gets here (vitest.config.ts, outboundService). */
const NO_NETWORK = /^HTTP 500: Error: no network in the tests/;
const DELIVERY_ID = /^dlv_[0-9A-HJKMNP-TV-Z]{26}$/;
const PING_ID = /^png_[0-9A-HJKMNP-TV-Z]{26}$/;

interface Sent {
  body: unknown;
  options: QueueSendOptions | undefined;
}

/** A WEBHOOK_QUEUE that records what it is sent; `fail` makes the next sends reject. */
function recordingQueue() {
  const sent: Sent[] = [];
  const batches: unknown[][] = [];
  let failures = 0;
  const queue = {
    sendBatch(messages: Iterable<MessageSendRequest>): Promise<void> {
      batches.push([...messages].map((m) => m.body));
      return Promise.resolve();
    },
    send(body: unknown, options?: QueueSendOptions): Promise<void> {
      sent.push({ body, options });
      if (failures > 0) {
        failures--;
        return Promise.reject(new Error("queue unavailable"));
      }
      return Promise.resolve();
    },
  };
  return { queue: queue as unknown as Queue, sent, batches, failNext: (n = 1) => (failures = n) };
}

interface Response<T = any> {
  status: number;
  body: T;
  text: string;
}

/**
 * Hands the request to the Worker as test/helpers.ts does, with the bindings of this
 * runtime but WEBHOOK_QUEUE as given (none by default: see the file's head).
 */
async function call<T = any>(method: string, path: string, options: { json?: unknown; queue?: Queue } = {}): Promise<Response<T>> {
  const headers = new Headers({ authorization: bearer("write") });
  let body: string | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers.set("content-type", "application/json");
  }
  const bindings = { ...env, WEBHOOK_QUEUE: options.queue } as unknown as Env;
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`http://api.test${path}`, { method, headers, body }), bindings, ctx);
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  return { status: response.status, body: /json/.test(response.headers.get("content-type") ?? "") ? JSON.parse(text) : undefined, text };
}

function ok<T = any>(response: Response<T>, status: number): T {
  expect(response.status, response.text).toBe(status);
  return response.body;
}

let contacts = 0;
/** One write: a contact, and its create event. */
async function commitEvent(queue?: Queue) {
  return ok(await call("POST", "/v1/contacts", { json: { name: `Sender Test ${++contacts}`, email: `s${contacts}@example.org` }, queue }), 201);
}

/** A webhook of the operator's (which sees every account's events), created with no queue. */
async function webhook(fields: Record<string, unknown> = {}): Promise<string> {
  return ok(await call("POST", "/v1/webhooks", { json: { url: PUBLIC_URL, ...fields } }), 201).id;
}

/**
 * `n` copies of webhook `id` under new ids, by SQL (past the quota of 20 per account).
 * Their sealed secrets are bound to the original's id and cannot be opened: a pass
 * records SEALED_SECRET_UNREADABLE for each, with no call to the sender.
 */
async function copies(id: string, n: number): Promise<string[]> {
  const columns = (await env.DB.prepare("select name from pragma_table_info('webhooks')").all<{ name: string }>()).results.map((c) => c.name);
  const list = columns.join(", ");
  const ids = Array.from({ length: n }, (_, i) => `${id}_${String(i).padStart(3, "0")}`);
  await env.DB.batch(
    ids.map((copy) =>
      env.DB.prepare(`insert into webhooks (${list}) select ${columns.map((c) => (c === "id" ? "?" : c)).join(", ")} from webhooks where id = ?`).bind(
        copy,
        id,
      ),
    ),
  );
  return ids;
}

/** The database as the delivery code uses it, and what each of its batches carried: every statement's SQL and bound values (workerd's D1 statement keeps them). */
function watchedBatches() {
  const batches: { statement: string; params: unknown[] }[][] = [];
  const watched = new Proxy(env.DB, {
    get(target, property) {
      if (property === "batch")
        return (statements: D1PreparedStatement[]) => {
          batches.push(statements.map((s) => s as unknown as { statement: string; params: unknown[] }));
          return target.batch(statements);
        };
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db: database(watched), batches };
}

/** Deletes the webhooks (and their delivery records), which the account's quota of 20 counts. */
async function forget(ids: readonly string[]) {
  await env.DB.prepare("delete from webhooks where id in (select value from json_each(?))").bind(JSON.stringify(ids)).run();
}

async function row(id: string) {
  return (await env.DB.prepare("select enabled, lease_id, lease_until, turned_away, cursor_seq from webhooks where id = ?").bind(id).first())!;
}

/** The webhook has been delivered every event there is: owed nothing. */
async function caughtUp(id: string) {
  await env.DB.prepare("update webhooks set cursor_seq = (select max(seq) from events), next_attempt_at = null where id = ?").bind(id).run();
}

/** Whether the delivery passes' own question (lease.ts, owedCondition) finds the webhook owed now. */
async function isOwed(id: string): Promise<boolean> {
  const db = database(env.DB);
  const rows = await owedAmong(db).where(owedCondition(new Date()));
  return rows.some((r) => r.id === id);
}

function job(fields: Partial<SendJob>): SendJob {
  return {
    url: PUBLIC_URL,
    policy: { loopbackDeployment: false, apiHost: "api.test" },
    secrets: [newSigningSecret()],
    resolver: DEFAULT_DNS_RESOLVER,
    events: ["a", "b", "c"].map((n) => ({ id: `evt_test_${n}`, body: JSON.stringify({ n }) })),
    startBy: Date.now() + 30_000,
    ...fields,
  };
}

describe("the API reaches the webhook sender over the WEBHOOK_SENDER service binding", () => {
  it("a refused URL's result comes back over the binding: ok false, statusCode null, 'Not sent: …', and the job's later events are not attempted", async () => {
    const results = await webhookSender(env).deliver(job({ url: PRIVATE_URL }));
    expect(results).toEqual([{ ok: false, statusCode: null, durationMs: expect.any(Number), error: PRIVATE_REFUSAL }]);
  });

  it("a URL the rules allow is attempted by the sender: the runtime's outbound answers 500 here, the first event's result is that failure, the last", async () => {
    const results = await webhookSender(env).deliver(job({}));
    expect(results).toEqual([{ ok: false, statusCode: 500, durationMs: expect.any(Number), error: expect.stringMatching(NO_NETWORK) }]);
    // The answer's text is kept to an excerpt of 200 characters.
    expect(results[0]!.error!.length).toBe("HTTP 500: ".length + 200);
  });

  it("a host name is checked through the job's resolver before any request: a resolver that cannot answer refuses the attempt", async () => {
    const results = await webhookSender(env).deliver(job({ url: "https://hooks.example.com/h" }));
    expect(results).toEqual([
      {
        ok: false,
        statusCode: null,
        durationMs: expect.any(Number),
        error: "Not sent: hooks.example.com could not be resolved to check its addresses: the resolver answered HTTP 500.",
      },
    ]);
  });

  it("a job whose startBy has passed comes back empty: nothing attempted", async () => {
    expect(await webhookSender(env).deliver(job({ startBy: Date.now() - 1 }))).toEqual([]);
  });

  it("a job of no events comes back empty", async () => {
    expect(await webhookSender(env).deliver(job({ events: [] }))).toEqual([]);
  });
});

describe("a pass turned away from a held webhook marks it turned_away; the holder reports it owed when it lets go", () => {
  it("claimAll takes the enabled webhooks no one holds under one lease, LEASE_MS ahead; a disabled one is neither claimed nor marked", async () => {
    const [a, b, off] = [await webhook(), await webhook(), await webhook({ enabled: false })];
    const before = Date.now();
    const claimed = await claimAll(database(env.DB), [a, b, off], "lease-take");
    expect(claimed.map((r) => r.id).sort()).toEqual([a, b].sort());
    for (const r of claimed) expect(r).toMatchObject({ leaseId: "lease-take", turnedAway: false, enabled: true });
    for (const id of [a, b]) {
      const stored = await row(id);
      expect(stored).toMatchObject({ lease_id: "lease-take", turned_away: 0 });
      expect(Number(stored.lease_until)).toBeGreaterThanOrEqual(before + LEASE_MS);
      expect(Number(stored.lease_until)).toBeLessThanOrEqual(Date.now() + LEASE_MS);
    }
    expect(await row(off)).toMatchObject({ lease_id: null, lease_until: null, turned_away: 0 });
    await releaseAll(database(env.DB), [a, b], "lease-take", new Date());
  });

  it("a second pass (lease B) gets nothing of a webhook lease A holds, and marks it turned_away = 1, A's lease untouched", async () => {
    const id = await webhook();
    const db = database(env.DB);
    expect((await claimAll(db, [id], "lease-A1")).map((r) => r.id)).toEqual([id]);
    const held = await row(id);
    expect(await claimAll(db, [id], "lease-B1")).toEqual([]);
    expect(await row(id)).toEqual({ ...held, turned_away: 1 });
    await releaseAll(db, [id], "lease-A1", new Date());
  });

  it("releaseAll(A) reports a turned-away webhook that an event committed meanwhile is owed, lets go of it and clears turned_away", async () => {
    const id = await webhook();
    await caughtUp(id);
    const db = database(env.DB);
    expect((await claimAll(db, [id], "lease-A2")).map((r) => r.id)).toEqual([id]);
    await commitEvent();
    expect(await claimAll(db, [id], "lease-B2")).toEqual([]);
    expect((await row(id)).turned_away).toBe(1);
    expect([...(await releaseAll(db, [id], "lease-A2", new Date()))]).toEqual([id]);
    expect(await row(id)).toMatchObject({ lease_id: null, lease_until: null, turned_away: 0 });
    // Reported once: the mark is gone, so another release of it reports nothing.
    await claimAll(db, [id], "lease-A2b");
    expect([...(await releaseAll(db, [id], "lease-A2b", new Date()))]).toEqual([]);
  });

  it("without a turned-away pass releaseAll reports nothing, though an event committed meanwhile makes the webhook owed", async () => {
    const id = await webhook();
    await caughtUp(id);
    const db = database(env.DB);
    expect((await claimAll(db, [id], "lease-A3")).map((r) => r.id)).toEqual([id]);
    await commitEvent();
    expect(await isOwed(id)).toBe(true);
    expect([...(await releaseAll(db, [id], "lease-A3", new Date()))]).toEqual([]);
    expect(await row(id)).toMatchObject({ lease_id: null, lease_until: null, turned_away: 0 });
  });

  it("a turned-away webhook owed nothing is not reported, and its mark is cleared", async () => {
    const id = await webhook();
    await caughtUp(id);
    const db = database(env.DB);
    await claimAll(db, [id], "lease-A4");
    expect(await claimAll(db, [id], "lease-B4")).toEqual([]);
    expect((await row(id)).turned_away).toBe(1);
    expect(await isOwed(id)).toBe(false);
    expect([...(await releaseAll(db, [id], "lease-A4", new Date()))]).toEqual([]);
    expect(await row(id)).toMatchObject({ lease_id: null, turned_away: 0 });
  });

  it("releaseAll by a pass that does not hold the webhook lets go of nothing, reports nothing and leaves the mark for the holder", async () => {
    const id = await webhook();
    await caughtUp(id);
    const db = database(env.DB);
    await claimAll(db, [id], "lease-A5");
    await commitEvent();
    expect(await claimAll(db, [id], "lease-B5")).toEqual([]);
    expect([...(await releaseAll(db, [id], "lease-B5", new Date()))]).toEqual([]);
    expect(await row(id)).toMatchObject({ lease_id: "lease-A5", turned_away: 1 });
    expect([...(await releaseAll(db, [id], "lease-A5", new Date()))]).toEqual([id]);
    expect(await row(id)).toMatchObject({ lease_id: null, turned_away: 0 });
  });

  it("an expired lease holds nothing: another pass claims the webhook and is not turned away", async () => {
    const id = await webhook();
    const db = database(env.DB);
    await claimAll(db, [id], "lease-A6");
    await env.DB.prepare("update webhooks set lease_until = ? where id = ?")
      .bind(Date.now() - 1, id)
      .run();
    expect((await claimAll(db, [id], "lease-B6")).map((r) => r.id)).toEqual([id]);
    expect(await row(id)).toMatchObject({ lease_id: "lease-B6", turned_away: 0 });
    await releaseAll(db, [id], "lease-B6", new Date());
  });

  it("a dispatch run that finds a webhook held leaves it alone (no delivery) and marks it turned_away; the holder's release then reports it owed", async () => {
    const id = await webhook({ event_types: ["contact.create"] });
    await caughtUp(id);
    const db = database(env.DB);
    await claimAll(db, [id], "lease-A7");
    const contact = await commitEvent();
    const report = ok(await call("POST", "/v1/webhooks/dispatch"), 200);
    expect(report).toMatchObject({ as_of: expect.stringMatching(RFC3339_MS_UTC), webhooks: expect.any(Number) });
    expect(report.webhooks).toBeGreaterThanOrEqual(1);
    expect(ok(await call("GET", `/v1/webhooks/${id}/deliveries`), 200).data).toEqual([]);
    expect(await row(id)).toMatchObject({ lease_id: "lease-A7", turned_away: 1 });
    expect([...(await releaseAll(db, [id], "lease-A7", new Date()))]).toEqual([id]);
    // Let go, the next run delivers it: the contact's create event, failing here (no network).
    ok(await call("POST", "/v1/webhooks/dispatch"), 200);
    const [attempt] = ok(await call("GET", `/v1/webhooks/${id}/deliveries`), 200).data;
    expect(attempt).toMatchObject({ kind: "event", attempt: 1, status_code: 500, outcome: "retrying", error: expect.stringMatching(NO_NETWORK) });
    const event = ok(await call("GET", `/v1/events/${attempt.event}`), 200);
    expect(event).toMatchObject({ type: "contact", operation: "create", resource: contact.id });
  });
});

describe("a delivery pass hands a webhook's events to the sender in commit order, and records what came back", () => {
  it("of three events owed, the first fails at the sender: one attempt recorded (retrying), the two after it not attempted", async () => {
    const id = await webhook({ event_types: ["contact.create"] });
    await caughtUp(id);
    const written = [await commitEvent(), await commitEvent(), await commitEvent()];
    const report = ok(await call("POST", "/v1/webhooks/dispatch"), 200);
    expect(report.retrying).toBeGreaterThanOrEqual(1);
    const deliveries = ok(await call("GET", `/v1/webhooks/${id}/deliveries`), 200).data;
    expect(deliveries).toEqual([
      {
        id: expect.stringMatching(DELIVERY_ID),
        kind: "event",
        event: expect.any(String),
        message_id: expect.any(String),
        attempt: 1,
        at: report.as_of,
        status_code: 500,
        duration_ms: expect.any(Number),
        error: expect.stringMatching(NO_NETWORK),
        outcome: "retrying",
        next_attempt_at: new Date(Date.parse(report.as_of) + 5000).toISOString(),
      },
    ]);
    expect(deliveries[0].message_id).toBe(deliveries[0].event);
    const event = ok(await call("GET", `/v1/events/${deliveries[0].event}`), 200);
    expect(event).toMatchObject({ type: "contact", operation: "create", resource: written[0].id });
    expect(await row(id)).toMatchObject({ lease_id: null, turned_away: 0 });
  });
});

describe("recordAll writes a pass's attempts (tuples, lease.ts) only for the webhooks its lease still holds", () => {
  it("each record's attempts are listed newest first with every field, the state moves, and a record whose lease is gone writes nothing", async () => {
    const [held, lost] = [await webhook(), await webhook()];
    const db = database(env.DB);
    await claimAll(db, [held, lost], "lease-R1");
    // Another pass took `lost` over (its lease ran out meanwhile).
    await env.DB.prepare("update webhooks set lease_id = 'lease-R2' where id = ?").bind(lost).run();
    const at = "2026-11-26T04:00:00.000Z";
    const retryAt = "2026-11-26T04:00:05.000Z";
    const state = (cursorSeq: number) => ({ cursorSeq, attempts: 1, nextAttemptAt: retryAt, failingSince: at });
    const answers = await recordAll(db, "lease-R1", [
      {
        webhookId: held,
        at,
        attempts: [
          ["evt_01M8B000000000000000000001", 1, 204, 12, null, "succeeded", null],
          ["evt_01M8B000000000000000000002", 1, 503, 40, "HTTP 503: busy", "retrying", retryAt],
        ],
        state: state(41),
      },
      { webhookId: lost, at, attempts: [["evt_01M8B000000000000000000001", 1, 204, 9, null, "succeeded", null]], state: state(41) },
    ]);
    expect(answers).toEqual([true, false]);
    const listed = ok(await call("GET", `/v1/webhooks/${held}/deliveries`), 200).data;
    expect(listed).toEqual([
      {
        id: expect.stringMatching(DELIVERY_ID),
        kind: "event",
        event: "evt_01M8B000000000000000000002",
        message_id: "evt_01M8B000000000000000000002",
        attempt: 1,
        at,
        status_code: 503,
        duration_ms: 40,
        error: "HTTP 503: busy",
        outcome: "retrying",
        next_attempt_at: retryAt,
      },
      {
        id: expect.stringMatching(DELIVERY_ID),
        kind: "event",
        event: "evt_01M8B000000000000000000001",
        message_id: "evt_01M8B000000000000000000001",
        attempt: 1,
        at,
        status_code: 204,
        duration_ms: 12,
        error: null,
        outcome: "succeeded",
        next_attempt_at: null,
      },
    ]);
    expect(listed[1].id < listed[0].id).toBe(true);
    expect(await row(held)).toMatchObject({ lease_id: "lease-R1", cursor_seq: 41 });
    expect(ok(await call("GET", `/v1/webhooks/${lost}/deliveries`), 200).data).toEqual([]);
    expect(await row(lost)).toMatchObject({ lease_id: "lease-R2" });
    await releaseAll(db, [held], "lease-R1", new Date());
    await releaseAll(db, [lost], "lease-R2", new Date());
  });

  it("attempts over D1's 1 MB string limit go in several statements, every bound string under it, all recorded in order", async () => {
    const id = await webhook();
    const { db, batches } = watchedBatches();
    await claimAll(db, [id], "lease-R4");
    const error = `HTTP 500: ${"x".repeat(190)}`;
    const attempts = Array.from({ length: 6000 }, (_, i) => [`evt_01M8B${String(i).padStart(21, "0")}`, 1, 500, 7, error, "failed", null] as const);
    expect(JSON.stringify(attempts).length).toBeGreaterThan(1_500_000);
    batches.length = 0;
    expect(
      await recordAll(db, "lease-R4", [
        { webhookId: id, at: "2026-11-26T04:00:00.000Z", attempts, state: { cursorSeq: 9, attempts: 0, nextAttemptAt: null, failingSince: null } },
      ]),
    ).toEqual([true]);
    const statements = batches.flat();
    const inserts = statements.filter((s) => /insert into "webhook_delivery_records"/i.test(s.statement));
    expect(inserts.length).toBeGreaterThanOrEqual(2);
    const strings = statements.flatMap((s) => s.params).filter((p): p is string => typeof p === "string");
    expect(Math.max(...strings.map((p) => new TextEncoder().encode(p).byteLength))).toBeLessThan(1_000_000);
    const stored = await env.DB.prepare(
      "select a.value ->> 1 as message_id from webhook_delivery_records r, json_each(r.attempts) a where r.webhook_id = ? order by r.seq, a.key",
    )
      .bind(id)
      .all<{ message_id: string }>();
    expect(stored.results.map((r) => r.message_id)).toEqual(attempts.map((a) => a[0]));
    expect(await row(id)).toMatchObject({ cursor_seq: 9 });
    await releaseAll(db, [id], "lease-R4", new Date());
  });

  it("a record with no attempts moves the state alone (no delivery row)", async () => {
    const id = await webhook();
    const db = database(env.DB);
    await claimAll(db, [id], "lease-R3");
    expect(
      await recordAll(db, "lease-R3", [
        { webhookId: id, at: "2026-11-26T04:00:00.000Z", attempts: [], state: { cursorSeq: 7, attempts: 0, nextAttemptAt: null, failingSince: null } },
      ]),
    ).toEqual([true]);
    expect(await row(id)).toMatchObject({ cursor_seq: 7 });
    expect(ok(await call("GET", `/v1/webhooks/${id}/deliveries`), 200).data).toEqual([]);
    await releaseAll(db, [id], "lease-R3", new Date());
  });
});

describe("a pass's size does not grow its batches: PASS_WEBHOOKS webhooks a pass, their states in one statement", () => {
  it("recordAll moves 60 webhooks' states in the same statements as one webhook's, under MAX_STATEMENTS_PER_BATCH; only the held ones move", async () => {
    const original = await webhook();
    const [first, ...others] = (await copies(original, 61)) as [string, ...string[]];
    const { db, batches } = watchedBatches();
    await claimAll(db, [first, ...others], "lease-S1");
    // One of them taken over by another pass: its state does not move.
    const lost = others[59]!;
    await env.DB.prepare("update webhooks set lease_id = 'lease-S2' where id = ?").bind(lost).run();
    const record = (webhookId: string, cursorSeq: number) => ({
      webhookId,
      at: "2026-11-26T04:00:00.000Z",
      attempts: [[`evt_01M8B000000000000000000${String(cursorSeq % 1000).padStart(3, "0")}`, 1, 204, 3, null, "succeeded", null] as const],
      state: { cursorSeq, attempts: 2, nextAttemptAt: "2026-11-26T04:00:09.000Z", failingSince: "2026-11-26T03:00:00.000Z" },
    });
    batches.length = 0;
    expect(await recordAll(db, "lease-S1", [record(first, 500)])).toEqual([true]);
    const forOne = batches.flat().map((s) => s.statement);
    batches.length = 0;
    const answers = await recordAll(
      db,
      "lease-S1",
      others.map((id, i) => record(id, 600 + i)),
    );
    expect(answers).toEqual(others.map((id) => id !== lost));
    const forSixty = batches.flat().map((s) => s.statement);
    expect(forSixty.length).toBe(forOne.length);
    expect(forSixty.length).toBeLessThanOrEqual(MAX_STATEMENTS_PER_BATCH);
    expect(forSixty.filter((s) => /^update "webhooks"/i.test(s))).toHaveLength(1);
    const states = await env.DB.prepare(
      `select id, cursor_seq, attempts, next_attempt_at, failing_since from webhooks where id in (select value from json_each(?)) order by id`,
    )
      .bind(JSON.stringify(others))
      .all();
    expect(states.results).toEqual(
      others.map((id, i) =>
        id === lost
          ? expect.objectContaining({ id, attempts: 0, next_attempt_at: null })
          : { id, cursor_seq: 600 + i, attempts: 2, next_attempt_at: "2026-11-26T04:00:09.000Z", failing_since: "2026-11-26T03:00:00.000Z" },
      ),
    );
    const recorded = await env.DB.prepare("select sum(count) as n from webhook_delivery_records where webhook_id in (select value from json_each(?))")
      .bind(JSON.stringify(others))
      .first<{ n: number }>();
    expect(recorded?.n).toBe(59);
    await releaseAll(db, [first, ...others], "lease-S1", new Date());
    await forget([original, first, ...others]);
  });

  it("a webhook recorded twice in one call keeps its last state, and both records' attempts", async () => {
    const id = await webhook();
    const db = database(env.DB);
    await claimAll(db, [id], "lease-S3");
    const state = (cursorSeq: number) => ({ cursorSeq, attempts: 0, nextAttemptAt: null, failingSince: null });
    const at = "2026-11-26T04:00:00.000Z";
    expect(
      await recordAll(db, "lease-S3", [
        { webhookId: id, at, attempts: [["evt_01M8B000000000000000000071", 1, 204, 3, null, "succeeded", null]], state: state(71) },
        { webhookId: id, at, attempts: [["evt_01M8B000000000000000000072", 1, 204, 3, null, "succeeded", null]], state: state(72) },
      ]),
    ).toEqual([true, true]);
    expect(await row(id)).toMatchObject({ cursor_seq: 72 });
    expect(ok(await call("GET", `/v1/webhooks/${id}/deliveries`), 200).data.map((d: { event: string }) => d.event)).toEqual([
      "evt_01M8B000000000000000000072",
      "evt_01M8B000000000000000000071",
    ]);
    await releaseAll(db, [id], "lease-S3", new Date());
    await forget([id]);
  });

  it("a queue batch naming more than PASS_WEBHOOKS (50) webhooks passes the first 50 and sends each other back to the queue in a message of its own", async () => {
    expect(PASS_WEBHOOKS).toBe(50);
    await commitEvent();
    const original = await webhook();
    const named = await copies(original, 60);
    // Each owed the last event there is, once.
    await env.DB.prepare("update webhooks set cursor_seq = (select max(seq) - 1 from events) where id in (select value from json_each(?))")
      .bind(JSON.stringify(named))
      .run();
    const { queue, sent, batches } = recordingQueue();
    const batch = createMessageBatch<WebhookMessage>(
      "domain-api-webhooks",
      named.map((id, i) => ({ id: `m${i}`, timestamp: new Date(), attempts: 1, body: { kind: "webhook", id } })),
    );
    const ctx = createExecutionContext();
    await worker.queue(batch as MessageBatch<never>, { ...env, WEBHOOK_QUEUE: queue } as unknown as Env);
    const result = await getQueueResult(batch, ctx);
    expect(result.ackAll).toBe(true);
    expect(batches).toEqual([named.slice(50).map((id) => ({ kind: "webhook", id }))]);
    const recorded = await env.DB.prepare(
      "select webhook_id, sum(count) as n from webhook_delivery_records where webhook_id in (select value from json_each(?)) group by webhook_id order by webhook_id",
    )
      .bind(JSON.stringify(named))
      .all<{ webhook_id: string; n: number }>();
    expect(recorded.results).toEqual(named.slice(0, 50).map((id) => ({ webhook_id: id, n: 1 })));
    // Each passed webhook's failed attempt asks the queue for its retry; none of the others did.
    expect(new Set(sent.map((m) => (m.body as { id: string }).id))).toEqual(new Set(named.slice(0, 50)));
    await forget([original, ...named]);
  });
});

describe("POST /v1/webhooks/{webhook}/ping is sent by the webhook sender", () => {
  it("a ping to a refused URL answers 200 with the failed delivery, whose error is the sender's 'Not sent: …', and records it", async () => {
    const id = await webhook();
    await env.DB.prepare("update webhooks set url = ? where id = ?").bind(PRIVATE_URL, id).run();
    const ping = ok(await call("POST", `/v1/webhooks/${id}/ping`), 200);
    expect(ping).toEqual({
      id: expect.stringMatching(DELIVERY_ID),
      kind: "ping",
      event: null,
      message_id: expect.stringMatching(PING_ID),
      attempt: 1,
      at: expect.stringMatching(RFC3339_MS_UTC),
      status_code: null,
      duration_ms: expect.any(Number),
      error: PRIVATE_REFUSAL,
      outcome: "failed",
      next_attempt_at: null,
    });
    expect(ok(await call("GET", `/v1/webhooks/${id}/deliveries`), 200).data).toEqual([ping]);
  });

  it("a ping to a URL the rules allow is attempted by the sender: its request reaches the runtime's outbound, which answers 500 here", async () => {
    const id = await webhook();
    const ping = ok(await call("POST", `/v1/webhooks/${id}/ping`), 200);
    expect(ping).toMatchObject({ kind: "ping", event: null, status_code: 500, outcome: "failed", error: expect.stringMatching(NO_NETWORK) });
  });

  it("a disabled webhook can be pinged, through the sender too", async () => {
    const id = await webhook({ enabled: false });
    await env.DB.prepare("update webhooks set url = ? where id = ?").bind(PRIVATE_URL, id).run();
    expect(ok(await call("POST", `/v1/webhooks/${id}/ping`), 200)).toMatchObject({ kind: "ping", outcome: "failed", error: PRIVATE_REFUSAL });
  });

  it("a ping whose signing secret cannot be opened is not handed to the sender: it records why, in no time", async () => {
    const id = await webhook();
    await env.DB.prepare("update webhooks set secret_sealed = 'v1.not-a-sealed-secret' where id = ?").bind(id).run();
    const ping = ok(await call("POST", `/v1/webhooks/${id}/ping`), 200);
    expect(ping).toMatchObject({ kind: "ping", status_code: null, duration_ms: 0, outcome: "failed", error: SEALED_SECRET_UNREADABLE.error });
  });
});

/** The real sender (this runtime's WEBHOOK_SENDER), behind a wrapper that keeps every job handed to it. */
function watchedSender() {
  const jobs: SendJob[] = [];
  const sender = {
    deliver(job: SendJob) {
      jobs.push(job);
      return webhookSender(env as unknown as Env).deliver(job);
    },
  };
  return { bindings: { ...env, WEBHOOK_QUEUE: undefined, WEBHOOK_SENDER: sender } as unknown as Env, jobs };
}

/** A customer account (made by the operator), with a webhook of its own at `url` for its contacts' creation, owed nothing yet. */
async function accountWithWebhook(url: string) {
  const account = ok(await call("POST", "/v1/accounts", { json: { name: `Paused ${++contacts}` } }), 201).id as string;
  const id = ok(await call("POST", "/v1/webhooks", { json: { url, account, event_types: ["contact.create"] } }), 201).id as string;
  await caughtUp(id);
  return { account, id };
}

/** A contact of the account: one contact.create event its webhook selects. */
async function contactOf(account: string) {
  const n = ++contacts;
  return ok(await call("POST", "/v1/contacts", { json: { name: `Paused Contact ${n}`, email: `paused${n}@example.org`, account } }), 201);
}

async function setStatus(account: string, status: "active" | "suspended") {
  expect(ok(await call("PATCH", `/v1/accounts/${account}`, { json: { status } }), 200)).toMatchObject({ id: account, status });
}

describe("a suspended account's webhooks pause: nothing sent, nothing lost, resumed in order when it is active again", () => {
  it("a suspended account's webhooks send nothing and keep their deliveries owed", async () => {
    const url = "https://93.184.215.14/paused/one";
    const { account, id } = await accountWithWebhook(url);
    const cursor = (await row(id)).cursor_seq;
    for (let i = 0; i < 3; i++) await contactOf(account);
    expect(await isOwed(id)).toBe(true);
    await setStatus(account, "suspended");
    // The cron's and the queue's question finds nothing owed, and a pass that names it (a
    // queue message, a retry) takes no lease on it: no job reaches the sender.
    expect(await isOwed(id)).toBe(false);
    const { bindings, jobs } = watchedSender();
    const report = await dispatchOwed(bindings, new Date());
    expect(report.as_of).toMatch(RFC3339_MS_UTC);
    const ends = await deliverPass(bindings, [id], new Date(), emptyReport());
    expect(ends.get(id)).toEqual({ kind: "skipped" });
    expect(jobs.filter((job) => job.url === url)).toEqual([]);
    expect(await row(id)).toMatchObject({ lease_id: null, cursor_seq: cursor });
    expect(ok(await call("GET", `/v1/webhooks/${id}/deliveries`), 200).data).toEqual([]);
    // A ping sends nothing either: it records why.
    const ping = ok(await call("POST", `/v1/webhooks/${id}/ping`), 200);
    expect(ping).toMatchObject({
      kind: "ping",
      status_code: null,
      duration_ms: 0,
      outcome: "failed",
      error: `Not sent: the account ${account} is suspended, and its webhooks send nothing until it is active again.`,
    });
    // Still owed: active again, it is owed the same events from the same cursor.
    await setStatus(account, "active");
    expect(await isOwed(id)).toBe(true);
    expect((await row(id)).cursor_seq).toBe(cursor);
    ok(await call("PATCH", `/v1/webhooks/${id}`, { json: { enabled: false } }), 200);
  });

  it("an account suspended while a pass holds its webhook is sent nothing more by that pass: the lease is checked in SQL before the job", async () => {
    const url = "https://93.184.215.14/paused/in-flight";
    const { account, id } = await accountWithWebhook(url);
    const cursor = (await row(id)).cursor_seq;
    await contactOf(account);
    const { bindings, jobs } = watchedSender();
    // The suspension commits right after the pass's lease, as a PATCH on another isolate
    // would while this pass reads the events.
    let leased = false;
    const db = new Proxy(env.DB, {
      get(target, property) {
        if (property === "batch")
          return async (statements: D1PreparedStatement[]) => {
            const results = await target.batch(statements);
            if (!leased && statements.some((s) => /set "lease_id"/.test((s as unknown as { statement: string }).statement))) {
              leased = true;
              await target.prepare("update accounts set status = 'suspended' where id = ?").bind(account).run();
            }
            return results;
          };
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const ends = await deliverPass({ ...bindings, DB: db } as Env, [id], new Date(), emptyReport());
    expect(leased).toBe(true);
    expect(ends.get(id)).toEqual({ kind: "skipped" });
    expect(jobs.filter((job) => job.url === url)).toEqual([]);
    expect(await row(id)).toMatchObject({ lease_id: null, cursor_seq: cursor });
    expect(ok(await call("GET", `/v1/webhooks/${id}/deliveries`), 200).data).toEqual([]);
    await setStatus(account, "active");
    ok(await call("PATCH", `/v1/webhooks/${id}`, { json: { enabled: false } }), 200);
  });

  it("they resume in order when the account is active again: the first job holds the owed events in commit order", async () => {
    const url = "https://93.184.215.14/paused/resumed";
    const { account, id } = await accountWithWebhook(url);
    const written = [await contactOf(account)];
    await setStatus(account, "suspended");
    // Owed events keep coming while it is paused (an operator's writes for the account).
    written.push(await contactOf(account), await contactOf(account));
    const { bindings, jobs } = watchedSender();
    await deliverPass(bindings, [id], new Date(), emptyReport());
    expect(jobs.filter((job) => job.url === url)).toEqual([]);
    await setStatus(account, "active");
    expect(await isOwed(id)).toBe(true);
    const report = emptyReport();
    await deliverPass(bindings, [id], new Date(), report);
    const sent = jobs.filter((job) => job.url === url);
    expect(sent).toHaveLength(1);
    const events = await Promise.all(sent[0]!.events.map(async (event) => ok(await call("GET", `/v1/events/${event.id}`), 200)));
    expect(events.map((event) => [event.type, event.operation, event.resource])).toEqual(written.map((contact) => ["contact", "create", contact.id]));
    expect(sent[0]!.events.map((event) => event.id)).toEqual([...events].sort((a, b) => (a.at < b.at ? -1 : 1)).map((event) => event.id));
    // The first was attempted (the runtime's outbound answers 500 here): in commit order, nothing skipped.
    const deliveries = ok(await call("GET", `/v1/webhooks/${id}/deliveries`), 200).data;
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ kind: "event", event: events[0].id, attempt: 1, status_code: 500, outcome: "retrying" });
    ok(await call("PATCH", `/v1/webhooks/${id}`, { json: { enabled: false } }), 200);
  });

  it("a failing webhook paused past its 5 days is not disabled when its account resumes: the days count from the resumption", async () => {
    const url = "https://93.184.215.14/paused/failing";
    const { account, id } = await accountWithWebhook(url);
    await contactOf(account);
    const sixDaysAgo = new Date(Date.now() - 6 * 24 * 3600 * 1000).toISOString();
    await env.DB.prepare("update webhooks set failing_since = ? where id = ?").bind(sixDaysAgo, id).run();
    await setStatus(account, "suspended");
    const before = new Date().toISOString();
    await setStatus(account, "active");
    const stored = (await env.DB.prepare("select failing_since, enabled from webhooks where id = ?")
      .bind(id)
      .first<{ failing_since: string; enabled: number }>())!;
    expect(stored.enabled).toBe(1);
    expect(stored.failing_since >= before).toBe(true);
    const report = emptyReport();
    await deliverPass(watchedSender().bindings, [id], new Date(), report);
    expect(report).toMatchObject({ disabled: 0, retrying: 1 });
    expect(ok(await call("GET", `/v1/webhooks/${id}`), 200)).toMatchObject({ enabled: true, disabled_reason: null });
    ok(await call("PATCH", `/v1/webhooks/${id}`, { json: { enabled: false } }), 200);
  });
});

describe("a sender that fails is a failed attempt, recorded: a ping never answers 5xx, and the next call reaches the sender", () => {
  /** Seals a secret the sender cannot sign with (not base64): its signing throws inside the sender, which the binding's call rejects with. */
  async function unsignable(id: string) {
    await env.DB.prepare("update webhooks set secret_sealed = ? where id = ?")
      .bind(await sealSecret(env as unknown as Env, false, id, "whsec_%%%not-base64%%%"), id)
      .run();
  }
  const SENDER_FAILED = /^Not sent, or not known to be: the webhook sender failed \(.+\)\.$/;

  it("a ping whose call to the sender throws answers 200 with the failed delivery, recorded; the next ping reaches the sender", async () => {
    const id = await webhook();
    await unsignable(id);
    const failed = await call("POST", `/v1/webhooks/${id}/ping`);
    expect(failed.status, failed.text).toBe(200);
    expect(failed.body).toMatchObject({
      kind: "ping",
      status_code: null,
      outcome: "failed",
      next_attempt_at: null,
      error: expect.stringMatching(SENDER_FAILED),
    });
    expect(ok(await call("GET", `/v1/webhooks/${id}/deliveries`), 200).data).toEqual([failed.body]);
    // Nothing of that call stays behind: with a secret it can sign with, the sender sends.
    await env.DB.prepare("update webhooks set secret_sealed = ? where id = ?")
      .bind(await sealSecret(env as unknown as Env, false, id, newSigningSecret()), id)
      .run();
    const next = ok(await call("POST", `/v1/webhooks/${id}/ping`), 200);
    expect(next).toMatchObject({ kind: "ping", status_code: 500, outcome: "failed", error: expect.stringMatching(NO_NETWORK) });
    await forget([id]);
  });

  it("a delivery pass whose call to the sender throws records a failed attempt, retried on the schedule (not a turn left unrecorded)", async () => {
    const id = await webhook({ event_types: ["contact.create"] });
    await caughtUp(id);
    await commitEvent();
    await unsignable(id);
    const report = ok(await call("POST", "/v1/webhooks/dispatch"), 200);
    const deliveries = ok(await call("GET", `/v1/webhooks/${id}/deliveries`), 200).data;
    expect(deliveries).toEqual([
      expect.objectContaining({
        kind: "event",
        attempt: 1,
        status_code: null,
        outcome: "retrying",
        error: expect.stringMatching(SENDER_FAILED),
        next_attempt_at: new Date(Date.parse(report.as_of) + 5000).toISOString(),
      }),
    ]);
    await forget([id]);
  });

  it("a job's events are bounded in bytes under the binding's 32 MiB: twenty events of 1.8 MB reach the sender in jobs of MAX_JOB_BYTES at most", async () => {
    const url = "https://93.184.215.14/large-events";
    const id = await webhook({ url, event_types: ["contact.update"] });
    await caughtUp(id);
    const template = (await env.DB.prepare("select * from events order by seq desc limit 1").first<Record<string, unknown>>())!;
    const big = JSON.stringify({ note: "x".repeat(1_800_000) });
    await env.DB.batch(
      Array.from({ length: 20 }, (_, i) =>
        env.DB.prepare(
          "insert into events (id, account_id, at, actor, resource_type, resource_id, operation, before, after) values (?, ?, ?, ?, 'contact', ?, 'update', null, ?)",
        ).bind(`evt_01M8LARGE0000000000000${String(i).padStart(3, "0")}`, template.account_id, template.at, template.actor, template.resource_id, big),
      ),
    );
    const { bindings, jobs } = watchedSender();
    await deliverPass(bindings, [id], new Date(), emptyReport());
    const sent = jobs.filter((job) => job.url === url);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.events.length).toBeGreaterThanOrEqual(1);
    expect(sent[0]!.events.reduce((bytes, event) => bytes + event.body.length * 2, 0)).toBeLessThanOrEqual(MAX_JOB_BYTES);
    // It reached the sender, which attempted its first event (the outbound answers 500 here).
    const deliveries = ok(await call("GET", `/v1/webhooks/${id}/deliveries`), 200).data;
    expect(deliveries).toEqual([
      expect.objectContaining({ kind: "event", event: "evt_01M8LARGE0000000000000000", attempt: 1, status_code: 500, outcome: "retrying" }),
    ]);
    await env.DB.prepare("delete from events where id like 'evt_01M8LARGE%'").run();
    await forget([id]);
  });

  it("POST /v1/webhooks/dispatch with an empty body and no Content-Type (Content-Length: 0) answers 200, not 500", async () => {
    const ctx = createExecutionContext();
    const response = await worker.fetch(
      new Request("http://api.test/v1/webhooks/dispatch", {
        method: "POST",
        headers: { authorization: bearer("write"), "content-length": "0" },
        body: new Uint8Array(0),
      }),
      { ...env, WEBHOOK_QUEUE: undefined } as unknown as Env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ as_of: expect.stringMatching(RFC3339_MS_UTC), webhooks: expect.any(Number), more: expect.any(Boolean) });
  });
});

describe("a write's kick reaches the real queue, whose consumer delivers a second later", () => {
  it("with no dispatch call, the consumer records the attempt for the write's event no earlier than KICK_DELAY_SECONDS after the write", async () => {
    const id = await webhook({ event_types: ["contact.create"] });
    await env.DB.prepare("update webhooks set url = ? where id = ?").bind(PRIVATE_URL, id).run();
    await caughtUp(id);
    // Through test/helpers.ts: the app with this runtime's real WEBHOOK_QUEUE.
    const written = await api("POST", "/v1/contacts", { json: { name: "Kicked", email: "kicked@example.org" } });
    expect(written.status, written.text).toBe(201);
    const after = Date.now();
    let deliveries: any[] = [];
    while (deliveries.length === 0 && Date.now() - after < 20_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      deliveries = ok(await call("GET", `/v1/webhooks/${id}/deliveries`), 200).data;
    }
    const seenAfter = Date.now() - after;
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ kind: "event", attempt: 1, status_code: null, outcome: "retrying", error: PRIVATE_REFUSAL });
    const event = ok(await call("GET", `/v1/events/${deliveries[0].event}`), 200);
    expect(event).toMatchObject({ type: "contact", operation: "create", resource: written.body.id });
    expect(seenAfter).toBeGreaterThanOrEqual(KICK_DELAY_SECONDS * 1000 - 100);
    // Its retry (a message delayed 5 s) finds it disabled: nothing more runs behind the next tests.
    ok(await call("PATCH", `/v1/webhooks/${id}`, { json: { enabled: false } }), 200);
  });
});

describe("writes kick the queue at most once a second per isolate (kick.ts)", () => {
  // The isolate's clock, stopped where each test says: the kick's rule is about time only.
  let clock = 0;
  beforeEach(() => {
    clock = Math.max(clock, Date.now()) + 10 * KICK_EVERY_MS;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(clock);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const at = (ms: number) => vi.setSystemTime(clock + ms);

  it("several writes within a second send one message, { kind: 'events' } delayed KICK_DELAY_SECONDS (1)", async () => {
    expect([KICK_DELAY_SECONDS, KICK_EVERY_MS]).toEqual([1, 1000]);
    const { queue, sent } = recordingQueue();
    for (const ms of [0, 0, 300, KICK_EVERY_MS - 1]) {
      at(ms);
      await commitEvent(queue);
    }
    expect(sent).toEqual([{ body: { kind: "events" }, options: { delaySeconds: 1 } }]);
  });

  it("a write KICK_EVERY_MS or more after the last message sends another", async () => {
    const { queue, sent } = recordingQueue();
    at(0);
    await commitEvent(queue);
    at(KICK_EVERY_MS);
    await commitEvent(queue);
    at(KICK_EVERY_MS + 500);
    await commitEvent(queue);
    at(3 * KICK_EVERY_MS);
    await commitEvent(queue);
    expect(sent).toEqual(Array.from({ length: 3 }, () => ({ body: { kind: "events" }, options: { delaySeconds: 1 } })));
  });

  it("a read or a refused write sends nothing and leaves the second to the next write", async () => {
    const { queue, sent } = recordingQueue();
    ok(await call("GET", "/v1/contacts", { queue }), 200);
    expect(ok(await call("POST", "/v1/contacts", { json: { name: "" }, queue }), 422)).toMatchObject({ code: "validation_failed" });
    expect(ok(await call("DELETE", "/v1/contacts/con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B", { queue }), 404)).toMatchObject({ code: "not_found" });
    expect(sent).toEqual([]);
    await commitEvent(queue);
    expect(sent).toEqual([{ body: { kind: "events" }, options: { delaySeconds: 1 } }]);
  });

  it("a failed send is logged, not answered, and lets the next write send again", async () => {
    const { queue, sent, failNext } = recordingQueue();
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      failNext();
      const first = await call("POST", "/v1/contacts", { json: { name: "Lost Kick", email: "lost@example.org" }, queue });
      expect(first.status, first.text).toBe(201);
      expect(sent).toHaveLength(1);
      expect(errors.mock.calls.map((args) => JSON.parse(String(args[0])))).toEqual([
        expect.objectContaining({ level: "error", webhooks: "queue send failed", request_id: expect.any(String) }),
      ]);
      // The same moment: the message lost does not cover this write.
      await commitEvent(queue);
      expect(sent).toHaveLength(2);
      // That one was sent: it covers the next within the second.
      await commitEvent(queue);
      expect(sent).toEqual([
        { body: { kind: "events" }, options: { delaySeconds: 1 } },
        { body: { kind: "events" }, options: { delaySeconds: 1 } },
      ]);
    } finally {
      errors.mockRestore();
    }
  });
});
