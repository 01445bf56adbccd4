import { and, asc, eq, getTableColumns, gt, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import type { JsonChunk } from "../../db/json-chunks";
import type { ResourceRef } from "../../db/ref";
import { records } from "../../db/schema";
import { nameContaining } from "../../db/sql";
import type { PageRequest } from "../../http/pagination";

export type RecordRow = typeof records.$inferSelect;
export type RecordWithZone = RecordRow & { zoneName: string };

const zoneName = sql<string>`(select z.name from zones z where z.id = "records"."zone_id")`;
const columns = { ...getTableColumns(records), zoneName };

export interface RecordFilters {
  zone?: ResourceRef | undefined;
  name?: string | undefined;
  type?: string | undefined;
  content?: string | undefined;
  q?: string | undefined;
}

export function listRecords(db: Database, filters: RecordFilters, page: PageRequest) {
  const conditions: (SQL | undefined)[] = [];
  if (filters.zone !== undefined) {
    conditions.push(
      filters.zone.kind === "id"
        ? eq(records.zoneId, filters.zone.id)
        : sql`"records"."zone_id" = (select z.id from zones z where z.name = ${filters.zone.name})`,
    );
  }
  if (filters.name !== undefined) conditions.push(eq(records.name, filters.name));
  if (filters.type !== undefined) conditions.push(eq(records.type, filters.type));
  if (filters.content !== undefined) conditions.push(eq(records.content, filters.content));
  if (filters.q !== undefined) conditions.push(nameContaining(records.name, filters.q));
  if (page.after) conditions.push(gt(records.id, page.after.id));
  return db
    .select(columns)
    .from(records)
    .where(and(...conditions))
    .orderBy(asc(records.id))
    .limit(page.limit + 1);
}

/** Records are found by id only: a reference by name finds none. */
export function findRecord(db: Database, ref: ResourceRef) {
  return db
    .select(columns)
    .from(records)
    .where(ref.kind === "id" ? eq(records.id, ref.id) : sql`0`);
}

/** RFC 2181 §5.2: one TTL per RRset. Sets it on the other records of the RRset. */
export function alignRrsetTtl(db: Database, zoneId: string, name: string, type: string, ttl: number, at: string, exceptId: string) {
  return db
    .update(records)
    .set({ ttl, updatedAt: at, version: sql`${records.version} + 1` })
    .where(and(eq(records.zoneId, zoneId), eq(records.name, name), eq(records.type, type), sql`"records"."ttl" <> ${ttl}`, sql`"records"."id" <> ${exceptId}`));
}

/** Every record of a zone given by id or name (no per-row zone name: the caller has the zone). */
export function zoneRecords(db: Database, zone: ResourceRef) {
  return db
    .select(getTableColumns(records))
    .from(records)
    .where(zone.kind === "id" ? eq(records.zoneId, zone.id) : sql`"records"."zone_id" = (select z.id from zones z where z.name = ${zone.name})`)
    .orderBy(asc(records.id));
}

// Sets of records written by one statement per JSON chunk (src/db/json-chunks.ts), so a
// batch of changes is a few statements whatever the number of records it touches.

/** Deletes the records whose ids `ids` (a JSON array of ids) lists. */
export function deleteRecordsListed(db: Database, ids: JsonChunk) {
  return db.delete(records).where(sql`${records.id} in (select value from json_each(${ids.json}))`);
}

/** Gives each record of `ttls` (a JSON array of `[id, ttl]`) its TTL, a new version and `updated_at`. */
export function setRecordTtls(db: Database, ttls: JsonChunk, at: string) {
  return db
    .update(records)
    .set({ ttl: sql`json_extract(j.value, '$[1]')`, version: sql`${records.version} + 1`, updatedAt: at })
    .from(sql`json_each(${ttls.json}) as j`)
    .where(sql`${records.id} = json_extract(j.value, '$[0]')`);
}
