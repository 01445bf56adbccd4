// Every list query of the API is answered from an index (docs/conventions.md: a page costs the
// same at row 100 000 as at row 1). SQLite's EXPLAIN QUERY PLAN says how it reads each
// table; a bare `SCAN <table>` reads the whole table and fails the test.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { overdueForReconciliation } from "../src/db/registry-state";
import { database } from "../src/db/client";
import { notesLeft, quotaCheck } from "../src/db/quota-check";
import { BUILT_IN_LIMITS } from "../src/registry/limits";
import { listContacts } from "../src/resources/contacts/queries";
import { listDomains } from "../src/resources/domains/queries";
import { oldestDue, passEvents, passSizes } from "../src/jobs/event-archive";
import { dueExpiries, dueGraceEnds, dueTransfers } from "../src/jobs/sweep-due";
import { archivedAfter, listEventArchives, listEvents } from "../src/resources/events/queries";
import { listHosts } from "../src/resources/hosts/queries";
import { listRecords } from "../src/resources/records/queries";
import { listZones } from "../src/resources/zones/queries";
import { deliveryRecordsPage, listWebhooks } from "../src/resources/webhooks/queries";
import { eventHeadsAfter } from "../src/delivery/rows";
import { DOMAIN_SORTS } from "../src/resources/domains/schemas";

const db = database(env.DB);
const firstPage = { limit: 50, after: null };
const laterPage = (key: string | null) => ({ limit: 50, after: { key, id: "dom_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" } });

async function plan(query: { toSQL(): { sql: string; params: unknown[] } }): Promise<string[]> {
  const { sql, params } = query.toSQL();
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return results.map((r) => r.detail);
}

function fullScans(details: string[]): string[] {
  // `SCAN t USING INDEX …` walks an index in the list's order and stops at the LIMIT;
  // `SCAN t` alone (or a temp B-tree to sort a whole table) reads every row. A scan of a
  // subquery the plan computes as a co-routine reads only the rows that subquery yields
  // (its own lines say how it reads them).
  const coroutines = new Set(details.map((d) => /^CO-ROUTINE (\w+)$/.exec(d.trim())?.[1]).filter(Boolean));
  return details.filter((d) => {
    const scanned = /^SCAN (\w+)$/.exec(d.trim())?.[1];
    return scanned !== undefined && !coroutines.has(scanned) && !/json_each/.test(d);
  });
}

