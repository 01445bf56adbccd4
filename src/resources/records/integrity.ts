// A record write must not leave the zone in a state BIND refuses to load (docs/dns.md#zones:
// every export passes named-checkzone). The rules are pure (src/dns/zone-integrity.ts);
// this file decides what they need. Most writes need little: the apex name servers and the
// names the written record's target passes through. A write that changes the zone's
// structure (an alias or DNAME added, a delegation or DNAME removed) can break records
// anywhere in the zone, so it reads the zone's records (name, type, content) whole. The
// rows come from an `IntegritySource`: a record write's own read batch brought them
// (integrity-reads.ts), so the check costs no round trip of its own.
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { guard } from "../../db/guards";
import { records } from "../../db/schema";
import { absoluteOwnerName, relativeOwnerName } from "../../dns/name";
import { ownerOrder } from "../../dns/name-order";
import { changesStructure, checkedTargets, type IntegrityProblem, neighbourhood, newIntegrityProblems, type ZoneRecordRef } from "../../dns/zone-integrity";
import { ApiError, validationError } from "../../http/problem";

interface RecordLike {
  name: string;
  type: string;
  content: string;
}

/** D1 takes at most 100 bound parameters: a name list is sent in pieces of this many. */
const NAMES_PER_QUERY = 90;

/** A record as the check reads it: what the rules look at, the version its guard compares, the TTL its RRset has. */
export interface ReadRecord extends RecordLike {
  id: string;
  version: number;
  ttl: number;
}

const readColumns = { id: records.id, version: records.version, name: records.name, type: records.type, content: records.content, ttl: records.ttl };

async function recordsAt(db: Database, zoneId: string, names: string[]): Promise<ReadRecord[]> {
  const rows: ReadRecord[] = [];
  for (let i = 0; i < names.length; i += NAMES_PER_QUERY) {
    rows.push(
      ...(await db
        .select(readColumns)
        .from(records)
        .where(and(eq(records.zoneId, zoneId), inArray(records.name, names.slice(i, i + NAMES_PER_QUERY))))),
    );
  }
  return rows;
}

/**
 * The records below `name` (relative; "@" is the apex): one range of records_owner_order_idx
 * (zone_id, owner_order), whose keys are the owners' labels reversed and space-joined, so
 * the names below `ent` are the keys from `ent ` to `ent!` (src/dns/name-order.ts).
 */
function below(name: string): SQL {
  const key = ownerOrder(name);
  return key === "" ? sql`${records.ownerOrder} > ''` : sql`${records.ownerOrder} > ${`${key} `} and ${records.ownerOrder} < ${`${key}!`}`;
}

/** A record set as a guard compares it: each id with its version, in id order. */
function fingerprint(rows: readonly { id: string; version: number }[]): string {
  return rows
    .map((r) => `${r.id}:${r.version}`)
    .sort()
    .join(",");
}

/**
 * What the check read, as conditions that hold at commit only if none of it changed
 * meanwhile: a write committed between this write's reads and its batch (two writes that
 * each keep the zone loadable alone can break it together: an NS added to a name whose
 * address another write removes) makes the batch fail and the write decide again. Each
 * condition stays within D1's bound parameters; the batch checks them before its write.
 */
export type IntegrityReads = SQL[];

/**
 * Where the check's rows come from: the write's own read batch, which brought them with
 * the zone or the record (src/resources/records/integrity-reads.ts), or the database.
 * Names are relative to the zone ("@" is the apex).
 */
export interface IntegritySource {
  /** The records at these names. */
  recordsAt(names: string[]): Promise<ReadRecord[]>;
  /** Whether any record lies below `name`: then it exists, if only as an empty non-terminal. */
  hasDescendants(name: string): Promise<boolean>;
  /** Every record of the zone. */
  wholeZone(): Promise<ReadRecord[]>;
}

/** The check's reads, each a query of its own. */
export function databaseSource(db: Database, zoneId: string): IntegritySource {
  return {
    recordsAt: (names) => recordsAt(db, zoneId, names),
    async hasDescendants(name) {
      const [row] = await db
        .select({ one: sql<number>`1` })
        .from(records)
        .where(and(eq(records.zoneId, zoneId), below(name)))
        .limit(1);
      return row !== undefined;
    },
    wholeZone: () => db.select(readColumns).from(records).where(eq(records.zoneId, zoneId)),
  };
}

function problemFor(problem: IntegrityProblem, added: ZoneRecordRef | null): ApiError {
  if (problem.record === added) return validationError([{ field: "content", message: problem.message }]);
  const { fqdn, type, content } = problem.record;
  return new ApiError("rrset_conflict", `The ${type} record at ${fqdn} (${content}) would break: ${problem.message}.`);
}

/**
 * Refuses a write (`removed` gone, `added` there: a PATCH is both) that would give the
 * zone an integrity fault BIND refuses; faults the zone already had are not this write's.
 */
