// Poll messages (docs/registries.md, "Poll messages"): what each kind the gateway hands to
// POST /v1/registry-messages does to our copy, as one write with its event, and how the route
// is authenticated. The domains are registered while .org is builtin, then .org is treated as
// connected (pir, our client id `domain-api`) for the messages: a message that needs the
// registry's <domain:info> meets a closed gateway port here (503, kept for a later hand-over);
// scripts/registry-authority-e2e.mjs runs every kind against the local registry.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { type ApiResponse, api, customerAccount, expectProblem } from "./helpers";
import { bearer } from "./tokens";
import { domainInfData } from "./registry-info";

const SECRET = "a-gateway-secret-of-32-characters-or-more";
const PIR = {
  REGISTRY_CONNECTORS: JSON.stringify({ pir: { client_id: "domain-api" } }),
  REGISTRY_GATEWAY_URL: "http://127.0.0.1:9",
  REGISTRY_GATEWAY_SECRET: SECRET,
};
const NAMESERVERS = ["ns1.example.fr", "ns2.example.fr"];

async function apiWith(method: string, path: string, options: { json?: unknown; authorization?: string } = {}): Promise<ApiResponse> {
  const headers = new Headers({ authorization: options.authorization ?? bearer("write") });
  if (options.json !== undefined) headers.set("content-type", "application/json");
  const request = new Request(`http://api.test${path}`, { method, headers, body: options.json === undefined ? undefined : JSON.stringify(options.json) });
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, { ...env, ...PIR } as never, ctx);
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text && /json/.test(response.headers.get("content-type") ?? "") ? JSON.parse(text) : undefined,
    text,
  };
}

let messageId = 0;
/** A poll message as the gateway hands it over (the codec's reading of `<poll op="req">`'s answer). */
function message(resData: unknown[], msg = "A message.", id = String(++messageId)) {
  return {
    repository: "pir",
    client_id: "domain-api",
    message: {
      code: 1301,
      msgQ: { count: 1, id, qDate: "2026-11-22T09:30:00.000Z", msg },
      resData,
      extensions: [],
      trID: { svTRID: `LR-${id.padStart(8, "0")}` },
    },
  };
}
const hand = (body: unknown, authorization?: string) => apiWith("POST", "/v1/registry-messages", { json: body, ...(authorization ? { authorization } : {}) });

async function registered(name: string) {
  const domain = await api("POST", "/v1/domains", { json: { name, nameservers: NAMESERVERS } });
  expect(domain.status, domain.text).toBe(201);
  return domain.body;
}

const trn = (name: string, trStatus: string, reID: string, acID: string) => ({
  kind: "domain:trnData",
  name,
  trStatus,
  reID,
  reDate: "2026-11-22T09:30:00.000Z",
  acID,
  acDate: "2026-11-27T09:30:00.000Z",
  exDate: "2028-11-22T09:30:00.000Z",
});

describe("the route is the gateway's", () => {
  it("REGISTRY_GATEWAY_SECRET as the bearer token is admitted on POST /v1/registry-messages, and on no other route", async () => {
    const kept = await hand(message([]), `Bearer ${SECRET}`);
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body).toMatchObject({ outcome: "kept", kind: "none" });
    expectProblem(await apiWith("GET", "/v1/domains", { authorization: `Bearer ${SECRET}` }), 401, "unauthorized");
  });

  it("a wrong secret is 401, and a customer's token 403", async () => {
    expectProblem(await hand(message([]), `Bearer ${SECRET.replace("a-", "b-")}`), 401, "unauthorized");
    const account = await api("POST", "/v1/accounts", { json: { name: "messages-customer" } });
    const token = await api("POST", "/v1/tokens", { json: { name: "messages-customer-token", scope: "write", account: account.body.id } });
    expectProblem(await hand(message([]), `Bearer ${token.body.secret}`), 403, "forbidden");
  });

  it("a message for a repository the catalog lacks is 404 (the gateway keeps it and asks again)", async () => {
    expectProblem(await hand({ ...message([]), repository: "nosuchregistry" }), 404, "not_found");
  });
});

