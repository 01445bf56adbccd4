// The shape of the cost (issue: performance): a list page costs the same number of D1
// round trips whether it returns 1 row or 200 — no query per row (N+1). Round trips are
// counted by wrapping the D1 binding the Worker receives (test/d1-cost.ts): every
// statement executed on its own and every batch is one trip to the database.
import { beforeAll, describe, expect, it } from "vitest";
import { costOf, roundTrips, tokenVerifiedAfresh } from "./d1-cost";

async function request(method: string, path: string, json?: unknown) {
  const headers: Record<string, string> = json === undefined ? {} : { "content-type": "application/json" };
  const response = await costOf(method, path, { body: json === undefined ? undefined : JSON.stringify(json), headers });
  return { status: response.status, body: response.body, trips: roundTrips(response.cost), afresh: tokenVerifiedAfresh(response.cost) };
}

async function tripsOf(path: string): Promise<{ trips: number; rows: number }> {
  await request("GET", path); // warm: token check and catalog are cached per isolate
  let response = await request("GET", path);
  // Measured again (at most twice) when the token cache ran out meanwhile on a loaded machine.
  for (let again = 0; again < 2 && response.afresh; again++) response = await request("GET", path);
  expect(response.status).toBe(200);
  return { trips: response.trips, rows: response.body.data.length };
}

beforeAll(async () => {
  const contacts: string[] = [];
  for (let i = 0; i < 5; i++) {
    const contact = await request("POST", "/v1/contacts", {
      name: `Trips ${i}`,
      email: `trips${i}@example.org`,
      address: { city: "Paris", country_code: "FR" },
    });
    expect(contact.status).toBe(201);
    contacts.push(contact.body.id);
  }
  for (let i = 0; i < 200; i++) {
    const domain = await request("POST", "/v1/domains", {
      name: `trips-${i}.com`,
      registrant: contacts[i % 5],
      nameservers: [`ns1.trips-dns-${i % 7}.net`, "ns2.trips-dns.net"],
    });
    expect(domain.status).toBe(201);
  }
  await request("POST", "/v1/zones", { name: "trips.example" });
  for (let i = 0; i < 200; i++)
    expect((await request("POST", "/v1/records", { zone: "trips.example", name: `h${i}`, type: "A", content: "192.0.2.1" })).status).toBe(201);
}, 300_000); // a hang detector: the setup writes hundreds of rows, slow on a loaded machine

describe("a list page costs the same number of D1 round trips for 1 row as for 200", () => {
  it.each([
    ["domains", "/v1/domains"],
    ["domains sorted by name", "/v1/domains?sort=name"],
    ["domains of a repository", "/v1/repositories/verisign/domains"],
    ["hosts", "/v1/hosts"],
    ["contacts", "/v1/contacts"],
    ["contacts a repository holds", "/v1/repositories/verisign/contacts"],
    ["hosts a repository holds", "/v1/repositories/verisign/hosts"],
    ["records of a zone", "/v1/zones/trips.example/records"],
    ["records", "/v1/records"],
    ["events", "/v1/events"],
  ])("%s", async (_name, path) => {
    const join = path.includes("?") ? "&" : "?";
    const one = await tripsOf(`${path}${join}limit=1`);
    const many = await tripsOf(`${path}${join}limit=200`);
    expect(one.rows).toBe(1);
    expect(many.rows).toBeGreaterThan(1);
    expect(many.trips).toBe(one.trips);
    expect(one.trips).toBeGreaterThanOrEqual(1);
    expect(one.trips).toBeLessThanOrEqual(2);
  });
});
