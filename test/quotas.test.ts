// Quotas: what one account may hold (docs/safety.md, "Quotas"). Counts are kept by
// triggers in each write's transaction (drizzle/0024_account_quotas.sql), every batch of the
// write routine ends with the quota check (src/db/quota-check.ts, drizzle/0033), and passing a
// limit answers 422 quota_exceeded naming the limit, its value and the usage, with nothing
// written — whichever writer wrote, and also when two creates race for the last place.
import { env } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { database } from "../src/db/client";
import { accountUsage, contacts, records, zones } from "../src/db/schema";
import { QuotaExceeded, RAISES_NO_COUNT } from "../src/db/quota-check";
import { commitWrite, writeContextAt } from "../src/db/write";
import { ownerOrder } from "../src/dns/name-order";
import { BUILT_IN_LIMITS } from "../src/registry/limits";
import { sweep } from "../src/jobs/sweep";
import { api, expectProblem } from "./helpers";
import { bearer } from "./tokens";

async function customer(name: string, limits?: Record<string, number>) {
  const account = await api("POST", "/v1/accounts", { json: { name, ...(limits ? { limits } : {}) } });
  expect(account.status, account.text).toBe(201);
  const token = await api("POST", "/v1/tokens", {
    headers: { authorization: bearer("write") },
    json: { name: `${name}-w`, scope: "write", account: account.body.id },
  });
  expect(token.status, token.text).toBe(201);
  return { id: account.body.id as string, as: { authorization: `Bearer ${token.body.secret}` } };
}

let small: Awaited<ReturnType<typeof customer>>;
beforeAll(async () => {
  small = await customer("quota-small", { contacts: 2, zones: 1, records: 4 });
});

describe("an account shows its limits and usage", () => {
  it("GET /me: the configured defaults with the operator's overrides, and what the account holds", async () => {
    const me = await api("GET", "/v1/me", { headers: small.as });
    expect(me.status, me.text).toBe(200);
    expect(me.body.account.limits).toEqual({ ...BUILT_IN_LIMITS, contacts: 2, zones: 1, records: 4 });
    expect(me.body.account.usage).toEqual({ zones: 0, records: 0, domains: 0, contacts: 0, hosts: 0, tokens: 1, tsig_keys: 0, webhooks: 0 });
  });

  it("an operator changes limits by merge; null returns one to the default; a customer cannot (403)", async () => {
    const other = await customer("quota-merge");
    const patched = await api("PATCH", `/v1/accounts/${other.id}`, { json: { limits: { zones: 50, hosts: 7 } } });
    expect(patched.status, patched.text).toBe(200);
    const cleared = await api("PATCH", `/v1/accounts/${other.id}`, { json: { limits: { hosts: null } } });
    expect(cleared.status, cleared.text).toBe(200);
    const read = await api("GET", `/v1/accounts/${other.id}`);
    expect(read.body.limits).toMatchObject({ zones: 50, hosts: BUILT_IN_LIMITS.hosts });
    expectProblem(await api("PATCH", `/v1/accounts/${other.id}`, { headers: other.as, json: { limits: { zones: 5000 } } }), 403, "forbidden");
    const bad = expectProblem(await api("PATCH", `/v1/accounts/${other.id}`, { json: { limits: { zones: -1, bogus: 3 } } }), 422, "validation_failed");
    expect(bad.errors.map((e: { field: string }) => e.field).sort()).toEqual(["limits.bogus", "limits.zones"]);
  });
});

