// RFC 2181 §5.2: when a write sets an RRset's TTL, the other records of the RRset change
// too. That is one change, so it is one event, whatever the size of the RRset: resource
// type `rrset`, its resource the zone the RRset is in (so whoever sees the zone sees it),
// `before` and `after` the RRset's name, type, TTL and how many of its records took the new
// TTL. An event per record made a TTL change on a 25 000-record RRset write 25 000 events
// (4 MB) for a 12-byte request. The event is written by one statement just before the
// change, from the rows as they are at that point of the batch, and only when a record
// changes (docs/dns.md, "TTL belongs to the RRset").
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { idFromStem, newIdStem } from "../../db/id-sets";
import { events, records } from "../../db/schema";

export interface RrsetTtlChange {
  zoneId: string;
  /** The zone's name, for each record's `fqdn`. */
  zoneName: string;
  name: string;
  type: string;
  ttl: number;
  /** The written record, which has its own event. */
  exceptId: string;
  /** The write's time: the records' new `updated_at`. */
  at: string;
  actor: string;
}

/** The records `alignRrsetTtl` changes: the rest of the RRset, where the TTL differs. */
function changing(change: RrsetTtlChange): SQL {
  return and(
    eq(records.zoneId, change.zoneId),
    eq(records.name, change.name),
    eq(records.type, change.type),
    sql`${records.ttl} <> ${change.ttl}`,
    sql`${records.id} <> ${change.exceptId}`,
  )!;
}

/**
 * The one `update` event of an RRset TTL change: put it in the batch just before
 * `alignRrsetTtl`, which changes exactly the rows it counts. No row is inserted when none
 * changes (the RRset already had the TTL, or the written record is alone in it).
 */
export function rrsetTtlEvent(db: Database, change: RrsetTtlChange) {
  const id = idFromStem(newIdStem("event", new Date(change.at)), sql`1`);
  const fqdn = change.name === "@" ? change.zoneName : `${change.name}.${change.zoneName}`;
  const shown = (ttl: SQL) =>
    sql`json_object('zone', ${change.zoneId}, 'name', ${change.name}, 'fqdn', ${fqdn}, 'type', ${change.type}, 'ttl', ${ttl}, 'records', count(*))`;
  return db.insert(events).select(
    db
      .select({
        seq: sql<number>`(select coalesce(max("seq"), 0) from "events") + 1`.as("seq"),
        id: sql<string>`${id}`.as("id"),
        // In the table's column order (drizzle's INSERT … SELECT names no columns): an RRset's
        // event belongs to its zone's account.
        accountId: sql<string>`(select z.account_id from zones z where z.id = ${change.zoneId})`.as("account_id"),
        at: sql<string>`${change.at}`.as("at"),
        actor: sql<string>`${change.actor}`.as("actor"),
        resourceType: sql<"rrset">`'rrset'`.as("resource_type"),
        resourceId: sql<string>`${change.zoneId}`.as("resource_id"),
        operation: sql<"update">`'update'`.as("operation"),
        // The TTL the changing records had (the RRset's, unless it held two: the most common).
        before:
          sql<unknown>`${shown(sql`(select r.ttl from records r where r.zone_id = ${change.zoneId} and r.name = ${change.name} and r.type = ${change.type} and r.ttl <> ${change.ttl} and r.id <> ${change.exceptId} group by r.ttl order by count(*) desc, r.ttl limit 1)`)}`.as(
            "before",
          ),
        after: sql<unknown>`${shown(sql`${change.ttl}`)}`.as("after"),
      })
      .from(records)
      .where(changing(change))
      .having(sql`count(*) > 0`),
  );
}
