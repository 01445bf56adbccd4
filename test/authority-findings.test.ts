// What restricted tokens could do before access was declared on each route: each case is
// one an attacker reproduced, and each answer here is the one it must get now
// (docs/accounts.md, "Who may use which route").
import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import { adaAddress, addDnsToken, api, expectProblem } from "./helpers";
import { bearer } from "./tokens";

let alice = "";
let aliceAccount = "";
let bob = "";
let acme = "";
let zoneOnly = "";
let otherDomain = "";
let operatorRecords = "";
let operatorZone = "";
let contact = "";

async function mint(authorization: string, body: Record<string, unknown>): Promise<string> {
  const response = await api("POST", "/v1/tokens", { headers: { authorization }, json: body });
  expect(response.status, response.text).toBe(201);
  return `Bearer ${response.body.secret}`;
}

async function account(name: string): Promise<string> {
  const response = await api("POST", "/v1/accounts", { json: { name } });
  expect(response.status, response.text).toBe(201);
  return response.body.id;
}

const as = (authorization: string, json?: unknown) => ({ headers: { authorization }, json });

beforeAll(async () => {
  aliceAccount = await account("Alice Findings");
  const bobAccount = await account("Bob Findings");
  alice = await mint(bearer("write"), { name: "alice", scope: "write", account: aliceAccount });
  bob = await mint(bearer("write"), { name: "bob", scope: "write", account: bobAccount });
  const created = await api("POST", "/v1/contacts", as(alice, { name: "Alice", email: "alice@example.org", address: adaAddress }));
  contact = created.body.id;
  for (const name of ["alice-one.eu", "alice-two.com", "alice-zone.org"]) {
    const domain = await api("POST", "/v1/domains", as(alice, { name, registrant: contact, nameservers: ["ns1.findings-dns.net"] }));
    expect(domain.status, domain.text).toBe(201);
  }
  const zone = await api("POST", "/v1/zones", as(alice, { name: "alice-zone.org", nameservers: ["ns1.findings-dns.net"] }));
  expect(zone.status, zone.text).toBe(201);
  acme = await mint(alice, { name: "acme", scope: "write", zones: ["alice-zone.org"], records: [{ name: "_acme-challenge", types: ["TXT"] }] });
  zoneOnly = await mint(alice, { name: "zone-only", scope: "write", zones: ["alice-zone.org"] });
  otherDomain = await mint(alice, { name: "other-domain", scope: "write", domains: ["alice-two.com"] });
  operatorRecords = await mint(bearer("write"), { name: "op-records", scope: "write", records: [{ name: "_acme-challenge", types: ["TXT"] }] });
  operatorZone = await mint(bearer("write"), { name: "op-zone", scope: "write", zones: ["operator-only.example"] });
});

describe("restricted tokens act on transfers only of domains they were given", () => {
  let pending = false;
  beforeAll(async () => {
    const domain = await api("GET", "/v1/domains/alice-one.eu", as(alice));
    const request = await api("POST", "/v1/domains/alice-one.eu/transfer", as(bob, { auth_info: domain.body.auth_info }));
    expect(request.status, request.text).toBe(201);
    pending = true;
  });

  it("the ACME token (zone alice-zone.org, TXT at _acme-challenge) cannot see the domain, and cannot approve its transfer: 403", async () => {
    expectProblem(await api("GET", "/v1/domains/alice-one.eu", as(acme)), 403, "forbidden");
    const approve = expectProblem(await api("POST", "/v1/domains/alice-one.eu/transfer/approve", as(acme)), 403, "forbidden");
    expect(approve.detail).toBe("This token may write only records (_acme-challenge TXT); POST /v1/domains/{domain}/transfer/approve is not open to it.");
  });

  it.each(["approve", "reject"])("a token restricted to a zone gets 404 on %s, as for a domain that does not exist", async (action) => {
    expect(pending).toBe(true);
    const problem = expectProblem(await api("POST", `/v1/domains/alice-one.eu/transfer/${action}`, as(zoneOnly)), 404, "not_found");
    expect(problem.detail).not.toContain("Bob");
  });

  it("a token restricted to another domain reads no transfer of this one (404) and cannot act on it", async () => {
    expectProblem(await api("GET", "/v1/domains/alice-one.eu/transfer", as(otherDomain)), 404, "not_found");
    expectProblem(await api("POST", "/v1/domains/alice-one.eu/transfer/reject", as(otherDomain)), 404, "not_found");
  });

  it("an operator's token restricted to records or to a zone cannot act on any account's transfer", async () => {
    expectProblem(await api("POST", "/v1/domains/alice-one.eu/transfer/approve", as(operatorRecords)), 403, "forbidden");
    expectProblem(await api("POST", "/v1/domains/alice-one.eu/transfer/approve", as(operatorZone)), 404, "not_found");
    expectProblem(await api("POST", "/v1/domains/alice-two.com/transfer", as(operatorZone, { auth_info: "Anything-At-All-42" })), 404, "not_found");
  });

  it("the domain is still Alice's and its transfer still pending; her own token rejects it", async () => {
    const domain = await api("GET", "/v1/domains/alice-one.eu", as(alice));
    expect(domain.status).toBe(200);
    expect(domain.body.account).toBe(aliceAccount);
    expect(domain.body.status).toContain("pendingTransfer");
    const rejected = await api("POST", "/v1/domains/alice-one.eu/transfer/reject", as(alice));
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.body.status).toBe("rejected");
  });
});

