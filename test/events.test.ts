// The audit trail: every successful write records one event per resource it changed, in
// the same batch as the write, with the resource's representation before and after (never
// a domain's auth_info); GET /v1/events lists them in commit order, keyset-paginated and
// filtered, and a reader resuming from its last page's cursor sees every event once.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { database } from "../src/db/client";
import { eventInsert } from "../src/db/events";
import { encodeCursor } from "../src/http/pagination";
import { allPages, api, createContact, createDomain, createHost, expectProblem, RFC3339_MS_UTC, type ApiResponse } from "./helpers";
import { bearer, TEST_TOKENS } from "./tokens";

const EVENT_ID = /^evt_[0-9A-HJKMNP-TV-Z]{26}$/;
/** The id of the token test/helpers.ts authenticates with: events name tokens by id, never by name. */
const WRITER = TEST_TOKENS.write.id;

async function allEvents(query = ""): Promise<any[]> {
  return (await allPages(`/v1/events?limit=200${query}`)).items;
}

/** Runs `write` and returns it with the events it recorded. */
async function eventsOf<T>(write: () => Promise<T>): Promise<{ result: T; events: any[] }> {
  const known = new Set((await allEvents()).map((e) => e.id));
  const result = await write();
  return { result, events: (await allEvents()).filter((e) => !known.has(e.id)) };
}

function ok(response: ApiResponse, status: number) {
  expect(response.status, response.text).toBe(status);
  return response.body;
}

async function read(path: string) {
  return ok(await api("GET", path), 200);
}

async function createZone(name: string, fields: Record<string, unknown> = {}) {
  return ok(await api("POST", "/v1/zones", { json: { name, nameservers: ["ns1.example.net", "ns2.example.net"], ...fields } }), 201);
}

async function createRecord(zone: string, fields: Record<string, unknown>) {
  return ok(await api("POST", "/v1/records", { json: { zone, ...fields } }), 201);
}

/** The one event of `events`, checked for its envelope. */
function onlyEvent(events: any[], type: string, resource: string, operation: string) {
  expect(events, JSON.stringify(events, null, 1)).toHaveLength(1);
  const [event] = events;
  expect(event).toMatchObject({ id: expect.stringMatching(EVENT_ID), at: expect.stringMatching(RFC3339_MS_UTC), token: WRITER, type, resource, operation });
  return event;
}

/** The object without the given fields. */
function WITHOUT(value: Record<string, unknown>, ...fields: string[]) {
  return Object.fromEntries(Object.entries(value).filter(([k]) => !fields.includes(k)));
}

/** Stores a second write token (hashed, as production does); returns its Authorization header. */
async function mintWriteToken(id: string, name: string, secret: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret)));
  const hash = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  await env.DB.prepare("INSERT INTO api_tokens (id, name, scope, secret_hash, created_at) VALUES (?, ?, 'write', ?, '2026-01-01T00:00:00.000Z')")
    .bind(id, name, hash)
    .run();
  return `Bearer ${id}.${secret}`;
}

/** A domain as its events record it: everything but its `auth_info`. */
function recorded(domain: Record<string, unknown>) {
  return WITHOUT(domain, "auth_info");
}

async function lastEventOf(resource: string) {
  const events = await allEvents(`&resource=${resource}`);
  return events[events.length - 1];
}

