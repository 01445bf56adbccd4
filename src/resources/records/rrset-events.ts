// RFC 2181 §5.2: when a write sets an RRset's TTL, the other records of the RRset change
// too, each with an `update` event. Those events are written by one statement, whatever
// the size of the RRset (a statement per record made a TTL change on a 5 000-record RRset
// a batch of 5 002 statements; src/db/d1-limits.ts): D1 builds each event from the row as
// it is at that point of the batch, so `before` is what the record was when the change
// committed, and `after` the same with the new TTL and time.
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

/** A record's API representation (present.ts `presentRecord`), built by SQLite from its row. */
function presentedInSql(zoneName: string, ttl: SQL, updatedAt: SQL): SQL {
  const fqdn = sql`case when ${records.name} = '@' then ${zoneName} else ${records.name} || '.' || ${zoneName} end`;
  return sql`json_object('id', ${records.id}, 'zone', ${records.zoneId}, 'name', ${records.name}, 'fqdn', ${fqdn}, 'type', ${records.type}, 'content', ${records.content}, 'ttl', ${ttl}, 'comment', ${records.comment}, 'created_at', ${records.createdAt}, 'updated_at', ${updatedAt})`;
}

/**
 * The `update` events of the records an RRset TTL change is about to change: put it in
 * the batch just before `alignRrsetTtl`, which changes exactly these rows. Ids and seq
 * numbers are given in SQL, one per row (seq: after the largest so far, in id order).
 */
export function rrsetTtlEvents(db: Database, change: RrsetTtlChange) {
  const stem = newIdStem("event", new Date(change.at));
  const row = sql`row_number() over (order by ${records.id})`;
  return db.insert(events).select(
    db
      .select({
        seq: sql<number>`(select coalesce(max("seq"), 0) from "events") + ${row}`.as("seq"),
        id: sql<string>`${idFromStem(stem, row)}`.as("id"),
        // In the table's column order (drizzle's INSERT … SELECT names no columns): a record's
        // events belong to its zone's account.
        accountId: sql<string>`(select z.account_id from zones z where z.id = ${change.zoneId})`.as("account_id"),
        at: sql<string>`${change.at}`.as("at"),
        actor: sql<string>`${change.actor}`.as("actor"),
        resourceType: sql<"record">`'record'`.as("resource_type"),
        resourceId: sql<string>`${records.id}`.as("resource_id"),
        operation: sql<"update">`'update'`.as("operation"),
        before: sql<unknown>`${presentedInSql(change.zoneName, sql`${records.ttl}`, sql`${records.updatedAt}`)}`.as("before"),
        after: sql<unknown>`${presentedInSql(change.zoneName, sql`${change.ttl}`, sql`${change.at}`)}`.as("after"),
      })
      .from(records)
      .where(changing(change)),
  );
}
