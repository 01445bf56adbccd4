// Issue 18 item 3: an unchanged zone's master file comes from the Workers Cache API, keyed
// by the zone's id and version as the request's D1 read found them. A change makes the old
// entry unreachable; the read that decides visibility still happens, so another account
// never gets the cached body; DNSSEC on or off is a change of the export like any other.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { costOf, roundTrips } from "./d1-cost";
import { api } from "./helpers";

const zone = "export-cache.test";
const asDns = { accept: "text/dns" };

async function exportOf(headers: Record<string, string> = {}) {
  // The token's check just before: it is cached per isolate for 10 s, which a loaded
  // machine can run past between two exports, and its re-check is not the export's cost.
  await api("GET", "/v1/extensions/com", { headers });
  const response = await costOf("GET", `/v1/zones/${zone}`, { headers: { ...asDns, ...headers } });
  return { ...response, trips: roundTrips(response.cost) };
}

beforeAll(async () => {
  expect((await api("POST", "/v1/zones", { json: { name: zone } })).status).toBe(201);
  for (let i = 0; i < 20; i++)
    expect((await api("POST", "/v1/records", { json: { zone, name: `h${i}`, type: "A", content: `192.0.2.${i + 1}` } })).status).toBe(201);
});

describe("an unchanged zone's export comes from the cache", () => {
  it("the second export of a version reads only what the zone's JSON read does: 1 round trip, no record, the same body", async () => {
    const first = await exportOf();
    expect(first.status).toBe(200);
    expect(first.text).toContain("h19");
    expect(first.trips).toBe(2);
    const second = await exportOf();
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(second.trips).toBe(1);
    const json = await costOf("GET", `/v1/zones/${zone}`);
    expect(second.cost.rowsRead).toBe(json.cost.rowsRead);
    expect(second.cost.rowsRead).toBeLessThan(20);
  });

  it("a record written after an export is in the next export (the old entry is not served)", async () => {
    const before = await exportOf();
    expect(before.text).not.toContain("fresh");
    expect((await api("POST", "/v1/records", { json: { zone, name: "fresh", type: "A", content: "192.0.2.200" } })).status).toBe(201);
    const after = await exportOf();
    expect(after.text).toContain("fresh");
    expect(after.text).not.toBe(before.text);
    expect(after.trips).toBe(2);
  });

  it("turning DNSSEC on or off changes the export: neither answer is the cached one of before", async () => {
    const unsigned = await exportOf();
    expect((await api("POST", `/v1/zones/${zone}/dnssec`)).status).toBe(201);
    const signed = await exportOf();
    expect(signed.text).not.toBe(unsigned.text);
    expect((await api("DELETE", `/v1/zones/${zone}/dnssec?force=true`)).status).toBe(204);
    const unsignedAgain = await exportOf();
    expect(unsignedAgain.text).not.toBe(signed.text);
    expect(unsignedAgain.trips).toBe(2);
  });

  it("the cache key holds the active keys too: a key change that did not raise the zone's version is not served stale", async () => {
    const name = "export-cache-keys.test";
    const created = await api("POST", "/v1/zones", { json: { name } });
    expect(created.status).toBe(201);
    expect((await api("POST", `/v1/zones/${name}/dnssec`)).status).toBe(201);
    const signed = await costOf("GET", `/v1/zones/${name}`, { headers: asDns });
    expect(signed.text).toMatch(/\sDNSKEY\s/);
    expect(roundTrips((await costOf("GET", `/v1/zones/${name}`, { headers: asDns })).cost)).toBe(1);
    // A writer that forgot the zone's version (none does today): the key goes, the version stays.
    await env.DB.prepare("UPDATE zone_keys SET active = 0 WHERE zone_id = ?").bind(created.body.id).run();
    const after = await costOf("GET", `/v1/zones/${name}`, { headers: asDns });
    expect(after.text).not.toMatch(/\sDNSKEY\s/);
    expect(roundTrips(after.cost)).toBe(2);
  });

  it("another account's token gets 404 for a zone whose export is cached", async () => {
    expect((await exportOf()).status).toBe(200);
    expect((await exportOf()).trips).toBe(1);
    const account = await api("POST", "/v1/accounts", { json: { name: "Export Cache Stranger" } });
    expect(account.status, account.text).toBe(201);
    const token = await api("POST", "/v1/tokens", { json: { name: "export-cache-stranger", scope: "write", account: account.body.id } });
    expect(token.status, token.text).toBe(201);
    const stranger = await exportOf({ authorization: `Bearer ${token.body.secret}` });
    expect(stranger.status).toBe(404);
    expect(stranger.text).not.toContain("h19");
  });
});
