import { describe, expect, it } from "vitest";
import { api, createContact, expectProblem } from "./helpers";

const N = 30;

async function concurrently(make: () => Promise<{ status: number; body: any }>) {
  return Promise.all(Array.from({ length: N }, make));
}

function tally(responses: { status: number }[]) {
  const counts: Record<number, number> = {};
  for (const r of responses) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}

describe("races on unique names give exactly one 201 and 409s", () => {
  it(`${N} concurrent registrations of one domain`, async () => {
    const contact = await createContact();
    const responses = await concurrently(() =>
      api("POST", "/v1/domains", { json: { name: "race.com", registrant: contact.id, nameservers: ["ns1.race-dns.net"] } }),
    );
    expect(tally(responses)).toEqual({ 201: 1, 409: N - 1 });
    for (const r of responses.filter((r) => r.status === 409)) expectProblem(r as any, 409, "already_exists");
    expect((await api("GET", "/v1/domains?name=race.com")).body.data).toHaveLength(1);
    expect((await api("GET", "/v1/hosts?name=ns1.race-dns.net")).body.data).toHaveLength(1);
  });

  it(`${N} concurrent creations of one host`, async () => {
    const responses = await concurrently(() => api("POST", "/v1/hosts", { json: { name: "ns.race.example" } }));
    expect(tally(responses)).toEqual({ 201: 1, 409: N - 1 });
    expect((await api("GET", "/v1/hosts?name=ns.race.example")).body.data).toHaveLength(1);
  });

  it(`${N} concurrent creations of one zone`, async () => {
    const responses = await concurrently(() => api("POST", "/v1/zones", { json: { name: "race.example" } }));
    expect(tally(responses)).toEqual({ 201: 1, 409: N - 1 });
    expect((await api("GET", "/v1/zones?name=race.example")).body.data).toHaveLength(1);
  });

  it(`${N} concurrent creations of one identical record`, async () => {
    await api("POST", "/v1/zones", { json: { name: "records-race.example" } });
    const before = (await api("GET", "/v1/zones/records-race.example")).body.soa.serial;
    const responses = await concurrently(() =>
      api("POST", "/v1/records", { json: { zone: "records-race.example", name: "www", type: "A", content: "192.0.2.1" } }),
    );
    expect(tally(responses)).toEqual({ 201: 1, 409: N - 1 });
    expect((await api("GET", "/v1/zones/records-race.example/records?name=www")).body.data).toHaveLength(1);
    const zone = (await api("GET", "/v1/zones/records-race.example")).body;
    expect(zone.record_count).toBe(3);
    expect(zone.soa.serial).toBe(before + 1);
  });
});

describe("If-Match is enforced atomically", () => {
  it(`of ${N} concurrent PATCHes with the same ETag exactly one succeeds and the rest get 412`, async () => {
    const contact = await createContact();
    const etag = (await api("GET", `/v1/contacts/${contact.id}`)).headers.get("etag")!;
    const responses = await Promise.all(
      Array.from({ length: N }, (_, i) => api("PATCH", `/v1/contacts/${contact.id}`, { json: { organization: `Org ${i}` }, headers: { "if-match": etag } })),
    );
    expect(tally(responses)).toEqual({ 200: 1, 412: N - 1 });
    const winner = responses.find((r) => r.status === 200)!;
    const now = await api("GET", `/v1/contacts/${contact.id}`);
    expect(now.body.organization).toBe(winner.body.organization);
  });

  it(`${N} concurrent PATCHes without If-Match all apply, none lost`, async () => {
    await api("POST", "/v1/zones", { json: { name: "patch-race.example" } });
    const before = (await api("GET", "/v1/zones/patch-race.example")).body.soa.serial;
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => api("PATCH", "/v1/zones/patch-race.example", { json: { default_ttl: 100 + i } })));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    const after = (await api("GET", "/v1/zones/patch-race.example")).body.soa.serial;
    expect(after - before).toBe(10);
  });
});
