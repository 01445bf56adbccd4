// Webhooks over the API (docs/webhooks.md): the collection's validation, the URL rules that
// keep deliveries off the service's own network (each refused address class, checked when
// the URL is set and again at delivery), the signing secret shown once and sealed at rest,
// rotation, the limit per account, tenancy (another account's webhooks are 404), narrow
// tokens refused, the operator's delivery run, and how long delivery records are kept. Deliveries to a live receiver, the
// queue, restarts and the retry clock are end to end: scripts/webhooks-e2e.mjs.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { FORGET_PER_RUN } from "../src/delivery/dispatch";
import { api, type ApiResponse, errorFields, errorFor, expectProblem, RFC3339_MS_UTC } from "./helpers";
import { bearer } from "./tokens";

const WEBHOOK_ID = /^whk_[0-9A-HJKMNP-TV-Z]{26}$/;
/** `whsec_` and the base64 of 32 random bytes. */
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
/** A public address (not in any special-purpose range): no name to resolve. */
const PUBLIC_URL = "https://93.184.215.14/hooks/dns";
const OPERATOR_ACCOUNT = "acc_00000000000000000000000000";

function ok(response: ApiResponse, status: number) {
  expect(response.status, response.text).toBe(status);
  return response.body;
}

function create(fields: Record<string, unknown>, headers: Record<string, string> = {}) {
  return api("POST", "/v1/webhooks", { json: { url: PUBLIC_URL, ...fields }, headers });
}

async function created(fields: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return ok(await create(fields, headers), 201);
}

let accounts = 0;
/** A customer account and a write token of it, minted by the operator's test token. */
async function customer() {
  const account = ok(await api("POST", "/v1/accounts", { json: { name: `Webhook Customer ${++accounts}` } }), 201);
  const token = ok(await api("POST", "/v1/tokens", { json: { name: `webhooks-${accounts}`, scope: "write", account: account.id } }), 201);
  return { account: account.id as string, authorization: `Bearer ${token.secret}`, tokenId: token.id as string };
}

async function storedRow(id: string) {
  return env.DB.prepare("select * from webhooks where id = ?").bind(id).first<Record<string, unknown>>();
}

