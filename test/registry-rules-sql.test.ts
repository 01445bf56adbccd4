// Registry rules have one home, src/registry/; the reads that compute or filter in D1 use
// their SQL mirrors (src/db/domain-rules.ts). Each mirror is held to its rule here: run in
// D1 over a grid of dates or of stored states, and compared with the TypeScript function.
import { env } from "cloudflare:test";
import { and, asc, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../src/db/client";
import { domainStatusCondition, transferLockedUntilSql } from "../src/db/domain-rules";
import { domains } from "../src/db/schema";
import { transferLockedUntil } from "../src/registry/lifecycle";
import { DOMAIN_STATUS_FILTERS, domainStatus, serverStatusesOf } from "../src/registry/statuses";
import { api, createDomain } from "./helpers";

const NS = ["ns1.example.net", "ns2.example.net"];
const OPERATOR = "acc_00000000000000000000000000";

/** Instants the lock is counted from: a leap day's last millisecond, year ends, odd milliseconds, far ahead. */
const INSTANTS = [
  "2024-02-29T23:59:59.999Z",
  "2000-02-28T00:00:00.001Z",
  "2025-12-31T12:00:00.000Z",
  "2026-01-01T00:00:00.000Z",
  "2026-03-29T01:30:00.123Z",
  "2099-12-31T23:59:59.999Z",
];

describe("transferLockedUntil (src/registry/lifecycle.ts) and its SQL mirror agree", () => {
  it("over a grid of registrations, last transfers and lock lengths, computed by D1", async () => {
    const grid: { c: string; l: string | null; d: number }[] = [];
    for (const c of INSTANTS) for (const l of [null, ...INSTANTS]) for (const d of [-1, 0, 1, 5, 59, 60, 366]) grid.push({ c, l, d });
    const field = (name: string) => sql`json_extract(j.value, ${`$.${name}`})`;
    const rows = await database(env.DB).all<{ i: number; until: string | null }>(
      sql`select cast(j.key as integer) as i, ${transferLockedUntilSql(field("c"), field("l"), field("d"))} as until from json_each(${JSON.stringify(grid)}) j order by i`,
    );
    expect(rows).toHaveLength(grid.length);
    for (const { i, until } of rows) {
      const { c, l, d } = grid[i]!;
      expect(until, JSON.stringify(grid[i])).toBe(transferLockedUntil(c, l, d));
    }
    expect(rows.filter((r) => r.until === null).length).toBe(grid.filter((g) => g.d <= 0).length);
  });

  it("a domain's transfer_locked_until is the rule of its registration, its last transfer and its extension's transfer_lock_days", async () => {
    const cases = [
      { name: "lock-grid-0.com", days: 60, createdAt: INSTANTS[0]!, lastTransferAt: null },
      { name: "lock-grid-1.com", days: 60, createdAt: INSTANTS[2]!, lastTransferAt: INSTANTS[4]! },
      { name: "lock-grid-2.de", days: 0, createdAt: INSTANTS[3]!, lastTransferAt: INSTANTS[5]! },
      { name: "lock-grid-3.de", days: 0, createdAt: INSTANTS[1]!, lastTransferAt: null },
    ];
    for (const c of cases) {
      await createDomain(c.name, { nameservers: NS });
      await env.DB.prepare("update domains set created_at = ?1, last_transfer_at = ?2 where name = ?3").bind(c.createdAt, c.lastTransferAt, c.name).run();
      const read = await api("GET", `/v1/domains/${c.name}`);
      expect(read.status, read.text).toBe(200);
      expect(read.body.transfer_locked_until, c.name).toBe(transferLockedUntil(c.createdAt, c.lastTransferAt, c.days));
    }
    const listed = await api("GET", "/v1/domains?q=lock-grid-&limit=10");
    expect(listed.status, listed.text).toBe(200);
    for (const item of listed.body.data) {
      const c = cases.find((x) => x.name === item.name)!;
      expect(item.transfer_locked_until, c.name).toBe(transferLockedUntil(c.createdAt, c.lastTransferAt, c.days));
    }
    expect(listed.body.data).toHaveLength(cases.length);
  });
});

describe("serverStatusesOf and domainStatus (src/registry/statuses.ts) and the list's status filter agree", () => {
  it("for every status a filter may name, over stored client statuses, the lock, deletion, transfers and name servers", async () => {
    const rows: {
      name: string;
      statuses: string[];
      serverStatuses: string[];
      deleted: boolean;
      transfer: "none" | "pending" | "rejected";
      nameservers: number;
    }[] = [];
    let i = 0;
    for (const statuses of [[], ["clientHold"]])
      for (const serverStatuses of [[], ["serverHold"], ["serverDeleteProhibited", "serverTransferProhibited"]])
        for (const deleted of [false, true])
          for (const transfer of ["none", "pending", "rejected"] as const)
            for (const nameservers of [0, NS.length]) rows.push({ name: `state-grid-${i++}.com`, statuses, serverStatuses, deleted, transfer, nameservers });

    for (const [n, row] of rows.entries()) {
      await createDomain(row.name, nameservers(row.nameservers));
      await env.DB.prepare("update domains set statuses = ?1, server_statuses = ?2, deleted_at = ?3 where name = ?4")
        .bind(JSON.stringify(row.statuses), JSON.stringify(row.serverStatuses), row.deleted ? "2026-01-02T00:00:00.000Z" : null, row.name)
        .run();
      if (row.transfer !== "none") {
        await env.DB.prepare(
          `insert into transfers (id, domain_id, name, gaining_account_id, losing_account_id, status, period, requested_at, act_by)
           select ?1, id, name, ?2, ?2, ?3, 1, '2026-01-01T00:00:00.000Z', '2026-01-06T00:00:00.000Z' from domains where name = ?4`,
        )
          .bind(`trn_STATEGRID${String(n).padStart(17, "0")}`, OPERATOR, row.transfer, row.name)
          .run();
      }
    }

    /** What the rules say a row shows. */
    const shown = (row: (typeof rows)[number]) =>
      domainStatus(
        row.statuses,
        row.nameservers,
        serverStatusesOf({ serverStatuses: row.serverStatuses, deletedAt: row.deleted ? "deleted" : null, pendingTransfer: row.transfer === "pending" }),
      );

    // The representation: the rules applied to what the read computed in D1 (pendingTransfer among it).
    for (const row of rows) {
      const read = await api("GET", `/v1/domains/${row.name}`);
      expect(read.status, read.text).toBe(200);
      expect(read.body.status, JSON.stringify(row)).toEqual(shown(row));
    }

    // The filter: the SQL mirror selects exactly the rows showing the status.
    const db = database(env.DB);
    for (const status of DOMAIN_STATUS_FILTERS) {
      const found = await db
        .select({ name: domains.name })
        .from(domains)
        .where(and(sql`"domains"."name" like 'state-grid-%'`, domainStatusCondition(status)))
        .orderBy(asc(domains.name));
      const names = new Set(found.map((r) => r.name));
      for (const row of rows) expect(names.has(row.name), `${status} ${JSON.stringify(row)}`).toBe(shown(row).includes(status));
    }
    // The grid shows each of the registry's statuses somewhere, and somewhere not.
    for (const status of ["pendingDelete", "pendingTransfer", "inactive", "ok", "serverHold", "clientHold"]) {
      const showing = rows.filter((row) => shown(row).includes(status)).length;
      expect(showing, status).toBeGreaterThan(0);
      expect(showing, status).toBeLessThan(rows.length);
    }
  });
});

function nameservers(count: number) {
  return count === 0 ? {} : { nameservers: NS };
}
