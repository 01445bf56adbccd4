// A customer's event filters are served by index ranges that end with the page: the rows
// read follow what is answered, not the account's history nor other accounts' (migration
// 0023), and `since` works through the visibility layer (it used to answer 500 there).
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "./helpers";
import { costOf } from "./d1-cost";
import { bearer } from "./tokens";

let alice = "";
let bob = "";
let aliceDeleted = "";

async function customer(name: string): Promise<string> {
  const account = await api("POST", "/v1/accounts", { json: { name } });
  expect(account.status, account.text).toBe(201);
  const token = await api("POST", "/v1/tokens", {
    headers: { authorization: bearer("write") },
    json: { name: `${name.replace(" ", "-")}-w`, scope: "write", account: account.body.id },
  });
  expect(token.status, token.text).toBe(201);
  return `Bearer ${token.body.secret}`;
}

async function contacts(authorization: string, count: number, remove: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await api("POST", "/v1/contacts", { headers: { authorization }, json: { name: `C${i}`, email: `c${i}@example.org` } });
    expect(created.status, created.text).toBe(201);
    ids.push(created.body.id);
  }
  for (const id of ids.slice(0, remove)) expect((await api("DELETE", `/v1/contacts/${id}`, { headers: { authorization } })).status).toBe(204);
  return ids.slice(0, remove);
}

beforeAll(async () => {
  alice = await customer("Alice Events");
  bob = await customer("Bob Events");
  // Alice: a long history with one delete; Bob: many deletes.
  aliceDeleted = (await contacts(alice, 120, 1))[0]!;
  await contacts(bob, 80, 80);
  const host = await api("POST", "/v1/hosts", { headers: { authorization: alice }, json: { name: "ns1.alice-events.example" } });
  expect(host.status, host.text).toBe(201);
}, 300_000); // a hang detector, as the suite's hookTimeout

describe("a customer's filtered events read what they answer", () => {
  it("?operation=delete answers Alice's one delete, reading a handful of rows", async () => {
    const response = await costOf("GET", "/v1/events?operation=delete", { headers: { authorization: alice } });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.map((e: { resource: { id: string } | string; operation: string }) => e.operation)).toEqual(["delete"]);
    expect(JSON.stringify(response.body.data)).toContain(aliceDeleted);
    expect(response.cost.rowsRead).toBeLessThanOrEqual(10);
  });

  it("?type=host answers Alice's one host event without reading her 121 contact events", async () => {
    const response = await costOf("GET", "/v1/events?type=host", { headers: { authorization: alice } });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.map((e: { operation: string }) => e.operation)).toEqual(["create"]);
    expect(response.cost.rowsRead).toBeLessThanOrEqual(10);
  });

  it("?since=… answers 200 with the customer's own events from that time on", async () => {
    const all = await api("GET", "/v1/events?limit=200", { headers: { authorization: alice } });
    const middle = all.body.data[60].at as string;
    const since = await api("GET", `/v1/events?since=${encodeURIComponent(middle)}&limit=200`, { headers: { authorization: alice } });
    expect(since.status, since.text).toBe(200);
    expect(since.body.data.length).toBeGreaterThan(0);
    expect(since.body.data.every((e: { at: string }) => e.at >= middle)).toBe(true);
    const bobs = await api("GET", "/v1/events?limit=200", { headers: { authorization: bob } });
    const bobIds = new Set(bobs.body.data.map((e: { id: string }) => e.id));
    expect(since.body.data.filter((e: { id: string }) => bobIds.has(e.id))).toEqual([]);
  });
});