describe("a message of a kind the service does not act on is kept and acked, never looped on", () => {
  it("an unknown payload becomes a registry_message event on the repository holding the message whole; answered 200", async () => {
    const unknown = {
      kind: "unknown",
      ns: "urn:example:registry-notice-1.0",
      name: "notice",
      xml: "<n:notice xmlns:n='urn:example:registry-notice-1.0'>Maintenance</n:notice>",
    };
    const res = await hand(message([unknown], "Planned maintenance."));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ outcome: "kept", kind: "unknown", domain: null });
    const events = await api("GET", "/v1/events?type=repository&operation=registry_message");
    expect(events.status, events.text).toBe(200);
    const event = events.body.data.find((e: any) => e.after.message?.msgQ?.msg === "Planned maintenance.");
    expect(event).toMatchObject({ type: "repository", resource: "pir", token: "registry:pir", before: null });
    expect(event.after.message.resData[0]).toEqual(unknown);
  });

  it("a message handed over twice (its ack lost) is applied once: the second answer is already_applied and writes nothing", async () => {
    const body = message([], "Twice.");
    const first = await hand(body);
    expect(first.body.outcome).toBe("kept");
    const second = await hand(body);
    expect(second.status, second.text).toBe(200);
    expect(second.body).toMatchObject({ outcome: "already_applied", message_id: body.message.msgQ.id });
    const events = await api("GET", "/v1/events?type=repository&operation=registry_message&limit=100");
    expect(events.body.data.filter((e: any) => e.after.message?.msgQ?.msg === "Twice.")).toHaveLength(1);
  });
});