const cases: [string, { toSQL(): { sql: string; params: unknown[] } }][] = [
  ["contacts, first page", listContacts(db, {}, firstPage)],
  ["contacts, later page", listContacts(db, {}, laterPage(null))],
  ["contacts by email", listContacts(db, { email: "ada@example.org" }, firstPage)],
  ["contacts by q", listContacts(db, { q: "ada" }, firstPage)],
  ["contacts a repository holds", listContacts(db, { repository: "verisign" }, firstPage)],
  ["domains by name", listDomains(db, { name: "example.com" }, undefined, firstPage)],
  ["domains by q", listDomains(db, { q: "exa" }, undefined, firstPage)],
  ["domains by a Unicode q (searched in both forms)", listDomains(db, { q: "münchen" }, undefined, firstPage)],
  ["domains by extension", listDomains(db, { extension: "com" }, undefined, laterPage(null))],
  ["domains by repository", listDomains(db, { repository: "verisign" }, undefined, firstPage)],
  ["domains by status", listDomains(db, { status: "clientHold" }, undefined, firstPage)],
  ["domains by inactive status", listDomains(db, { status: "inactive" }, undefined, firstPage)],
  ["domains by pendingDelete status", listDomains(db, { status: "pendingDelete" }, undefined, firstPage)],
  ["domains by pendingTransfer status", listDomains(db, { status: "pendingTransfer" }, undefined, firstPage)],
  ["domains by ok status", listDomains(db, { status: "ok" }, undefined, firstPage)],
  ["domains by registrant", listDomains(db, { registrant: "con_x" }, undefined, firstPage)],
  ["domains by contact in any role", listDomains(db, { contact: "con_x" }, undefined, firstPage)],
  ["domains by name server", listDomains(db, { nameserver: "ns1.example.net" }, undefined, firstPage)],
  [
    "domains expiring in a window",
    listDomains(db, { expiresAfter: "2026-01-01T00:00:00.000Z", expiresBefore: "2027-01-01T00:00:00.000Z" }, undefined, firstPage),
  ],
  ...DOMAIN_SORTS.map(
    (sort) =>
      [`domains sorted by ${sort}, later page`, listDomains(db, {}, sort, laterPage(sort.includes("created") ? null : "x"))] as [
        string,
        ReturnType<typeof listDomains>,
      ],
  ),
  ["hosts, later page", listHosts(db, {}, { limit: 50, after: { key: null, id: "hst_x" } })],
  ["hosts by name", listHosts(db, { name: "ns1.example.com" }, firstPage)],
  ["hosts by domain id", listHosts(db, { domain: { kind: "id", id: "dom_x" } }, firstPage)],
  ["hosts by domain name", listHosts(db, { domain: { kind: "name", name: "example.com" } }, firstPage)],
  ["hosts by q", listHosts(db, { q: "ns1" }, firstPage)],
  ["zones by q", listZones(db, { q: "münchen" }, firstPage)],
  ["records by q", listRecords(db, { q: "www" }, firstPage)],
  ["records of a zone by q", listRecords(db, { zone: { kind: "id", id: "zon_x" }, q: "café" }, firstPage)],
  ["hosts by address", listHosts(db, { address: "192.0.2.1" }, firstPage)],
  ["hosts a repository holds", listHosts(db, { heldBy: "verisign" }, firstPage)],
  ["events, later page", listEvents(db, {}, { limit: 50, after: { key: 120, id: "evt_x" } })],
  ["events, from a cursor of before the sequence (an id alone)", listEvents(db, {}, { limit: 50, after: { key: null, id: "evt_x" } })],
  ["events of a type, later page", listEvents(db, { type: "zone" }, { limit: 50, after: { key: 120, id: "evt_x" } })],
  ["events since a time, later page", listEvents(db, { since: "2026-01-01T00:00:00.000Z" }, { limit: 50, after: { key: 120, id: "evt_x" } })],
  ["events of a type since a time", listEvents(db, { type: "zone", since: "2026-01-01T00:00:00.000Z" }, firstPage)],
  ["events of a resource", listEvents(db, { resource: "dom_x" }, firstPage)],
  ["events by type", listEvents(db, { type: "zone" }, firstPage)],
  ["events by operation", listEvents(db, { operation: "delete" }, firstPage)],
  ["events by token", listEvents(db, { token: "ci" }, firstPage)],
  ["events since a time", listEvents(db, { since: "2026-01-01T00:00:00.000Z" }, firstPage)],
  ["archive objects, later page", listEventArchives(db, {}, { limit: 50, after: { key: 120, id: "arc_x" } })],
  ["archive objects of an account", listEventArchives(db, { account: "acc_x" }, firstPage)],
  ["archive objects after a cursor (410 gone)", archivedAfter(db, { key: 120, id: "evt_x" })],
  ["archive objects after a cursor of before the sequence", archivedAfter(db, { key: null, id: "evt_x" })],
  ["the archive's oldest due event", oldestDue(db, "2026-01-01T00:00:00.000Z", ["acc_x"])],
  ["the archive's pass: sizes", passSizes(db, "acc_x", 2000)],
  ["the archive's pass: events", passEvents(db, "acc_x", 120, 2000)],
  // The lifecycle sweep's due rows (docs/lifecycle.md), builtin only and with repositories whose registry decides.
  ["the sweep's due transfers", dueTransfers(db, "2026-06-01T00:00:00.000Z", { key: "2026-05-01T00:00:00.000Z", id: "trn_x" }, 50)],
  ["the sweep's due expiries", dueExpiries(db, "2026-06-01T00:00:00.000Z", null, 50)],
  ["the sweep's due expiries, connected repositories left out", dueExpiries(db, "2026-06-01T00:00:00.000Z", null, 50, ["pir", "verisign"])],
  ["the sweep's due grace ends", dueGraceEnds(db, "2026-06-01T00:00:00.000Z", null, 50)],
  ["the sweep's due grace ends, connected repositories left out", dueGraceEnds(db, "2026-06-01T00:00:00.000Z", null, 50, ["pir", "verisign"])],
  ["webhooks, later page", listWebhooks(db, {}, { limit: 50, after: { key: null, id: "whk_x" } })],
  ["webhooks of an account", listWebhooks(db, { account: "acc_x" }, firstPage)],
  ["webhooks enabled", listWebhooks(db, { enabled: true }, firstPage)],
  ["a webhook's deliveries", deliveryRecordsPage(db, "whk_x", firstPage)],
  ["a webhook's deliveries, later page", deliveryRecordsPage(db, "whk_x", { limit: 50, after: { key: 120, id: "dlv_x" } })],
  ["the events a customer's webhook is owed", eventHeadsAfter(db, 120, ["acc_x"], 100)],
  ["the events the webhooks of several accounts are owed", eventHeadsAfter(db, 120, ["acc_x", "acc_y"], 100)],
  ["the events an operator's webhook is owed", eventHeadsAfter(db, 120, null, 100)],
];

describe("every list query uses an index", () => {
  it.each(cases)("%s reads no table in full", async (_name, query) => {
    const details = await plan(query);
    expect(details.length).toBeGreaterThan(0);
    expect(fullScans(details), details.join("\n")).toEqual([]);
  });
});

