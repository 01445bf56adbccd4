// Availability, prices, premium and reserved names (docs/lifecycle.md "Prices, premium and
// reserved names"): GET /v1/domains/check, and the price every register, renew, transfer
// and restore answers with and a premium one must confirm (RFC 8748's fee check).
import { describe, expect, it } from "vitest";
import { api, createDomain, customerAccount, errorFields, expectProblem, withoutPrice } from "./helpers";

const NS = ["ns1.example.net", "ns2.example.net"];

function check(names: string[], authorization?: string) {
  const query = names.map((n) => `name=${encodeURIComponent(n)}`).join("&");
  return api("GET", `/v1/domains/check?${query}`, authorization ? { headers: { authorization } } : {});
}

describe("GET /v1/domains/check answers each name in the order asked", () => {
  it("an available name: its prices for every period its extension allows, not premium", async () => {
    const response = await check(["check-free.com"]);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toEqual([
      {
        name: "check-free.com",
        unicode_name: "check-free.com",
        available: true,
        reason: null,
        premium: false,
        prices: expect.objectContaining({ currency: "USD", restore: "40.00" }),
      },
    ]);
    expect(Object.keys(response.body.data[0].prices.register)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]);
    expect(response.body.data[0].prices.register["3"]).toBe("36.00");
  });

  it("a premium name is available and premium, with its own prices", async () => {
    const [vacation] = (await check(["vacation.com"])).body.data;
    expect(vacation).toMatchObject({ name: "vacation.com", available: true, reason: null, premium: true });
    expect(vacation.prices.register).toMatchObject({ "1": "2500.00", "2": "5000.00" });
  });

  it("a reserved name is not available (reserved), without prices", async () => {
    expect((await check(["nic.com"])).body.data).toEqual([
      { name: "nic.com", unicode_name: "nic.com", available: false, reason: "reserved", premium: false, prices: null },
    ]);
  });

  it("invalid and unsupported names say so, U-labels are converted, in the order asked", async () => {
    const names = ["Bad_Name!.com", "www.check-deep.com", "co.uk", "check-x.invalid", "münchen.io", "München.DE", "com"];
    const response = await check(names);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.map((d: any) => [d.name, d.unicode_name, d.available, d.reason, d.prices])).toEqual([
      ["Bad_Name!.com", "Bad_Name!.com", false, "invalid", null],
      ["www.check-deep.com", "www.check-deep.com", false, "invalid", null],
      ["co.uk", "co.uk", false, "invalid", null],
      ["check-x.invalid", "check-x.invalid", false, "unsupported_extension", null],
      // .io takes no IDN.
      ["xn--mnchen-3ya.io", "münchen.io", false, "invalid", null],
      ["xn--mnchen-3ya.de", "münchen.de", true, null, expect.objectContaining({ register: { "1": "9.00" } })],
      ["com", "com", false, "invalid", null],
    ]);
  });

  it("1 to 50 names: none, or 51, answer 400 invalid_query naming name; a repeated name is answered each time", async () => {
    expectProblem(await api("GET", "/v1/domains/check"), 400, "invalid_query");
    const tooMany = expectProblem(await check(Array.from({ length: 51 }, (_, i) => `check-many-${i}.com`)), 400, "invalid_query");
    expect(errorFields(tooMany)).toEqual(["name"]);
    const fifty = await check(Array.from({ length: 50 }, (_, i) => `check-many-${i}.com`));
    expect(fifty.body.data).toHaveLength(50);
    expect((await check(["check-twice.com", "CHECK-TWICE.com"])).body.data.map((d: any) => d.name)).toEqual(["check-twice.com", "check-twice.com"]);
    expectProblem(await api("GET", "/v1/domains/check?name=a.com&other=1"), 400, "invalid_query");
  });
});