describe("a message whose application keeps failing is kept and acked after a bounded number of attempts, never looped on", () => {
  // A real failure of the real database: a trigger refuses the transfer row the message writes, every time.
  const FAILING = "CREATE TRIGGER refuse_registry_transfers BEFORE INSERT ON registry_transfers BEGIN SELECT RAISE(ABORT, 'hidden-trigger-words'); END";
  async function withFailingTransfers(run: () => Promise<void>) {
    await env.DB.prepare(FAILING).run();
    try {
      await run();
    } finally {
      await env.DB.prepare("DROP TRIGGER refuse_registry_transfers").run();
    }
  }

  it("an unexpected error is 500 for the first 4 hand-overs (the gateway keeps it), and the 5th keeps it as a registry_message event with the error's summary, no SQL text, answered 200", async () => {
    const domain = await registered("always-fails.org");
    const body = message([trn("always-fails.org", "pending", "other-registrar", "domain-api")], "Transfer that always fails.");
    await withFailingTransfers(async () => {
      for (let attempt = 1; attempt < 5; attempt++) {
        const failed = await hand(body);
        expect(failed.status, failed.text).toBe(500);
        expect(failed.body).toMatchObject({ code: "internal" });
      }
      const kept = await hand(body);
      expect(kept.status, kept.text).toBe(200);
      expect(kept.body).toMatchObject({ outcome: "kept", kind: "domain:trnData", domain: null, message_id: body.message.msgQ.id });
      expect(kept.body.detail).toMatch(/failed 5 times/);
    });
    const events = await api("GET", "/v1/events?type=repository&operation=registry_message&limit=100");
    const mine = events.body.data.filter((e: any) => e.after.message?.msgQ?.msg === "Transfer that always fails.");
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ type: "repository", resource: "pir", token: "registry:pir" });
    expect(mine[0].after).toMatchObject({
      kind: "domain:trnData",
      failed: { attempts: 5, error: { kind: expect.stringMatching(/^SQLITE_/), message: expect.any(String) } },
    });
    expect(mine[0].after.message.resData[0]).toMatchObject({ name: "always-fails.org", trStatus: "pending" });
    expect(JSON.stringify(mine[0])).not.toMatch(/hidden-trigger-words|insert into|registry_transfers/i);
    // Acked: handed over again (its ack lost), nothing is tried or written again, and the domain never changed.
    const again = await hand(body);
    expect(again.body).toMatchObject({ outcome: "already_applied" });
    const now = await api("GET", "/v1/domains/always-fails.org");
    expect(now.body.status).not.toContain("pendingTransfer");
    expect(now.body.version).toBe(domain.version);
  });

  it("a message whose keeping event D1 refuses too answers 500 on every hand-over, past the 5th: the gateway's own bound (set aside, docs/registries.md) is what ends it", async () => {
    const body = message([], "Kept event refused.");
    const REFUSE = `CREATE TRIGGER refuse_kept_message BEFORE INSERT ON events WHEN new.after LIKE '%Kept event refused.%' BEGIN SELECT RAISE(ABORT, 'hidden-trigger-words'); END`;
    await env.DB.prepare(REFUSE).run();
    try {
      for (let attempt = 1; attempt <= 7; attempt++) {
        const failed = await hand(body);
        expect(failed.status, failed.text).toBe(500);
        expect(failed.body).toMatchObject({ code: "internal" });
        expect(failed.text).not.toMatch(/hidden-trigger-words/);
      }
    } finally {
      await env.DB.prepare("DROP TRIGGER refuse_kept_message").run();
    }
    // Handed over again once D1 takes the write (the gateway's record of it): kept, answered 200.
    const kept = await hand(body);
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body).toMatchObject({ outcome: "kept", kind: "none", message_id: body.message.msgQ.id });
  });

  it("a message the gateway could not read, handed over as one `unreadable` part with its XML, is kept whole as a registry_message event and answered 200", async () => {
    const xml = '<?xml version="1.0"?><epp xmlns="urn:ietf:params:xml:ns:epp-1.0"><response><msgQ count="1" id="u-1"/><domain:trnData/></response></epp>';
    const body = message([{ kind: "unreadable", reason: "malformed: <domain:trnData> has no <domain:name>", xml }], undefined);
    const res = await hand(body);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ outcome: "kept", kind: "unreadable", domain: null, message_id: body.message.msgQ.id });
    const events = await api("GET", "/v1/events?type=repository&operation=registry_message&limit=100");
    const event = events.body.data.find((e: any) => e.after.message?.msgQ?.id === body.message.msgQ.id);
    expect(event).toMatchObject({ type: "repository", resource: "pir", after: { kind: "unreadable" } });
    expect(event.after.message.resData[0]).toEqual({ kind: "unreadable", reason: "malformed: <domain:trnData> has no <domain:name>", xml });
  });

  it("a message that waited for the registry out of reach (503) is not counted: it is applied once the registry answers", async () => {
    await registered("waits-for-registry.org");
    const body = message(
      [{ kind: "domain:panData", name: "waits-for-registry.org", paResult: true, paTRID: { clTRID: "c", svTRID: "s" }, paDate: "2026-11-22T09:30:00.000Z" }],
      "Waits.",
    );
    for (let attempt = 1; attempt <= 6; attempt++) expectProblem(await hand(body), 503, "registry_unavailable");
    const row = await env.DB.prepare("SELECT attempts, applied_at FROM registry_messages WHERE repository_id = 'pir' AND message_id = ?")
      .bind(body.message.msgQ.id)
      .first();
    expect(row).toEqual({ attempts: 0, applied_at: null });
  });
});