describe("every successful write records exactly one event, with the resource before and after", () => {
  it("contacts: create, update and delete", async () => {
    const created = await eventsOf(() => createContact({ name: "Audit Create" }));
    const contact = created.result;
    const create = onlyEvent(created.events, "contact", contact.id, "create");
    expect(create.before).toBeNull();
    expect(create.after).toEqual(contact);
    expect(create.at).toBe(contact.created_at);

    const updated = await eventsOf(async () => ok(await api("PATCH", `/v1/contacts/${contact.id}`, { json: { organization: "Audit Ltd" } }), 200));
    const update = onlyEvent(updated.events, "contact", contact.id, "update");
    expect(update.before).toEqual(contact);
    expect(update.after).toEqual(updated.result);
    expect(update.at).toBe(updated.result.updated_at);

    const deleted = await eventsOf(async () => ok(await api("DELETE", `/v1/contacts/${contact.id}`), 204));
    const remove = onlyEvent(deleted.events, "contact", contact.id, "delete");
    expect(remove.before).toEqual(updated.result);
    expect(remove.after).toBeNull();
  });

  it("domains: create, update and delete", async () => {
    const contact = await createContact();
    const created = await eventsOf(() => createDomain("audit-domain.com", { registrant: contact.id }));
    const domain = created.result;
    const create = onlyEvent(created.events, "domain", domain.id, "create");
    expect(create).toMatchObject({ before: null, after: recorded(domain) });
    expect(create.after).not.toHaveProperty("auth_info");

    const updated = await eventsOf(async () =>
      ok(await api("PATCH", `/v1/domains/${domain.id}`, { json: { auto_renew: false, status: ["clientHold"] } }), 200),
    );
    const update = onlyEvent(updated.events, "domain", domain.id, "update");
    expect(update).toEqual({ ...update, before: recorded(domain), after: recorded(updated.result) });

    const deleted = await eventsOf(async () => ok(await api("DELETE", `/v1/domains/${domain.id}`), 204));
    const remove = onlyEvent(deleted.events, "domain", domain.id, "delete");
    expect(remove).toEqual({ ...remove, before: recorded(updated.result), after: null });
  });

  it("hosts: create, update and delete", async () => {
    const created = await eventsOf(() => createHost("ns1.audit-host.net"));
    const host = created.result;
    expect(onlyEvent(created.events, "host", host.id, "create")).toMatchObject({ before: null, after: host });

    const updated = await eventsOf(async () => ok(await api("PATCH", `/v1/hosts/${host.id}`, { json: { name: "ns2.audit-host.net" } }), 200));
    expect(onlyEvent(updated.events, "host", host.id, "update")).toMatchObject({ before: host, after: updated.result });

    const deleted = await eventsOf(async () => ok(await api("DELETE", `/v1/hosts/${host.id}`), 204));
    expect(onlyEvent(deleted.events, "host", host.id, "delete")).toMatchObject({ before: updated.result, after: null });
  });

  it("zones: create (with its apex NS records), update and delete", async () => {
    const created = await eventsOf(() => createZone("audit-zone.example"));
    const zone = created.result;
    // The apex NS records come with the zone: one zone event stands for them.
    const create = onlyEvent(created.events, "zone", zone.id, "create");
    expect(create).toMatchObject({ before: null, after: zone });
    expect(create.after.record_count).toBe(2);

    const updated = await eventsOf(async () => ok(await api("PATCH", `/v1/zones/${zone.id}`, { json: { default_ttl: 600, soa: { refresh: 3600 } } }), 200));
    const update = onlyEvent(updated.events, "zone", zone.id, "update");
    expect(update).toMatchObject({ before: zone, after: updated.result });
    expect(update.after.soa.serial).toBeGreaterThan(zone.soa.serial);

    const deleted = await eventsOf(async () => ok(await api("DELETE", `/v1/zones/${zone.id}`), 204));
    const remove = onlyEvent(deleted.events, "zone", zone.id, "delete");
    expect(remove.after).toBeNull();
    expect(remove.before).toMatchObject(updated.result);
    expect(remove.before.master_file).toEqual(expect.stringContaining("$ORIGIN audit-zone.example."));
  });

  it("zones: an import (text/dns) records one zone create event, none per record", async () => {
    const file =
      "$ORIGIN audit-import.example.\n$TTL 300\n@ IN SOA ns1.example.net. hostmaster.audit-import.example. 2026010101 7200 900 1209600 300\n@ IN NS ns1.example.net.\nwww IN A 192.0.2.1\nmail IN A 192.0.2.2\n";
    const imported = await eventsOf(async () => ok(await api("POST", "/v1/zones", { body: file, headers: { "content-type": "text/dns" } }), 201));
    const create = onlyEvent(imported.events, "zone", imported.result.id, "create");
    // The 201 adds the import's warnings beside the zone; the event holds the zone alone.
    expect(imported.result.warnings).toEqual([]);
    expect(create).toMatchObject({ before: null, after: WITHOUT(imported.result, "warnings") });
    expect(create.after.record_count).toBe(3);
  });

  it("records: create, update and delete (the zone's serial rises with them, without events of its own)", async () => {
    const zone = await createZone("audit-records.example");
    const created = await eventsOf(() => createRecord(zone.id, { name: "www", type: "A", content: "192.0.2.10", comment: "web" }));
    const record = created.result;
    expect(onlyEvent(created.events, "record", record.id, "create")).toMatchObject({ before: null, after: record });

    const updated = await eventsOf(async () => ok(await api("PATCH", `/v1/records/${record.id}`, { json: { content: "192.0.2.11" } }), 200));
    expect(onlyEvent(updated.events, "record", record.id, "update")).toMatchObject({ before: record, after: updated.result });

    const deleted = await eventsOf(async () => ok(await api("DELETE", `/v1/records/${record.id}`), 204));
    expect(onlyEvent(deleted.events, "record", record.id, "delete")).toMatchObject({ before: updated.result, after: null });
    expect((await read(`/v1/zones/${zone.id}`)).soa.serial).toBeGreaterThan(zone.soa.serial);
  });
});