describe("a registered name is registered to every caller, whoever holds it and in whatever state, and nothing more is said", () => {
  it("held by the operator, by Alice, by Bob, in redemption: the same answer to each", async () => {
    const alice = await customerAccount("check-alice");
    const bob = await customerAccount("check-bob");
    await createDomain("check-operator.com", { nameservers: NS });
    expect((await api("POST", "/v1/domains", { json: { name: "check-alice.com" }, headers: { authorization: alice.auth } })).status).toBe(201);
    expect((await api("POST", "/v1/domains", { json: { name: "check-bob.net" }, headers: { authorization: bob.auth } })).status).toBe(201);
    // .de has no add grace period: a delete puts it in redemption at once.
    await createDomain("check-redeem.de", { nameservers: NS });
    expect((await api("DELETE", "/v1/domains/check-redeem.de")).status).toBe(202);

    const names = ["check-operator.com", "check-alice.com", "check-bob.net", "check-redeem.de"];
    const registered = names.map((name) => ({ name, unicode_name: name, available: false, reason: "registered", premium: false, prices: null }));
    for (const auth of [undefined, alice.auth, bob.auth]) {
      const response = await check(names, auth);
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({ data: registered });
    }
  });

  it("a registered premium name is still premium (catalog data, the same for everyone), without prices", async () => {
    const alice = await customerAccount("check-premium-holder");
    const held = await api("POST", "/v1/domains", { json: { name: "hotels.net", price: "1800.00" }, headers: { authorization: alice.auth } });
    expect(held.status, held.text).toBe(201);
    const bob = await customerAccount("check-premium-asker");
    for (const auth of [undefined, alice.auth, bob.auth]) {
      expect((await check(["hotels.net"], auth)).body.data).toEqual([
        { name: "hotels.net", unicode_name: "hotels.net", available: false, reason: "registered", premium: true, prices: null },
      ]);
    }
  });

  it("a read token may check; a token without the read scope may not", async () => {
    const response = await api("GET", "/v1/domains/check?name=check-read.com", { auth: false });
    expectProblem(response, 401, "unauthorized");
  });
});

describe("the price of each operation", () => {
  it("registering answers with what it cost: n years of registration", async () => {
    const one = await api("POST", "/v1/domains", { json: { name: "priced-one.xyz" } });
    expect(one.body.price).toEqual({ currency: "USD", amount: "3.00" });
    const three = await api("POST", "/v1/domains", { json: { name: "priced-three.xyz", period: 3 } });
    expect(three.body.price).toEqual({ currency: "USD", amount: "33.00" });
    // The price is the answer's, not the domain's.
    expect((await api("GET", "/v1/domains/priced-three.xyz")).body).toEqual(withoutPrice(three.body));
    expect((await api("GET", "/v1/domains/priced-three.xyz")).headers.get("etag")).toBe(three.headers.get("etag"));
  });

  it("an ordinary name may confirm its price; another amount answers 422 price_mismatch naming the price", async () => {
    expect((await api("POST", "/v1/domains", { json: { name: "priced-confirmed.com", period: 2, price: "24" } })).status).toBe(201);
    const wrong = expectProblem(await api("POST", "/v1/domains", { json: { name: "priced-wrong.com", price: "10.00" } }), 422, "price_mismatch");
    expect(wrong.errors).toEqual([{ field: "price", message: expect.stringContaining("costs 12.00 USD") }]);
    expectProblem(await api("GET", "/v1/domains/priced-wrong.com"), 404, "not_found");
  });

  it("a malformed price answers 422 validation_failed naming price", async () => {
    for (const price of ["12,00", "-1", "1.234", "twelve", ""]) {
      const problem = expectProblem(await api("POST", "/v1/domains", { json: { name: "priced-bad.com", price } }), 422, "validation_failed");
      expect(errorFields(problem), price).toEqual(["price"]);
    }
  });

  it("renewing answers with what it cost", async () => {
    const domain = await createDomain("priced-renew.com");
    const renewed = await api("POST", "/v1/domains/priced-renew.com/renew", { json: { period: 2, current_expires_at: domain.expires_at } });
    expect(renewed.status, renewed.text).toBe(200);
    expect(renewed.body.price).toEqual({ currency: "USD", amount: "24.00" });
    expect((await api("GET", "/v1/domains/priced-renew.com")).body).toEqual(withoutPrice(renewed.body));
  });

  it("restoring answers with the restore fee", async () => {
    await createDomain("priced-restore.de", { nameservers: NS });
    expect((await api("DELETE", "/v1/domains/priced-restore.de")).status).toBe(202);
    const restored = await api("POST", "/v1/domains/priced-restore.de/restore");
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body.price).toEqual({ currency: "USD", amount: "25.00" });
  });

  it("a transfer says what it costs, from its request on", async () => {
    const gaining = await customerAccount("priced-gaining");
    const domain = await createDomain("priced-transfer.de", { nameservers: NS });
    const requested = await api("POST", "/v1/domains/priced-transfer.de/transfer", {
      json: { auth_info: domain.auth_info },
      headers: { authorization: gaining.auth },
    });
    expect(requested.status, requested.text).toBe(201);
    expect(requested.body.price).toEqual({ currency: "USD", amount: "9.00" });
    expect((await api("GET", "/v1/domains/priced-transfer.de/transfer")).body.price).toEqual({ currency: "USD", amount: "9.00" });
  });
});

