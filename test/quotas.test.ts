// Quotas: what one account may hold (docs/safety.md, "Quotas"). Counts are kept by
// triggers in each write's transaction (drizzle/0024_account_quotas.sql), a create's batch
// ends with a guard, and passing a limit answers 422 quota_exceeded naming the limit, its
// value and the usage, with nothing written — also when two creates race for the last place.
import { beforeAll, describe, expect, it } from "vitest";
import { BUILT_IN_LIMITS } from "../src/registry/quotas";
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