describe("a write that also writes other resources records an event for each", () => {
  it("registering a domain with unknown external name servers records a host create per new host", async () => {
    await createHost("ns1.known-external.net");
    const { result: domain, events } = await eventsOf(() =>
      createDomain("audit-ns.com", { nameservers: ["ns1.known-external.net", "ns1.new-external.net", "ns2.new-external.net"] }),
    );
    expect(events.map((e) => `${e.type} ${e.operation}`).sort()).toEqual(["domain create", "host create", "host create"]);
    for (const name of ["ns1.new-external.net", "ns2.new-external.net"]) {
      const host = await read(`/v1/hosts/${name}`);
      const event = events.find((e) => e.resource === host.id);
      expect(event).toMatchObject({ type: "host", operation: "create", token: WRITER, before: null, after: host });
      expect(event.after.status).toEqual(["linked"]);
    }
    expect(events.find((e) => e.type === "domain")).toMatchObject({ resource: domain.id, after: recorded(domain) });
  });

  it("changing a domain's name servers to an unknown external one records its host create", async () => {
    const domain = await createDomain("audit-ns-patch.com");
    const { result, events } = await eventsOf(async () =>
      ok(await api("PATCH", `/v1/domains/${domain.id}`, { json: { nameservers: ["ns9.patch-external.net"] } }), 200),
    );
    expect(events.map((e) => `${e.type} ${e.operation}`).sort()).toEqual(["domain update", "host create"]);
    expect(events.find((e) => e.type === "domain")).toMatchObject({ before: recorded(domain), after: recorded(result) });
    expect(events.find((e) => e.type === "host").after).toEqual(await read("/v1/hosts/ns9.patch-external.net"));
  });

  it("registering a domain adopts the external hosts under it, with a host update each", async () => {
    const host = await createHost("ns1.audit-adopt.com");
    expect(host.domain).toBeNull();
    const { result: domain, events } = await eventsOf(() => createDomain("audit-adopt.com"));
    expect(events.map((e) => `${e.type} ${e.operation}`).sort()).toEqual(["domain create", "host update"]);
    const update = events.find((e) => e.type === "host");
    expect(update).toMatchObject({ resource: host.id, before: host, after: await read(`/v1/hosts/${host.id}`) });
    expect(update.after.domain).toBe(domain.id);
  });

  it("setting a record's TTL records one rrset update for the rest of its RRset, however large", async () => {
    const zone = await createZone("audit-rrset.example");
    const first = await createRecord(zone.id, { name: "www", type: "A", content: "192.0.2.1", ttl: 300 });
    await createRecord(zone.id, { name: "www", type: "A", content: "192.0.2.3", ttl: 300 });
    const { result: second, events } = await eventsOf(() => createRecord(zone.id, { name: "www", type: "A", content: "192.0.2.2", ttl: 900 }));
    expect(events.map((e) => `${e.type} ${e.operation} ${e.resource}`).sort()).toEqual([`record create ${second.id}`, `rrset update ${zone.id}`].sort());
    const update = events.find((e) => e.type === "rrset");
    const rrset = { zone: zone.id, name: "www", fqdn: "www.audit-rrset.example", type: "A", records: 2 };
    expect(update.before).toEqual({ ...rrset, ttl: 300 });
    expect(update.after).toEqual({ ...rrset, ttl: 900 });
    expect((await read(`/v1/records/${first.id}`)).ttl).toBe(900);
    // The same TTL again changes nothing else, and records no rrset event.
    const { events: again } = await eventsOf(() => createRecord(zone.id, { name: "www", type: "A", content: "192.0.2.4", ttl: 900 }));
    expect(again.map((e) => e.type)).toEqual(["record"]);
  });

  it("a TTL change on one record of a 400-record RRset writes two events, not 401", async () => {
    const lines = ["$ORIGIN audit-big-rrset.example.", "$TTL 300", "@ SOA ns1.example.net. h.example.net. 1 7200 900 1209600 300", "@ NS ns1.example.net."];
    for (let i = 0; i < 400; i++) lines.push(`big A 198.51.${i >> 8}.${i & 255}`);
    const imported = await api("POST", "/v1/zones", { body: lines.join("\n"), headers: { "content-type": "text/dns" } });
    expect(imported.status, imported.text).toBe(201);
    const one = (await api("GET", "/v1/zones/audit-big-rrset.example/records?name=big&limit=1")).body.data[0];
    const { events } = await eventsOf(async () => {
      const patched = await api("PATCH", `/v1/records/${one.id}`, { json: { ttl: 60 } });
      expect(patched.status, patched.text).toBe(200);
    });
    expect(events.map((e) => `${e.type} ${e.operation}`).sort()).toEqual(["record update", "rrset update"]);
    expect(events.find((e) => e.type === "rrset").after).toMatchObject({ name: "big", type: "A", ttl: 60, records: 399 });
  });
});