describe("a token with records rules writes records and nothing else", () => {
  it("PATCH of a domain's nameservers: 403", async () => {
    const problem = expectProblem(await api("PATCH", "/v1/domains/alice-zone.org", as(acme, { nameservers: ["ns1.evil.example"] })), 403, "forbidden");
    expect(problem.detail).toContain("PATCH /v1/domains/{domain}");
    const domain = await api("GET", "/v1/domains/alice-zone.org", as(alice));
    expect(domain.body.nameservers).toEqual(["ns1.findings-dns.net"]);
  });

  it("creating a contact or minting a token: 403", async () => {
    expectProblem(await api("POST", "/v1/contacts", as(acme, { name: "Mallory", email: "m@example.org" })), 403, "forbidden");
    expectProblem(await api("POST", "/v1/tokens", as(acme, { name: "child", scope: "write", zones: ["alice-zone.org"] })), 403, "forbidden");
  });

  it("an operator's such token cannot suspend an account or run the sweep: 403", async () => {
    expectProblem(await api("PATCH", `/v1/accounts/${aliceAccount}`, as(operatorRecords, { status: "suspended" })), 403, "forbidden");
    expectProblem(await api("POST", "/v1/lifecycle/sweep", as(operatorRecords)), 403, "forbidden");
    const account = await api("GET", `/v1/accounts/${aliceAccount}`);
    expect(account.body.status).toBe("active");
  });

  it("it still writes what its rules allow", async () => {
    const created = await api("POST", "/v1/records", as(acme, { zone: "alice-zone.org", name: "_acme-challenge", type: "TXT", content: '"ok"' }));
    expect(created.status, created.text).toBe(201);
    expect((await api("DELETE", `/v1/records/${created.body.id}`, as(acme))).status).toBe(204);
  });
});

describe("a zone-only token does not remove the DS of a domain it cannot see", () => {
  it("DELETE /zones/{zone}/dnssec?force=true answers 403 and the domain keeps its DS", async () => {
    const on = await api("POST", "/v1/zones/alice-zone.org/dnssec", as(alice));
    expect(on.status, on.text).toBe(201);
    const before = await api("GET", "/v1/domains/alice-zone.org", as(alice));
    expect(before.body.ds).toHaveLength(1);
    expectProblem(await api("GET", "/v1/domains/alice-zone.org", as(zoneOnly)), 404, "not_found");
    const off = expectProblem(await api("DELETE", "/v1/zones/alice-zone.org/dnssec?force=true", as(zoneOnly)), 403, "forbidden");
    expect(off.detail).toBe(
      "Domain alice-zone.org publishes a DS of this zone's key, and this token does not manage that domain; remove the DS with a token that does, then turn signing off.",
    );
    const after = await api("GET", "/v1/domains/alice-zone.org", as(alice));
    expect(after.body.ds).toEqual(before.body.ds);
    expect((await api("GET", "/v1/zones/alice-zone.org/dnssec", as(alice))).body.enabled).toBe(true);
  });
});

describe("the DNS backend's token is the operator's and unrestricted: it serves every account's zones", () => {
  it("minting a dns-scope token for a customer account, or narrowed to zones, answers 422 naming scope", async () => {
    const forCustomer = expectProblem(
      await api("POST", "/v1/tokens", { json: { name: "customer-dns", scope: "dns", account: aliceAccount } }),
      422,
      "validation_failed",
    );
    expect(forCustomer.errors).toEqual([
      { field: "scope", message: "dns is the DNS backend's scope: a dns-scope token belongs to the operator's account, and this one to a customer's" },
    ]);
    const narrowed = expectProblem(
      await api("POST", "/v1/tokens", { json: { name: "narrow-dns", scope: "dns", zones: ["alice-zone.org"] } }),
      422,
      "validation_failed",
    );
    expect(narrowed.errors).toEqual([
      { field: "scope", message: "dns is the DNS backend's scope: a dns-scope token is not restricted to zones or domains, and this one is" },
    ]);
  });

  it("a customer's dns-scope token stored earlier is refused by every backend call (403), never a 5xx", async () => {
    const base = await addDnsToken("tok_01JD3Q6Y4T8N0V4W5X6Y7Z8CDS", "customer-dns-stored", "customer-dns-secret-0123456789abcdef");
    await env.DB.prepare("UPDATE api_tokens SET account_id = ? WHERE id = ?").bind(aliceAccount, "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8CDS").run();
    for (const path of ["/getAllDomains?includeDisabled=false", "/getUpdatedMasters", "/lookup/alice-zone.org./SOA"]) {
      const refused = expectProblem(await api("GET", `${base}${path}`), 403, "forbidden");
      expect(refused.detail).toContain(
        "serves the operator's DNS tier, which serves every account's zones; a dns-scope token belongs to the operator's account, and this one to a customer's",
      );
    }
  });
});