describe("transfers another registrar asks for", () => {
  it("a transfer requested by another registrar shows pendingTransfer, with a transfer_request event naming it and the registry's svTRID", async () => {
    const domain = await registered("asked-by-other.org");
    const res = await hand(message([trn("asked-by-other.org", "pending", "other-registrar", "domain-api")], "Transfer requested."));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ outcome: "applied", kind: "domain:trnData", domain: domain.id });
    const now = await api("GET", "/v1/domains/asked-by-other.org");
    expect(now.body.status).toContain("pendingTransfer");
    const transfer = await api("GET", "/v1/domains/asked-by-other.org/transfer");
    expect(transfer.status, transfer.text).toBe(200);
    expect(transfer.body).toMatchObject({ status: "pending", registrar: "other-registrar", losing_account: domain.account, gaining_account: null });
    const events = await api(`GET`, `/v1/events?resource=${domain.id}&operation=transfer_request`);
    expect(events.body.data[0].after).toMatchObject({ registry_other_registrar: "other-registrar", registry_sv_trid: expect.stringMatching(/^LR-/) });
  });

  it("rejected at the registry: the transfer ends rejected and the domain no longer shows pendingTransfer", async () => {
    await registered("rejected-at-registry.org");
    await hand(message([trn("rejected-at-registry.org", "pending", "other-registrar", "domain-api")]));
    const res = await hand(message([trn("rejected-at-registry.org", "clientRejected", "other-registrar", "domain-api")], "Transfer rejected."));
    expect(res.body).toMatchObject({ outcome: "applied" });
    const now = await api("GET", "/v1/domains/rejected-at-registry.org");
    expect(now.body.status).not.toContain("pendingTransfer");
    expect((await api("GET", "/v1/domains/rejected-at-registry.org/transfer")).body).toMatchObject({ status: "rejected", registrar: "other-registrar" });
  });

  it("auto-approved away: the domain leaves its account, with a transfer_auto_approve event holding it as it was", async () => {
    const domain = await registered("left-for-other.org");
    await hand(message([trn("left-for-other.org", "pending", "other-registrar", "domain-api")]));
    const res = await hand(message([trn("left-for-other.org", "serverApproved", "other-registrar", "domain-api")], "Transfer auto-approved."));
    expect(res.body).toMatchObject({ outcome: "applied", domain: domain.id });
    expectProblem(await api("GET", "/v1/domains/left-for-other.org"), 404, "not_found");
    const events = await api("GET", `/v1/events?resource=${domain.id}&operation=transfer_auto_approve`);
    expect(events.body.data[0]).toMatchObject({ before: { name: "left-for-other.org", registry_other_registrar: "other-registrar" }, after: null });
  });
});

describe("changes the registry makes itself", () => {
  it("a status change carrying the domain's infData: ours follows in one update event listing what differed", async () => {
    const domain = await registered("held-by-registry.org");
    const info = domainInfData("held-by-registry.org", "77-PIR", NAMESERVERS, { statuses: [{ s: "serverHold" }], exDate: domain.expires_at });
    const res = await hand(message([info], "The registry changed the statuses of held-by-registry.org: +serverHold."));
    expect(res.body).toMatchObject({ outcome: "applied", domain: domain.id });
    const now = await api("GET", "/v1/domains/held-by-registry.org");
    expect(now.body.status).toContain("serverHold");
    expect(now.body.registry).toMatchObject({ roid: "77-PIR", registrar: null, missing_since: null });
    const events = await api("GET", `/v1/events?resource=${domain.id}&operation=update`);
    expect(events.body.data.at(-1).after.registry_differences).toEqual([{ field: "status", ours: [], registry: ["serverHold"] }]);
  });

  it("RDAP shows the registry's ROID as the domain's handle once the registry named it", async () => {
    await registered("roid-shown.org");
    const info = domainInfData("roid-shown.org", "91-PIR", NAMESERVERS);
    expect((await hand(message([info]))).body).toMatchObject({ outcome: "applied" });
    const view = await api("GET", "/v1/domains/roid-shown.org", { headers: { accept: "application/rdap+json" } });
    expect(view.status, view.text).toBe(200);
    expect(view.body.handle).toBe("91-PIR");
    expect(view.body.entities.find((e: any) => e.roles.includes("registrar"))).toMatchObject({ handle: "acc_00000000000000000000000000" });
  });

  it("a domain the registry shows as another registrar's is marked, not deleted: GET and RDAP name that registrar (clID)", async () => {
    const domain = await registered("sponsored-elsewhere.org");
    const info = domainInfData("sponsored-elsewhere.org", "92-PIR", [], { clID: "other-registrar" });
    expect((await hand(message([info]))).body).toMatchObject({ outcome: "applied", domain: domain.id });
    const now = await api("GET", "/v1/domains/sponsored-elsewhere.org");
    expect(now.status, now.text).toBe(200);
    expect(now.body.registry).toMatchObject({ roid: "92-PIR", registrar: "other-registrar", missing_since: expect.any(String) });
    const view = await api("GET", "/v1/domains/sponsored-elsewhere.org", { headers: { accept: "application/rdap+json" } });
    expect(view.body.entities.find((e: any) => e.roles.includes("registrar"))).toMatchObject({ handle: "other-registrar" });
  });

  it("a pending action settled needs the registry's info: with the registry out of reach, 503 and the message is not marked applied", async () => {
    await registered("settles-later.org");
    const pan = { kind: "domain:panData", name: "settles-later.org", paResult: true, paTRID: { svTRID: "LR-1" }, paDate: "2026-11-22T09:30:00.000Z" };
    const body = message([pan]);
    const first = await hand(body);
    expectProblem(first, 503, "registry_unavailable");
    expect(Number(first.headers.get("retry-after"))).toBeGreaterThan(0);
    // Handed over again, it is tried again (not answered already_applied).
    expectProblem(await hand(body), 503, "registry_unavailable");
  });
});

