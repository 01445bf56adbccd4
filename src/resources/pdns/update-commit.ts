// DNS UPDATE (RFC 2136), the deciding half (docs/dns-update.md): at commitTransaction the
// staged operations are applied to the zone as read now, and the result must pass what
// every write through the API passes — each record's RDATA and owner rules
// (src/dns/record.ts), the coexistence rules (CNAME alone, one DNAME: src/dns/rrset-rules.ts),
// the apex's NS, the zone's integrity (src/dns/zone-integrity.ts), the record limit — and
// the `records` rules of the zone's update key, which signed it (one per zone: PowerDNS
// does not tell its backend the key). Then one D1 batch writes it all: the records, one
// serial step, one event per record created, changed or deleted (`token`: the key's id),
// guarded so that a write through the API meanwhile makes it decide again. A refusal
// writes nothing; PowerDNS answers the client SERVFAIL and logs the reason given here.
import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import { recordRuleFor } from "../../access/token-rights";
import type { Database } from "../../db/client";
import { type ChunkedEvent, chunkedEventInserts } from "../../db/events";
import { guard } from "../../db/guards";
import { newId } from "../../db/ids";
import { records, tsigKeys, tsigUpdateZones, zones } from "../../db/schema";
import { touchZone } from "../../db/zones";
import { absoluteOwnerName } from "../../dns/name";
import { ownerOrder } from "../../dns/name-order";
import { checkRecord } from "../../dns/record";
import { coexistenceProblem } from "../../dns/rrset-rules";
import { newIntegrityProblems, type ZoneRecordRef } from "../../dns/zone-integrity";
import { commitWrite, readTogether, retryLostRaces, type Write, WriteContention, writeContextAt } from "../../db/write";
import { presentRecord } from "../records/present";
import type { RecordWithZone } from "../records/queries";
import { MAX_MASTER_FILE_RECORDS } from "../zones/master-file";
import { applyStaged, dropTransaction, type StagedOperation, stagedOperations } from "./update-staging";
import { dnsUpdateTransactions } from "../../db/schema";

/** Why an update is refused: the message PowerDNS logs (the client sees SERVFAIL). */
export class UpdateRefused extends Error {}

const ATTEMPTS = 5;

type Row = typeof records.$inferSelect;

interface Planned {
  zone: { id: string; name: string; accountId: string };
  keyId: string;
  deletes: Row[];
  ttlChanges: { row: Row; ttl: number }[];
  inserts: Row[];
  fingerprint: string;
}