describe("the audit trail is walked in commit order from where the reader stands", () => {
  it.each([
    ["since a time", listEvents(db, { since: "2026-01-01T00:00:00.000Z" }, firstPage)],
    ["of a type since a time", listEvents(db, { type: "zone", since: "2026-01-01T00:00:00.000Z" }, firstPage)],
  ] as const)("events %s start at the first event from that time, found in events_at_idx", async (_name, query) => {
    const details = await plan(query);
    expect(details.join("\n")).toContain("USING COVERING INDEX events_at_idx (at>?)");
    expect(details.join("\n")).not.toContain("TEMP B-TREE");
  });

  it("a page after a cursor starts at its sequence", async () => {
    const details = await plan(listEvents(db, { since: "2026-01-01T00:00:00.000Z" }, { limit: 50, after: { key: 120, id: "evt_x" } }));
    expect(details).toEqual(["SEARCH events USING INTEGER PRIMARY KEY (rowid>?)"]);
  });
});

describe("what a repository holds is found from each object's own links", () => {
  it.each([
    ["contacts", listContacts(db, { repository: "verisign" }, firstPage)],
    ["hosts", listHosts(db, { heldBy: "verisign" }, firstPage)],
  ] as const)("the %s sub-listing never walks all of a repository's domains per row", async (_name, query) => {
    const details = await plan(query);
    expect(details.join("\n")).not.toContain("domains_repository_idx");
  });
});

/** The `EXISTS (…)` subqueries of a trigger's SQL, parentheses balanced. */
function existsSubqueries(triggerSql: string): string[] {
  const found: string[] = [];
  for (const match of triggerSql.matchAll(/EXISTS\s*\(/gi)) {
    let depth = 1;
    let end = match.index + match[0].length;
    while (depth > 0 && end < triggerSql.length) {
      if (triggerSql[end] === "(") depth++;
      else if (triggerSql[end] === ")") depth--;
      end++;
    }
    found.push(triggerSql.slice(match.index + match[0].length, end - 1));
  }
  return found;
}

describe("every rule the database keeps on records is an index lookup (drizzle/0007)", () => {
  it("each EXISTS of a records trigger searches an index on every equality it names, never a scan", async () => {
    const { results } = await env.DB.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'records'").all<{
      name: string;
      sql: string;
    }>();
    const lookups = results.flatMap(({ name, sql }) => existsSubqueries(sql).map((query) => ({ name, query })));
    for (const { name, query } of lookups) {
      // NEW.x / OLD.x become bound parameters, as the trigger sees them: unknown when planned.
      const values = [...query.matchAll(/\b(?:NEW|OLD)\.\w+/g)].map(() => "x");
      const { results: steps } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.replace(/\b(?:NEW|OLD)\.\w+/g, "?")}`)
        .bind(...values)
        .all<{ detail: string }>();
      const details = steps.map((s) => s.detail);
      expect(fullScans(details), `${name}: ${details.join(" | ")}`).toEqual([]);
      for (const column of ["zone_id", "name", "type"]) {
        if (new RegExp(`\\br\\.${column} = `).test(query)) expect(details.join(" | "), `${name} searches by ${column}`).toContain(`${column}=?`);
      }
    }
    // The two CNAME rules and the two apex-NS rules, each on insert or delete and on update.
    expect(lookups.length).toBeGreaterThanOrEqual(6);
  });
});

describe("the write routine's quota check reads only the accounts its batch touched (src/db/quota-check.ts)", () => {
  it.each([
    ["the check that ends every batch", quotaCheck(db, BUILT_IN_LIMITS)],
    ["the clearing of notes a write outside the routine left", notesLeft(db)],
  ] as const)("%s walks the partial index of the accounts noted in this batch, never all accounts", async (_name, statement) => {
    const details = await plan(statement);
    expect(details.join("\n")).toContain("account_usage_in_batch");
    expect(fullScans(details), details.join("\n")).toEqual([]);
  });
});

describe("reconciliation's overdue domains are one index range (src/db/registry-state.ts)", () => {
  it("a repository's expired domains not compared since are read from domains_repository_expires_idx in expiry order, each probed in registry_domains by its key, no sort", async () => {
    const details = await plan(overdueForReconciliation(db, "verisign", "2026-11-22T09:30:00.000Z", 50));
    const text = details.join("\n");
    expect(text, text).toContain("SEARCH domains USING INDEX domains_repository_expires_idx (repository_id=? AND expires_at<?)");
    expect(text, text).toMatch(/SEARCH registry_domains USING INDEX sqlite_autoindex_registry_domains_1 \(domain_id=\?\)/);
    expect(text, text).not.toContain("TEMP B-TREE");
    expect(fullScans(details), text).toEqual([]);
  });
});