describe("a message the gateway hands over again from its set-aside record (replayed: true) is not trusted: the registry's info decides", () => {
  // The registry is out of reach here: each replayed message asks it and waits (503, nothing written); the registry's
  // answer deciding is end to end (scripts/registry-e2e.mjs: a replayed hold the registry does not show, a replayed
  // pending transfer it shows no pendingTransfer for).
  it("a replayed stale infData does not undo a newer state: its serverHold is not followed as it says (the registry's info is asked: 503 out of reach), the domain keeps the newer state and the message is not marked applied", async () => {
    const domain = await registered("replayed-hold.org");
    const info = (statuses: string[]) =>
      domainInfData("replayed-hold.org", "94-PIR", NAMESERVERS, { statuses: statuses.map((s) => ({ s })), exDate: domain.expires_at });
    const older = message([info(["serverHold"])], "The registry put replayed-hold.org on hold.");
    const newer = message([info(["ok"])], "The registry lifted the hold of replayed-hold.org.");
    // The newer message applied first (the older one set aside by the gateway), then the older one replayed.
    expect((await hand(newer)).body).toMatchObject({ outcome: "applied", domain: domain.id });
    const before = await api("GET", "/v1/domains/replayed-hold.org");
    const replayed = await hand({ ...older, replayed: true });
    expectProblem(replayed, 503, "registry_unavailable");
    const now = await api("GET", "/v1/domains/replayed-hold.org");
    expect(now.body.status).not.toContain("serverHold");
    expect(now.body.version).toBe(before.body.version);
    const row = await env.DB.prepare("SELECT applied_at FROM registry_messages WHERE repository_id = 'pir' AND message_id = ?")
      .bind(older.message.msgQ.id)
      .first();
    expect(row).toEqual({ applied_at: null });
    // One applied before (its ack lost, then set aside) is not applied again.
    const again = await hand({ ...newer, replayed: true });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ outcome: "already_applied", message_id: newer.message.msgQ.id });
  });

  it("a replayed pending transfer whose transfer already ended does not create a transfer: it is applied only once the registry's info shows pendingTransfer (503 out of reach: no transfer, no pendingTransfer)", async () => {
    const domain = await registered("replayed-transfer.org");
    const pending = message([trn("replayed-transfer.org", "pending", "other-registrar", "domain-api")], "Transfer requested.");
    const cancelled = message([trn("replayed-transfer.org", "clientCancelled", "other-registrar", "domain-api")], "Transfer cancelled.");
    expect((await hand(cancelled)).body).toMatchObject({ outcome: "applied" });
    expectProblem(await hand({ ...pending, replayed: true }), 503, "registry_unavailable");
    const now = await api("GET", "/v1/domains/replayed-transfer.org");
    expect(now.body.status).not.toContain("pendingTransfer");
    expect(now.body.version).toBe(domain.version);
    expectProblem(await api("GET", "/v1/domains/replayed-transfer.org/transfer"), 404, "not_found");
    // Handed over from the queue (not replayed), the same kind of message is applied as it says.
    expect((await hand(message([trn("replayed-transfer.org", "pending", "other-registrar", "domain-api")]))).body).toMatchObject({ outcome: "applied" });
    expect((await api("GET", "/v1/domains/replayed-transfer.org")).body.status).toContain("pendingTransfer");
  });

  it("the route's schema takes replayed as a boolean only: anything else is 422 validation_failed naming it", async () => {
    const res = await hand({ ...message([]), replayed: "yes" });
    expect(expectProblem(res, 422, "validation_failed").errors).toEqual([{ field: "replayed", message: "must be true or false" }]);
  });
});