describe("POST /v1/webhooks answers 201 with the signing secret, shown this once", () => {
  it("the answer is the webhook plus `secret` (whsec_ + base64 of 32 bytes), with Location and ETag", async () => {
    const response = await create({ description: "provisioning", event_types: ["domain.*", "record.create"] });
    const webhook = ok(response, 201);
    expect(webhook).toEqual({
      id: expect.stringMatching(WEBHOOK_ID),
      account: OPERATOR_ACCOUNT,
      url: PUBLIC_URL,
      description: "provisioning",
      event_types: ["domain.*", "record.create"],
      enabled: true,
      disabled_reason: null,
      previous_secret_expires_at: null,
      created_at: expect.stringMatching(RFC3339_MS_UTC),
      updated_at: webhook.created_at,
      secret: expect.stringMatching(SECRET),
    });
    expect(response.headers.get("location")).toBe(`/v1/webhooks/${webhook.id}`);
    expect(response.headers.get("etag")).toMatch(/^"1-/);
  });

  it("no read shows the secret again: GET, the list, the create event; the row holds it sealed, not in clear", async () => {
    const webhook = await created();
    const one = ok(await api("GET", `/v1/webhooks/${webhook.id}`), 200);
    expect(one).not.toHaveProperty("secret");
    expect(JSON.stringify(one)).not.toContain(webhook.secret);
    const list = await api("GET", "/v1/webhooks?limit=200");
    expect(list.text).not.toContain(webhook.secret.slice(6));
    const events = ok(await api("GET", `/v1/events?resource=${webhook.id}`), 200);
    expect(events.data.map((e: { operation: string }) => e.operation)).toEqual(["create"]);
    expect(events.data[0].after).toEqual(one);
    expect(JSON.stringify(events)).not.toContain(webhook.secret.slice(6));
    const row = await storedRow(webhook.id);
    expect(String(row?.secret_sealed)).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(webhook.secret.slice(6));
  });

  it("an Idempotency-Key replays the first answer without the secret, which is stored nowhere in clear", async () => {
    const headers = { "idempotency-key": "webhook-once" };
    const first = ok(await create({ description: "once" }, headers), 201);
    const again = await create({ description: "once" }, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const { secret, ...withoutSecret } = first;
    expect(secret).toMatch(SECRET);
    expect(again.body).toEqual(withoutSecret);
    const stored = await env.DB.prepare("select body from idempotency_keys where body like ?").bind(`%${first.id}%`).all();
    expect(JSON.stringify(stored.results)).not.toContain(secret.slice(6));
  });

  it("enabled defaults to true and can start false; description and event_types default to null", async () => {
    expect(await created({ enabled: false })).toMatchObject({ enabled: false, description: null, event_types: null, disabled_reason: null });
  });
});

describe("a webhook's body is validated field by field", () => {
  it("url is required; unknown and read-only fields are named", async () => {
    const missing = expectProblem(await api("POST", "/v1/webhooks", { json: {} }), 422, "validation_failed");
    expect(errorFields(missing)).toEqual(["url"]);
    const unknown = expectProblem(await create({ colour: "red" }), 422, "unknown_field");
    expect(errorFields(unknown)).toEqual(["colour"]);
    const readOnly = expectProblem(await create({ secret: "whsec_AAAA", disabled_reason: "x", id: "whk_x" }), 422, "read_only_field");
    expect(errorFields(readOnly)).toEqual(["disabled_reason", "id", "secret"]);
  });

  it("event_types are <type>.<operation> patterns over the events' names or *, each bad one named; an empty list is refused", async () => {
    const problem = expectProblem(await create({ event_types: ["domain.*", "domains.create", "record", "*.*", "zone.explode"] }), 422, "validation_failed");
    expect(errorFields(problem)).toEqual(["event_types[1]", "event_types[2]", "event_types[4]"]);
    expect(errorFor(problem, "event_types[1]").message).toContain("<type>.<operation>");
    const empty = expectProblem(await create({ event_types: [] }), 422, "validation_failed");
    expect(errorFields(empty)).toEqual(["event_types"]);
    expect(await created({ event_types: ["*.*", "webhook.update", "domain.transfer_request", "domain.*", "domain.*"] })).toMatchObject({
      event_types: ["*.*", "webhook.update", "domain.transfer_request", "domain.*"],
    });
  });

  it("description is at most 500 characters, url at most 2048", async () => {
    const problem = expectProblem(await create({ description: "x".repeat(501), url: `https://93.184.215.14/${"p".repeat(2048)}` }), 422, "validation_failed");
    expect(errorFields(problem)).toEqual(["description", "url"]);
  });

  it("a customer's token may not name the account (read_only_field); an operator's may", async () => {
    const alice = await customer();
    const refused = expectProblem(await create({ account: OPERATOR_ACCOUNT }, { authorization: alice.authorization }), 422, "read_only_field");
    expect(errorFields(refused)).toEqual(["account"]);
    expect(await created({ account: alice.account })).toMatchObject({ account: alice.account });
  });
});

/** POST with this URL, expecting 422 naming `url`; returns the message. */
async function refusedUrl(url: string): Promise<string> {
  const problem = expectProblem(await create({ url }), 422, "validation_failed");
  expect(errorFields(problem), url).toEqual(["url"]);
  return errorFor(problem, "url").message;
}

describe("the URL is https to a public Internet address (server-side request forgery)", () => {
  it("plain http is refused outside a loopback deployment, as are other schemes and relative URLs", async () => {
    expect(await refusedUrl("http://93.184.215.14/hook")).toContain("plain http");
    expect(await refusedUrl("ftp://93.184.215.14/hook")).toContain("scheme ftp");
    expect(await refusedUrl("/relative/path")).toContain("not an absolute URL");
  });

  it("user names, passwords and fragments are refused (a URL is shown in every read)", async () => {
    expect(await refusedUrl("https://user:pw@93.184.215.14/hook")).toContain("user name or password");
    expect(await refusedUrl("https://93.184.215.14/hook#frag")).toContain("fragment");
  });

  const classes: [string, string[]][] = [
    ["loopback", ["https://127.0.0.1/h", "https://127.255.0.9:8443/h", "https://[::1]/h"]],
    [
      "private",
      ["https://10.0.0.1/h", "https://172.16.5.4/h", "https://172.31.255.255/h", "https://192.168.1.1/h", "https://[fc00::1]/h", "https://[fd12:3456::1]/h"],
    ],
    ["link-local", ["https://169.254.169.254/latest/meta-data", "https://[fe80::1]/h"]],
    ["cgnat", ["https://100.64.0.1/h", "https://100.127.255.254/h"]],
    ["multicast", ["https://224.0.0.1/h", "https://239.255.255.250/h", "https://[ff02::1]/h"]],
    ["documentation", ["https://192.0.2.1/h", "https://198.51.100.7/h", "https://203.0.113.9/h", "https://[2001:db8::1]/h", "https://[3fff::1]/h"]],
    ["unspecified", ["https://0.0.0.0/h", "https://[::]/h"]],
    ["reserved", ["https://240.0.0.1/h", "https://255.255.255.255/h", "https://198.18.0.1/h"]],
  ];
  for (const [cls, urls] of classes) {
    it(`a ${cls} address is refused, named with its range`, async () => {
      for (const url of urls) expect(await refusedUrl(url), url).toContain(`a ${cls} address`);
    });
  }

  it("an IPv4 address inside IPv6 (mapped, NAT64, 6to4) is judged as that IPv4 address", async () => {
    expect(await refusedUrl("https://[::ffff:10.0.0.1]/h")).toContain("a private address");
    expect(await refusedUrl("https://[64:ff9b::7f00:1]/h")).toContain("a loopback address");
    expect(await refusedUrl("https://[2002:a9fe:a9fe::1]/h")).toContain("a link-local address");
  });

  it("a webhook URL at an IPv4-translated IPv6 address (::ffff:0:0:0/96, RFC 2765) answers 422, judged as the IPv4 address it carries", async () => {
    const message = await refusedUrl("https://[::ffff:0:a9fe:a9fe]/");
    expect(message).toBe(
      "The URL names ::ffff:0:a9fe:a9fe, a link-local address (169.254.0.0/16, RFC 3927, carried in ::ffff:0:a9fe:a9fe (IPv4-translated, ::ffff:0:0:0/96, RFC 2765)); webhooks go to public Internet addresses only.",
    );
    expect(await refusedUrl("https://[::ffff:0:10.0.0.1]/h")).toContain("a private address (10.0.0.0/8, RFC 1918, carried in");
  });

  it("a webhook URL at an IPv4-compatible, NAT64 (64:ff9b::/96) or 6to4 address that carries a non-global IPv4 address answers 422", async () => {
    expect(await refusedUrl("https://[::169.254.169.254]/h")).toContain(
      "a link-local address (169.254.0.0/16, RFC 3927, carried in ::a9fe:a9fe (IPv4-compatible",
    );
    expect(await refusedUrl("https://[64:ff9b::192.168.0.1]/h")).toContain("a private address (192.168.0.0/16, RFC 1918, carried in 64:ff9b::c0a8:1 (NAT64");
    expect(await refusedUrl("https://[2002:7f00:1::]/h")).toContain("a loopback address (127.0.0.0/8, RFC 1122, carried in 2002:7f00:1:: (6to4");
    expect(await refusedUrl("https://[2002:a00:1::1]/h")).toContain("a private address");
  });

  it("a webhook URL at a local-use NAT64 (64:ff9b:1::/48) or Teredo (2001::/32) address answers 422 whatever it carries", async () => {
    // 64:ff9b:1::808:808 carries 8.8.8.8; the network's own translator could put any address there.
    expect(await refusedUrl("https://[64:ff9b:1::808:808]/h")).toContain("a private address (64:ff9b:1::/48, RFC 8215 local-use NAT64)");
    expect(await refusedUrl("https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/h")).toContain("a reserved address (2001::/32, RFC 4380 Teredo)");
  });

  it("a webhook URL at an IPv6 address outside global unicast (2000::/3) answers 422", async () => {
    expect(await refusedUrl("https://[fbff::1]/h")).toContain("a reserved address (2000::/3, RFC 4291 §2.4: outside global unicast 2000::/3)");
    expect(await refusedUrl("https://[5f00::1]/h")).toContain("a reserved address");
  });

  it("a public IPv4 address carried in IPv6 is accepted, as the address it carries is (mapped, translated, NAT64, 6to4)", async () => {
    for (const url of [
      "https://[::ffff:93.184.215.14]/h",
      "https://[::ffff:0:93.184.215.14]/h",
      "https://[64:ff9b::93.184.215.14]/h",
      "https://[2002:5db8:d70e::1]/h",
    ]) {
      const webhook = await created({ url });
      expect(webhook, url).toMatchObject({ url });
      // Within the account's 20 webhooks, which this file's other tests use.
      expect((await api("DELETE", `/v1/webhooks/${webhook.id}`)).status).toBe(204);
    }
  });

  it("every spelling the URL parser reads as an address is judged as that address (2130706433, 0x7f.1, 127.1)", async () => {
    for (const url of ["https://2130706433/h", "https://0x7f.1/h", "https://127.1/h", "https://017700000001/h"]) {
      expect(await refusedUrl(url), url).toContain("a loopback address");
    }
  });

  it("a name with a trailing dot is judged as the name (localhost., printer.local., intranet.)", async () => {
    expect(await refusedUrl("https://localhost./h")).toContain("names localhost, a loopback name");
    expect(await refusedUrl("https://a.b.localhost../h")).toContain("names a.b.localhost, a loopback name");
    expect(await refusedUrl("https://printer.local./h")).toContain("names printer.local, under .local, a special-use name");
    expect(await refusedUrl("https://intranet./h")).toContain("names intranet, a single-label name");
  });

  it("localhost, single-label names and special-use names (.local, .internal, .home.arpa) are refused without a lookup", async () => {
    expect(await refusedUrl("https://localhost/h")).toContain("loopback name");
    expect(await refusedUrl("https://api.localhost/h")).toContain("loopback name");
    expect(await refusedUrl("https://intranet/h")).toContain("single-label");
    expect(await refusedUrl("https://printer.local/h")).toContain("special-use");
    expect(await refusedUrl("https://db.internal/h")).toContain("special-use");
    expect(await refusedUrl("https://nas.home.arpa/h")).toContain("special-use");
  });

  it("the service itself is refused (the host the API is called at)", async () => {
    expect(await refusedUrl("https://api.test/v1/contacts")).toContain("this service itself");
  });

  it("the service itself is refused under any spelling: case, a trailing dot, a port (a proxied hostname answers on several)", async () => {
    for (const url of ["https://API.Test/h", "https://api.test./h", "https://api.test..:443/h", "https://api.test:8443/h", "https://api.%74est/h"]) {
      expect(await refusedUrl(url), url).toBe(`The URL names this service itself (${new URL(url).host}).`);
    }
  });

  it("on a loopback deployment, every loopback host at the API's port is the service itself (localhost:PORT, *.localhost, ::1, 2130706433)", async () => {
    const local = async (url: string) => {
      const ctx = createExecutionContext();
      const response = await worker.fetch(
        new Request("http://127.0.0.1:8787/v1/webhooks", {
          method: "POST",
          headers: { authorization: bearer("write"), "content-type": "application/json" },
          body: JSON.stringify({ url }),
        }),
        env,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return { status: response.status, headers: response.headers, text: await response.clone().text(), body: await response.json<any>() };
    };
    for (const url of [
      "http://localhost:8787/h",
      "http://LOCALHOST.:8787/h",
      "http://api.localhost:8787/h",
      "http://[::1]:8787/h",
      "http://127.0.0.2:8787/h",
      "http://2130706433:8787/h",
      "http://0x7f.1:8787/h",
      "https://[::ffff:127.0.0.1]:8787/h",
    ]) {
      const problem = expectProblem(await local(url), 422, "validation_failed");
      expect(errorFor(problem, "url").message, url).toBe(`The URL names this service itself (${new URL(url).host}).`);
    }
    // A receiver on loopback at a port of its own is what tests and `npm start` use.
    const receiver = await local("http://localhost:9999/h");
    expect(receiver.status, receiver.text).toBe(201);
    expect(receiver.body).toMatchObject({ url: "http://localhost:9999/h", enabled: true });
    expect((await api("DELETE", `/v1/webhooks/${receiver.body.id}`)).status).toBe(204);
  });

  it("a public address is accepted, with any port and path", async () => {
    expect(await created({ url: "https://93.184.215.14:8443/a/b?c=d" })).toMatchObject({ url: "https://93.184.215.14:8443/a/b?c=d" });
    expect(await created({ url: "https://[2606:2800:220:1:248:1893:25c8:1946]/h" })).toMatchObject({ enabled: true });
  });

  it("a PATCH to a refused URL is 422 too, and changes nothing", async () => {
    const webhook = await created();
    const problem = expectProblem(await api("PATCH", `/v1/webhooks/${webhook.id}`, { json: { url: "https://10.1.2.3/h" } }), 422, "validation_failed");
    expect(errorFor(problem, "url").message).toContain("a private address");
    expect(ok(await api("GET", `/v1/webhooks/${webhook.id}`), 200).url).toBe(PUBLIC_URL);
  });

  it("each delivery checks the URL again: a webhook whose target became private is not sent to (ping)", async () => {
    const webhook = await created();
    // As if a name's address had changed since the URL was set.
    await env.DB.prepare("update webhooks set url = 'https://10.9.8.7/h' where id = ?").bind(webhook.id).run();
    const ping = ok(await api("POST", `/v1/webhooks/${webhook.id}/ping`), 200);
    expect(ping).toMatchObject({ kind: "ping", event: null, attempt: 1, status_code: null, outcome: "failed", next_attempt_at: null });
    expect(ping.message_id).toMatch(/^png_/);
    expect(ping.error).toContain("a private address");
    const deliveries = ok(await api("GET", `/v1/webhooks/${webhook.id}/deliveries`), 200);
    expect(deliveries.data).toEqual([ping]);
  });
});

describe("PATCH /v1/webhooks/{webhook} is a merge patch of url, description, event_types and enabled", () => {
  it("changes what it names, records an update event, and an empty patch changes nothing", async () => {
    const webhook = await created({ description: "before" });
    const patched = ok(await api("PATCH", `/v1/webhooks/${webhook.id}`, { json: { description: null, event_types: ["zone.*"], enabled: false } }), 200);
    expect(patched).toMatchObject({ description: null, event_types: ["zone.*"], enabled: false, disabled_reason: null });
    expect(patched.updated_at > webhook.updated_at || patched.updated_at === webhook.updated_at).toBe(true);
    const same = ok(await api("PATCH", `/v1/webhooks/${webhook.id}`, { json: {} }), 200);
    expect(same).toEqual(patched);
    const events = ok(await api("GET", `/v1/events?resource=${webhook.id}`), 200);
    expect(events.data.map((e: { operation: string }) => e.operation)).toEqual(["create", "update"]);
    expectProblem(await api("PATCH", `/v1/webhooks/${webhook.id}`, { json: { secret: "x" } }), 422, "read_only_field");
  });

  it("If-Match is honoured (412 on a stale ETag)", async () => {
    const webhook = await created();
    const problem = await api("PATCH", `/v1/webhooks/${webhook.id}`, { json: { enabled: false }, headers: { "if-match": '"1-stale"' } });
    expectProblem(problem, 412, "precondition_failed");
  });

  it("enabling a webhook the service disabled clears disabled_reason and its failures", async () => {
    const webhook = await created();
    await env.DB.prepare(
      "update webhooks set enabled = 0, disabled_reason = 'failing: test', failing_since = '2020-01-01T00:00:00.000Z', attempts = 4 where id = ?",
    )
      .bind(webhook.id)
      .run();
    const enabled = ok(await api("PATCH", `/v1/webhooks/${webhook.id}`, { json: { enabled: true } }), 200);
    expect(enabled).toMatchObject({ enabled: true, disabled_reason: null });
    const row = await storedRow(webhook.id);
    expect(row).toMatchObject({ failing_since: null, attempts: 0, next_attempt_at: null });
  });
});

describe("POST /v1/webhooks/{webhook}/rotate-secret answers a new secret; the old one signs for 24 h more", () => {
  it("the new secret is shown once, previous_secret_expires_at is 24 h on, and the update event holds no secret", async () => {
    const webhook = await created();
    const rotated = ok(await api("POST", `/v1/webhooks/${webhook.id}/rotate-secret`), 200);
    expect(rotated.secret).toMatch(SECRET);
    expect(rotated.secret).not.toBe(webhook.secret);
    const overlap = Date.parse(rotated.previous_secret_expires_at) - Date.parse(rotated.updated_at);
    expect(overlap).toBe(24 * 3600 * 1000);
    const read = ok(await api("GET", `/v1/webhooks/${webhook.id}`), 200);
    expect(read).toEqual(Object.fromEntries(Object.entries(rotated).filter(([key]) => key !== "secret")));
    const events = await api("GET", `/v1/events?resource=${webhook.id}`);
    expect(events.body.data.map((e: { operation: string }) => e.operation)).toEqual(["create", "update"]);
    expect(events.text).not.toContain(rotated.secret.slice(6));
    expect(events.text).not.toContain(webhook.secret.slice(6));
    const row = await storedRow(webhook.id);
    expect(String(row?.previous_secret_sealed)).toBe(String((await storedRow(webhook.id))?.previous_secret_sealed));
    expect(row?.previous_secret_sealed).not.toBe(row?.secret_sealed);
  });

  it("with an Idempotency-Key, a retry gets the answer again without the secret", async () => {
    const webhook = await created();
    const headers = { "idempotency-key": `rotate-${webhook.id}` };
    const first = ok(await api("POST", `/v1/webhooks/${webhook.id}/rotate-secret`, { headers }), 200);
    const again = await api("POST", `/v1/webhooks/${webhook.id}/rotate-secret`, { headers });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const { secret, ...rest } = first;
    expect(again.body).toEqual(rest);
    expect(again.text).not.toContain(secret.slice(6));
  });
});

describe("at most 20 webhooks per account", () => {
  it("the 21st is 422 quota_exceeded naming the limit and the usage; nothing is written; a delete makes room", async () => {
    const alice = await customer();
    const as = { authorization: alice.authorization };
    const made = [];
    for (let i = 0; i < 20; i++) made.push(await created({ description: `n${i}` }, as));
    const problem = expectProblem(await create({ description: "one too many" }, as), 422, "quota_exceeded");
    expect(problem.errors).toEqual([{ field: "webhooks", message: expect.stringContaining("at most 20 webhooks (limit webhooks), and holds 20") }]);
    const list = ok(await api("GET", "/v1/webhooks?limit=200", { headers: as }), 200);
    expect(list.data).toHaveLength(20);
    expect(ok(await api("DELETE", `/v1/webhooks/${made[0].id}`, { headers: as }), 204)).toBeUndefined();
    expect(await created({ description: "fits again" }, as)).toMatchObject({ account: alice.account });
  }, 60_000);
});

describe("tenancy: another account's webhooks do not exist for a customer (404), narrow tokens are refused (403)", () => {
  it("Bob sees none of Alice's webhooks: GET, PATCH, DELETE, deliveries, ping, replay and rotate are 404; his list is his own", async () => {
    const alice = await customer();
    const bob = await customer();
    const hers = await created({}, { authorization: alice.authorization });
    const mine = await created({}, { authorization: bob.authorization });
    const asBob = { headers: { authorization: bob.authorization } };
    expectProblem(await api("GET", `/v1/webhooks/${hers.id}`, asBob), 404, "not_found");
    expectProblem(await api("PATCH", `/v1/webhooks/${hers.id}`, { ...asBob, json: { enabled: false } }), 404, "not_found");
    expectProblem(await api("DELETE", `/v1/webhooks/${hers.id}`, asBob), 404, "not_found");
    expectProblem(await api("GET", `/v1/webhooks/${hers.id}/deliveries`, asBob), 404, "not_found");
    expectProblem(await api("POST", `/v1/webhooks/${hers.id}/ping`, asBob), 404, "not_found");
    expectProblem(await api("POST", `/v1/webhooks/${hers.id}/rotate-secret`, asBob), 404, "not_found");
    expectProblem(await api("POST", `/v1/webhooks/${hers.id}/replay`, { ...asBob, json: { since: "2020-01-01T00:00:00Z" } }), 404, "not_found");
    const list = ok(await api("GET", "/v1/webhooks", asBob), 200);
    expect(list.data.map((w: { id: string }) => w.id)).toEqual([mine.id]);
    // The operator sees both, and filters by account.
    const operatorView = ok(await api("GET", `/v1/webhooks?account=${alice.account}`), 200);
    expect(operatorView.data.map((w: { id: string }) => w.id)).toEqual([hers.id]);
  });

  it("a token restricted to zones, or with records rules, gets 403 on every webhook route", async () => {
    const alice = await customer();
    const zoneToken = ok(
      await api("POST", "/v1/tokens", {
        json: { name: "zones-only", scope: "write", zones: ["alice-hooks.com"] },
        headers: { authorization: alice.authorization },
      }),
      201,
    );
    const asZone = { headers: { authorization: `Bearer ${zoneToken.secret}` } };
    expectProblem(await api("GET", "/v1/webhooks", asZone), 403, "forbidden");
    expectProblem(await api("POST", "/v1/webhooks", { ...asZone, json: { url: PUBLIC_URL } }), 403, "forbidden");
  });

  it("an account holding a webhook cannot be deleted (409 object_linked naming it); without it, it can", async () => {
    const carol = await customer();
    const hook = await created({ account: carol.account });
    ok(await api("DELETE", `/v1/tokens/${carol.tokenId}`), 204);
    const refused = expectProblem(await api("DELETE", `/v1/accounts/${carol.account}`), 409, "object_linked");
    expect(refused.detail).toContain("1 webhook");
    ok(await api("DELETE", `/v1/webhooks/${hook.id}`), 204);
    ok(await api("DELETE", `/v1/accounts/${carol.account}`), 204);
  });

  it("a read token lists but cannot create (403)", async () => {
    expect((await api("GET", "/v1/webhooks", { headers: { authorization: bearer("read") } })).status).toBe(200);
    expectProblem(await api("POST", "/v1/webhooks", { json: { url: PUBLIC_URL }, headers: { authorization: bearer("read") } }), 403, "forbidden");
  });
});

describe("POST /v1/webhooks/{webhook}/replay moves the webhook back to a time or a resume cursor", () => {
  it("from a time: answers 202 with the first event it sends again", async () => {
    const webhook = await created();
    const replay = ok(await api("POST", `/v1/webhooks/${webhook.id}/replay`, { json: { since: "2000-01-01T00:00:00Z" } }), 202);
    const first = ok(await api("GET", "/v1/events?limit=1"), 200);
    expect(replay).toEqual({ webhook: webhook.id, from_event: first.data[0].id });
    const row = await storedRow(webhook.id);
    expect(row?.cursor_seq).toBe(0);
  });

  it("from a resume_cursor of GET /v1/events: the events after it", async () => {
    const webhook = await created();
    const page = ok(await api("GET", "/v1/events?limit=2"), 200);
    const replay = ok(await api("POST", `/v1/webhooks/${webhook.id}/replay`, { json: { since: page.next_cursor } }), 202);
    const third = ok(await api("GET", "/v1/events?limit=3"), 200).data[2];
    expect(replay.from_event).toBe(third.id);
  });

  it("since that is neither a time nor a cursor of the events list is 422; a disabled webhook is enabled first", async () => {
    const webhook = await created();
    const problem = expectProblem(await api("POST", `/v1/webhooks/${webhook.id}/replay`, { json: { since: "yesterday" } }), 422, "validation_failed");
    expect(errorFields(problem)).toEqual(["since"]);
    const filtered = ok(await api("GET", "/v1/events?type=domain&limit=1"), 200);
    if (filtered.next_cursor) {
      expectProblem(await api("POST", `/v1/webhooks/${webhook.id}/replay`, { json: { since: filtered.next_cursor } }), 422, "validation_failed");
    }
    const disabled = await created({ enabled: false });
    const refused = expectProblem(
      await api("POST", `/v1/webhooks/${disabled.id}/replay`, { json: { since: "2000-01-01T00:00:00Z" } }),
      422,
      "validation_failed",
    );
    expect(errorFor(refused, "since").message).toContain("disabled");
  });
});

describe("POST /v1/webhooks/dispatch: the operator's delivery run", () => {
  it("as_of is honoured only on a loopback deployment (422 policy_violation here)", async () => {
    const problem = expectProblem(await api("POST", "/v1/webhooks/dispatch", { json: { as_of: "2030-01-01T00:00:00Z" } }), 422, "policy_violation");
    expect(errorFields(problem)).toEqual(["as_of"]);
  });

  it("a run reports what it did; a webhook whose target is refused records failed attempts with their next time", async () => {
    const webhook = await created({ event_types: ["contact.create"] });
    await env.DB.prepare("update webhooks set url = 'https://10.9.8.7/h' where id = ?").bind(webhook.id).run();
    ok(await api("POST", "/v1/contacts", { json: { name: "Hook Target", email: "hook@example.org" } }), 201);
    const report = ok(await api("POST", "/v1/webhooks/dispatch"), 200);
    expect(report).toMatchObject({ as_of: expect.stringMatching(RFC3339_MS_UTC), more: expect.any(Boolean) });
    expect(report.retrying).toBeGreaterThanOrEqual(1);
    const deliveries = ok(await api("GET", `/v1/webhooks/${webhook.id}/deliveries`), 200);
    expect(deliveries.data).toHaveLength(1);
    const [attempt] = deliveries.data;
    expect(attempt).toMatchObject({ kind: "event", attempt: 1, status_code: null, outcome: "retrying" });
    expect(attempt.error).toContain("a private address");
    expect(Date.parse(attempt.next_attempt_at) - Date.parse(attempt.at)).toBe(5000);
    const event = ok(await api("GET", `/v1/events/${attempt.event}`), 200);
    expect(event).toMatchObject({ type: "contact", operation: "create" });
    // Nothing is due before the retry time: a second run at the same time does not attempt
    // it again (run at the first run's as_of, from a loopback host of a server with
    // CLOCK_OVERRIDE: on a loaded machine "at once" can be past the 5 s retry).
    const ctx = createExecutionContext();
    const again = await worker.fetch(
      new Request("http://127.0.0.1:8787/v1/webhooks/dispatch", {
        method: "POST",
        headers: { authorization: bearer("write"), "content-type": "application/json" },
        body: JSON.stringify({ as_of: report.as_of }),
      }),
      { ...env, CLOCK_OVERRIDE: "true" },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(again.status, await again.clone().text()).toBe(200);
    expect(await again.json()).toMatchObject({ as_of: report.as_of, retrying: 0 });
    expect(ok(await api("GET", `/v1/webhooks/${webhook.id}/deliveries`), 200).data).toEqual(deliveries.data);
  });
});

describe("delivery records are kept 7 days: each minute's cron forgets older ones, oldest first, at most 5 000 records a run", () => {
  it("a run of the minute's cron deletes 5 000 records older than 7 days, the next the rest; younger ones stay and are listed", async () => {
    const hook = await created();
    ok(await api("PATCH", `/v1/webhooks/${hook.id}`, { json: { enabled: false } }), 200);
    const now = Date.now();
    const day = 24 * 3600 * 1000;
    const insert = (count: number, at: string, prefix: string) =>
      env.DB.prepare(
        `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
         insert into webhook_delivery_records (webhook_id, kind, at, count, attempts)
         select ?, 'event', ?, 1, json_array(json_array(? || i, 'evt_' || ? || i, 1, 204, 3, null, 'succeeded', null)) from n`,
      )
        .bind(count, hook.id, at, `dlv_${prefix}`, prefix)
        .run();
    await insert(FORGET_PER_RUN + 1, new Date(now - 8 * day).toISOString(), "old");
    await insert(3, new Date(now - 6 * day).toISOString(), "young");
    const remaining = async () =>
      (await env.DB.prepare("select count(*) as n, sum(at < ?) as old from webhook_delivery_records where webhook_id = ?")
        .bind(new Date(now - 7 * day).toISOString(), hook.id)
        .first<{ n: number; old: number }>())!;
    const minute = async () => {
      const ctx = createExecutionContext();
      await worker.scheduled!({ cron: "* * * * *", scheduledTime: now, noRetry() {} } as ScheduledController, env, ctx);
      await waitOnExecutionContext(ctx);
    };
    expect(FORGET_PER_RUN).toBe(5000);
    await minute();
    expect(await remaining()).toEqual({ n: 4, old: 1 });
    await minute();
    expect(await remaining()).toEqual({ n: 3, old: 0 });
    const listed = ok(await api("GET", `/v1/webhooks/${hook.id}/deliveries`), 200);
    expect(listed.data.map((d: { id: string }) => d.id).sort()).toEqual(["dlv_young1", "dlv_young2", "dlv_young3"]);
  });
});
