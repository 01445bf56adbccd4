// The most frequent writes are the cheapest (docs/dns.md#records): a record create, update
// or delete is one read batch (the zone or the record, the records at the owner, what the
// zone integrity check looks at) and one write batch (the write, its events, the guards,
// the idempotency record), whatever the integrity check needs — the apex name servers'
// targets inside the zone, a wildcard, the whole zone for an alias. Measured through the
// Worker by wrapping its D1 binding (test/d1-cost.ts): every batch and every statement run
// on its own is one round trip.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { database } from "../src/db/client";
import { prefetchedSource } from "../src/resources/records/integrity-reads";
import { type CostedResponse, costOf, expectWithinD1Limits, roundTrips } from "./d1-cost";
import { api, createRecord, createZone, expectProblem } from "./helpers";
import { apiWithHooks, writesTo } from "./interleave";

const json = { "content-type": "application/json" };

function post(fields: Record<string, unknown>) {
  return costOf("POST", "/v1/records", { body: JSON.stringify(fields), headers: json });
}

function patch(id: string, fields: Record<string, unknown>) {
  return costOf("PATCH", `/v1/records/${id}`, { body: JSON.stringify(fields), headers: json });
}

function remove(id: string) {
  return costOf("DELETE", `/v1/records/${id}`);
}

/** The answer is `status`, reached in at most 2 round trips: one read batch, one write batch (none when refused). */
function expectAtMostTwoTrips(response: CostedResponse, status: number, label: string) {
  expect(response.status, `${label}: ${response.text.slice(0, 300)}`).toBe(status);
  expect(response.cost.singles, `${label}: statements run on their own`).toEqual([]);
  expect(roundTrips(response.cost), label).toBeLessThanOrEqual(2);
  if (status < 300) expect(response.cost.batches.length, `${label}: a read batch and a write batch`).toBe(2);
  // The one read statement stays within D1's limits (bound parameters, statement size) whatever it works out.
  expectWithinD1Limits(response.cost);
}

describe("a record create, update and delete each cost at most 2 D1 round trips", () => {
  it("a create: by zone name or id, relative or absolute, an MX into the zone, an alias (the zone read whole), a refusal", async () => {
    const zone = await createZone("trips-create.test");
    expectAtMostTwoTrips(await post({ zone: "trips-create.test", name: "www", type: "A", content: "192.0.2.1" }), 201, "by name");
    expectAtMostTwoTrips(await post({ zone: zone.id, name: "abs.trips-create.test.", type: "A", content: "192.0.2.2" }), 201, "by id, absolute");
    expectAtMostTwoTrips(await post({ zone: zone.id, name: "www", type: "A", content: "192.0.2.3" }), 201, "by id, relative, into an RRset");
    expectAtMostTwoTrips(await post({ zone: zone.id, type: "MX", content: "10 www.trips-create.test" }), 201, "an MX to a name of the zone");
    expectAtMostTwoTrips(await post({ zone: zone.id, name: "alias", type: "CNAME", content: "www.trips-create.test" }), 201, "a CNAME");
    const refused = await post({ zone: zone.id, name: "mail", type: "MX", content: "10 alias.trips-create.test" });
    expectAtMostTwoTrips(refused, 422, "an MX to an alias");
    expect(refused.body.errors[0]).toMatchObject({ field: "content" });
    expectAtMostTwoTrips(await post({ zone: "trips-create.test", name: "www", type: "A", content: "192.0.2.1" }), 409, "a duplicate");
    expectAtMostTwoTrips(await post({ zone: "trips-none.test", name: "www", type: "A", content: "192.0.2.1" }), 422, "no such zone");
  });

  it("a create in a zone whose name servers lie inside it, or under a wildcard: their targets are read in the same batch", async () => {
    await createZone("trips-inzone.test");
    await createRecord("trips-inzone.test", { name: "ns1", type: "A", content: "192.0.2.53" });
    await createRecord("trips-inzone.test", { name: "@", type: "NS", content: "ns1.trips-inzone.test" });
    expectAtMostTwoTrips(await post({ zone: "trips-inzone.test", name: "www", type: "A", content: "192.0.2.1" }), 201, "beside in-zone name servers");
    expectAtMostTwoTrips(await post({ zone: "trips-inzone.test", name: "@", type: "NS", content: "ns2.trips-inzone.test" }), 422, "an NS with no address");
    await createRecord("trips-inzone.test", { name: "*", type: "A", content: "192.0.2.9" });
    expectAtMostTwoTrips(
      await post({ zone: "trips-inzone.test", name: "_sip._tcp", type: "SRV", content: "0 0 5060 host.trips-inzone.test" }),
      201,
      "an SRV to a name a wildcard answers",
    );
  });

  it("a create at a deep name reads rows linear in its depth", async () => {
    await createZone("trips-deep.test");
    const rows = async (labels: number) => {
      const name = Array.from({ length: labels }, (_, i) => `l${i}`).join(".");
      const response = await post({ zone: "trips-deep.test", name, type: "A", content: "192.0.2.1" });
      expectAtMostTwoTrips(response, 201, `${labels} labels`);
      return response.cost.rowsRead;
    };
    const shallow = await rows(4);
    const deep = await rows(40);
    // Ten times the labels: about ten times the names (a name and a wildcard per label), never their square.
    expect(deep).toBeLessThan(shallow * 12);
  });

  it("an update: content, the RRset's TTL (one event for the RRset), a move to another name, a type into an alias", async () => {
    const zone = await createZone("trips-update.test");
    const record = await createRecord(zone.id, { name: "www", type: "A", content: "192.0.2.1" });
    await createRecord(zone.id, { name: "www", type: "A", content: "192.0.2.2" });
    await createRecord(zone.id, { name: "www", type: "A", content: "192.0.2.3" });
    expectAtMostTwoTrips(await patch(record.id, { content: "192.0.2.4" }), 200, "content");
    expectAtMostTwoTrips(await patch(record.id, { ttl: 120 }), 200, "ttl");
    const rrset = (await api("GET", `/v1/zones/${zone.id}/records?name=www&type=A`)).body.data;
    expect(rrset.map((r: { ttl: number }) => r.ttl)).toEqual([120, 120, 120]);
    const events = (await api("GET", `/v1/events?resource=${zone.id}`)).body.data.filter((e: { type: string }) => e.type === "rrset");
    expect(events.map((e: { after: { ttl: number; records: number } }) => [e.after.ttl, e.after.records])).toEqual([[120, 2]]);
    expectAtMostTwoTrips(await patch(record.id, { name: "moved" }), 200, "a move to another name");
    const mx = await createRecord(zone.id, { name: "@", type: "MX", content: "10 moved.trips-update.test" });
    expectAtMostTwoTrips(await patch(mx.id, { name: "sub" }), 200, "an MX moved, its target kept");
    expectAtMostTwoTrips(await patch(record.id, { type: "CNAME", content: "www.trips-update.test" }), 409, "into an alias an MX points at");
    const unchanged = await patch(record.id, {});
    expect(unchanged.status).toBe(200);
    expect(roundTrips(unchanged.cost), "nothing to change: the read batch alone").toBe(1);
  });

  it("a delete: a record, the last address of an in-zone name server (refused), a delegation and a name a wildcard alias then answers (the zone read whole)", async () => {
    const zone = await createZone("trips-delete.test");
    const plain = await createRecord(zone.id, { name: "www", type: "A", content: "192.0.2.1" });
    expectAtMostTwoTrips(await remove(plain.id), 204, "a record");
    const glue = await createRecord(zone.id, { name: "ns1", type: "A", content: "192.0.2.53" });
    await createRecord(zone.id, { name: "@", type: "NS", content: "ns1.trips-delete.test" });
    expectAtMostTwoTrips(await remove(glue.id), 409, "an in-zone name server's address");
    const delegation = await createRecord(zone.id, { name: "child", type: "NS", content: "ns.example.net" });
    expectAtMostTwoTrips(await remove(delegation.id), 204, "a delegation");
    await createRecord(zone.id, { name: "*", type: "CNAME", content: "www.example.net" });
    const lone = await createRecord(zone.id, { name: "lone", type: "TXT", content: '"x"' });
    expectAtMostTwoTrips(await remove(lone.id), 204, "a name left empty under a wildcard alias");
  });
});