describe("a message whose write would take an account past a limit is applied all the same, never refused for want of room", () => {
  it("the registry's new name servers past the account's hosts limit: 200 applied once, the domain follows, the event notes the limit passed, the account shows over_quota; handed over again it is already_applied", async () => {
    const customer = await customerAccount("registry-past-limit");
    const created = await api("POST", "/v1/domains", {
      json: { name: "past-limit.org", nameservers: ["ns1.example.net", "ns2.example.net"] },
      headers: { authorization: customer.auth },
    });
    expect(created.status, created.text).toBe(201);
    const before = await api("GET", `/v1/accounts/${customer.id}`);
    expect(before.body.over_quota).toEqual([]);
    // The account may hold no more hosts than it does now.
    const limited = await api("PATCH", `/v1/accounts/${customer.id}`, {
      json: { limits: { hosts: before.body.usage.hosts } },
      headers: { "content-type": "application/merge-patch+json" },
    });
    expect(limited.status, limited.text).toBe(200);
    // The registry names two name servers no one holds here: each becomes an external host of the account.
    const nameservers = ["ns1.past-limit.example", "ns2.past-limit.example"];
    const info = domainInfData("past-limit.org", "93-PIR", nameservers, { exDate: created.body.expires_at });
    const body = message([info], "The registry changed the name servers of past-limit.org.");
    const res = await hand(body);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ outcome: "applied", domain: created.body.id });
    const now = await api("GET", "/v1/domains/past-limit.org");
    expect(now.body.nameservers).toEqual(nameservers);
    const [event] = (await api("GET", `/v1/events?resource=${created.body.id}&operation=update`)).body.data;
    expect(event.after.registry_over_quota).toEqual({ account: customer.id, quota: "hosts", limit: before.body.usage.hosts });
    const after = await api("GET", `/v1/accounts/${customer.id}`);
    expect(after.body).toMatchObject({ over_quota: ["hosts"], usage: { hosts: before.body.usage.hosts + 2 }, limits: { hosts: before.body.usage.hosts } });
    // The gateway acked it on the 200; should it come again (its ack lost), it is applied once.
    const again = await hand(body);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ outcome: "already_applied", message_id: body.message.msgQ.id });
    // The account's own writes that raise its hosts count are still refused until it is under its limit.
    const refused = await api("POST", "/v1/hosts", { json: { name: "ns3.past-limit.example" }, headers: { authorization: customer.auth } });
    expectProblem(refused, 422, "quota_exceeded");
  });
});