async function plan(db: Database, trxid: number, now: Date): Promise<Planned | null> {
  const at = now.toISOString();
  const [trxRows, ops] = await readTogether(db, [
    db
      .select({ zoneId: zones.id, zone: zones.name, accountId: zones.accountId, recordCount: zones.recordCount })
      .from(dnsUpdateTransactions)
      .innerJoin(zones, eq(zones.id, dnsUpdateTransactions.zoneId))
      .where(eq(dnsUpdateTransactions.trxid, trxid)),
    stagedOperations(db, trxid),
  ]);
  const trx = trxRows[0];
  if (!trx) throw new UpdateRefused(`no open update transaction ${trxid}`);
  const [key] = await db
    .select({ id: tsigKeys.id, records: tsigKeys.records })
    .from(tsigUpdateZones)
    .innerJoin(tsigKeys, eq(tsigKeys.id, tsigUpdateZones.keyId))
    .where(and(eq(tsigUpdateZones.accountId, trx.accountId), eq(tsigUpdateZones.zone, trx.zone), or(isNull(tsigKeys.expiresAt), gt(tsigKeys.expiresAt, at))));
  if (!key) throw new UpdateRefused(`zone ${trx.zone} has no live TSIG key that allows update`);
  const before = await db.select().from(records).where(eq(records.zoneId, trx.zoneId));
  const fingerprint = `${before.length}:${before.reduce((sum, r) => sum + r.version, 0)}:${before.reduce((max, r) => (r.id > max ? r.id : max), "")}`;

  // The touched RRsets, as the staged operations leave them.
  const byOwner = new Map<string, StagedOperation[]>();
  for (const op of ops) byOwner.set(op.owner, [...(byOwner.get(op.owner) ?? []), op]);
  const deletes: Row[] = [];
  const ttlChanges: { row: Row; ttl: number }[] = [];
  const inserts: Row[] = [];
  const afterOwners = new Map<string, { type: string; content: string }[]>();
  for (const [owner, ownerOps] of byOwner) {
    const stored = before.filter((r) => r.name === owner);
    const staged = applyStaged(
      stored.map((r) => ({ type: r.type, content: r.content, ttl: r.ttl })),
      ownerOps,
      (type, r) => ({ type, content: r.content, ttl: r.ttl }),
    );
    const types = new Set(ownerOps.map((op) => op.type));
    const after: { type: string; content: string }[] = stored.filter((r) => !types.has(r.type)).map((r) => ({ type: r.type, content: r.content }));
    for (const type of types) {
      // The key's rules first: a name or type outside them is refused whatever the content.
      if (key.records !== null && !recordRuleFor(key.records, owner, type)) {
        throw new UpdateRefused(
          `the key ${key.id} may update only ${key.records.map((rule) => `${rule.name} ${rule.types.join("/")}`).join(", ") || "no name"}; ${type} at ${owner} is not among them`,
        );
      }
      const wanted = staged.filter((r) => r.type === type);
      const ttl = wanted.at(-1)?.ttl ?? 0;
      const contents: string[] = [];
      for (const r of wanted) {
        const { record, errors } = checkRecord(trx.zone, { name: owner, type, content: r.content });
        if (errors.length > 0)
          throw new UpdateRefused(`${absoluteOwnerName(owner, trx.zone)} ${type} ${r.content}: ${errors.map((e) => e.message).join("; ")}`);
        if (!contents.includes(record.content)) contents.push(record.content);
      }
      const old = stored.filter((r) => r.type === type);
      const changes =
        old.some((r) => !contents.includes(r.content)) || contents.some((c) => !old.some((r) => r.content === c)) || old.some((r) => r.ttl !== ttl);
      if (!changes) {
        after.push(...old.map((r) => ({ type, content: r.content })));
        continue;
      }
      for (const r of old) {
        if (!contents.includes(r.content)) deletes.push(r);
        else if (r.ttl !== ttl) ttlChanges.push({ row: r, ttl });
      }
      for (const content of contents) {
        if (old.some((r) => r.content === content)) continue;
        inserts.push({
          id: newId("record", now),
          zoneId: trx.zoneId,
          name: owner,
          type,
          content,
          ttl,
          comment: null,
          version: 1,
          ownerOrder: ownerOrder(owner),
          createdAt: at,
          updatedAt: at,
        });
      }
      after.push(...contents.map((content) => ({ type, content })));
    }
    afterOwners.set(owner, after);
  }
  if (deletes.length === 0 && ttlChanges.length === 0 && inserts.length === 0) return null;

  // The rules of the zone as a whole, on its records after the update.
  for (const [owner, after] of afterOwners) {
    for (const type of new Set(after.map((r) => r.type))) {
      const others = after.filter((r) => r.type !== type).map((r) => r.type);
      const problem =
        coexistenceProblem(type, others) ??
        (["CNAME", "DNAME"].includes(type) && after.filter((r) => r.type === type).length > 1 ? `a name has at most one ${type} record` : null);
      if (problem) throw new UpdateRefused(`${absoluteOwnerName(owner, trx.zone)}: ${problem}`);
    }
    if (owner === "@" && !after.some((r) => r.type === "NS")) throw new UpdateRefused("the zone apex must keep at least one NS record (RFC 1034 §4.2.1)");
  }
  const count = before.length - deletes.length + inserts.length;
  if (count > MAX_MASTER_FILE_RECORDS) throw new UpdateRefused(`${trx.zone} would hold ${count} records, more than a zone may (${MAX_MASTER_FILE_RECORDS})`);
  const ref = (r: { name: string; type: string; content: string }): ZoneRecordRef => ({
    fqdn: absoluteOwnerName(r.name, trx.zone),
    type: r.type,
    content: r.content,
  });
  const deleted = new Set(deletes.map((r) => r.id));
  const beforeRefs = before.map(ref);
  const afterRefs = [...before.filter((r) => !deleted.has(r.id)), ...inserts].map(ref);
  const [problem] = newIntegrityProblems(trx.zone, beforeRefs, afterRefs, {});
  if (problem)
    throw new UpdateRefused(`the ${problem.record.type} record at ${problem.record.fqdn} (${problem.record.content}) would break: ${problem.message}`);
  return { zone: { id: trx.zoneId, name: trx.zone, accountId: trx.accountId }, keyId: key.id, deletes, ttlChanges, inserts, fingerprint };
}

function withZone(row: Row, zoneName: string): RecordWithZone {
  return { ...row, zoneName };
}