describe("rejected writes and no-op patches record nothing", () => {
  it("4xx answers leave the trail as it was", async () => {
    const contact = await createContact();
    await createDomain("audit-rejected.com", { registrant: contact.id });
    const zone = await createZone("audit-rejected.example");
    const apexNs = (await allPages(`/v1/zones/${zone.id}/records?type=NS`)).items;
    await createRecord(zone.id, { name: "alias", type: "CNAME", content: "target.example.net" });
    const before = await allEvents();

    expectProblem(await api("POST", "/v1/contacts", { json: { name: "", email: "nope" } }), 422, "validation_failed");
    expectProblem(await api("DELETE", `/v1/contacts/${contact.id}`), 409, "object_linked");
    expectProblem(await api("PATCH", `/v1/contacts/${contact.id}`, { json: { name: "X" }, headers: { "if-match": '"99-abc"' } }), 412, "precondition_failed");
    expectProblem(await api("POST", "/v1/domains", { json: { name: "audit-rejected.com" } }), 409, "already_exists");
    expectProblem(await api("DELETE", "/v1/hosts/ns1.nowhere-at-all.net"), 404, "not_found");
    expectProblem(await api("POST", "/v1/records", { json: { zone: zone.id, name: "alias", type: "A", content: "192.0.2.1" } }), 409, "rrset_conflict");
    await api("DELETE", `/v1/records/${apexNs[0].id}`);
    expectProblem(await api("DELETE", `/v1/records/${apexNs[1].id}`), 409, "rrset_conflict");
    expectProblem(
      await api("POST", "/v1/zones", { body: "$ORIGIN bad-import.example.\n@ IN NS\n", headers: { "content-type": "text/dns" } }),
      422,
      "validation_failed",
    );

    const after = await allEvents();
    // Only the first apex NS delete succeeded.
    expect(after.slice(before.length)).toMatchObject([{ type: "record", operation: "delete", resource: apexNs[0].id }]);
  });

  it("of two racing deletes of one contact, only the one that deleted it records an event", async () => {
    const contact = await createContact();
    const { result, events } = await eventsOf(() => Promise.all([api("DELETE", `/v1/contacts/${contact.id}`), api("DELETE", `/v1/contacts/${contact.id}`)]));
    expect(result.map((r) => r.status).filter((s) => s === 204)).toHaveLength(1);
    onlyEvent(events, "contact", contact.id, "delete");
  });

  it("of two racing registrations of one name, only the 201 records events", async () => {
    const { result, events } = await eventsOf(() =>
      Promise.all([0, 1].map(() => api("POST", "/v1/domains", { json: { name: "audit-race.com", nameservers: ["ns1.race-external.net"] } }))),
    );
    expect(result.map((r) => r.status).sort()).toEqual([201, 409]);
    const domain = result.find((r) => r.status === 201)!.body;
    expect(events.map((e) => `${e.type} ${e.operation}`).sort()).toEqual(["domain create", "host create"]);
    expect(events.find((e) => e.type === "domain").resource).toBe(domain.id);
  });

  it("an idempotent replay of a POST is not a write: no second event", async () => {
    const request = { json: { name: "Replay Me", email: "replay@example.org" }, headers: { "idempotency-key": "audit-replay-1" } };
    const { result, events } = await eventsOf(async () => [await api("POST", "/v1/contacts", request), await api("POST", "/v1/contacts", request)]);
    expect(result[1]!.headers.get("idempotent-replayed")).toBe("true");
    onlyEvent(events, "contact", result[0]!.body.id, "create");
  });

  it("a PATCH that changes nothing answers 200 and records no event", async () => {
    const contact = await createContact({ name: "Same Name" });
    const domain = await createDomain("audit-noop.com");
    const host = await createHost("ns1.audit-noop.net");
    const zone = await createZone("audit-noop.example");
    const record = await createRecord(zone.id, { name: "www", type: "A", content: "192.0.2.1" });
    const { events } = await eventsOf(async () => {
      for (const [path, patch] of [
        [`/v1/contacts/${contact.id}`, {}],
        [`/v1/contacts/${contact.id}`, { name: "Same Name" }],
        [`/v1/domains/${domain.id}`, {}],
        [`/v1/domains/${domain.id}`, { auto_renew: domain.auto_renew }],
        [`/v1/hosts/${host.id}`, { name: host.name }],
        [`/v1/zones/${zone.id}`, { default_ttl: zone.default_ttl }],
        [`/v1/records/${record.id}`, { content: "192.0.2.1" }],
      ] as const) {
        ok(await api("PATCH", path, { json: patch }), 200);
      }
    });
    expect(events).toEqual([]);
  });
});