describe("a record write that lost a race reads again and decides again: a new read batch and write batch", () => {
  it("an NS whose glue another request deletes between the read and the write fails its guard, reads again and answers 422", async () => {
    const zone = await createZone("trips-race.test");
    const glue = await createRecord(zone.id, { name: "ns1", type: "A", content: "192.0.2.53" });
    const batches: string[] = [];
    let raced = false;
    const response = await apiWithHooks(
      "POST",
      "/v1/records",
      {
        beforeBatch: async (sql) => {
          const writes = writesTo(sql, "records");
          batches.push(writes ? "write" : "read");
          if (writes && !raced) {
            raced = true;
            expect((await api("DELETE", `/v1/records/${glue.id}`)).status).toBe(204);
          }
        },
      },
      { json: { zone: zone.id, name: "@", type: "NS", content: "ns1.trips-race.test" } },
    );
    expectProblem(response, 422, "validation_failed");
    // The first pair lost to the delete (its guard failed, nothing was written); the second read decided.
    expect(batches).toEqual(["read", "write", "read"]);
  });
});

describe("the integrity check takes its rows from the read batch, and reads on its own only what the batch did not cover", () => {
  it("a covered name is answered from the batch; a name it did not cover, a start's descendants and the whole zone from the database", async () => {
    const zone = await createZone("trips-source.test");
    const www = await createRecord(zone.id, { name: "www", type: "A", content: "192.0.2.1" });
    await createRecord(zone.id, { name: "a.deep", type: "A", content: "192.0.2.2" });
    // As if the batch had read `www` when it held nothing, and `deep` with nothing below it.
    const batch = [
      [
        { kind: "name", id: null, version: null, name: "www", type: null, content: null, ttl: null, below: null },
        { kind: "name", id: null, version: null, name: "deep", type: null, content: null, ttl: null, below: 0 },
      ],
    ];
    const source = prefetchedSource(database(env.DB), zone.id, batch);
    expect(await source.recordsAt(["www"])).toEqual([]);
    expect(await source.hasDescendants("deep")).toBe(false);
    // Not covered: read now, as they are.
    expect((await source.recordsAt(["www", "a.deep"])).map((r) => r.content)).toEqual(["192.0.2.2"]);
    expect(await source.hasDescendants("a")).toBe(false);
    expect(await source.hasDescendants("@")).toBe(true);
    expect((await source.wholeZone()).map((r) => r.id)).toContain(www.id);
  });
});
