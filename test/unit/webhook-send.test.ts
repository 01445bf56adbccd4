// The webhook sender's job (src/delivery/send.ts, sendInOrder) against a real
// receiver: an HTTP server on a loopback port (receiver.mjs) that counts what reaches it
// and verifies each request with the Standard Webhooks reference library. In Node, as the
// Workers tests reach no network (vitest.config.ts, outboundService); the same job over
// the WEBHOOK_SENDER binding is test/webhook-sender.test.ts, a live receiver behind
// `npm start` is scripts/webhooks-e2e.mjs.
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { newSigningSecret } from "../../src/delivery/secrets";
import { MAX_JOB_EVENTS, type SendJob, sendInOrder, USER_AGENT } from "../../src/delivery/send";
import type { TargetPolicy } from "../../src/delivery/target";
import { type Receiver, type Reply, startReceiver } from "./receiver.mjs";

/** A local development server's webhook (npm start): plain http to loopback is allowed. */
const LOOPBACK: TargetPolicy = { loopbackDeployment: true, apiHost: "127.0.0.1:8787" };
/** A deployed service's webhook: https to public addresses only. */
const DEPLOYED: TargetPolicy = { loopbackDeployment: false, apiHost: "api.example.com" };
/** A resolver that is never asked: every URL here names an address, not a name. */
const NO_RESOLVER = "http://127.0.0.1:9/dns-query";

function events(count: number) {
  return Array.from({ length: count }, (_, i) => {
    const id = `evt_${String(i).padStart(26, "0")}`;
    return { id, body: JSON.stringify({ id, type: "contact", operation: "create", n: i }) };
  });
}

function job(url: string, fields: Partial<SendJob> = {}): SendJob {
  return { url, policy: LOOPBACK, secrets: [newSigningSecret()], resolver: NO_RESOLVER, events: events(3), startBy: Date.now() + 60_000, ...fields };
}