describe("a transfer between two of our accounts at a connected repository: the registry holds the auth_info and the dates", () => {
  /** A domain registered while .org is builtin, past .org's 60-day transfer lock. */
  async function movable(name: string) {
    const domain = await registered(name);
    await env.DB.prepare("update domains set created_at = ?1 where id = ?2").bind("2025-01-01T00:00:00.000Z", domain.id).run();
    return domain;
  }

  it("the request's auth_info is checked at the registry, not against our copy: with the registry out of reach even our copy's auth_info is 503 registry_unavailable, and nothing is written", async () => {
    const gaining = await customerAccount("between-ours-request");
    const domain = await movable("between-ours-asked.org");
    const res = await apiWith("POST", "/v1/domains/between-ours-asked.org/transfer", { json: { auth_info: domain.auth_info }, authorization: gaining.auth });
    expectProblem(res, 503, "registry_unavailable");
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await api("GET", "/v1/domains/between-ours-asked.org")).body.status).not.toContain("pendingTransfer");
    expectProblem(await api("GET", "/v1/domains/between-ours-asked.org/transfer"), 404, "not_found");
    const failed = await api("GET", `/v1/events?resource=${domain.id}&operation=transfer_auth_failed`);
    expect(failed.body.data).toEqual([]);
  });

  it("what forbids the transfer whatever the password still answers first, the registry never asked: the sponsoring account's own request is 422 policy_violation", async () => {
    const domain = await movable("between-ours-own.org");
    const res = await apiWith("POST", "/v1/domains/between-ours-own.org/transfer", { json: { auth_info: domain.auth_info } });
    expect(expectProblem(res, 422, "policy_violation").detail).toMatch(/already sponsored by your account/);
  });

  it("such a transfer costs nothing (no registry transfer, no year): a premium name's fee is not asked to be confirmed, and its catalog transfer price is 422 price_mismatch naming 0.00", async () => {
    const gaining = await customerAccount("between-ours-premium");
    const created = await api("POST", "/v1/domains", { json: { name: "charity.org", nameservers: NAMESERVERS, price: "950.00" } });
    expect(created.status, created.text).toBe(201);
    await env.DB.prepare("update domains set created_at = ?1 where id = ?2").bind("2025-01-01T00:00:00.000Z", created.body.id).run();
    // No price: past the price check to the registry (out of reach here), never 422 price_mismatch.
    const unconfirmed = await apiWith("POST", "/v1/domains/charity.org/transfer", { json: { auth_info: created.body.auth_info }, authorization: gaining.auth });
    expectProblem(unconfirmed, 503, "registry_unavailable");
    const premium = await apiWith("POST", "/v1/domains/charity.org/transfer", {
      json: { auth_info: created.body.auth_info, price: "950.00" },
      authorization: gaining.auth,
    });
    expect(expectProblem(premium, 422, "price_mismatch").errors).toEqual([
      { field: "price", message: '"950.00" is not the price: transferring charity.org for 1 year costs 0.00 USD' },
    ]);
    const free = await apiWith("POST", "/v1/domains/charity.org/transfer", {
      json: { auth_info: created.body.auth_info, price: "0" },
      authorization: gaining.auth,
    });
    expectProblem(free, 503, "registry_unavailable");
    expectProblem(await api("GET", "/v1/domains/charity.org/transfer"), 404, "not_found");
  });

  it("an approval sets the new auth_info at the registry first: with the registry out of reach it is 503, the transfer stays pending and the domain keeps its account and its expiry", async () => {
    const gaining = await customerAccount("between-ours-approve");
    const domain = await movable("between-ours-approved.org");
    // The pending transfer a request checked at the registry leaves.
    await env.DB.prepare(
      `insert into transfers (id, domain_id, name, gaining_account_id, losing_account_id, status, period, requested_at, act_by)
       values ('trn_BETWEENOURS00000000000000', ?1, ?2, ?3, ?4, 'pending', 1, '2026-01-01T00:00:00.000Z', '2099-01-06T00:00:00.000Z')`,
    )
      .bind(domain.id, domain.name, gaining.id, domain.account)
      .run();
    const res = await apiWith("POST", "/v1/domains/between-ours-approved.org/transfer/approve");
    expectProblem(res, 503, "registry_unavailable");
    const transfer = await api("GET", "/v1/domains/between-ours-approved.org/transfer");
    expect(transfer.body).toMatchObject({ status: "pending", gaining_account: gaining.id, losing_account: domain.account });
    const now = await api("GET", "/v1/domains/between-ours-approved.org");
    expect(now.body).toMatchObject({ account: domain.account, expires_at: domain.expires_at, auth_info: domain.auth_info });
  });
});
