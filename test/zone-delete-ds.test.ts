// Deleting a zone whose domain publishes a DS of its keys (docs/dnssec.md "Turning it off",
// src/registry/zone-ds.ts): 409 status_prohibits as turning DNSSEC off does, since the DS
// would stay in the parent for keys that no longer exist; `?force=true` for operators only
// (a customer's → 403), which deletes the zone and leaves the DS to the domain. A DS
// published between the delete's read and its batch refuses it too.
import { describe, expect, it } from "vitest";
import { allPages, api, createDomain, createZone, customerAccount, expectProblem } from "./helpers";
import { apiWithHooks, onceBeforeWriting } from "./interleave";

const NS = ["ns1.example.net", "ns2.example.net"];

/** A domain and its zone of one name, signed: the domain then publishes the key's DS (one-click DS). */
async function signedZoneWithDs(name: string, headers?: Record<string, string>) {
  const as = headers ? { headers } : {};
  const domain = await api("POST", "/v1/domains", { ...as, json: { name, nameservers: NS } });
  expect(domain.status, domain.text).toBe(201);
  const zone = await api("POST", "/v1/zones", { ...as, json: { name, nameservers: NS } });
  expect(zone.status, zone.text).toBe(201);
  const signed = await api("POST", `/v1/zones/${name}/dnssec`, as);
  expect(signed.status, signed.text).toBe(201);
  const ds = (await api("GET", `/v1/domains/${name}`, as)).body.ds;
  expect(ds).toHaveLength(1);
  return { zone: zone.body, domain: domain.body, ds, keyTag: signed.body.keys[0].key_tag as number };
}

async function zoneEvents(id: string): Promise<any[]> {
  return (await allPages(`/v1/events?resource=${id}&limit=200`)).items;
}

/** Asserts the zone is still there, with no delete event. */
async function zoneStays(name: string, id: string) {
  expect((await api("GET", `/v1/zones/${name}`)).status).toBe(200);
  expect((await zoneEvents(id)).map((e) => e.operation)).not.toContain("delete");
}

describe("deleting a zone whose domain publishes a DS of its keys answers 409 status_prohibits, as turning DNSSEC off does", () => {
  it("the delete is refused, naming the domain and the key, and the zone, its keys and the DS stay", async () => {
    const { zone, keyTag } = await signedZoneWithDs("zd-refused.com");
    const problem = expectProblem(await api("DELETE", "/v1/zones/zd-refused.com"), 409, "status_prohibits");
    expect(problem.detail).toContain("Domain zd-refused.com publishes a DS of this zone's key");
    expect(problem.detail).toContain(`key tag ${keyTag}`);
    await zoneStays("zd-refused.com", zone.id);
    expect((await api("GET", "/v1/zones/zd-refused.com/dnssec")).body.enabled).toBe(true);
    expect((await api("GET", "/v1/domains/zd-refused.com")).body.ds).toHaveLength(1);
    // Turning DNSSEC off answers the same refusal for the same reason.
    expectProblem(await api("DELETE", "/v1/zones/zd-refused.com/dnssec"), 409, "status_prohibits");
  });

  it("the zone's id names it as well as its name does", async () => {
    const { zone } = await signedZoneWithDs("zd-by-id.com");
    expectProblem(await api("DELETE", `/v1/zones/${zone.id}`), 409, "status_prohibits");
    await zoneStays("zd-by-id.com", zone.id);
  });

  it("once the domain's DS is removed, the zone is deleted (204), signed or not", async () => {
    await signedZoneWithDs("zd-after.com");
    const cleared = await api("PATCH", "/v1/domains/zd-after.com", { json: { ds: [] } });
    expect(cleared.status, cleared.text).toBe(200);
    expect((await api("DELETE", "/v1/zones/zd-after.com")).status).toBe(204);
    expect((await api("GET", "/v1/zones/zd-after.com")).status).toBe(404);
  });

  it("a DS of another key on the domain does not hold the zone", async () => {
    const ds = [{ key_tag: 12345, algorithm: 13, digest_type: 2, digest: "E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D" }];
    await createDomain("zd-other-ds.com", { nameservers: NS, ds });
    await createZone("zd-other-ds.com", { nameservers: NS });
    expect((await api("DELETE", "/v1/zones/zd-other-ds.com")).status).toBe(204);
    expect((await api("GET", "/v1/domains/zd-other-ds.com")).body.ds).toEqual(ds);
  });
});

describe("?force=true deletes it anyway, for operators only", () => {
  it("the operator's force deletes the zone (204, with its delete event) and leaves the DS to the domain", async () => {
    const { zone } = await signedZoneWithDs("zd-force.com");
    expect((await api("DELETE", "/v1/zones/zd-force.com?force=true")).status).toBe(204);
    expect((await api("GET", "/v1/zones/zd-force.com")).status).toBe(404);
    expect((await zoneEvents(zone.id)).at(-1).operation).toBe("delete");
    expect((await api("GET", "/v1/domains/zd-force.com")).body.ds).toHaveLength(1);
  });

  it("a customer's force=true answers 403 forbidden naming that only the operator may force, and the zone stays; without force, 409", async () => {
    const customer = await customerAccount("zd-customer");
    const headers = { authorization: customer.auth };
    const { zone } = await signedZoneWithDs("zd-customer.com", headers);
    const forced = expectProblem(await api("DELETE", "/v1/zones/zd-customer.com?force=true", { headers }), 403, "forbidden");
    expect(forced.detail).toContain("Only the registry's operator may force the deletion of a zone");
    expectProblem(await api("DELETE", "/v1/zones/zd-customer.com", { headers }), 409, "status_prohibits");
    await zoneStays("zd-customer.com", zone.id);
  });

  it("a customer's force=false is the default: a zone without a DS of its keys is deleted", async () => {
    const customer = await customerAccount("zd-customer-false");
    const headers = { authorization: customer.auth };
    const created = await api("POST", "/v1/zones", { headers, json: { name: "zd-customer-false.test", nameservers: NS } });
    expect(created.status, created.text).toBe(201);
    expect((await api("DELETE", "/v1/zones/zd-customer-false.test?force=false", { headers })).status).toBe(204);
  });

  it("force takes only true or false (400 naming it)", async () => {
    await createZone("zd-force-value.test", { nameservers: NS });
    const problem = expectProblem(await api("DELETE", "/v1/zones/zd-force-value.test?force=yes"), 400, "invalid_query");
    expect(problem.errors.map((e: { field: string }) => e.field)).toEqual(["force"]);
    expect((await api("GET", "/v1/zones/zd-force-value.test")).status).toBe(200);
  });
});

describe("a DS published between the delete's read and its batch refuses the delete (the guard)", () => {
  it("the domain gains the key's DS just before the delete's batch: 409 status_prohibits, and the zone stays", async () => {
    const { zone, ds } = await signedZoneWithDs("zd-race.com");
    expect((await api("PATCH", "/v1/domains/zd-race.com", { json: { ds: [] } })).status).toBe(200);
    const republish = onceBeforeWriting("zones", async () => {
      const patched = await api("PATCH", "/v1/domains/zd-race.com", { json: { ds } });
      expect(patched.status, patched.text).toBe(200);
    });
    const problem = expectProblem(await apiWithHooks("DELETE", "/v1/zones/zd-race.com", republish), 409, "status_prohibits");
    expect(problem.detail).toContain("Domain zd-race.com publishes a DS of this zone's key");
    await zoneStays("zd-race.com", zone.id);
  });
});