let receiver: Receiver | undefined;
async function receiving(answer?: (index: number) => Reply): Promise<Receiver> {
  receiver = await startReceiver(answer ? (_request, index) => answer(index) : undefined);
  return receiver;
}
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe("sendInOrder sends a job's events one after the other, in order", () => {
  it("every event is one POST, in the job's order, each result ok with the receiver's 2xx status", async () => {
    const hook = await receiving((index) => ({ status: index === 1 ? 200 : 204 }));
    const sent = events(3);
    const results = await sendInOrder(job(hook.url, { events: sent }));
    expect(results).toEqual([
      { ok: true, statusCode: 204, durationMs: expect.any(Number), error: null },
      { ok: true, statusCode: 200, durationMs: expect.any(Number), error: null },
      { ok: true, statusCode: 204, durationMs: expect.any(Number), error: null },
    ]);
    expect(hook.requests.map((r) => [r.method, r.path, r.headers["webhook-id"], r.body])).toEqual(sent.map((e) => ["POST", "/hook", e.id, e.body]));
    for (const request of hook.requests) {
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.headers["user-agent"]).toBe(USER_AGENT);
    }
    for (const result of results) expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("each request carries webhook-id, webhook-timestamp and webhook-signature that standardwebhooks verifies, with either secret during a rotation", async () => {
    const hook = await receiving();
    const [next, previous] = [newSigningSecret(), newSigningSecret()];
    const before = Math.floor(Date.now() / 1000);
    const results = await sendInOrder(job(hook.url, { secrets: [next, previous] }));
    const after = Math.floor(Date.now() / 1000);
    expect(results.map((r) => r.ok)).toEqual([true, true, true]);
    expect(hook.requests).toHaveLength(3);
    for (const [i, request] of hook.requests.entries()) {
      const headers = {
        "webhook-id": request.headers["webhook-id"]!,
        "webhook-timestamp": request.headers["webhook-timestamp"]!,
        "webhook-signature": request.headers["webhook-signature"]!,
      };
      expect(headers["webhook-id"]).toBe(events(3)[i]!.id);
      // Signed at the moment it was sent, in whole seconds.
      expect(Number(headers["webhook-timestamp"])).toBeGreaterThanOrEqual(before);
      expect(Number(headers["webhook-timestamp"])).toBeLessThanOrEqual(after);
      expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
      expect(new Webhook(next).verify(request.body, headers)).toEqual(JSON.parse(request.body));
      expect(new Webhook(previous).verify(request.body, headers)).toEqual(JSON.parse(request.body));
      expect(() => new Webhook(newSigningSecret()).verify(request.body, headers)).toThrow("No matching signature");
    }
  });
});

describe("each event of a job is signed at the moment it is sent", () => {
  it("a request sent 1.2 s after the one before carries a later webhook-timestamp, and verifies", async () => {
    const hook = await receiving(() => ({ status: 204, delayMs: 1200 }));
    const secret = newSigningSecret();
    const results = await sendInOrder(job(hook.url, { secrets: [secret], events: events(2) }));
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    const [first, second] = hook.requests.map((r) => Number(r.headers["webhook-timestamp"]));
    expect(second! - first!).toBeGreaterThanOrEqual(1);
    for (const request of hook.requests) {
      const { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": signature } = request.headers;
      expect(new Webhook(secret).verify(request.body, { "webhook-id": id!, "webhook-timestamp": timestamp!, "webhook-signature": signature! })).toBeTruthy();
    }
  });
});

describe("sendInOrder stops after the first failed attempt: its result is the last", () => {
  it("a 5xx fails the attempt with the status and an excerpt of the answer; the events after it are not attempted", async () => {
    const hook = await receiving((index) => (index === 1 ? { status: 503, body: "  down for\n maintenance  " } : { status: 204 }));
    const results = await sendInOrder(job(hook.url, { events: events(5) }));
    expect(results).toEqual([
      { ok: true, statusCode: 204, durationMs: expect.any(Number), error: null },
      { ok: false, statusCode: 503, durationMs: expect.any(Number), error: "HTTP 503: down for maintenance" },
    ]);
    expect(hook.requests.map((r) => r.headers["webhook-id"])).toEqual(events(2).map((e) => e.id));
  });

  it("a failing first event ends the job at once: one result, one request", async () => {
    const hook = await receiving(() => ({ status: 400 }));
    const results = await sendInOrder(job(hook.url, { events: events(4) }));
    expect(results).toEqual([{ ok: false, statusCode: 400, durationMs: expect.any(Number), error: "HTTP 400" }]);
    expect(hook.requests).toHaveLength(1);
  });

  it("a redirect is a failure and is not followed (the place it names gets no request)", async () => {
    const hook = await receiving((index) => (index === 0 ? { status: 302, headers: { location: "/elsewhere" } } : { status: 204 }));
    const results = await sendInOrder(job(hook.url));
    expect(results).toEqual([
      { ok: false, statusCode: 302, durationMs: expect.any(Number), error: "HTTP 302: a redirect to /elsewhere, which is not followed" },
    ]);
    expect(hook.requests.map((r) => r.path)).toEqual(["/hook"]);
  });

  it("a receiver that refuses the connection fails the attempt with 'Could not connect' and no status", async () => {
    const hook = await receiving();
    const closedUrl = hook.url;
    await hook.close();
    receiver = undefined;
    const results = await sendInOrder(job(closedUrl));
    expect(results).toEqual([{ ok: false, statusCode: null, durationMs: expect.any(Number), error: expect.stringMatching(/^Could not connect: /) }]);
  });
});

describe("sendInOrder starts no attempt after the job's startBy", () => {
  it("a job whose startBy has passed sends nothing: empty results, no request", async () => {
    const hook = await receiving();
    const results = await sendInOrder(job(hook.url, { startBy: Date.now() - 1 }));
    expect(results).toEqual([]);
    expect(hook.requests).toEqual([]);
  });

  it("startBy passing during a job ends it after the attempt under way: fewer results than events, all of them sent", async () => {
    // Each answer takes 1.5 s; the job may start attempts for 1 s.
    const hook = await receiving(() => ({ status: 204, delayMs: 1500 }));
    const results = await sendInOrder(job(hook.url, { events: events(3), startBy: Date.now() + 1000 }));
    expect(results).toEqual([{ ok: true, statusCode: 204, durationMs: expect.any(Number), error: null }]);
    expect(results[0]!.durationMs).toBeGreaterThanOrEqual(1400);
    expect(hook.requests.map((r) => r.headers["webhook-id"])).toEqual([events(1)[0]!.id]);
  });
});

describe("a job carries at most MAX_JOB_EVENTS events", () => {
  it(`of ${MAX_JOB_EVENTS + 50} events the first ${MAX_JOB_EVENTS} are attempted, in order, and no more`, async () => {
    const hook = await receiving();
    const all = events(MAX_JOB_EVENTS + 50);
    const results = await sendInOrder(job(hook.url, { events: all }));
    expect(MAX_JOB_EVENTS).toBe(200);
    expect(results).toHaveLength(MAX_JOB_EVENTS);
    expect(results.every((r) => r.ok && r.statusCode === 204)).toBe(true);
    expect(hook.requests.map((r) => r.headers["webhook-id"])).toEqual(all.slice(0, MAX_JOB_EVENTS).map((e) => e.id));
  });
});

describe("a URL the target rules refuse is not sent to", () => {
  it("plain http to the receiver from a deployed service: ok false, statusCode null, 'Not sent: …', no request reaches it, the job ends there", async () => {
    const hook = await receiving();
    const results = await sendInOrder(job(hook.url, { policy: DEPLOYED }));
    expect(results).toEqual([
      {
        ok: false,
        statusCode: null,
        durationMs: expect.any(Number),
        error: "Not sent: The URL is plain http; webhooks are https (http only to a loopback address of a local development server, npm start).",
      },
    ]);
    expect(hook.requests).toEqual([]);
  });

  it("a private address (https://10.0.0.1/) is refused before any request", async () => {
    const results = await sendInOrder(job("https://10.0.0.1/hook", { policy: DEPLOYED }));
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ ok: false, statusCode: null, error: expect.stringMatching(/^Not sent: The URL names 10\.0\.0\.1, a private address/) });
  });

  it("loopback from a deployed service is refused even over https", async () => {
    const results = await sendInOrder(job("https://127.0.0.1:9/hook", { policy: DEPLOYED }));
    expect(results).toEqual([
      {
        ok: false,
        statusCode: null,
        durationMs: expect.any(Number),
        error: expect.stringMatching(/^Not sent: The URL names 127\.0\.0\.1, a loopback address/),
      },
    ]);
  });
});