describe("GET /v1/events lists the trail in commit order, keyset-paginated and filtered", () => {
  it("pages through every event in commit order, each once; every page has a resume_cursor", async () => {
    const contacts = [];
    for (let i = 0; i < 5; i++) contacts.push(await createContact({ name: `Paging ${i}` }));
    const everything = await allEvents();
    const resources = everything.map((e) => e.resource);
    expect(resources.slice(-5)).toEqual(contacts.map((c) => c.id));
    const paged = await allPages("/v1/events?limit=2");
    expect(paged.items.map((e) => e.id)).toEqual(everything.map((e) => e.id));
    expect(paged.pages[0]!.link).toMatch(/^<\/v1\/events\?limit=2&cursor=[^>]+>; rel="next"$/);
    const last = paged.pages.at(-1)! as { next_cursor: string | null; resume_cursor?: string; link: string | null };
    expect(last.next_cursor).toBeNull();
    expect(last.link).toBeNull();
    expect(last.resume_cursor).toEqual(expect.any(String));
    for (const page of paged.pages.slice(0, -1)) expect((page as { resume_cursor?: string }).resume_cursor).toBe(page.next_cursor);
  });

  it("filters by resource, type, operation, token and since, combined with AND", async () => {
    const contact = await createContact({ name: "Filter Me" });
    await api("PATCH", `/v1/contacts/${contact.id}`, { json: { name: "Filtered" } });
    const zone = await createZone("audit-filters.example");

    expect((await allEvents(`&resource=${contact.id}`)).map((e) => e.operation)).toEqual(["create", "update"]);
    const zoneEvents = await allEvents("&type=zone");
    expect(zoneEvents.length).toBeGreaterThan(0);
    expect(zoneEvents.every((e) => e.type === "zone")).toBe(true);
    expect(zoneEvents.map((e) => e.resource)).toContain(zone.id);
    const updates = await allEvents("&type=contact&operation=update");
    expect(updates.length).toBeGreaterThan(0);
    expect(updates.every((e) => e.type === "contact" && e.operation === "update")).toBe(true);
    expect((await allEvents(`&token=${WRITER}`)).length).toBe((await allEvents()).length);
    expect(await allEvents("&token=nobody")).toEqual([]);

    const [, update] = await allEvents(`&resource=${contact.id}`);
    const since = await allEvents(`&since=${encodeURIComponent(update.at)}`);
    expect(since[0].at >= update.at).toBe(true);
    expect(since.every((e) => e.at >= update.at)).toBe(true);
    expect(since.map((e) => e.id)).toContain(update.id);
    // Any RFC 3339 offset names the same instant.
    const shifted = new Date(new Date(update.at).getTime() + 2 * 3600_000).toISOString().replace("Z", "+02:00");
    expect((await allEvents(`&since=${encodeURIComponent(shifted)}`)).map((e) => e.id)).toEqual(since.map((e) => e.id));
    expect(await allEvents("&since=2999-01-01T00:00:00Z")).toEqual([]);
  });

  it("names the token that made each write by its id, never by the name its owner chose", async () => {
    const id = "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8AAA";
    const authorization = await mintWriteToken(id, "audit-writer", "audit-second-writer-0123456789");
    const contact = ok(await api("POST", "/v1/contacts", { json: { name: "By Another", email: "another@example.org" }, headers: { authorization } }), 201);
    expect(await allEvents("&token=audit-writer")).toEqual([]);
    const mine = await allEvents(`&token=${id}`);
    expect(mine).toMatchObject([{ token: id, resource: contact.id, operation: "create" }]);
    expect((await allEvents(`&token=${WRITER}`)).map((e) => e.resource)).not.toContain(contact.id);
  });

  it("refuses bad filter values, unknown parameters and foreign cursors with 400", async () => {
    expectProblem(await api("GET", "/v1/events?type=domains"), 400, "invalid_query");
    expectProblem(await api("GET", "/v1/events?operation=rename"), 400, "invalid_query");
    expectProblem(await api("GET", "/v1/events?since=yesterday"), 400, "invalid_query");
    expectProblem(await api("GET", "/v1/events?actor=x"), 400, "invalid_query");
    expectProblem(await api("GET", "/v1/events?limit=0"), 400, "invalid_query");
    const page = await read("/v1/events?limit=1");
    expect(page.next_cursor).toEqual(expect.any(String));
    expectProblem(await api("GET", `/v1/events?limit=1&type=zone&cursor=${encodeURIComponent(page.next_cursor)}`), 400, "invalid_cursor");
  });

  it("GET /v1/events/{event} answers the event with an ETag, 304 on If-None-Match, 404 when unknown", async () => {
    const contact = await createContact();
    const event = await lastEventOf(contact.id);
    const response = await api("GET", `/v1/events/${event.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(event);
    const etag = response.headers.get("etag")!;
    expect(etag).toBeTruthy();
    expect((await api("GET", `/v1/events/${event.id}`, { headers: { "if-none-match": etag } })).status).toBe(304);
    expectProblem(await api("GET", "/v1/events/evt_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B"), 404, "not_found");
    expectProblem(await api("DELETE", `/v1/events/${event.id}`), 405, "method_not_allowed");
  });

  it("is in the OpenAPI document and the index", async () => {
    const doc = await read("/v1/openapi.json");
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/events", "/events/{event}"]));
    expect(doc.paths["/events"].get.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      "cursor",
      "limit",
      "operation",
      "resource",
      "since",
      "token",
      "type",
    ]);
    expect((await read("/v1")).links.events).toBe("/v1/events");
  });
});

/** One page of the trail from `cursor` (or the start), with its cursors. */
async function pageFrom(cursor: string | null, query = "") {
  const response = await api("GET", `/v1/events?limit=200${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
  expect(response.status, response.text).toBe(200);
  return response.body as { data: any[]; next_cursor: string | null; resume_cursor: string };
}

/** Reads from `cursor` to the last page, as a poller does; returns what it read and where to resume. */
async function poll(cursor: string | null, query = ""): Promise<{ events: any[]; resume: string }> {
  const events: any[] = [];
  for (;;) {
    const page = await pageFrom(cursor, query);
    events.push(...page.data);
    expect(page.resume_cursor, "every page has a resume_cursor").toEqual(expect.any(String));
    if (page.next_cursor === null) return { events, resume: page.resume_cursor };
    cursor = page.next_cursor;
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a reader resuming from its last page's cursor sees every event exactly once, in commit order", () => {
  it("an event whose id was minted before an already-read event's, but committed after it, is still read, once", async () => {
    const db = database(env.DB);
    await createContact({ name: "Before The Race" });
    const first = await poll(null);
    expect(first.events.length).toBeGreaterThan(0);

    // Isolate A mints its event (and its id) and is slow to commit; isolate B mints a later
    // id and commits first; a reader reads B's event; then A commits.
    const slow = await createContact({ name: "Slow Writer" });
    const late = eventInsert(db, {
      at: new Date().toISOString(),
      actor: "local",
      account: slow.account,
      type: "contact",
      id: slow.id,
      operation: "update",
      before: slow,
      after: { ...slow, organization: "Late Ltd" },
    });
    await pause(5);
    const fast = await createContact({ name: "Fast Writer" });
    const second = await poll(first.resume);
    expect(second.events.map((e) => e.resource)).toEqual([slow.id, fast.id]);
    await late;

    const third = await poll(second.resume);
    expect(third.events).toHaveLength(1);
    const [lateEvent] = third.events;
    expect(lateEvent).toMatchObject({ resource: slow.id, operation: "update", after: { organization: "Late Ltd" } });
    // Its id sorts before the event already read: id order would have skipped it for good.
    expect(lateEvent.id < second.events[1].id).toBe(true);

    // Every event was read exactly once, and the whole trail holds nothing else.
    const seen = [...first.events, ...second.events, ...third.events].map((e) => e.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual((await poll(null)).events.map((e) => e.id));
  });

  it("the last page's resume_cursor is not null, and resuming from it yields only newer events", async () => {
    const { resume } = await poll(null);
    const idle = await pageFrom(resume);
    expect(idle).toEqual({ data: [], next_cursor: null, resume_cursor: resume });
    const newer = await createContact({ name: "Newer" });
    const next = await poll(resume);
    expect(next.events).toMatchObject([{ resource: newer.id, operation: "create" }]);
    expect(next.resume).not.toBe(resume);
    expect((await poll(next.resume)).events).toEqual([]);
  });

  it("a filtered reader resumes the same way, and an empty first page still gives a cursor to resume from", async () => {
    const start = await pageFrom(null, "&resource=con_01JD3Q6Y4T8N0V4W5X6Y7Z8ZZZ");
    expect(start).toMatchObject({ data: [], next_cursor: null, resume_cursor: expect.any(String) });
    const zoneReader = await poll(null, "&type=zone");
    const zone = ok(await api("POST", "/v1/zones", { json: { name: "resume-filter.example", nameservers: ["ns1.example.net", "ns2.example.net"] } }), 201);
    await createContact({ name: "Not A Zone" });
    expect((await poll(zoneReader.resume, "&type=zone")).events.map((e) => e.resource)).toEqual([zone.id]);
    // A cursor belongs to its filters.
    expectProblem(await api("GET", `/v1/events?type=contact&cursor=${encodeURIComponent(zoneReader.resume)}`), 400, "invalid_cursor");
  });

  it("since starts at the first event stamped at or after it, in commit order", async () => {
    const from = new Date().toISOString();
    await pause(2);
    const contact = await createContact({ name: "Since Reader" });
    const { events, resume } = await poll(null, `&since=${encodeURIComponent(from)}`);
    expect(events.map((e) => e.resource)).toEqual([contact.id]);
    const later = await createContact({ name: "Since Reader 2" });
    expect((await poll(resume, `&since=${encodeURIComponent(from)}`)).events.map((e) => e.resource)).toEqual([later.id]);
  });

  it("a cursor issued before events had a sequence (the last event's id alone) resumes after that event", async () => {
    const { events } = await poll(null);
    const middle = events[Math.floor(events.length / 2)];
    const legacy = await encodeCursor(env.CURSOR_SECRET!, "/v1/events?", { key: null, id: middle.id });
    const after = await poll(legacy);
    expect(after.events.map((e) => e.id)).toEqual(events.slice(events.indexOf(middle) + 1).map((e) => e.id));
  });
});

describe("auth_info never appears in an event", () => {
  it("a domain created with one, rotated, changed and deleted: no event, listed or read alone, holds auth_info or its values", async () => {
    const contact = await createContact();
    const secrets = ["First-Secret-123", "Rotated-Secret-456"];
    const domain = await createDomain("audit-secret.com", { registrant: contact.id, auth_info: secrets[0] });
    expect(domain.auth_info).toBe(secrets[0]);
    const rotated = ok(await api("PATCH", `/v1/domains/${domain.id}`, { json: { auth_info: secrets[1] } }), 200);
    expect(rotated.auth_info).toBe(secrets[1]);
    ok(await api("PATCH", `/v1/domains/${domain.id}`, { json: { auto_renew: false } }), 200);
    ok(await api("DELETE", `/v1/domains/${domain.id}`), 204);

    const events = await allEvents(`&resource=${domain.id}`);
    expect(events.map((e) => e.operation)).toEqual(["create", "update", "update", "delete"]);
    // The rotation is recorded as an update, without the secret: only updated_at moved.
    const rotation = events[1];
    expect(WITHOUT(rotation.after, "updated_at")).toEqual(WITHOUT(rotation.before, "updated_at"));
    expect(rotation.after.updated_at).toBe(rotated.updated_at);

    const texts = [
      (await api("GET", "/v1/events?limit=200", { headers: { authorization: bearer("read") } })).text,
      (await api("GET", `/v1/events?limit=200&resource=${domain.id}`)).text,
      ...(await Promise.all(events.map(async (e) => (await api("GET", `/v1/events/${e.id}`, { headers: { authorization: bearer("read") } })).text))),
    ];
    for (const text of texts) {
      expect(text).not.toContain("auth_info");
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
    const { results } = await env.DB.prepare("SELECT count(*) AS n FROM events WHERE instr(coalesce(before, '') || coalesce(after, ''), 'auth_info') > 0").all<{
      n: number;
    }>();
    expect(results[0]!.n).toBe(0);
  });

  it("an idempotent replay of a domain create answers its auth_info to the token that made it, and to no other", async () => {
    const other = await mintWriteToken("tok_01JD3Q6Y4T8N0V4W5X6Y7Z8BBB", "audit-other-writer", "audit-other-writer-0123456789");
    const contact = await createContact();
    const request = {
      json: { name: "audit-replay-secret.com", registrant: contact.id, auth_info: "Replay-Secret-789" },
      headers: { "idempotency-key": "audit-secret-1" },
    };
    const created = await api("POST", "/v1/domains", request);
    expect(created.status, created.text).toBe(201);
    const replayed = await api("POST", "/v1/domains", request);
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.body).toEqual(created.body);

    // Another token with the same key and body is not a retry of the first request: it is
    // its own create, of a name now taken.
    const stranger = await api("POST", "/v1/domains", { ...request, headers: { ...request.headers, authorization: other } });
    expectProblem(stranger, 409, "already_exists");
    expect(stranger.headers.get("idempotent-replayed")).toBeNull();
    expect(stranger.text).not.toContain("Replay-Secret-789");
    const reader = await api("POST", "/v1/domains", { ...request, headers: { ...request.headers, authorization: bearer("read") } });
    expectProblem(reader, 403, "forbidden");
    expect(reader.text).not.toContain("Replay-Secret-789");
  });
});

describe("a deleted contact, domain or zone is recreated from its delete event's before", () => {
  it("contact", async () => {
    const original = await createContact({ name: "Recover Me", organization: "Org", phone: "+44.2071234567", privacy: true });
    ok(await api("DELETE", `/v1/contacts/${original.id}`), 204);
    const { before } = await lastEventOf(original.id);
    expect(before).toEqual(original);
    const { id: _id, status: _status, created_at: _c, updated_at: _u, ...fields } = before;
    const recreated = ok(await api("POST", "/v1/contacts", { json: fields }), 201);
    expect(WITHOUT(recreated, "id", "created_at", "updated_at")).toEqual(WITHOUT(original, "id", "created_at", "updated_at"));
  });

  it("domain", async () => {
    const contact = await createContact();
    const original = await createDomain("audit-recover.com", {
      registrant: contact.id,
      contacts: { admin: contact.id, tech: contact.id },
      nameservers: ["ns1.recover-external.net", "ns2.recover-external.net"],
      status: ["clientTransferProhibited", "clientHold"],
      auth_info: "Recover-Me-123",
      auto_renew: false,
      period: 3,
    });
    ok(await api("DELETE", `/v1/domains/${original.id}`), 204);
    const { before } = await lastEventOf(original.id);
    // Everything but the transfer secret, which no event keeps: the new registration gets a
    // fresh one (or the one its client gives).
    expect(before).toEqual(recorded(original));
    // `status` also holds computed values (ok, inactive) and `expires_at` is read-only:
    // the client statuses and the period are what a registration takes.
    const period = new Date(before.expires_at).getUTCFullYear() - new Date(before.created_at).getUTCFullYear();
    const recreated = ok(
      await api("POST", "/v1/domains", {
        json: {
          name: before.name,
          registrant: before.registrant,
          contacts: before.contacts,
          nameservers: before.nameservers,
          status: before.status.filter((s: string) => s.startsWith("client")),
          auto_renew: before.auto_renew,
          period,
        },
      }),
      201,
    );
    // A new registration starts its own add grace period and transfer lock (RFC 3915 §3.1).
    const comparable = (d: Record<string, unknown>) =>
      WITHOUT(d, "id", "created_at", "updated_at", "expires_at", "auth_info", "rgp_status", "transfer_locked_until", "price");
    expect(comparable(recreated)).toEqual(comparable(original));
    expect(period).toBe(3);
  });

  it("zone, with its records (from the master file in before.master_file)", async () => {
    const original = await createZone("audit-recover.example", { default_ttl: 1800, soa: { rname: "dns@audit-recover.example", refresh: 3600 } });
    await createRecord(original.id, { name: "www", type: "A", content: "192.0.2.80" });
    await createRecord(original.id, { name: "@", type: "MX", content: "10 mail.audit-recover.example" });
    await createRecord(original.id, { name: "@", type: "TXT", content: '"v=spf1 -all"', ttl: 60 });
    const comment = await createRecord(original.id, { name: "mail", type: "A", content: "192.0.2.25", comment: "the mail host" });
    const zone = await read(`/v1/zones/${original.id}`);
    const lines = async (id: string) =>
      (await allPages(`/v1/zones/${id}/records?limit=200`)).items.map((r) => `${r.name} ${r.ttl} ${r.type} ${r.content}`).sort();
    const records = await lines(original.id);
    ok(await api("DELETE", `/v1/zones/${original.id}`), 204);

    const { before } = await lastEventOf(original.id);
    expect(WITHOUT(before, "master_file")).toEqual(zone);
    const recreated = ok(await api("POST", "/v1/zones", { body: before.master_file, headers: { "content-type": "text/dns" } }), 201);
    expect(recreated.warnings).toEqual([]);
    expect(WITHOUT(recreated, "id", "created_at", "updated_at", "warnings")).toEqual(WITHOUT(zone, "id", "created_at", "updated_at"));
    expect(await lines(recreated.id)).toEqual(records);
    // A record comment is not master-file data: the record's own last event keeps it.
    expect((await lastEventOf(comment.id)).after.comment).toBe("the mail host");
  });

  it("a zone too large for an event row is deleted all the same, its master file left out", async () => {
    const txt = `"${"x".repeat(250)}" `.repeat(200).trim(); // ~50 KB of RDATA per record
    // 39 of them: more than an event row keeps (1.9 MB), within what a zone may hold (2 000 000 bytes).
    const lines = Array.from({ length: 39 }, (_, i) => `t${i} IN TXT ${txt}`);
    const file = `$ORIGIN audit-huge.example.\n$TTL 300\n@ IN NS ns1.example.net.\n${lines.join("\n")}\n`;
    const zone = ok(await api("POST", "/v1/zones", { body: file, headers: { "content-type": "text/dns" } }), 201);
    expect(zone.record_count).toBe(40);
    ok(await api("DELETE", `/v1/zones/${zone.id}`), 204);
    const event = await lastEventOf(zone.id);
    expect(event).toMatchObject({ operation: "delete", after: null, before: { id: zone.id, record_count: 40, master_file: null } });
  });
});

describe("every event carries `account`: the account that sponsors its resource (docs/accounts.md)", () => {
  it("listed and read alone, for the operator's objects and for a customer's, and the customer sees only its own", async () => {
    const account = ok(await api("POST", "/v1/accounts", { json: { name: "event-account-customer" } }), 201);
    const token = ok(await api("POST", "/v1/tokens", { json: { name: "event-account-token", scope: "write", account: account.id } }), 201);
    const customer = { authorization: `Bearer ${token.secret}` };
    const own = await createContact({ name: "Operator Owned" });
    const theirs = ok(await api("POST", "/v1/contacts", { json: { name: "Customer Owned", email: "c@example.org" }, headers: customer }), 201);

    const [ownEvent] = await allEvents(`&resource=${own.id}`);
    const [theirEvent] = await allEvents(`&resource=${theirs.id}`);
    expect(ownEvent).toEqual({
      id: expect.stringMatching(EVENT_ID),
      at: own.created_at,
      account: "acc_00000000000000000000000000",
      token: WRITER,
      type: "contact",
      resource: own.id,
      operation: "create",
      before: null,
      after: own,
    });
    expect(theirEvent).toMatchObject({ account: account.id, token: token.id, type: "contact", resource: theirs.id, operation: "create" });
    expect(await read(`/v1/events/${theirEvent.id}`)).toEqual(theirEvent);

    const seen = ok(await api("GET", "/v1/events?limit=200", { headers: customer }), 200);
    expect(seen.data.map((e: { account: string }) => e.account)).toEqual(seen.data.map(() => account.id));
    expect(seen.data.map((e: { resource: string }) => e.resource)).toContain(theirs.id);
    expect(ok(await api("GET", `/v1/events/${theirEvent.id}`, { headers: customer }), 200)).toEqual(theirEvent);
  });
});