describe("premium names need their price confirmed (RFC 8748), reserved names cannot be registered", () => {
  it("registering a premium name without price, or with another, answers 422 price_mismatch naming the price; with it, 201", async () => {
    const missing = expectProblem(await api("POST", "/v1/domains", { json: { name: "vacation.com" } }), 422, "price_mismatch");
    expect(missing.errors).toEqual([{ field: "price", message: expect.stringContaining('"price": "2500.00"') }]);
    expect(missing.detail).toContain("2500.00 USD");
    const twoYears = expectProblem(await api("POST", "/v1/domains", { json: { name: "vacation.com", period: 2, price: "2500.00" } }), 422, "price_mismatch");
    expect(twoYears.errors![0]!.message).toContain("5000.00 USD");
    expectProblem(await api("GET", "/v1/domains/vacation.com"), 404, "not_found");
    const registered = await api("POST", "/v1/domains", { json: { name: "vacation.com", price: "2500.00", nameservers: NS } });
    expect(registered.status, registered.text).toBe(201);
    expect(registered.body.price).toEqual({ currency: "USD", amount: "2500.00" });
    expect((await check(["vacation.com"])).body.data[0]).toMatchObject({ available: false, reason: "registered", premium: true });
  });

  it("renewing a premium name needs its renewal price; some premium names renew at the extension's price, still confirmed", async () => {
    const domain = withoutPrice((await api("POST", "/v1/domains", { json: { name: "travel.info", price: "600.00" } })).body);
    const body = { period: 1, current_expires_at: domain.expires_at };
    expectProblem(await api("POST", "/v1/domains/travel.info/renew", { json: body }), 422, "price_mismatch");
    expectProblem(await api("POST", "/v1/domains/travel.info/renew", { json: { ...body, price: "600.00" } }), 422, "price_mismatch");
    const renewed = await api("POST", "/v1/domains/travel.info/renew", { json: { ...body, price: "24.00" } });
    expect(renewed.status, renewed.text).toBe(200);
    expect(renewed.body.price).toEqual({ currency: "USD", amount: "24.00" });
  });

  it("transferring a premium name needs its transfer price", async () => {
    const gaining = await customerAccount("premium-gaining");
    const created = await api("POST", "/v1/domains", { json: { name: "3d.xyz", price: "750.00" } });
    expect(created.status, created.text).toBe(201);
    // .xyz locks transfers for 60 days after registration: move the registration back in time.
    const { env } = await import("cloudflare:test");
    await env.DB.prepare("update domains set created_at = '2020-01-01T00:00:00.000Z' where name = '3d.xyz'").run();
    const request = { auth_info: created.body.auth_info };
    const asGaining = { headers: { authorization: gaining.auth } };
    const problem = expectProblem(await api("POST", "/v1/domains/3d.xyz/transfer", { ...asGaining, json: request }), 422, "price_mismatch");
    expect(problem.errors![0]!.message).toContain("750.00 USD");
    const requested = await api("POST", "/v1/domains/3d.xyz/transfer", { ...asGaining, json: { ...request, price: "750.00" } });
    expect(requested.status, requested.text).toBe(201);
    expect(requested.body.price).toEqual({ currency: "USD", amount: "750.00" });
  });

  it("a reserved name answers 422 policy_violation naming name, whoever asks", async () => {
    const customer = await customerAccount("reserved-asker");
    for (const headers of [{}, { authorization: customer.auth }] as Record<string, string>[]) {
      const problem = expectProblem(await api("POST", "/v1/domains", { json: { name: "whois.net" }, headers }), 422, "policy_violation");
      expect(problem.errors).toEqual([{ field: "name", message: "whois.net is reserved by its registry and cannot be registered" }]);
    }
  });
});
