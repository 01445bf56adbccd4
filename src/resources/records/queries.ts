import { and, asc, eq, getTableColumns, gt, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
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

/** The records at one owner name of a zone: what the coexistence and RRset rules look at. */
export function recordsAtName(db: Database, zoneId: string, name: string) {
  return db
    .select(columns)
    .from(records)
    .where(and(eq(records.zoneId, zoneId), eq(records.name, name)));
}

export function apexNsCount(db: Database, zoneId: string) {
  return db
    .select({ count: sql<number>`count(*)` })
    .from(records)
    .where(and(eq(records.zoneId, zoneId), eq(records.name, "@"), eq(records.type, "NS")));
}

/** RFC 2181 §5.2: one TTL per RRset. Sets it on the other records of the RRset. */
export function alignRrsetTtl(db: Database, zoneId: string, name: string, type: string, ttl: number, at: string, exceptId: string) {
  return db
    .update(records)
    .set({ ttl, updatedAt: at, version: sql`${records.version} + 1` })
    .where(and(eq(records.zoneId, zoneId), eq(records.name, name), eq(records.type, type), sql`"records"."ttl" <> ${ttl}`, sql`"records"."id" <> ${exceptId}`));
}