function updateWrite(db: Database, trxid: number, p: Planned, now: Date): Write {
  const at = now.toISOString();
  const ids = (rows: Row[]) => JSON.stringify(rows.map((r) => r.id));
  const apexNs = (r: Row) => r.name === "@" && r.type === "NS";
  const events: ChunkedEvent[] = [
    ...p.deletes.map((r) => ({ before: presentRecord(withZone(r, p.zone.name)), after: null, id: r.id, operation: "delete" as const })),
    ...p.ttlChanges.map(({ row, ttl }) => ({
      before: presentRecord(withZone(row, p.zone.name)),
      after: presentRecord(withZone({ ...row, ttl, version: row.version + 1, updatedAt: at }, p.zone.name)),
      id: row.id,
      operation: "update" as const,
    })),
    ...p.inserts.map((r) => ({ before: null, after: presentRecord(withZone(r, p.zone.name)), id: r.id, operation: "create" as const })),
  ].map((e) => ({ ...e, at, actor: p.keyId, account: p.zone.accountId, type: "record" as const }));
  const byTtl = new Map<number, Row[]>();
  for (const { row, ttl } of p.ttlChanges) byTtl.set(ttl, [...(byTtl.get(ttl) ?? []), row]);
  const insertJson = JSON.stringify(p.inserts.map((r) => [r.id, r.name, r.type, r.content, r.ttl, r.ownerOrder]));
  // Nothing in the zone changed since it was read (else: read again, decide again).
  const asRead = guard(
    db,
    "the zone's records are those read",
    sql`(select count(*) || ':' || coalesce(sum(${records.version}), 0) || ':' || coalesce(max(${records.id}), '') from ${records} where ${records.zoneId} = ${p.zone.id}) = ${p.fingerprint}`,
  );
  return {
    first: [asRead],
    alongside: [
      // CNAME triggers see the names emptied before the new records arrive; the apex NS that
      // go, only after the new ones came (drizzle/0003_dns_rules.sql).
      db.delete(records).where(sql`${records.id} in (select value from json_each(${ids(p.deletes.filter((r) => !apexNs(r)))}))`),
      ...[...byTtl].map(([ttl, rows]) =>
        db
          .update(records)
          .set({ ttl, updatedAt: at, version: sql`${records.version} + 1` })
          .where(sql`${records.id} in (select value from json_each(${ids(rows)}))`),
      ),
      db.insert(records).select(
        db
          .select({
            id: sql<string>`json_extract(value, '$[0]')`.as("id"),
            zoneId: sql<string>`${p.zone.id}`.as("zone_id"),
            name: sql<string>`json_extract(value, '$[1]')`.as("name"),
            type: sql<string>`json_extract(value, '$[2]')`.as("type"),
            content: sql<string>`json_extract(value, '$[3]')`.as("content"),
            ttl: sql<number>`json_extract(value, '$[4]')`.as("ttl"),
            comment: sql<null>`null`.as("comment"),
            version: sql<number>`1`.as("version"),
            ownerOrder: sql<string>`json_extract(value, '$[5]')`.as("owner_order"),
            createdAt: sql<string>`${at}`.as("created_at"),
            updatedAt: sql<string>`${at}`.as("updated_at"),
          })
          .from(sql`json_each(${insertJson})`),
      ),
      db.delete(records).where(sql`${records.id} in (select value from json_each(${ids(p.deletes.filter(apexNs))}))`),
      // One serial step for the whole update (RFC 2136 §3.6), whatever PowerDNS computed.
      touchZone(db, p.zone.id, now),
      ...chunkedEventInserts(db, events),
      ...dropTransaction(db, trxid),
    ],
  };
}

/** commitTransaction: applies the staged update in one batch, or refuses it (UpdateRefused) and drops it. */
export async function commitTransaction(db: Database, trxid: number): Promise<void> {
  const drop = () => commitWrite(writeContextAt(db, new Date(), "pdns"), { alongside: dropTransaction(db, trxid) });
  try {
    await retryLostRaces(async () => {
      const now = new Date();
      const planned = await plan(db, trxid, now);
      if (planned === null) return drop();
      return commitWrite(writeContextAt(db, now, planned.keyId), updateWrite(db, trxid, planned, now), (failure) => {
        if (failure === "rrset_conflict") return new UpdateRefused("a CNAME must be alone at its name (RFC 1034 §3.6.2)");
        if (failure === "apex_ns_required") return new UpdateRefused("the zone apex must keep at least one NS record (RFC 1034 §4.2.1)");
        if (failure === "unique") return new UpdateRefused("a record of the update exists already (written meanwhile)");
        return undefined;
      });
    }, ATTEMPTS);
  } catch (error) {
    const refusal = error instanceof WriteContention ? new UpdateRefused("other writes to the zone kept committing first; send the update again") : error;
    if (refusal instanceof UpdateRefused) await drop();
    throw refusal;
  }
}
