// DNS UPDATE (RFC 2136) through the remote backend, the staging half (docs/dns-update.md).
// PowerDNS runs an update as separate HTTP calls — startTransaction, lookups, replaceRRSet
// and feedRecord, then commitTransaction or abortTransaction — and D1 has no transaction
// that spans requests. So the calls between start and commit are staged in D1
// (dns_update_transactions, dns_update_operations), the lookups PowerDNS makes meanwhile
// see the staged state, and commitTransaction decides and applies everything in one batch
// (update-commit.ts). PowerDNS 4.7 runs one update at a time per server (a process-wide
// lock in rfc2136handler.cc), so the zone's open transaction is the one its lookups belong
// to; its transaction id is the primary's clock in seconds.
import { and, asc, eq, lt, sql } from "drizzle-orm";
import type { Context } from "hono";
import type { Database } from "../../db/client";
import { dnsUpdateOperations, dnsUpdateTransactions, records, zones } from "../../db/schema";
import type { AppEnv } from "../../env";
import { absolute, parseQueryName } from "./names";
import { commitWrite, readTogether, writeContextAt } from "../../db/write";

/** A transaction left open longer than this (PowerDNS died mid-update) is dropped at the next start. */
const STALE_AFTER_MS = 10 * 60 * 1000;

export interface StagedRecord {
  content: string;
  ttl: number;
}

export type StagedOperation = { kind: "replace" | "feed"; owner: string; type: string; records: StagedRecord[] };

/** A name PowerDNS sent, relative to `zone` (`@` the apex), or null when it is outside it. */
export function ownerIn(zone: string, qname: string): string | null {
  const name = parseQueryName(qname);
  if (!name) return null;
  if (name.key === zone) return "@";
  return name.key.endsWith(`.${zone}`) ? name.key.slice(0, -(zone.length + 1)) : null;
}

/**
 * The connector's form bodies (application/x-www-form-urlencoded). PowerDNS 4.7 writes a
 * boolean member as a bare `1`/`0` without its name, and joins the records of replaceRRSet
 * with no `&` between them, so each record's last member (`ttl`, members in name order)
 * runs into the next record's bare boolean: `rrset[0][ttl]=3001&rrset[1][content]=…`.
 * Records of an RRset share one TTL (RFC 2181 §5.2), so the last record's, which nothing
 * follows, is the RRset's.
 */
export function formRecords(body: string, prefix: "rr" | "rrset"): { qname: string; qtype: string; content: string; ttl: number }[] {
  const byIndex = new Map<string, Record<string, string>>();
  for (const part of body.split("&")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = decodeURIComponent(part.slice(0, eq).replace(/\+/g, " "));
    const value = decodeURIComponent(part.slice(eq + 1).replace(/\+/g, " "));
    const match = prefix === "rr" ? /^rr\[(\w+)\]$/.exec(key) : /^rrset\[(\d+)\]\[(\w+)\]$/.exec(key);
    if (!match) continue;
    const index = prefix === "rr" ? "0" : match[1]!;
    const field = prefix === "rr" ? match[1]! : match[2]!;
    const entry = byIndex.get(index) ?? {};
    entry[field] = value;
    byIndex.set(index, entry);
  }
  const entries = [...byIndex.entries()].sort((a, b) => Number(a[0]) - Number(b[0])).map(([, entry]) => entry);
  const lastTtl = Number(entries.at(-1)?.ttl ?? "0");
  return entries.map((entry) => ({
    qname: entry.qname ?? "",
    qtype: (entry.qtype ?? "").toUpperCase(),
    content: entry.content ?? "",
    ttl: Number.isFinite(lastTtl) ? lastTtl : 0,
  }));
}

function openTransaction(db: Database, trxid: number) {
  return db
    .select({ trxid: dnsUpdateTransactions.trxid, zoneId: zones.id, zone: zones.name })
    .from(dnsUpdateTransactions)
    .innerJoin(zones, eq(zones.id, dnsUpdateTransactions.zoneId))
    .where(eq(dnsUpdateTransactions.trxid, trxid));
}

export function stagedOperations(db: Database, trxid: number) {
  return db.select().from(dnsUpdateOperations).where(eq(dnsUpdateOperations.trxid, trxid)).orderBy(asc(dnsUpdateOperations.seq));
}

/** Removes a transaction and what it staged. */
export function dropTransaction(db: Database, trxid: number) {
  return [
    db.delete(dnsUpdateOperations).where(eq(dnsUpdateOperations.trxid, trxid)),
    db.delete(dnsUpdateTransactions).where(eq(dnsUpdateTransactions.trxid, trxid)),
  ] as const;
}

