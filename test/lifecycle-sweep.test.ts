// docs/lifecycle.md, the sweep: expiry (auto-renew or redemption), ends of grace periods, the
// end of redemption, the purge, automatic approval at act_by; POST /v1/lifecycle/sweep and
// the cron trigger. Times are explicit: a test moves its own rows' due times into the past
// (straight in the database) and runs the sweep `as_of` a chosen instant, from a loopback
// host with CLOCK_OVERRIDE, as `npm start` serves it. After each test a sweep at the real
// time deals with whatever it left due, so the next test starts with nothing due before now.
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { database } from "../src/db/client";
import worker from "../src/index";
import { BUILT_IN_LIMITS } from "../src/registry/limits";
import { sweep } from "../src/jobs/sweep";
import { costOf } from "./d1-cost";
import { api, createContact, createDomain, createZone, expectProblem } from "./helpers";
import { bearer } from "./tokens";

const LOCAL = "http://127.0.0.1:8787";

/** POST /v1/lifecycle/sweep from a loopback host of a server with CLOCK_OVERRIDE (npm start). */
async function sweepRequest(
  body: unknown,
  options: { auth?: string; host?: string; hostHeader?: string; clockOverride?: boolean; settings?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { authorization: options.auth ?? bearer("write") };
  if (options.hostHeader) headers.host = options.hostHeader;
  if (body !== undefined) headers["content-type"] = "application/json";
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`${options.host ?? LOCAL}/v1/lifecycle/sweep`, { method: "POST", headers, body: body === undefined ? undefined : JSON.stringify(body) }),
    { ...env, ...options.settings, CLOCK_OVERRIDE: options.clockOverride === false ? undefined : "true" },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
}

