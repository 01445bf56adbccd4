// The ACME DNS-01 case end to end (docs/accounts.md): an operator mints a customer's token;
// the customer mints a token restricted to one zone, TXT records at _acme-challenge, for
// an hour. With it the TXT record is created and deleted; an A record, another name,
// another zone, a domain and a contact are refused; after expiry the token is unknown.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { api, expectProblem } from "./helpers";

const CUSTOMER = "acc_01M8188MZ3N4D5RW2QKJ7H8ACM";
let customer = "";
let acme = "";

async function mint(authorization: string, body: Record<string, unknown>): Promise<string> {
  const response = await api("POST", "/v1/tokens", { headers: { authorization }, json: body });
  expect(response.status, response.text).toBe(201);
  expect(response.body.secret).toMatch(/^tok_[0-9A-Z]{26}\./);
  return `Bearer ${response.body.secret}`;
}

beforeAll(async () => {
  const account = await api("POST", "/v1/accounts", { json: { name: "ACME Customer" } });
  expect(account.status, account.text).toBe(201);
  await env.DB.prepare("update accounts set id = ? where id = ?").bind(CUSTOMER, account.body.id).run();
  customer = await mint((await import("./tokens")).bearer("write").toString(), { name: "customer", scope: "write", account: CUSTOMER });
  for (const zone of ["acme.example", "other-acme.example"]) {
    const created = await api("POST", "/v1/zones", { headers: { authorization: customer }, json: { name: zone, nameservers: ["ns1.acme-dns.net"] } });
    expect(created.status, created.text).toBe(201);
  }
  acme = await mint(customer, {
    name: "acme-dns01",
    scope: "write",
    zones: ["acme.example"],
    records: [{ name: "_acme-challenge", types: ["TXT"] }],
    expires_at: new Date(Date.now() + 3600_000).toISOString(),
  });
});

const asAcme = () => ({ headers: { authorization: acme } });

describe("an ACME token restricted to TXT at _acme-challenge of one zone", () => {
  it("creates and deletes that TXT record", async () => {
    const created = await api("POST", "/v1/records", {
      ...asAcme(),
      json: { zone: "acme.example", name: "_acme-challenge", type: "TXT", content: '"token-value"' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: "_acme-challenge", type: "TXT", content: '"token-value"' });
    const deleted = await api("DELETE", `/v1/records/${created.body.id}`, asAcme());
    expect(deleted.status, deleted.text).toBe(204);
  });

  it("an A record answers 403 forbidden naming the rule, and so does another type at _acme-challenge", async () => {
    const response = await api("POST", "/v1/records", { ...asAcme(), json: { zone: "acme.example", name: "www", type: "A", content: "192.0.2.1" } });
    const problem = expectProblem(response, 403, "forbidden");
    expect(problem.detail).toBe("This token may write records only for _acme-challenge TXT; A at www is not among them.");
    const caa = await api("POST", "/v1/records", {
      ...asAcme(),
      json: { zone: "acme.example", name: "_acme-challenge", type: "CAA", content: '0 issue "ca.example"' },
    });
    expect(expectProblem(caa, 403, "forbidden").detail).toContain("CAA at _acme-challenge is not among them");
  });

  it("a TXT record at another name answers 403 forbidden", async () => {
    const response = await api("POST", "/v1/records", { ...asAcme(), json: { zone: "acme.example", name: "www", type: "TXT", content: '"x"' } });
    expect(expectProblem(response, 403, "forbidden").detail).toContain("TXT at www is not among them");
  });

  it("a PATCH moving a record out of the rule answers 403, and one the customer made elsewhere is not the token's to change", async () => {
    const txt = await api("POST", "/v1/records", { ...asAcme(), json: { zone: "acme.example", name: "_acme-challenge", type: "TXT", content: '"move-me"' } });
    expect(txt.status).toBe(201);
    expectProblem(await api("PATCH", `/v1/records/${txt.body.id}`, { ...asAcme(), json: { name: "www" } }), 403, "forbidden");
    const www = await api("POST", "/v1/records", {
      headers: { authorization: customer },
      json: { zone: "acme.example", name: "www", type: "A", content: "192.0.2.9" },
    });
    expect(www.status).toBe(201);
    expectProblem(await api("DELETE", `/v1/records/${www.body.id}`, asAcme()), 403, "forbidden");
    expectProblem(await api("PATCH", `/v1/records/${www.body.id}`, { ...asAcme(), json: { ttl: 60 } }), 403, "forbidden");
  });

  it("another zone of the same account does not exist for it (404)", async () => {
    expectProblem(await api("GET", "/v1/zones/other-acme.example", asAcme()), 404, "not_found");
    const response = await api("POST", "/v1/records", {
      ...asAcme(),
      json: { zone: "other-acme.example", name: "_acme-challenge", type: "TXT", content: '"x"' },
    });
    expect([404, 422]).toContain(response.status);
  });

  it("the zone itself is readable but not writable, and no zone can be created", async () => {
    expect((await api("GET", "/v1/zones/acme.example", asAcme())).status).toBe(200);
    expectProblem(await api("PATCH", "/v1/zones/acme.example", { ...asAcme(), json: { default_ttl: 60 } }), 403, "forbidden");
    expectProblem(await api("DELETE", "/v1/zones/acme.example", asAcme()), 403, "forbidden");
    expectProblem(await api("POST", "/v1/zones", { ...asAcme(), json: { name: "new-acme.example" } }), 403, "forbidden");
  });

  it("domains are not its to see or register, contacts and hosts not its to touch", async () => {
    expect(expectProblem(await api("GET", "/v1/domains", asAcme()), 403, "forbidden").detail).toBe(
      "This token may write only records (_acme-challenge TXT); GET /v1/domains is not open to it.",
    );
    expectProblem(await api("POST", "/v1/domains", { ...asAcme(), json: { name: "acme-new.com" } }), 403, "forbidden");
    expect(expectProblem(await api("GET", "/v1/contacts", asAcme()), 403, "forbidden").detail).toBe(
      "This token is restricted to named zones; GET /v1/contacts is not open to such tokens.",
    );
    expectProblem(await api("GET", "/v1/hosts", asAcme()), 403, "forbidden");
    expectProblem(await api("POST", "/v1/tokens", { ...asAcme(), json: { name: "x", scope: "write" } }), 403, "forbidden");
  });

  it("after its expiry the token is unknown (401)", async () => {
    const brief = await mint(customer, {
      name: "acme-brief",
      scope: "write",
      zones: ["acme.example"],
      records: [{ name: "_acme-challenge", types: ["TXT"] }],
      expires_at: new Date(Date.now() + 1500).toISOString(),
    });
    expect((await api("GET", "/v1/zones/acme.example", { headers: { authorization: brief } })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const expired = await api("GET", "/v1/zones/acme.example", { headers: { authorization: brief } });
    expect(expectProblem(expired, 401, "unauthorized").detail).toBe("The bearer token is unknown.");
  });
});