/** startTransaction: a fresh staging area for the zone (a reused id, one second later, starts over). */
export async function startTransaction(db: Database, zoneText: string, trxid: number): Promise<boolean> {
  const name = parseQueryName(zoneText);
  if (!name) return false;
  const [zone] = await db.select({ id: zones.id }).from(zones).where(eq(zones.name, name.key));
  if (!zone) return false;
  const now = new Date();
  const stale = new Date(now.getTime() - STALE_AFTER_MS).toISOString();
  await commitWrite(writeContextAt(db, now, "pdns"), {
    alongside: [
      ...dropTransaction(db, trxid),
      db
        .delete(dnsUpdateOperations)
        .where(sql`${dnsUpdateOperations.trxid} in (select trxid from ${dnsUpdateTransactions} where ${lt(dnsUpdateTransactions.startedAt, stale)})`),
      db.delete(dnsUpdateTransactions).where(lt(dnsUpdateTransactions.startedAt, stale)),
      // One open update per zone: PowerDNS holds its update lock, so an older one was abandoned.
      db
        .delete(dnsUpdateOperations)
        .where(sql`${dnsUpdateOperations.trxid} in (select trxid from ${dnsUpdateTransactions} where ${eq(dnsUpdateTransactions.zoneId, zone.id)})`),
      db.delete(dnsUpdateTransactions).where(eq(dnsUpdateTransactions.zoneId, zone.id)),
      db.insert(dnsUpdateTransactions).values({ trxid, zoneId: zone.id, startedAt: now.toISOString() }),
    ],
  });
  return true;
}

/** replaceRRSet or feedRecord: one more staged operation. False when no such transaction, or a name outside its zone. */
export async function stage(db: Database, trxid: number, kind: "replace" | "feed", qname: string, qtype: string, staged: StagedRecord[]): Promise<boolean> {
  const [trx] = await openTransaction(db, trxid);
  if (!trx) return false;
  const owner = ownerIn(trx.zone, qname);
  if (owner === null || !/^[A-Z0-9-]{1,20}$/.test(qtype)) return false;
  // The zone's SOA is the service's: its serial takes one step at commit, whatever PowerDNS computed.
  if (qtype === "SOA") return true;
  await db.insert(dnsUpdateOperations).values({ trxid, kind, owner, type: qtype, records: staged });
  return true;
}

/** The RRsets of `base` (records at one owner) after `operations` for that owner, in order. */
export function applyStaged<R extends { type: string; content: string; ttl: number }>(
  base: readonly R[],
  operations: readonly StagedOperation[],
  make: (type: string, record: StagedRecord) => R,
): R[] {
  let current = [...base];
  for (const op of operations) {
    if (op.kind === "replace") current = [...current.filter((r) => r.type !== op.type), ...op.records.map((r) => make(op.type, r))];
    else current.push(...op.records.map((r) => make(op.type, r)));
  }
  return current;
}

/**
 * A lookup PowerDNS makes inside an update (no packet: remote 0.0.0.0, and the zone's
 * number) while the zone has an open transaction: the records at the name with what the
 * transaction staged applied. Null for every other lookup, which reads the stored zone.
 */
export async function stagedLookup(c: Context<AppEnv>, qname: string, qtype: string) {
  const zoneNumber = c.req.header("x-remotebackend-zone-id");
  if (c.req.header("x-remotebackend-remote") !== "0.0.0.0" || zoneNumber === undefined || !/^[0-9]{1,15}$/.test(zoneNumber)) return null;
  const db = c.get("db");
  const [trx] = await db
    .select({ trxid: dnsUpdateTransactions.trxid, zoneId: zones.id, zone: zones.name, domainId: sql<number>`${zones}.rowid` })
    .from(dnsUpdateTransactions)
    .innerJoin(zones, eq(zones.id, dnsUpdateTransactions.zoneId))
    .where(sql`${zones}.rowid = ${Number(zoneNumber)}`);
  if (!trx) return null;
  const owner = ownerIn(trx.zone, qname);
  if (owner === null) return null;
  const [stored, ops] = await readTogether(db, [
    db
      .select({ type: records.type, content: records.content, ttl: records.ttl })
      .from(records)
      .where(and(eq(records.zoneId, trx.zoneId), eq(records.name, owner))),
    stagedOperations(db, trx.trxid),
  ]);
  const here = ops.filter((op) => op.owner === owner);
  const result = applyStaged(stored, here, (type, r) => ({ type, content: r.content, ttl: r.ttl }))
    .filter((r) => qtype === "ANY" || r.type === qtype)
    .map((r) => ({ qtype: r.type, qname, content: r.content, ttl: r.ttl, domain_id: trx.domainId }));
  return { result: result.length > 0 ? result : (false as const), zone: absolute(trx.zone) };
}