describe("a create past a limit answers 422 quota_exceeded and writes nothing", () => {
  it("contacts: the third of a limit of 2 is refused, naming the limit, its value and the usage", async () => {
    for (const i of [1, 2]) {
      const created = await api("POST", "/v1/contacts", { headers: small.as, json: { name: `C${i}`, email: `c${i}@quota.example` } });
      expect(created.status, created.text).toBe(201);
    }
    const third = expectProblem(
      await api("POST", "/v1/contacts", { headers: small.as, json: { name: "C3", email: "c3@quota.example" } }),
      422,
      "quota_exceeded",
    );
    expect(third.errors).toEqual([{ field: "contacts", message: expect.stringContaining("at most 2 contacts (limit contacts), and holds 2") }]);
    const list = await api("GET", "/v1/contacts", { headers: small.as });
    expect(list.body.data).toHaveLength(2);
  });

  it("zones and records: a zone's apex NS count; the record past the limit is refused, and a delete makes room", async () => {
    const zone = await api("POST", "/v1/zones", {
      headers: small.as,
      json: { name: "quota-small.example", nameservers: ["ns1.quota.example", "ns2.quota.example"] },
    });
    expect(zone.status, zone.text).toBe(201);
    const second = expectProblem(await api("POST", "/v1/zones", { headers: small.as, json: { name: "quota-second.example" } }), 422, "quota_exceeded");
    expect(second.errors[0].field).toBe("zones");
    const add = (content: string) => api("POST", "/v1/records", { headers: small.as, json: { zone: "quota-small.example", name: "www", type: "A", content } });
    expect((await add("192.0.2.1")).status).toBe(201);
    const a2 = await add("192.0.2.2");
    expect(a2.status, a2.text).toBe(201);
    const over = expectProblem(await add("192.0.2.3"), 422, "quota_exceeded");
    expect(over.errors[0]).toEqual({ field: "records", message: expect.stringContaining("at most 4 records (limit records), and holds 4") });
    expect((await api("GET", "/v1/me", { headers: small.as })).body.account.usage).toMatchObject({ zones: 1, records: 4 });
    expect((await api("DELETE", `/v1/records/${a2.body.id}`, { headers: small.as })).status).toBe(204);
    expect((await add("192.0.2.3")).status).toBe(201);
  });

  it("an import past the records limit creates no zone", async () => {
    const importer = await customer("quota-import", { records: 10 });
    const lines = ["$ORIGIN quota-import.example.", "$TTL 300", "@ NS ns1.quota.example."];
    for (let i = 0; i < 12; i++) lines.push(`h${i} A 192.0.2.${i + 1}`);
    const response = await api("POST", "/v1/zones", { headers: { ...importer.as, "content-type": "text/dns" }, body: lines.join("\n") });
    expectProblem(response, 422, "quota_exceeded");
    expectProblem(await api("GET", "/v1/zones/quota-import.example", { headers: importer.as }), 404, "not_found");
    expect((await api("GET", "/v1/me", { headers: importer.as })).body.account.usage).toMatchObject({ zones: 0, records: 0 });
  });

  it("two creates racing for the last place: one 201, one 422", async () => {
    const racer = await customer("quota-race", { hosts: 1 });
    const results = await Promise.all(
      ["ns1.race-a.example", "ns1.race-b.example"].map((name) => api("POST", "/v1/hosts", { headers: racer.as, json: { name } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
    expect(results.find((r) => r.status === 422)!.body.code).toBe("quota_exceeded");
    expect((await api("GET", "/v1/me", { headers: racer.as })).body.account.usage.hosts).toBe(1);
  });

  it("tokens count while not revoked", async () => {
    const minter = await customer("quota-tokens", { tokens: 2 });
    const mint = (name: string) => api("POST", "/v1/tokens", { headers: minter.as, json: { name, scope: "read" } });
    const second = await mint("second");
    expect(second.status, second.text).toBe(201);
    expectProblem(await mint("third"), 422, "quota_exceeded");
    expect((await api("DELETE", `/v1/tokens/${second.body.id}`, { headers: minter.as })).status).toBe(204);
    expect((await mint("third")).status).toBe(201);
  });
});

describe("a transfer is held to the gaining account's domains limit when it is requested", () => {
  it("an account at its limit asking for a transfer gets 422 quota_exceeded; nothing is pending", async () => {
    const seller = await customer("quota-seller");
    const contact = await api("POST", "/v1/contacts", {
      headers: seller.as,
      json: { name: "Seller", email: "seller@quota.example", address: { city: "London", country_code: "GB" } },
    });
    expect(contact.status, contact.text).toBe(201);
    const domain = await api("POST", "/v1/domains", {
      headers: seller.as,
      json: { name: "quota-transfer.de", registrant: contact.body.id, nameservers: ["ns1.quota-dns.example", "ns2.quota-dns.example"] },
    });
    expect(domain.status, domain.text).toBe(201);
    const buyer = await customer("quota-buyer", { domains: 0 });
    const request = await api("POST", "/v1/domains/quota-transfer.de/transfer", { headers: buyer.as, json: { auth_info: domain.body.auth_info } });
    const problem = expectProblem(request, 422, "quota_exceeded");
    expect(problem.errors[0]).toEqual({ field: "domains", message: expect.stringContaining("at most 0 domains (limit domains), and holds 0") });
    const read = await api("GET", "/v1/domains/quota-transfer.de", { headers: seller.as });
    expect(read.body.status).not.toContain("pendingTransfer");
  });
});

/** What the account holds now, as GET /v1/me shows it. */
async function usage(who: { as: Record<string, string> }) {
  const me = await api("GET", "/v1/me", { headers: who.as });
  expect(me.status, me.text).toBe(200);
  return me.body.account.usage as Record<string, number>;
}

/** A zone of the account (its apex NS: one record) and its id. */
async function zoneOf(who: { as: Record<string, string> }, name: string) {
  const zone = await api("POST", "/v1/zones", { headers: who.as, json: { name, nameservers: ["ns1.quota.example"] } });
  expect(zone.status, zone.text).toBe(201);
  return zone.body.id as string;
}

const db = database(env.DB);

/** Record rows as any writer inserts them (a DNS UPDATE's batch does the same through the routine). */
function recordRows(zoneId: string, names: string[]) {
  const at = new Date().toISOString();
  return names.map((name, i) => ({
    id: `rec_01JD3Q6Y4T8N0V4W5X6Y7ZQ${String(i).padStart(3, "0")}`.slice(0, 30),
    zoneId,
    name,
    type: "A",
    content: `192.0.2.${i + 1}`,
    ttl: 300,
    ownerOrder: ownerOrder(name),
    createdAt: at,
    updatedAt: at,
  }));
}

describe("quotas hold on every writer: the write routine ends every batch with the check, so no writer can leave it out", () => {
  it("HTTP record create: the record past the records limit is 422 quota_exceeded and is not written", async () => {
    const owner = await customer("quota-http-record", { records: 2 });
    await zoneOf(owner, "quota-http-record.example");
    const add = (content: string) =>
      api("POST", "/v1/records", { headers: owner.as, json: { zone: "quota-http-record.example", name: "www", type: "A", content } });
    expect((await add("192.0.2.1")).status).toBe(201);
    const over = expectProblem(await add("192.0.2.2"), 422, "quota_exceeded");
    expect(over.errors).toEqual([{ field: "records", message: expect.stringContaining("at most 2 records (limit records), and holds 2") }]);
    const list = await api("GET", "/v1/zones/quota-http-record.example/records?name=www", { headers: owner.as });
    expect(list.body.data.map((r: { content: string }) => r.content)).toEqual(["192.0.2.1"]);
  });

  it("change batch (POST /v1/zones/{zone}/changes): adds past the records limit are 422 and none of the batch is written", async () => {
    const owner = await customer("quota-changes", { records: 5 });
    await zoneOf(owner, "quota-changes.example");
    const contents = Array.from({ length: 10 }, (_, i) => `192.0.2.${i + 1}`);
    const response = await api("POST", "/v1/zones/quota-changes.example/changes", {
      headers: owner.as,
      json: { changes: [{ action: "add", name: "www", type: "A", ttl: 300, contents }] },
    });
    const problem = expectProblem(response, 422, "quota_exceeded");
    expect(problem.errors).toEqual([{ field: "records", message: expect.stringContaining("at most 5 records (limit records), and holds 1") }]);
    expect(await usage(owner)).toMatchObject({ records: 1 });
    const fits = await api("POST", "/v1/zones/quota-changes.example/changes", {
      headers: owner.as,
      json: { changes: [{ action: "add", name: "www", type: "A", ttl: 300, contents: contents.slice(0, 4) }] },
    });
    expect(fits.status, fits.text).toBe(200);
    expect(await usage(owner)).toMatchObject({ records: 5 });
  });

  it("zone import (text/dns): a file past the records limit is 422 quota_exceeded and creates no zone", async () => {
    const importer = await customer("quota-import-file", { records: 5 });
    const lines = ["$ORIGIN quota-import-file.example.", "$TTL 300", "@ NS ns1.quota.example."];
    for (let i = 0; i < 5; i++) lines.push(`h${i} A 192.0.2.${i + 1}`);
    const problem = expectProblem(
      await api("POST", "/v1/zones", { headers: { ...importer.as, "content-type": "text/dns" }, body: lines.join("\n") }),
      422,
      "quota_exceeded",
    );
    expect(problem.errors).toEqual([{ field: "records", message: expect.stringContaining("at most 5 records (limit records), and holds 0") }]);
    expectProblem(await api("GET", "/v1/zones/quota-import-file.example", { headers: importer.as }), 404, "not_found");
    expect(await usage(importer)).toMatchObject({ zones: 0, records: 0 });
  });

  it("zone create with records (its apex NS): past the records limit is 422 quota_exceeded and creates no zone", async () => {
    const owner = await customer("quota-zone-ns", { records: 1 });
    const problem = expectProblem(
      await api("POST", "/v1/zones", { headers: owner.as, json: { name: "quota-zone-ns.example", nameservers: ["ns1.quota.example", "ns2.quota.example"] } }),
      422,
      "quota_exceeded",
    );
    expect(problem.errors).toEqual([{ field: "records", message: expect.stringContaining("at most 1 records (limit records), and holds 0") }]);
    expectProblem(await api("GET", "/v1/zones/quota-zone-ns.example", { headers: owner.as }), 404, "not_found");
    expect(await usage(owner)).toMatchObject({ zones: 0, records: 0 });
  });

  it("DNS UPDATE, or any writer: a Write that inserts records past the limit is refused by commitWrite with QuotaExceeded, nothing written", async () => {
    // What the DNS UPDATE writer commits is a Write like this one (records inserted, the
    // zone's serial raised): the routine holds it to the limit without its asking.
    const owner = await customer("quota-any-writer", { records: 3 });
    const zoneId = await zoneOf(owner, "quota-any-writer.example");
    const ctx = () => writeContextAt(db, new Date(), "test-update-key", BUILT_IN_LIMITS);
    const insert = (names: string[]) => ({ alongside: [db.insert(records).values(recordRows(zoneId, names))] });
    const refused = await commitWrite(ctx(), insert(["a", "b", "c"])).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(QuotaExceeded);
    expect(refused).toMatchObject({ kind: "records", accountId: owner.id });
    expect(await usage(owner)).toMatchObject({ records: 1 });
    const [zone] = await db.select({ count: zones.recordCount }).from(zones).where(eq(zones.id, zoneId));
    expect(zone!.count).toBe(1);
    await commitWrite(ctx(), insert(["a", "b"]));
    expect(await usage(owner)).toMatchObject({ records: 3 });
  });

  it("domain transfer-in: the request counts what the approval brings; an approval that would pass the gaining account's limit is 422 and the transfer stays pending; the sweep approves it once there is room", async () => {
    const seller = await customer("quota-in-seller");
    const contact = await api("POST", "/v1/contacts", {
      headers: seller.as,
      json: { name: "Seller", email: "seller-in@quota.example", address: { city: "London", country_code: "GB" } },
    });
    expect(contact.status, contact.text).toBe(201);
    const domain = await api("POST", "/v1/domains", {
      headers: seller.as,
      json: { name: "quota-in.de", registrant: contact.body.id, nameservers: ["ns1.quota-dns.example", "ns2.quota-dns.example"] },
    });
    expect(domain.status, domain.text).toBe(201);
    const subordinate = await api("POST", "/v1/hosts", { headers: seller.as, json: { name: "ns1.quota-in.de", addresses: ["192.0.2.53"] } });
    expect(subordinate.status, subordinate.text).toBe(201);
    // The domain brings one subordinate host (ns1.quota-in.de) and a copy of its one contact.
    const crowded = await customer("quota-in-hosts", { hosts: 0 });
    const hostsProblem = expectProblem(
      await api("POST", "/v1/domains/quota-in.de/transfer", { headers: crowded.as, json: { auth_info: domain.body.auth_info } }),
      422,
      "quota_exceeded",
    );
    expect(hostsProblem.errors).toEqual([{ field: "hosts", message: expect.stringContaining("at most 0 hosts (limit hosts), and holds 0") }]);

    const buyer = await customer("quota-in-buyer", { contacts: 1 });
    const request = await api("POST", "/v1/domains/quota-in.de/transfer", { headers: buyer.as, json: { auth_info: domain.body.auth_info } });
    expect(request.status, request.text).toBe(201);
    // The buyer fills its room meanwhile: the approval would bring a contact copy past the limit.
    const own = await api("POST", "/v1/contacts", { headers: buyer.as, json: { name: "Own", email: "own@quota.example" } });
    expect(own.status, own.text).toBe(201);
    const approval = expectProblem(await api("POST", "/v1/domains/quota-in.de/transfer/approve", { headers: seller.as }), 422, "quota_exceeded");
    // The seller is told which limit, not the buyer's figures.
    expect(approval.errors).toEqual([
      { field: "contacts", message: expect.stringContaining("the account that would hold the contacts has reached its limit (limit contacts)") },
    ]);
    expect(approval.detail).not.toMatch(/holds \d/);
    const pending = await api("GET", "/v1/domains/quota-in.de/transfer", { headers: seller.as });
    expect(pending.body.status).toBe("pending");
    expect(await usage(buyer)).toMatchObject({ domains: 0, hosts: 0, contacts: 1 });

    const afterActBy = new Date(Date.parse(pending.body.act_by) + 60_000);
    const waiting = await sweep(db, { now: afterActBy, actor: "test", limits: BUILT_IN_LIMITS });
    expect(waiting).toMatchObject({ transfers_approved: 0, skipped: 1 });
    expect((await api("GET", "/v1/domains/quota-in.de/transfer", { headers: seller.as })).body.status).toBe("pending");

    expect((await api("DELETE", `/v1/contacts/${own.body.id}`, { headers: buyer.as })).status).toBe(204);
    const approved = await sweep(db, { now: afterActBy, actor: "test", limits: BUILT_IN_LIMITS });
    expect(approved).toMatchObject({ transfers_approved: 1 });
    expect(await usage(buyer)).toMatchObject({ domains: 1, hosts: 1, contacts: 1 });
  });

  it("host creation through a domain create: external name servers past the hosts limit are 422 quota_exceeded; no domain, no host", async () => {
    const owner = await customer("quota-ext-hosts", { hosts: 1 });
    const contact = await api("POST", "/v1/contacts", {
      headers: owner.as,
      json: { name: "Hosts", email: "hosts@quota.example", address: { city: "London", country_code: "GB" } },
    });
    expect(contact.status, contact.text).toBe(201);
    const problem = expectProblem(
      await api("POST", "/v1/domains", {
        headers: owner.as,
        json: { name: "quota-ext-hosts.de", registrant: contact.body.id, nameservers: ["ns1.quota-ext-a.example", "ns2.quota-ext-b.example"] },
      }),
      422,
      "quota_exceeded",
    );
    expect(problem.errors).toEqual([{ field: "hosts", message: expect.stringContaining("at most 1 hosts (limit hosts), and holds 0") }]);
    expectProblem(await api("GET", "/v1/domains/quota-ext-hosts.de", { headers: owner.as }), 404, "not_found");
    expect(await usage(owner)).toMatchObject({ domains: 0, hosts: 0 });
  });

  it("two record creates racing for the last place: one 201, one 422", async () => {
    const racer = await customer("quota-record-race", { records: 2 });
    await zoneOf(racer, "quota-record-race.example");
    const results = await Promise.all(
      ["192.0.2.1", "192.0.2.2"].map((content) =>
        api("POST", "/v1/records", { headers: racer.as, json: { zone: "quota-record-race.example", name: "www", type: "A", content } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
    expect(results.find((r) => r.status === 422)!.body.code).toBe("quota_exceeded");
    expect(await usage(racer)).toMatchObject({ records: 2 });
  });

  it("a writer that declares it raises no count (RAISES_NO_COUNT) is refused when its batch raises one anyway", async () => {
    const owner = await customer("quota-raises-none");
    const at = new Date().toISOString();
    const row = {
      ...{ id: "con_01JD3Q6Y4T8N0V4W5X6Y7ZQRN0", accountId: owner.id, name: "N", nameKey: "n", email: "n@quota.example", emailKey: "n@quota.example" },
      ...{ street: [], privacy: false, createdAt: at, updatedAt: at },
    };
    const refused = await commitWrite(writeContextAt(db, new Date(), "test", RAISES_NO_COUNT), { alongside: [db.insert(contacts).values(row)] }).catch(
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ kind: "contacts", accountId: owner.id });
    expect(await usage(owner)).toMatchObject({ contacts: 0 });
  });

  it("a count a write outside the routine raised past a limit refuses no other write: the routine forgets its note and commits", async () => {
    const bypassed = await customer("quota-bypassed", { contacts: 0 });
    // A row inserted by hand (a migration's backfill, a script): counted, noted, never checked.
    await env.DB.prepare(
      "insert into contacts (id, account_id, name, name_key, email, email_key, street, city, country_code, privacy, version, created_at, updated_at) values ('con_01JD3Q6Y4T8N0V4W5X6Y7ZQBYP', ?, 'By hand', 'by hand', 'h@quota.example', 'h@quota.example', '[]', 'London', 'GB', 0, 1, 'x', 'x')",
    )
      .bind(bypassed.id)
      .run();
    const other = await customer("quota-bystander");
    const created = await api("POST", "/v1/contacts", { headers: other.as, json: { name: "Bystander", email: "b@quota.example" } });
    expect(created.status, created.text).toBe(201);
    const [noted] = await db.select({ before: accountUsage.countsBefore }).from(accountUsage).where(sql`${accountUsage.countsBefore} is not null`);
    expect(noted).toBeUndefined();
    expect(await usage(bypassed)).toMatchObject({ contacts: 1 });
  });
});

describe("a write that does not raise a count is never refused by a quota", () => {
  it("an account over a lowered records limit deletes (204), edits (200) and replaces an RRset as large (200); an add is 422", async () => {
    const owner = await customer("quota-lowered");
    await zoneOf(owner, "quota-lowered.example");
    const ids: string[] = [];
    for (const content of ["192.0.2.1", "192.0.2.2", "192.0.2.3"]) {
      const created = await api("POST", "/v1/records", { headers: owner.as, json: { zone: "quota-lowered.example", name: "www", type: "A", content } });
      expect(created.status, created.text).toBe(201);
      ids.push(created.body.id);
    }
    expect((await api("PATCH", `/v1/accounts/${owner.id}`, { json: { limits: { records: 1 } } })).status).toBe(200);
    expect(await usage(owner)).toMatchObject({ records: 4 });

    const deleted = await api("DELETE", `/v1/records/${ids[0]}`, { headers: owner.as });
    expect(deleted.status, deleted.text).toBe(204);
    const edited = await api("PATCH", `/v1/records/${ids[1]}`, { headers: owner.as, json: { content: "192.0.2.9", ttl: 600 } });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ content: "192.0.2.9", ttl: 600 });
    const replaced = await api("POST", "/v1/zones/quota-lowered.example/changes", {
      headers: owner.as,
      json: { changes: [{ action: "replace", name: "www", type: "A", ttl: 300, contents: ["198.51.100.1", "198.51.100.2"] }] },
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect(await usage(owner)).toMatchObject({ records: 3 });
    const added = expectProblem(
      await api("POST", "/v1/records", { headers: owner.as, json: { zone: "quota-lowered.example", name: "mail", type: "A", content: "192.0.2.25" } }),
      422,
      "quota_exceeded",
    );
    expect(added.errors).toEqual([{ field: "records", message: expect.stringContaining("at most 1 records (limit records), and holds 3") }]);
  });
});