/** Runs the sweep as of `asOf` (expects 200) and returns its report. */
async function sweepAt(asOf?: string) {
  const response = await sweepRequest(asOf === undefined ? undefined : { as_of: asOf });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

const NOTHING = { transfers_approved: 0, auto_renewed: 0, expired: 0, grace_periods_ended: 0, redemptions_ended: 0, purged: 0, skipped: 0, more: false };

afterEach(async () => {
  await sweepAt();
});

/** Moves a domain's times in the database (the registry's clock, for a test). */
async function setDomain(name: string, fields: { expires_at?: string; auto_renew?: boolean; rgp?: { status: string; ends_at: string }[] }) {
  if (fields.expires_at !== undefined) await env.DB.prepare("update domains set expires_at = ?1 where name = ?2").bind(fields.expires_at, name).run();
  if (fields.auto_renew !== undefined)
    await env.DB.prepare("update domains set auto_renew = ?1 where name = ?2")
      .bind(fields.auto_renew ? 1 : 0, name)
      .run();
  if (fields.rgp !== undefined) {
    const ends = fields.rgp.map((e) => e.ends_at).sort()[0] ?? null;
    await env.DB.prepare("update domains set rgp = ?1, rgp_ends_at = ?2 where name = ?3").bind(JSON.stringify(fields.rgp), ends, name).run();
  }
}

async function read(name: string) {
  const response = await api("GET", `/v1/domains/${name}`);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function eventsOf(id: string, operation?: string) {
  const response = await api("GET", `/v1/events?resource=${id}${operation ? `&operation=${operation}` : ""}`);
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}

const DAY = 86_400_000;
const plusDays = (at: string, days: number) => new Date(Date.parse(at) + days * DAY).toISOString();
const plusMs = (at: string, ms: number) => new Date(Date.parse(at) + ms).toISOString();

describe("an expired domain with auto_renew renews itself for one year, with autoRenewPeriod from its expiry (auto_renew event)", () => {
  it("at the instant expires_at comes, not a millisecond before", async () => {
    const domain = await createDomain("auto-renew-me.com");
    const expiry = "2026-05-01T00:00:00.000Z";
    await setDomain("auto-renew-me.com", { expires_at: expiry, rgp: [] });

    expect(await sweepAt(plusMs(expiry, -1))).toEqual({ ...NOTHING, as_of: plusMs(expiry, -1) });
    expect((await read("auto-renew-me.com")).expires_at).toBe(expiry);

    expect(await sweepAt(expiry)).toEqual({ ...NOTHING, as_of: expiry, auto_renewed: 1 });
    const renewed = await read("auto-renew-me.com");
    expect(renewed.expires_at).toBe("2027-05-01T00:00:00.000Z");
    expect(renewed.rgp_status).toEqual([{ status: "autoRenewPeriod", ends_at: plusDays(expiry, 45) }]);
    expect(renewed.status).toEqual(domain.status);
    expect(renewed.updated_at).toBe(expiry);
    const [event] = await eventsOf(domain.id, "auto_renew");
    expect(event).toMatchObject({
      operation: "auto_renew",
      type: "domain",
      at: expiry,
      before: { expires_at: expiry },
      after: { expires_at: "2027-05-01T00:00:00.000Z" },
    });
    expect(event.after.auth_info).toBeUndefined();
  });
});

describe("an expired domain without auto_renew enters redemptionPeriod with pendingDelete (expire event)", () => {
  it("auto-renew against expiry, decided by auto_renew (and clientRenewProhibited)", async () => {
    const expiry = "2026-05-02T00:00:00.000Z";
    const renews = await createDomain("expiry-renews.com");
    const lapses = await createDomain("expiry-lapses.com", { auto_renew: false });
    const prohibited = await createDomain("expiry-prohibited.com", { status: ["clientRenewProhibited"] });
    for (const name of ["expiry-renews.com", "expiry-lapses.com", "expiry-prohibited.com"]) await setDomain(name, { expires_at: expiry, rgp: [] });

    const asOf = plusDays(expiry, 2);
    expect(await sweepAt(asOf)).toEqual({ ...NOTHING, as_of: asOf, auto_renewed: 1, expired: 2 });

    expect((await read("expiry-renews.com")).expires_at).toBe("2027-05-02T00:00:00.000Z");
    for (const [name, before] of [
      ["expiry-lapses.com", lapses],
      ["expiry-prohibited.com", prohibited],
    ] as const) {
      const lapsed = await read(name);
      expect(lapsed.expires_at).toBe(expiry);
      const client = before.status.filter((s: string) => s.startsWith("client"));
      expect(lapsed.status).toEqual([...client, "pendingDelete", "inactive"]);
      expect(lapsed.rgp_status).toEqual([{ status: "redemptionPeriod", ends_at: plusDays(asOf, 30) }]);
      const [event] = await eventsOf(before.id, "expire");
      expect(event).toMatchObject({ operation: "expire", at: asOf, after: { status: expect.arrayContaining(["pendingDelete"]) } });
    }
    expect(await eventsOf(renews.id, "expire")).toEqual([]);

    // A domain in redemption is listed by the pendingDelete status filter.
    const listed = await api("GET", "/v1/domains?status=pendingDelete&q=expiry-");
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data.map((d: { name: string }) => d.name).sort()).toEqual(["expiry-lapses.com", "expiry-prohibited.com"]);
    // Restore is measured by the registry's clock: now, a month after as_of, redemption has ended.
    const late = expectProblem(await api("POST", "/v1/domains/expiry-lapses.com/restore"), 409, "status_prohibits");
    expect(late.detail).toBe("expiry-lapses.com is past its redemption period; only a domain in redemptionPeriod can be restored.");
  });
});

describe("a grace period is running until the last instant of its ends_at, and leaves rgp_status after it", () => {
  it("the last millisecond keeps it; the next one drops it (update event)", async () => {
    const domain = await createDomain("grace-ends.com");
    const ends = "2026-04-01T00:00:00.000Z";
    await setDomain("grace-ends.com", { rgp: [{ status: "addPeriod", ends_at: ends }] });

    expect(await sweepAt(ends)).toEqual({ ...NOTHING, as_of: ends });
    expect((await read("grace-ends.com")).rgp_status).toEqual([{ status: "addPeriod", ends_at: ends }]);

    const after = plusMs(ends, 1);
    expect(await sweepAt(after)).toEqual({ ...NOTHING, as_of: after, grace_periods_ended: 1 });
    const read1 = await read("grace-ends.com");
    expect(read1.rgp_status).toEqual([]);
    expect(read1.updated_at).toBe(after);
    const [event] = await eventsOf(domain.id, "update");
    expect(event).toMatchObject({ before: { rgp_status: [{ status: "addPeriod", ends_at: ends }] }, after: { rgp_status: [] } });
  });
});

describe("the end of redemptionPeriod starts pendingDelete; its end purges the domain", () => {
  it("a purge removes the domain, its subordinate hosts (used by another domain too) and links; the zone survives unlinked; the purge event holds the domain", async () => {
    const contact = await createContact();
    const purged = await createDomain("purge-me.com", { registrant: contact.id, auto_renew: false });
    const host = await api("POST", "/v1/hosts", { json: { name: "ns1.purge-me.com", addresses: ["192.0.2.10"] } });
    expect(host.status, host.text).toBe(201);
    const other = await createDomain("uses-purged-ns.com", { nameservers: ["ns1.purge-me.com", "ns2.example.net"] });
    const patched = await api("PATCH", "/v1/domains/purge-me.com", {
      json: { nameservers: ["ns1.purge-me.com", "ns2.example.net"] },
      headers: { "content-type": "application/merge-patch+json" },
    });
    expect(patched.status, patched.text).toBe(200);
    const zone = await createZone("purge-me.com");
    expect(zone.domain).toBe(purged.id);

    const expiry = "2026-01-01T00:00:00.000Z";
    await setDomain("purge-me.com", { expires_at: expiry, rgp: [] });
    expect(await sweepAt(expiry)).toEqual({ ...NOTHING, as_of: expiry, expired: 1 });
    const redemptionEnds = plusDays(expiry, 30);
    expect((await read("purge-me.com")).rgp_status).toEqual([{ status: "redemptionPeriod", ends_at: redemptionEnds }]);

    // The last instant of redemption: still restorable, nothing due.
    expect(await sweepAt(redemptionEnds)).toEqual({ ...NOTHING, as_of: redemptionEnds });
    const pendingFrom = plusMs(redemptionEnds, 1);
    expect(await sweepAt(pendingFrom)).toEqual({ ...NOTHING, as_of: pendingFrom, redemptions_ended: 1 });
    const pending = await read("purge-me.com");
    expect(pending.rgp_status).toEqual([{ status: "pendingDelete", ends_at: plusDays(redemptionEnds, 5) }]);
    expect(pending.status).toContain("pendingDelete");

    const purgeAt = plusMs(plusDays(redemptionEnds, 5), 1);
    expect(await sweepAt(purgeAt)).toEqual({ ...NOTHING, as_of: purgeAt, purged: 1 });

    expectProblem(await api("GET", "/v1/domains/purge-me.com"), 404, "not_found");
    expectProblem(await api("GET", "/v1/hosts/ns1.purge-me.com"), 404, "not_found");
    const otherNow = await read("uses-purged-ns.com");
    expect(otherNow.nameservers).toEqual(["ns2.example.net"]);
    const [otherEvent] = (await eventsOf(other.id, "update")).filter((e: { at: string }) => e.at === purgeAt);
    expect(otherEvent).toMatchObject({ before: { nameservers: ["ns1.purge-me.com", "ns2.example.net"] }, after: { nameservers: ["ns2.example.net"] } });

    const survivor = await api("GET", "/v1/zones/purge-me.com");
    expect(survivor.status, survivor.text).toBe(200);
    expect(survivor.body.domain).toBeNull();

    const [purge] = await eventsOf(purged.id, "purge");
    expect(purge).toMatchObject({
      operation: "purge",
      at: purgeAt,
      after: null,
      before: { id: purged.id, name: "purge-me.com", status: expect.arrayContaining(["pendingDelete"]) },
    });
    expect(purge.before.auth_info).toBeUndefined();
    const [hostEvent] = await eventsOf(host.body.id, "delete");
    expect(hostEvent).toMatchObject({ at: purgeAt, after: null, before: { name: "ns1.purge-me.com" } });
    // The contact stays, no longer linked.
    expect((await api("GET", `/v1/contacts/${contact.id}`)).body.status).toEqual(["ok"]);
    // The name is free again.
    expect((await api("POST", "/v1/domains", { json: { name: "purge-me.com" } })).status).toBe(201);
  });
});

/** A customer account with a write token. */
async function customer(name: string) {
  const account = await api("POST", "/v1/accounts", { json: { name } });
  expect(account.status, account.text).toBe(201);
  const token = await api("POST", "/v1/tokens", { json: { name: `${name}-token`, scope: "write", account: account.body.id } });
  expect(token.status, token.text).toBe(201);
  return { id: account.body.id as string, auth: `Bearer ${token.body.secret}` };
}

describe("a transfer still pending at act_by is approved automatically (auto_approved, transfer_auto_approve event)", () => {
  it("at act_by, not before; the contacts are copied with create events; RDAP shows the transfer", async () => {
    const gaining = await customer("sweep-gaining");
    const contact = await createContact();
    const domain = await createDomain("auto-approve.de", {
      registrant: contact.id,
      contacts: { admin: contact.id },
      nameservers: ["ns1.example.net", "ns2.example.net"],
    });
    const requested = await api("POST", "/v1/domains/auto-approve.de/transfer", {
      json: { auth_info: domain.auth_info },
      headers: { authorization: gaining.auth },
    });
    expect(requested.status, requested.text).toBe(201);
    const actBy = "2026-03-01T00:00:00.000Z";
    await env.DB.prepare("update transfers set act_by = ?1 where domain_id = ?2").bind(actBy, domain.id).run();

    expect(await sweepAt(plusMs(actBy, -1))).toEqual({ ...NOTHING, as_of: plusMs(actBy, -1) });
    expect(await sweepAt(actBy)).toEqual({ ...NOTHING, as_of: actBy, transfers_approved: 1 });

    const transfer = await api("GET", "/v1/domains/auto-approve.de/transfer");
    expect(transfer.body).toMatchObject({ status: "auto_approved", acted_at: actBy, gaining_account: gaining.id, losing_account: domain.account });
    const moved = await api("GET", "/v1/domains/auto-approve.de", { headers: { authorization: gaining.auth } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.account).toBe(gaining.id);
    expect(moved.body.status).not.toContain("pendingTransfer");
    expect(moved.body.auth_info).not.toBe(domain.auth_info);
    expect(moved.body.registrant).not.toBe(contact.id);
    const [approval] = await eventsOf(domain.id, "transfer_auto_approve");
    expect(approval).toMatchObject({ at: actBy, before: { account: domain.account }, after: { account: gaining.id } });

    // The copy is a contact of the gaining account with its own create event.
    const copy = await api("GET", `/v1/contacts/${moved.body.registrant}`, { headers: { authorization: gaining.auth } });
    expect(copy.status, copy.text).toBe(200);
    expect(copy.body).toMatchObject({ account: gaining.id, name: contact.name, email: contact.email, address: contact.address, status: ["linked"] });
    const [created] = await eventsOf(copy.body.id, "create");
    expect(created).toMatchObject({ operation: "create", at: actBy, before: null, after: { id: copy.body.id, account: gaining.id } });

    // RFC 9083 §10.2.3: the RDAP view names the transfer.
    const rdap = await api("GET", "/v1/domains/auto-approve.de", { headers: { accept: "application/rdap+json" } });
    expect(rdap.status, rdap.text).toBe(200);
    expect(rdap.body.events).toContainEqual({ eventAction: "transfer", eventDate: actBy });
  });

  it("a domain whose transfer waits does not expire meanwhile (skipped); auto-renew does not wait", async () => {
    const gaining = await customer("sweep-waiting");
    const domain = await createDomain("waits-transfer.de", { auto_renew: false, nameservers: ["ns1.example.net", "ns2.example.net"] });
    const requested = await api("POST", "/v1/domains/waits-transfer.de/transfer", {
      json: { auth_info: domain.auth_info },
      headers: { authorization: gaining.auth },
    });
    expect(requested.status, requested.text).toBe(201);
    const expiry = "2026-02-01T00:00:00.000Z";
    await setDomain("waits-transfer.de", { expires_at: expiry });
    expect(await sweepAt(expiry)).toEqual({ ...NOTHING, as_of: expiry, skipped: 1 });
    expect((await read("waits-transfer.de")).status).toContain("pendingTransfer");
    const listed = await api("GET", "/v1/domains?status=pendingTransfer&q=waits-");
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data.map((d: { name: string }) => d.name)).toEqual(["waits-transfer.de"]);
    const cancelled = await api("POST", "/v1/domains/waits-transfer.de/transfer/cancel", { headers: { authorization: gaining.auth } });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(await sweepAt(expiry)).toEqual({ ...NOTHING, as_of: expiry, expired: 1 });
  });
});

describe("the sweep run twice at the same time gives the same result as once", () => {
  it("each due domain is renewed exactly once, with one auto_renew event", async () => {
    const names = ["twice-1.com", "twice-2.com", "twice-3.com"];
    const expiry = "2026-06-01T00:00:00.000Z";
    const ids: string[] = [];
    for (const name of names) {
      ids.push((await createDomain(name)).id);
      await setDomain(name, { expires_at: expiry, rgp: [] });
    }
    const [a, b] = await Promise.all([sweepAt(expiry), sweepAt(expiry)]);
    expect(a.auto_renewed + b.auto_renewed).toBe(3);
    expect(a.expired + b.expired + a.grace_periods_ended + b.grace_periods_ended).toBe(0);
    for (const [i, name] of names.entries()) {
      expect((await read(name)).expires_at).toBe("2027-06-01T00:00:00.000Z");
      expect(await eventsOf(ids[i]!, "auto_renew")).toHaveLength(1);
    }
    // And a third run finds nothing.
    expect(await sweepAt(expiry)).toEqual({ ...NOTHING, as_of: expiry });
  });
});

describe("the sweep works in bounded batches and a run resumes where the last stopped", () => {
  it("5 due, 3 rows a run: more is true, then the rest", async () => {
    const expiry = "2026-07-01T00:00:00.000Z";
    for (let i = 1; i <= 5; i++) {
      await createDomain(`batch-${i}.com`);
      await setDomain(`batch-${i}.com`, { expires_at: expiry, rgp: [] });
    }
    const db = database(env.DB);
    const first = await sweep(db, { now: new Date(expiry), actor: "test", limits: BUILT_IN_LIMITS, pageSize: 2, maxRows: 3 });
    expect(first).toMatchObject({ auto_renewed: 3, more: true });
    const second = await sweep(db, { now: new Date(expiry), actor: "test", limits: BUILT_IN_LIMITS, pageSize: 2, maxRows: 3 });
    expect(second).toMatchObject({ auto_renewed: 2, more: false });
  });
});

describe("a domain years overdue with auto_renew renews as often as needed in one run, an auto_renew event each (docs/lifecycle.md)", () => {
  it("three years and a day overdue: four renewals in one run, each a year from the last, and more is false only once nothing is due", async () => {
    const domain = await createDomain("years-overdue.com");
    await setDomain("years-overdue.com", { expires_at: "2022-03-01T00:00:00.000Z", rgp: [] });
    const asOf = "2025-03-02T00:00:00.000Z";
    expect(await sweepAt(asOf)).toEqual({ ...NOTHING, as_of: asOf, auto_renewed: 4 });
    expect((await read("years-overdue.com")).expires_at).toBe("2026-03-01T00:00:00.000Z");
    const renewals = await eventsOf(domain.id, "auto_renew");
    expect(renewals.map((e: { after: { expires_at: string } }) => e.after.expires_at).sort()).toEqual([
      "2023-03-01T00:00:00.000Z",
      "2024-03-01T00:00:00.000Z",
      "2025-03-01T00:00:00.000Z",
      "2026-03-01T00:00:00.000Z",
    ]);
    expect(await sweepAt(asOf)).toEqual({ ...NOTHING, as_of: asOf });
  });

  it("a run that reaches its bound in the middle of the renewals says more: true, and the next run renews on", async () => {
    await createDomain("years-overdue-bounded.com");
    await setDomain("years-overdue-bounded.com", { expires_at: "2022-04-01T00:00:00.000Z", rgp: [] });
    const db = database(env.DB);
    const now = new Date("2025-04-02T00:00:00.000Z");
    expect(await sweep(db, { now, actor: "test", limits: BUILT_IN_LIMITS, maxRows: 2 })).toMatchObject({ auto_renewed: 2, skipped: 0, more: true });
    expect((await read("years-overdue-bounded.com")).expires_at).toBe("2024-04-01T00:00:00.000Z");
    expect(await sweep(db, { now, actor: "test", limits: BUILT_IN_LIMITS, maxRows: 2 })).toMatchObject({ auto_renewed: 2, skipped: 0, more: false });
    expect((await read("years-overdue-bounded.com")).expires_at).toBe("2026-04-01T00:00:00.000Z");
  });
});

describe("a purge that lets go of a host more domains use than one run takes leaves the domain due, and says more: true", () => {
  it("101 other domains name its subordinate host: the first run takes it out of 100 and says more, the next purges", async () => {
    await createDomain("purge-wide.com", { auto_renew: false });
    const host = await api("POST", "/v1/hosts", { json: { name: "ns1.purge-wide.com", addresses: ["192.0.2.11"] } });
    expect(host.status, host.text).toBe(201);
    const user = await createDomain("purge-wide-user.com", { nameservers: ["ns1.purge-wide.com", "ns2.example.net"] });
    // 100 more domains like it, copied in the database (as many registrations would take minutes here).
    const { results } = await env.DB.prepare("select name from pragma_table_info('domains')").all<{ name: string }>();
    const columns = results.map((c) => c.name);
    const copied = columns.map((c) => (c === "id" ? "d.id || '-' || j.value" : c === "name" ? "'purge-wide-' || j.value || '.com'" : `d.${c}`));
    await env.DB.prepare(`insert into domains (${columns.join(", ")}) select ${copied.join(", ")} from domains d, json_each(?1) j where d.id = ?2`)
      .bind(JSON.stringify(Array.from({ length: 100 }, (_, i) => i)), user.id)
      .run();
    await env.DB.prepare(
      "insert into domain_nameservers (domain_id, host_id, position) select d.id, n.host_id, n.position from domains d, domain_nameservers n where d.id like ?1 and n.domain_id = ?2",
    )
      .bind(`${user.id}-%`, user.id)
      .run();
    const ended = "2026-02-01T00:00:00.000Z";
    await env.DB.prepare("update domains set deleted_at = ?1, rgp = ?2, rgp_ends_at = ?3 where name = 'purge-wide.com'")
      .bind("2026-01-01T00:00:00.000Z", JSON.stringify([{ status: "pendingDelete", ends_at: ended }]), ended)
      .run();
    const purgeAt = plusMs(ended, 1);
    expect(await sweepAt(purgeAt)).toEqual({ ...NOTHING, as_of: purgeAt, skipped: 1, more: true });
    expect((await read("purge-wide.com")).name).toBe("purge-wide.com");
    expect(await sweepAt(purgeAt)).toEqual({ ...NOTHING, as_of: purgeAt, purged: 1 });
    expectProblem(await api("GET", "/v1/domains/purge-wide.com"), 404, "not_found");
  });
});

// ---- connected repositories: the registry decides (docs/lifecycle.md, docs/registries.md) ------

const GATEWAY_SECRET = "a-gateway-secret-of-32-characters-or-more";
/** pir (.org) connected, its gateway a closed loopback port: the sweep must not need it. */
const PIR_CONNECTED = {
  REGISTRY_CONNECTORS: JSON.stringify({ pir: { client_id: "domain-api" } }),
  REGISTRY_GATEWAY_URL: "http://127.0.0.1:9",
  REGISTRY_GATEWAY_SECRET: GATEWAY_SECRET,
};

/** The sweep as of `asOf` with pir connected (expects 200). */
async function sweepConnected(asOf: string) {
  const response = await sweepRequest({ as_of: asOf }, { settings: PIR_CONNECTED });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

describe("the sweep leaves a connected repository's domains to its registry; builtin ones as before", () => {
  it("an expired connected domain is neither auto-renewed nor expired (its expiry, statuses and events unchanged); a builtin one due at the same time renews", async () => {
    const connected = await createDomain("registry-renews.org");
    const unrenewed = await createDomain("registry-expires.org", { auto_renew: false });
    const builtin = await createDomain("sweep-renews.info");
    const expiry = "2026-04-01T00:00:00.000Z";
    for (const name of ["registry-renews.org", "registry-expires.org", "sweep-renews.info"]) await setDomain(name, { expires_at: expiry, rgp: [] });
    const at = plusDays(expiry, 1);
    expect(await sweepConnected(at)).toEqual({ ...NOTHING, as_of: at, auto_renewed: 1 });
    for (const [name, domain] of [
      ["registry-renews.org", connected],
      ["registry-expires.org", unrenewed],
    ] as const) {
      const now = await read(name);
      expect(now).toMatchObject({ expires_at: expiry, rgp_status: [], status: domain.status });
      expect((await eventsOf(domain.id)).map((e: { operation: string }) => e.operation)).toEqual(["create"]);
    }
    expect((await read("sweep-renews.info")).expires_at).toBe("2027-04-01T00:00:00.000Z");
    expect(await eventsOf(builtin.id, "auto_renew")).toHaveLength(1);
  });

  it("a deleted connected domain is neither moved to pendingDelete nor purged when its redemption ends here; a builtin one is purged", async () => {
    const connected = await createDomain("registry-purges.org", { auto_renew: false });
    const builtin = await createDomain("sweep-purges.info", { auto_renew: false });
    const expiry = "2026-04-01T00:00:00.000Z";
    for (const name of ["registry-purges.org", "sweep-purges.info"]) await setDomain(name, { expires_at: expiry, rgp: [] });
    // Both enter redemption as builtin domains (the registry's word for the .org one, as a poll message would bring it).
    expect(await sweepAt(expiry)).toEqual({ ...NOTHING, as_of: expiry, expired: 2 });
    const inRedemption = await read("registry-purges.org");
    const purgeAt = plusDays(expiry, 40);
    expect(await sweepConnected(purgeAt)).toEqual({ ...NOTHING, as_of: purgeAt, purged: 1 });
    expectProblem(await api("GET", "/v1/domains/sweep-purges.info"), 404, "not_found");
    expect(await eventsOf(builtin.id, "purge")).toHaveLength(1);
    const still = await read("registry-purges.org");
    expect(still).toEqual(inRedemption);
    expect(still.status).toContain("pendingDelete");
    expect(still.rgp_status).toEqual([{ status: "redemptionPeriod", ends_at: plusDays(expiry, 30) }]);
    expect((await eventsOf(connected.id)).map((e: { operation: string }) => e.operation).sort()).toEqual(["create", "expire"]);
  });

  it("a connected live domain's ended grace period still leaves rgp_status (it decides nothing at the registry)", async () => {
    const domain = await createDomain("grace-ends-here.org");
    const ends = "2026-04-01T00:00:00.000Z";
    await setDomain("grace-ends-here.org", { rgp: [{ status: "addPeriod", ends_at: ends }] });
    const at = plusMs(ends, 1);
    expect(await sweepConnected(at)).toEqual({ ...NOTHING, as_of: at, grace_periods_ended: 1 });
    expect((await read("grace-ends-here.org")).rgp_status).toEqual([]);
    expect(await eventsOf(domain.id, "update")).toHaveLength(1);
  });

  it("a transfer another registrar asked for is not approved by the sweep at act_by: the registry approves it, and its message says so", async () => {
    const domain = await createDomain("asked-at-registry.org");
    const actBy = "2026-04-06T00:00:00.000Z";
    const message = {
      repository: "pir",
      client_id: "domain-api",
      message: {
        code: 1301,
        msgQ: { count: 1, id: "sweep-1", qDate: "2026-04-01T00:00:00.000Z", msg: "Transfer requested." },
        resData: [
          {
            kind: "domain:trnData",
            name: "asked-at-registry.org",
            trStatus: "pending",
            reID: "other-registrar",
            reDate: "2026-04-01T00:00:00.000Z",
            acID: "domain-api",
            acDate: actBy,
          },
        ],
        extensions: [],
        trID: { svTRID: "LR-SWEEP-1" },
      },
    };
    const ctx = createExecutionContext();
    const handed = await worker.fetch(
      new Request(`${LOCAL}/v1/registry-messages`, {
        method: "POST",
        headers: { authorization: `Bearer ${GATEWAY_SECRET}`, "content-type": "application/json" },
        body: JSON.stringify(message),
      }),
      { ...env, ...PIR_CONNECTED } as never,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(handed.status, await handed.clone().text()).toBe(200);
    expect(await handed.json()).toMatchObject({ outcome: "applied", domain: domain.id });
    const at = plusDays(actBy, 1);
    expect(await sweepConnected(at)).toEqual({ ...NOTHING, as_of: at });
    expect((await read("asked-at-registry.org")).status).toContain("pendingTransfer");
    const transfer = await api("GET", "/v1/domains/asked-at-registry.org/transfer");
    expect(transfer.status, transfer.text).toBe(200);
    expect(transfer.body).toMatchObject({ status: "pending", registrar: "other-registrar", act_by: actBy });
    expect(await eventsOf(domain.id, "transfer_auto_approve")).toEqual([]);
  });

  it("a transfer between two accounts here, of a connected repository's domain, is approved at act_by only once the registry took its new auth_info: out of reach, it stays pending (skipped) with the registry's expiry", async () => {
    const gaining = await customer("sweep-connected-gaining");
    const domain = await createDomain("between-accounts.org", { nameservers: ["ns1.example.net", "ns2.example.net"] });
    // Past .org's 60-day transfer lock; the request was checked at the registry (here builtin, pir not yet connected).
    await env.DB.prepare("update domains set created_at = ?1 where id = ?2").bind("2025-01-01T00:00:00.000Z", domain.id).run();
    const requested = await api("POST", "/v1/domains/between-accounts.org/transfer", {
      json: { auth_info: domain.auth_info },
      headers: { authorization: gaining.auth },
    });
    expect(requested.status, requested.text).toBe(201);
    const actBy = "2026-03-01T00:00:00.000Z";
    await env.DB.prepare("update transfers set act_by = ?1 where domain_id = ?2").bind(actBy, domain.id).run();
    expect(await sweepConnected(actBy)).toEqual({ ...NOTHING, as_of: actBy, skipped: 1, more: true });
    expect((await api("GET", "/v1/domains/between-accounts.org/transfer")).body).toMatchObject({ status: "pending", gaining_account: gaining.id });
    const now = await read("between-accounts.org");
    expect(now).toMatchObject({ account: domain.account, expires_at: domain.expires_at, auth_info: domain.auth_info });
    expect(await eventsOf(domain.id, "transfer_auto_approve")).toEqual([]);
  });

  it("a REGISTRY_CONNECTORS that cannot be read stops the sweep with 503 not_configured and nothing written: which domains are the registries' is unknown", async () => {
    const domain = await createDomain("unknown-connectors.info");
    const expiry = "2026-04-01T00:00:00.000Z";
    await setDomain("unknown-connectors.info", { expires_at: expiry, rgp: [] });
    const response = await sweepRequest({ as_of: plusDays(expiry, 1) }, { settings: { ...PIR_CONNECTED, REGISTRY_CONNECTORS: "{not json" } });
    expectProblem(response as never, 503, "not_configured");
    expect(response.body.detail).toMatch(/REGISTRY_CONNECTORS is not JSON/);
    expect((await read("unknown-connectors.info")).expires_at).toBe(expiry);
    expect(await eventsOf(domain.id, "auto_renew")).toEqual([]);
  });
});

describe("POST /v1/lifecycle/sweep is for operators, and as_of only where CLOCK_OVERRIDE allows it", () => {
  it("a customer's token answers 403 forbidden", async () => {
    const stranger = await customer("sweep-stranger");
    const problem = expectProblem(await sweepRequest(undefined, { auth: stranger.auth }), 403, "forbidden");
    expect(problem.detail).toMatch(/operator/);
  });
  it("without a body it runs at the present time (200)", async () => {
    const before = Date.now();
    const report = await sweepAt();
    expect(Date.parse(report.as_of)).toBeGreaterThanOrEqual(before);
    expect(report).toEqual({ ...NOTHING, as_of: report.as_of });
  });
  it("as_of from a host that is not loopback answers 422 policy_violation naming as_of", async () => {
    const problem = expectProblem(await sweepRequest({ as_of: "2030-01-01T00:00:00Z" }, { host: "https://api.example.com" }), 422, "policy_violation");
    expect(problem.errors).toEqual([{ field: "as_of", message: expect.stringContaining("CLOCK_OVERRIDE") }]);
  });
  it("as_of to a loopback address npm start does not serve (Host 127.1) answers 422, as AUTH_DISABLED would be refused there", async () => {
    const problem = expectProblem(await sweepRequest({ as_of: "2030-01-01T00:00:00Z" }, { hostHeader: "127.1:8787" }), 422, "policy_violation");
    expect(problem.errors?.[0]?.field).toBe("as_of");
  });
  it("a token restricted to domains answers 403 forbidden, even an operator's", async () => {
    const narrow = await api("POST", "/v1/tokens", { json: { name: "sweep-narrow", scope: "write", domains: ["example.com"] } });
    expect(narrow.status, narrow.text).toBe(201);
    const problem = expectProblem(await sweepRequest(undefined, { auth: `Bearer ${narrow.body.secret}` }), 403, "forbidden");
    expect(problem.detail).toMatch(/restricted to named domains/);
  });
  it("as_of on a server without CLOCK_OVERRIDE answers 422 policy_violation naming as_of", async () => {
    const problem = expectProblem(await sweepRequest({ as_of: "2030-01-01T00:00:00Z" }, { clockOverride: false }), 422, "policy_violation");
    expect(problem.errors).toEqual([{ field: "as_of", message: expect.any(String) }]);
  });
  it("an as_of that is not a time answers 422 validation_failed naming as_of; an unknown field 422 unknown_field", async () => {
    const problem = expectProblem(await sweepRequest({ as_of: "next tuesday" }), 422, "validation_failed");
    expect(problem.errors).toEqual([{ field: "as_of", message: expect.stringContaining("RFC 3339") }]);
    const typed = expectProblem(await sweepRequest({ as_of: 5 }), 422, "validation_failed");
    expect(typed.errors?.[0]?.field).toBe("as_of");
    const unknown = expectProblem(await sweepRequest({ when: "2030-01-01T00:00:00Z" }), 422, "unknown_field");
    expect(unknown.errors).toEqual([{ field: "when", message: expect.any(String) }]);
  });
});

describe("the cron trigger runs the sweep", () => {
  it("at the scheduled time; its events name the actor cron", async () => {
    const domain = await createDomain("cron-renews.com");
    await setDomain("cron-renews.com", { expires_at: "2026-08-01T00:00:00.000Z", rgp: [] });
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ scheduledTime: Date.now(), cron: "17 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await read("cron-renews.com")).expires_at).toBe("2027-08-01T00:00:00.000Z");
    const [event] = await eventsOf(domain.id, "auto_renew");
    expect(event.token).toBe("cron");
  });
});

describe("the sweep stays cheap with many domains of which almost none are due", () => {
  it("its queries use the indexes on the due times (query plans)", async () => {
    const db = database(env.DB);
    const at = "2026-06-01T00:00:00.000Z";
    const position = { key: at, id: "dom_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" };
    const { dueExpiries, dueGraceEnds, dueTransfers } = await import("../src/jobs/sweep-due");
    const plans: Record<string, string[]> = {};
    for (const [name, query] of [
      ["expiries", dueExpiries(db, at, position, 50)],
      ["grace ends", dueGraceEnds(db, at, position, 50)],
      ["transfers", dueTransfers(db, at, position, 50)],
    ] as const) {
      const { sql, params } = query.toSQL();
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all<{ detail: string }>();
      plans[name] = results.map((r) => r.detail);
    }
    // One SEARCH of the index on the due time, bounded on both sides (after the last row seen, up to now): no sort. What
    // follows are the registry lock's checks on each row found (src/registry/statuses.ts): the row's own JSON status
    // lists, and for a transfer its domain by primary key; no other table is scanned.
    const lockChecks = (n: number) =>
      Array.from({ length: n }, (_, i) => [`CORRELATED SCALAR SUBQUERY ${i + 1}`, "SCAN json_each VIRTUAL TABLE INDEX 1:"]).flat();
    expect(plans).toEqual({
      expiries: ["SEARCH domains USING INDEX domains_live_expires_idx ((expires_at,id)>(?,?) AND expires_at<?)", ...lockChecks(3)],
      "grace ends": [expect.stringMatching(/^SEARCH domains USING (COVERING )?INDEX domains_rgp_ends_idx \(/), ...lockChecks(1)],
      transfers: [
        expect.stringMatching(/^SEARCH transfers USING (COVERING )?INDEX transfers_act_by_idx \(status=\? AND /),
        "CORRELATED SCALAR SUBQUERY 1",
        expect.stringMatching(/^SEARCH d USING INDEX sqlite_autoindex_domains_1 \(id=\?\)$/),
        "SCAN s VIRTUAL TABLE INDEX 1:",
      ],
    });
  });

  it("with connected repositories the due queries walk the same indexes, the connected ones' domains left out as each entry is read (query plans)", async () => {
    const db = database(env.DB);
    const at = "2026-06-01T00:00:00.000Z";
    const position = { key: at, id: "dom_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" };
    const { dueExpiries, dueGraceEnds } = await import("../src/jobs/sweep-due");
    const planOf = async (query: { toSQL(): { sql: string; params: unknown[] } }) => {
      const { sql, params } = query.toSQL();
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all<{ detail: string }>();
      return results.map((r) => r.detail);
    };
    for (const connected of [["pir"], ["pir", "verisign"]]) {
      const expiries = await planOf(dueExpiries(db, at, position, 50, connected));
      const graceEnds = await planOf(dueGraceEnds(db, at, position, 50, connected));
      expect(expiries[0]).toBe("SEARCH domains USING INDEX domains_live_expires_idx ((expires_at,id)>(?,?) AND expires_at<?)");
      expect(graceEnds[0]).toMatch(/^SEARCH domains USING (COVERING )?INDEX domains_rgp_ends_idx \(/);
      // No other table read, and no sort: the page is the index's order.
      for (const line of [...expiries, ...graceEnds]) expect(line).not.toMatch(/^SCAN (?!json_each)|TEMP B-TREE/);
      const { sql } = dueExpiries(db, at, position, 50, connected).toSQL();
      expect(sql).toContain(`"domains"."repository_id" not in (${connected.map(() => "?").join(", ")})`);
    }
    // Without connectors the statements are exactly those of a service without them.
    expect(dueExpiries(db, at, position, 50, []).toSQL()).toEqual(dueExpiries(db, at, position, 50).toSQL());
    expect(dueExpiries(db, at, position, 50).toSQL().sql).not.toContain("repository_id");
    expect(dueGraceEnds(db, at, position, 50).toSQL().sql).not.toContain("repository_id");
  });

  it("with 4 000 domains not due (half of them in redemption after their expiry) a run reads a handful of rows", async () => {
    // 2 000 live domains expiring in 2030, 2 000 deleted ones whose expiry passed and whose redemption ends in 2030.
    await env.DB.prepare(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < 4000)
       insert into domains (id, name, extension_id, repository_id, statuses, auth_info, auto_renew, expires_at, rgp, rgp_ends_at, deleted_at, created_at, updated_at)
       select printf('dom_BULK%022d', i), printf('bulk-%d.com', i), 'com', 'verisign', '[]', 'bulk-secret', 1,
              case when i % 2 = 0 then '2030-01-01T00:00:00.000Z' else '2026-01-01T00:00:00.000Z' end,
              case when i % 2 = 0 then '[]' else '[{"status":"redemptionPeriod","ends_at":"2030-01-01T00:00:00.000Z"}]' end,
              case when i % 2 = 0 then null else '2030-01-01T00:00:00.000Z' end,
              case when i % 2 = 0 then null else '2025-12-31T00:00:00.000Z' end,
              '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z' from n`,
    ).run();
    await createDomain("cheap-due.com");
    await setDomain("cheap-due.com", { expires_at: "2026-01-02T00:00:00.000Z", rgp: [] });
    await sweepAt(); // the isolate's catalog and token caches, warm

    await setDomain("cheap-due.com", { expires_at: "2026-01-03T00:00:00.000Z", rgp: [] });
    const due = await costOf("POST", "/v1/lifecycle/sweep");
    expect(due.status, due.text).toBe(200);
    expect(due.body).toMatchObject({ auto_renewed: 1, expired: 0, grace_periods_ended: 0, purged: 0 });
    // Measured: 12 rows (the due index entry, the domain and what its representation reads, the write).
    expect(due.cost.rowsRead).toBeLessThan(20);

    const idle = await costOf("POST", "/v1/lifecycle/sweep");
    expect(idle.body).toMatchObject({ ...NOTHING, as_of: expect.any(String) });
    // Measured: 3 rows, one per step's query, and no write.
    expect(idle.cost.rowsRead).toBeLessThanOrEqual(5);
    expect(idle.cost.batches).toEqual([]);
  });
});
