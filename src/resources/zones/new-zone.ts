// A new zone as one batch writes it: its row, and its records (the apex NS of a JSON
// create, or every record of an imported master file) sent as JSON chunks that SQLite
// unpacks (src/db/json-chunks.ts), so a large import is a few statements whatever its
// number of records. A batch of changes to a zone's RRsets (src/resources/records/
// changes.ts) inserts its new records the same way.
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { idFromStem, newIdStem } from "../../db/id-sets";
import { type JsonChunk, jsonChunks } from "../../db/json-chunks";
import { newId } from "../../db/ids";
import { records, type ZoneSecondary } from "../../db/schema";
import type { SoaFields } from "../../dns/master-file";
import { reversedName } from "../../dns/name";
import { ownerOrder } from "../../dns/name-order";
import type { Statement } from "../../db/write";

export const DEFAULT_TTL = 3600;
// RFC 1912 §2.2 suggests these orders of magnitude; they are the example of docs/dns.md too.
export const DEFAULT_SOA_TIMERS = { refresh: 7200, retry: 900, expire: 1209600, minimum: 300 };

export interface NewRecord {
  /** The record's id when the caller needs it before the batch (its event, its answer); else numbered in SQL. */
  id?: string;
  /** Owner relative to the zone, `@` for the apex. */
  name: string;
  type: string;
  content: string;
  ttl: number;
}

/** A zone's records as one JSON array of `[name, type, content, ttl, owner order, id?]`, and how many it holds. */
export type RecordChunk = JsonChunk;

/**
 * The records as JSON chunks (src/db/json-chunks.ts), built as they are read from `rows`
 * (an import's parsed records pass through once and are not copied into another array
 * first). The ids are numbered in SQL (src/db/id-sets.ts), not sent, unless a row brings its own.
 */
export function recordChunks(rows: Iterable<NewRecord>): RecordChunk[] {
  return jsonChunks(rows, (row) => {
    const fields: (string | number)[] = [row.name, row.type, row.content, row.ttl, ownerOrder(row.name)];
    if (row.id !== undefined) fields.push(row.id);
    return JSON.stringify(fields);
  });
}

export function recordInserts(db: Database, zoneId: string, chunks: RecordChunk[], at: Date): Statement[] {
  const timestamp = at.toISOString();
  // One stem for the whole zone: its records' ids count up through every chunk, in file order.
  const stem = newIdStem("record", at);
  let numbered = 0;
  return chunks.map((chunk) => {
    const first = numbered;
    numbered += chunk.count;
    return db.insert(records).select(
      db
        .select({
          id: sql<string>`coalesce(json_extract(value, '$[5]'), ${idFromStem(stem, sql`${sql.raw(String(first + 1))} + "key"`)})`.as("id"),
          zoneId: sql<string>`${zoneId}`.as("zone_id"),
          name: sql<string>`json_extract(value, '$[0]')`.as("name"),
          type: sql<string>`json_extract(value, '$[1]')`.as("type"),
          content: sql<string>`json_extract(value, '$[2]')`.as("content"),
          ttl: sql<number>`json_extract(value, '$[3]')`.as("ttl"),
          comment: sql<null>`null`.as("comment"),
          version: sql<number>`1`.as("version"),
          ownerOrder: sql<string>`json_extract(value, '$[4]')`.as("owner_order"),
          createdAt: sql<string>`${timestamp}`.as("created_at"),
          updatedAt: sql<string>`${timestamp}`.as("updated_at"),
        })
        .from(sql`json_each(${chunk.json})`),
    );
  });
}

/** A new zone row; its record_count starts at 0 and the record triggers count the inserts. */
export function newZoneRow(name: string, defaultTtl: number, soa: SoaFields, now: Date, accountId: string) {
  const at = now.toISOString();
  return {
    id: newId("zone", now),
    accountId,
    name,
    reversedName: reversedName(name),
    defaultTtl,
    soaMname: soa.mname,
    soaRname: soa.rname,
    soaSerial: soa.serial,
    soaRefresh: soa.refresh,
    soaRetry: soa.retry,
    soaExpire: soa.expire,
    soaMinimum: soa.minimum,
    recordCount: 0,
    secondaries: [] as ZoneSecondary[],
    version: 1,
    // Never NOTIFYed: the DNS primary's next poll (getUpdatedMasters) announces it.
    notifiedSerial: null,
    // Unsigned: the default signing policy, no roll (drizzle/0040).
    dnssecPolicy: null,
    dnssecRollover: null,
    dnssecNextStepAt: null,
    createdAt: at,
    updatedAt: at,
  };
}
