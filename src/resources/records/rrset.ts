// RFC 2181 §5.2: the records of an RRset share one TTL. Writing a record's TTL sets it on
// the rest of its RRset; those records change too, so each gets an `update` event,
// written only if the batch changed it. The later write wins whole.
import { and, eq, sql } from "drizzle-orm";
import { eventInsert, rowExists } from "../../db/events";
import { failUnless } from "../../db/guards";
import { records } from "../../db/schema";
import type { Statement, WriteContext } from "../../http/mutate";
import { presentRecord } from "./present";
import { alignRrsetTtl, type RecordWithZone, rrsetAlignsAsRead } from "./queries";

/**
 * The statements that give the RRset of `record` the TTL `ttl`, after a guard that fails
 * the batch when the alignment would change a record not read as it is (`rrset`): one
 * that joined the RRset with another TTL, or whose TTL another request changed, would
 * otherwise keep two TTLs or change without its event. The write then reads again.
 */
export function rrsetTtlWrites(
  ctx: WriteContext,
  record: { id: string; zoneId: string; name: string; type: string },
  ttl: number,
  rrset: readonly RecordWithZone[],
): Statement[] {
  const { db, at, actor } = ctx;
  const guard = failUnless(db, { type: "record", id: record.id }, rrsetAlignsAsRead(record, ttl, rrset));
  if (rrset.length === 0) return [guard];
  const events = rrset
    .filter((other) => other.ttl !== ttl)
    .map((other) => {
      const next = { ...other, ttl, version: other.version + 1, updatedAt: at };
      return eventInsert(
        db,
        {
          at,
          actor,
          account: sql`(select account_id from main.zones where id = ${other.zoneId})`,
          type: "record",
          id: other.id,
          operation: "update",
          before: presentRecord(other),
          after: presentRecord(next),
        },
        { onlyIf: rowExists(records, and(eq(records.id, other.id), eq(records.ttl, ttl), eq(records.updatedAt, at))!) },
      );
    });
  return [guard, alignRrsetTtl(db, record.zoneId, record.name, record.type, ttl, at, record.id), ...events];
}