export async function assertZoneIntegrity(
  source: IntegritySource,
  zone: { id: string; name: string },
  removed: RecordLike | null,
  added: RecordLike | null,
): Promise<IntegrityReads> {
  const ref = (record: RecordLike): ZoneRecordRef => ({ fqdn: absoluteOwnerName(record.name, zone.name), type: record.type, content: record.content });
  // What was read, for the guards: the rows at each name read, and each answer about descendants.
  const readRows: ReadRecord[] = [];
  const readNames: string[] = [];
  const descendants: { name: string; exists: boolean }[] = [];
  let wholeZone: ReadRecord[] | null = null;
  const removedRef = removed && ref(removed);
  const addedRef = added && ref(added);
  const same = (a: ZoneRecordRef, b: ZoneRecordRef | null) => b !== null && a.fqdn === b.fqdn && a.type === b.type && a.content === b.content;
  let before: ZoneRecordRef[] = [];
  let scope = {};
  let whole = changesStructure(zone.name, removedRef, addedRef);
  if (!whole) {
    // The names the lookups of the written names, of the written record's target and of the
    // apex name servers' targets pass through: the written names' neighbourhood first (it
    // holds the apex), then the targets' inside the zone.
    const read = new Set<string>();
    const readAt = async (names: string[]) => {
      const fresh = [...new Set(names)].filter((name) => !read.has(name));
      for (const name of fresh) read.add(name);
      if (fresh.length === 0) return;
      const relative = fresh.map((name) => relativeOwnerName(name, zone.name));
      const rows = await source.recordsAt(relative);
      readNames.push(...relative);
      readRows.push(...rows);
      before.push(...rows.map(ref));
    };
    const written = [removedRef, addedRef].filter((r): r is ZoneRecordRef => r !== null);
    await readAt(written.flatMap((r) => neighbourhood(zone.name, r.fqdn)));
    const apexNs = before.filter((r) => r.type === "NS" && r.fqdn === zone.name);
    const starts = [...apexNs, ...(addedRef ? [addedRef] : [])].flatMap((r) => checkedTargets(zone.name, r));
    await readAt(starts.flatMap((name) => neighbourhood(zone.name, name)));
    starts.push(...written.map((r) => r.fqdn));
    // A wildcard answers only for names that do not exist, and a name exists when anything lies below it.
    const existing: string[] = [];
    if (before.some((r) => r.fqdn.startsWith("*."))) {
      for (const name of new Set(starts)) {
        if (before.some((r) => r.fqdn === name)) continue;
        const relative = relativeOwnerName(name, zone.name);
        const exists = await source.hasDescendants(relative);
        descendants.push({ name: relative, exists });
        if (exists) existing.push(name);
      }
    }
    scope = { existing, only: (r: ZoneRecordRef) => r === addedRef || (r.type === "NS" && r.fqdn === zone.name) };
    // A name left empty may now be answered by a wildcard alias, for any MX or SRV in the zone.
    const emptied = removedRef && addedRef?.fqdn !== removedRef.fqdn && !before.some((r) => r.fqdn === removedRef.fqdn && !same(r, removedRef));
    whole = emptied === true && before.some((r) => r.type === "CNAME" && r.fqdn.startsWith("*."));
  }
  if (whole) {
    wholeZone = await source.wholeZone();
    before = wholeZone.map(ref);
    scope = {};
  }
  const kept = removedRef ? before.filter((r) => !same(r, removedRef)) : before;
  const after = addedRef ? [...kept, addedRef] : kept;
  const [problem] = newIntegrityProblems(zone.name, before, after, scope);
  if (problem) throw problemFor(problem, addedRef);
  return wholeZone ? [unchangedZone(zone.id, wholeZone)] : unchangedReads(zone.id, readNames, readRows, descendants);
}

/**
 * The whole zone as read: its number of records, the sum of their versions and the
 * largest id (an insert adds a larger id, a delete lowers the count, an update raises a
 * version), compared in one statement whatever the zone's size.
 */
function unchangedZone(zoneId: string, rows: readonly ReadRecord[]): SQL {
  const expected = `${rows.length}:${rows.reduce((sum, r) => sum + r.version, 0)}:${rows.reduce((max, r) => (r.id > max ? r.id : max), "")}`;
  return sql`(select count(*) || ':' || coalesce(sum(${records.version}), 0) || ':' || coalesce(max(${records.id}), '') from ${records} where ${records.zoneId} = ${zoneId}) = ${expected}`;
}

function unchangedReads(
  zoneId: string,
  names: readonly string[],
  rows: readonly ReadRecord[],
  descendants: readonly { name: string; exists: boolean }[],
): SQL[] {
  const conditions: SQL[] = [];
  for (let i = 0; i < names.length; i += NAMES_PER_QUERY) {
    const chunk = names.slice(i, i + NAMES_PER_QUERY);
    const expected = fingerprint(rows.filter((r) => chunk.includes(r.name)));
    conditions.push(
      sql`coalesce((select group_concat(${records.id} || ':' || ${records.version}, ',' order by ${records.id}) from ${records} where ${records.zoneId} = ${zoneId} and ${inArray(records.name, chunk)}), '') = ${expected}`,
    );
  }
  // A few parameters each: 20 to a statement.
  for (let i = 0; i < descendants.length; i += 20) {
    conditions.push(
      sql.join(
        descendants
          .slice(i, i + 20)
          .map((d) => sql`exists(select 1 from ${records} where ${records.zoneId} = ${zoneId} and ${below(d.name)}) = ${d.exists ? 1 : 0}`),
        sql` and `,
      ),
    );
  }
  return conditions;
}

/** The statements that fail a record write's batch, before its write, if what its integrity check read has changed. */
export function integrityGuards(db: Database, _zoneId: string, reads: IntegrityReads) {
  return reads.map((holds) => guard(db, "the zone still loads", holds));
}
