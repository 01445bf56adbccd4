// Records as the write routine sees them (src/http/mutate.ts), and what their operations share.
import { type SQL, sql } from "drizzle-orm";
import type { WriteFailure } from "../../db/errors";
import type { ZoneWithLinks } from "../../db/zones";
import { type CheckedRecord, checkRecord } from "../../dns/record";
import { apexNsRemovalProblem, neighbourConflict, rrsetSizeProblem, rrsetWireOctets } from "../../dns/rrset-rules";
import { rdataWire } from "../../dns/rdata";
import type { ResourceRef } from "../../db/ref";
import { resourceRef } from "../../http/lookup";
import type { Collection } from "../../http/mutate";
import { ApiError, validationError } from "../../http/problem";
import type { IntegritySource } from "./integrity";
import { presentRecord } from "./present";
import { findRecord, type RecordWithZone } from "./queries";
import type { DnsRecord } from "./schemas";
import { apexKeysOf, signingRoom, signingRoomSql } from "../../db/zone-keys";
import { MAX_MASTER_FILE_RECORDS } from "../zones/master-file";

// Records have no name of their own to be found by: a path segment is always an id.
export const recordCollection: Collection<RecordWithZone, DnsRecord> = {
  type: "record",
  path: "/v1/records",
  byName: false,
  find: findRecord,
  present: presentRecord,
  // A record belongs to its zone's account (docs/accounts.md).
  accountOf: (row) => sql`(select account_id from main.zones where id = ${row.zoneId})`,
};

/** The draft as a record of the zone (docs/dns.md#records), or the 422 that lists every bad field. */
export function validRecord(zone: string, draft: { name?: string | undefined; type: string; content: string }): CheckedRecord {
  const { record, errors } = checkRecord(zone, draft);
  if (errors.length > 0) throw validationError(errors);
  return record;
}

/** The rules between a record and the others at its name (RFC 2181 §5, RFC 1034 §3.6.2). */
export function checkNeighbours(record: CheckedRecord, others: readonly { type: string; content: string }[], zoneName: string): void {
  const conflict = neighbourConflict(record, others);
  if (conflict) throw new ApiError(conflict.kind === "duplicate" ? "already_exists" : "rrset_conflict", conflict.message);
  // The RRset with this record must still fit one DNS message.
  const rrset = [record.content, ...others.filter((o) => o.type === record.type).map((o) => o.content)];
  const octets = rrsetWireOctets(
    record.name === "@" ? zoneName : `${record.name}.${zoneName}`,
    rrset.map((content) => {
      const wire = rdataWire(record.type, content);
      return wire.ok ? wire.value.length : 0;
    }),
  );
  const tooLarge = rrsetSizeProblem(record.name, record.type, octets);
  if (tooLarge) throw new ApiError("policy_violation", `${tooLarge}.`, { errors: [{ field: "content", message: tooLarge }] });
}

/** The zone a record body names, by id or name: a body field, so a bad reference is a 422. */
export function zoneReference(reference: string): ResourceRef {
  try {
    return resourceRef(reference, "zone");
  } catch {
    throw new ApiError("validation_failed", `zone: "${reference}" is neither a zone id nor a valid zone name.`, {
      errors: [{ field: "zone", message: `"${reference}" is neither a zone id nor a valid zone name` }],
    });
  }
}

/** The zone the body named, as read (`findZone`), or the 422 that says none exists. */
export function requireBodyZone(zone: ZoneWithLinks | undefined, reference: string): ZoneWithLinks {
  if (!zone) {
    throw new ApiError("validation_failed", `zone: no zone ${reference} exists.`, { errors: [{ field: "zone", message: `zone ${reference} does not exist` }] });
  }
  return zone;
}

/**
 * The apex keeps at least one NS record (RFC 1034 §4.2.1): a write that takes `record` off
 * the apex NS RRset (a delete, a move) answers 409 when it is the last. The apex is read
 * with every record write's neighbourhood; a trigger holds the rule at commit too.
 */
export async function requireApexNsLeft(source: IntegritySource, record: { name: string; type: string }): Promise<void> {
  if (record.name !== "@" || record.type !== "NS") return;
  const count = (await source.recordsAt(["@"])).filter((r) => r.type === "NS").length;
  const lastApexNs = apexNsRemovalProblem(record, count);
  if (lastApexNs) throw new ApiError("rrset_conflict", lastApexNs);
}

/** What the database's own DNS rules (drizzle/0003_dns_rules.sql) answer when they fire at commit. */
export function recordWriteProblem(failure: WriteFailure): ApiError | undefined {
  switch (failure) {
    case "unique":
      return new ApiError("already_exists", "An identical record (name, type, content) already exists.");
    case "rrset_conflict":
      return new ApiError("rrset_conflict", "A CNAME must be alone at its name (RFC 1034 §3.6.2), and a record written at the same time conflicts.");
    case "apex_ns_required":
      return new ApiError("rrset_conflict", "The zone apex must keep at least one NS record (RFC 1034 §4.2.1).");
    default:
      return undefined;
  }
}

/**
 * A zone holds at most as many records as an import takes (MAX_MASTER_FILE_RECORDS), so
 * that every zone can be exported within the memory the import limits were measured for,
 * and imported back; a signed zone fewer by the apex records its keys add to its export
 * (signingRoom: a DNSKEY for each key, a CDS and a CDNSKEY for each KSK or combined key).
 * Refused with 422 naming `field` (the body's `zone`; a batch of changes' `changes`) when
 * `added` more records would pass it; `zoneHoldsRoom` is the same rule as a guard at the
 * write's turn in its batch (concurrent creates cannot pass it together).
 */
export function requireRoomInZone(zone: ZoneWithLinks, added = 1, field = "zone"): void {
  const count = zone.recordCount + added;
  const room = signingRoom(apexKeysOf(zone.dnssecKeys), zone.soaMinimum).records;
  const most = MAX_MASTER_FILE_RECORDS - room;
  if (added <= 0 || count <= most) return;
  const why =
    room > 0
      ? `the import limit less the ${room} records its keys add to its export (DNSKEY, CDS, CDNSKEY), so that every zone can be exported and imported back`
      : "the import limit, so that every zone can be exported and imported back";
  const message =
    added === 1
      ? `${zone.name} holds ${zone.recordCount} records, the most a zone may hold (${why}): delete records first`
      : `${zone.name} would hold ${count} records, more than a zone may hold (${most}, ${why}): delete records first`;
  throw new ApiError("policy_violation", `${field}: ${message}.`, { errors: [{ field, message }] });
}

export function zoneHoldsRoom(zoneId: string): SQL {
  const room = signingRoomSql(sql`${zoneId}`, sql`(select soa_minimum from zones where id = ${zoneId})`);
  return sql`(select record_count from zones where id = ${zoneId}) + ${room.records} <= ${MAX_MASTER_FILE_RECORDS}`;
}
