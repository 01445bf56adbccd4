// RFC 2181 §5.2: the records of an RRset share one TTL. Writing a record's TTL sets it on
// the rest of its RRset; that change gets one `rrset` event (src/resources/records/rrset-events.ts).
// The later write wins whole.
import type { Statement, WriteContext } from "../../db/write";
import { alignRrsetTtl } from "./queries";
import { rrsetTtlEvent } from "./rrset-events";

/**
 * The statements that give the rest of the RRset of `record` its TTL: the RRset's event, then the
 * change. Both select the same rows at commit time (the rest of the RRset whose TTL
 * differs), so a record that joined the RRset, or whose TTL another request changed, since
 * the write read it is changed and counted all the same, and the RRset never keeps two
 * TTLs. Two statements and one event however large the RRset.
 */
export function rrsetTtlWrites(
  ctx: WriteContext,
  record: { id: string; zoneId: string; zoneName: string; name: string; type: string; ttl: number },
): Statement[] {
  const { db, at, actor } = ctx;
  const { ttl } = record;
  const change = { zoneId: record.zoneId, zoneName: record.zoneName, name: record.name, type: record.type, ttl, exceptId: record.id, at, actor };
  return [rrsetTtlEvent(db, change), alignRrsetTtl(db, record.zoneId, record.name, record.type, ttl, at, record.id)];
}
