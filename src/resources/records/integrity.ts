// A record write must not leave the zone in a state BIND refuses to load (contract §7:
// every export passes named-checkzone). The rules are pure (src/dns/zone-integrity.ts);
// this file reads what they need. Most writes need little: the apex name servers and the
// names the written record's target passes through. A write that changes the zone's
// structure (an alias or DNAME added, a delegation or DNAME removed) can break records
// anywhere in the zone, so it reads the zone's records (name, type, content) whole.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { records } from "../../db/schema";
import { absoluteOwnerName, relativeOwnerName } from "../../dns/name";
import { changesStructure, checkedTargets, type IntegrityProblem, neighbourhood, newIntegrityProblems, type ZoneRecordRef } from "../../dns/zone-integrity";
import { ApiError, validationError } from "../../http/problem";

interface RecordLike {
  name: string;
  type: string;
  content: string;
}

/** D1 takes at most 100 bound parameters: a name list is sent in pieces of this many. */
const NAMES_PER_QUERY = 90;

async function recordsAt(db: Database, zoneId: string, names: string[]): Promise<RecordLike[]> {
  const rows: RecordLike[] = [];
  for (let i = 0; i < names.length; i += NAMES_PER_QUERY) {
    rows.push(
      ...(await db
        .select({ name: records.name, type: records.type, content: records.content })
        .from(records)
        .where(and(eq(records.zoneId, zoneId), inArray(records.name, names.slice(i, i + NAMES_PER_QUERY))))),
    );
  }
  return rows;
}

/** Whether any record lies below `name` (relative; "@" is the apex): then `name` exists, if only as an empty non-terminal. */
async function hasDescendants(db: Database, zoneId: string, name: string): Promise<boolean> {
  const suffix = `.${name}`;
  const below =
    name === "@"
      ? sql`${records.name} <> '@'`
      : sql`length(${records.name}) > ${suffix.length} and substr(${records.name}, length(${records.name}) - ${suffix.length - 1}) = ${suffix}`;
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(records)
    .where(and(eq(records.zoneId, zoneId), below))
    .limit(1);
  return row !== undefined;
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
  db: Database,
  zone: { id: string; name: string },
  removed: RecordLike | null,
  added: RecordLike | null,
): Promise<void> {
  const ref = (record: RecordLike): ZoneRecordRef => ({ fqdn: absoluteOwnerName(record.name, zone.name), type: record.type, content: record.content });
  const removedRef = removed && ref(removed);
  const addedRef = added && ref(added);
  const same = (a: ZoneRecordRef, b: ZoneRecordRef | null) => b !== null && a.fqdn === b.fqdn && a.type === b.type && a.content === b.content;
  let before: ZoneRecordRef[] = [];
  let scope = {};
  let whole = changesStructure(zone.name, removedRef, addedRef);
  if (!whole) {
    // The names the lookups of the written names, of the written record's target and of the
    // apex name servers' targets pass through: usually one read, as the written names'
    // neighbourhood holds the apex; a second only for targets inside the zone.
    const read = new Set<string>();
    const readAt = async (names: string[]) => {
      const fresh = [...new Set(names)].filter((name) => !read.has(name));
      for (const name of fresh) read.add(name);
      if (fresh.length > 0)
        before.push(
          ...(
            await recordsAt(
              db,
              zone.id,
              fresh.map((name) => relativeOwnerName(name, zone.name)),
            )
          ).map(ref),
        );
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
        if (!before.some((r) => r.fqdn === name) && (await hasDescendants(db, zone.id, relativeOwnerName(name, zone.name)))) existing.push(name);
      }
    }
    scope = { existing, only: (r: ZoneRecordRef) => r === addedRef || (r.type === "NS" && r.fqdn === zone.name) };
    // A name left empty may now be answered by a wildcard alias, for any MX or SRV in the zone.
    const emptied = removedRef && addedRef?.fqdn !== removedRef.fqdn && !before.some((r) => r.fqdn === removedRef.fqdn && !same(r, removedRef));
    whole = emptied === true && before.some((r) => r.type === "CNAME" && r.fqdn.startsWith("*."));
  }
  if (whole) {
    before = (await db.select({ name: records.name, type: records.type, content: records.content }).from(records).where(eq(records.zoneId, zone.id))).map(ref);
    scope = {};
  }
  const kept = removedRef ? before.filter((r) => !same(r, removedRef)) : before;
  const after = addedRef ? [...kept, addedRef] : kept;
  const [problem] = newIntegrityProblems(zone.name, before, after, scope);
  if (problem) throw problemFor(problem, addedRef);
}
