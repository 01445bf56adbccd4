// RFC 2181 §5.2: the records of an RRset share one TTL. Writing a record's TTL sets it on
// the rest of its RRset; those records change too, so each gets an `update` event,
// written only if the batch changed it.
import { and, eq, sql } from "drizzle-orm";
import { eventInsert, rowExists } from "../../db/events";
import { records } from "../../db/schema";
import type { Statement, WriteContext } from "../../http/mutate";
import { presentRecord } from "./present";
import { alignRrsetTtl, type RecordWithZone } from "./queries";

/**
 * The statements that give the RRset of `record` the TTL `ttl`: nothing when the record
 * is alone in it. The batch always imposes the TTL (a no-op when the others agree), so a
 * TTL change committed by another request since our read cannot leave two TTLs.
 */
export function rrsetTtlWrites(
  ctx: WriteContext,
  record: { id: string; zoneId: string; name: string; type: string },
  ttl: number,
  rrset: readonly RecordWithZone[],
): Statement[] {
  if (rrset.length === 0) return [];
  const { db, at, actor } = ctx;
  const events = rrset
    .filter((other) => other.ttl !== ttl)
    .map((other) => {
      const next = { ...other, ttl, version: other.version + 1, updatedAt: at };
      return eventInsert(
        db,
        { at, actor, account: sql`(select account_id from main.zones where id = ${other.zoneId})`, type: "record", id: other.id, operation: "update", before: presentRecord(other), after: presentRecord(next) },
        { onlyIf: rowExists(records, and(eq(records.id, other.id), eq(records.ttl, ttl), eq(records.updatedAt, at))!) },
      );
    });
  return [alignRrsetTtl(db, record.zoneId, record.name, record.type, ttl, at, record.id), ...events];
}
