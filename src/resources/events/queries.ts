import { and, asc, eq, gt, gte, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import type { EventRow } from "../../db/event-json";
import { eventArchives, events } from "../../db/schema";
import type { KeysetPosition, PageRequest } from "../../http/pagination";

export interface EventFilters {
  resource?: string | undefined;
  type?: EventRow["resourceType"] | undefined;
  operation?: EventRow["operation"] | undefined;
  token?: string | undefined;
  /** RFC 3339, normalised (UTC, ms). */
  since?: string | undefined;
}

/** Where a reader that has read nothing yet stands: before the first event. */
export const TRAIL_START: KeysetPosition = { key: 0, id: "" };

/** The keyset position of an event: its commit sequence (and its id, for the record). */
export function eventPosition(row: EventRow): KeysetPosition {
  return { key: row.seq, id: row.id };
}

/**
 * The sequence a cursor stands at. Cursors issued before events had a sequence carry
 * only the id of the last event read (key null): its sequence is looked up by the id.
 */
function seqAfter(position: KeysetPosition): SQL | number {
  if (typeof position.key === "number") return position.key;
  return sql`(select e.seq from events e where e.id = ${position.id})`;
}

/**
 * Commit order (`seq`, assigned by the database in the write's batch): a reader that
 * resumes from the last position it read sees every event committed since, exactly once.
 */
export function listEvents(db: Database, filters: EventFilters, page: PageRequest) {
  const conditions: (SQL | undefined)[] = [];
  if (filters.resource !== undefined) conditions.push(eq(events.resourceId, filters.resource));
  if (filters.type !== undefined) conditions.push(eq(events.resourceType, filters.type));
  if (filters.operation !== undefined) conditions.push(eq(events.operation, filters.operation));
  if (filters.token !== undefined) conditions.push(eq(events.actor, filters.token));
  const after = page.after ?? TRAIL_START;
  if (filters.since !== undefined) {
    conditions.push(gte(events.at, filters.since));
    // From the start of the trail, the walk begins at the first event (in commit order)
    // stamped at or after `since`, found in events_at_idx among the events from `since` on
    // (which the reader is about to page through anyway), not by walking the trail from its
    // first event, as SQLite's min(rowid) shortcut would; a cursor already stands past it.
    // The bound is read from main.events, every account's: it is only where the walk may
    // start (the viewer's own rows are still the visibility layer's), and an index can be
    // named on a table, not on the view the visibility layer puts in its place.
    if (after.key === TRAIL_START.key) {
      conditions.push(sql`${events.seq} >= (select min(e.seq) from main.events e indexed by events_at_idx where e.at >= ${filters.since})`);
    }
  }
  if (after.key !== TRAIL_START.key) conditions.push(gt(events.seq, seqAfter(after)));
  return db
    .select()
    .from(events)
    .where(and(...conditions))
    .orderBy(asc(events.seq))
    .limit(page.limit + 1);
}

export function findEvent(db: Database, id: string) {
  return db.select().from(events).where(eq(events.id, id));
}

/**
 * Whether an archived event stands after `position`: a reader resuming there would miss
 * it (410 gone). By the viewer's visibility: a customer's own account's archive.
 */
export function archivedAfter(db: Database, position: KeysetPosition) {
  // A cursor of before the sequence names its event by id: gone from D1, it stands at 0.
  const seq = typeof position.key === "number" ? sql`${position.key}` : sql`coalesce(${seqAfter(position)}, 0)`;
  return db.select({ seq: eventArchives.lastSeq }).from(eventArchives).where(sql`${eventArchives.lastSeq} > ${seq}`).limit(1);
}

export type EventArchiveRow = typeof eventArchives.$inferSelect;

/** The keyset position of an archive object: its first event's commit order. */
export function archivePosition(row: EventArchiveRow): KeysetPosition {
  return { key: row.firstSeq, id: row.id };
}

/** Archive objects in commit order of their first events (event_archives_*first_seq*). */
export function listEventArchives(db: Database, filters: { account?: string | undefined }, page: PageRequest) {
  const conditions: (SQL | undefined)[] = [];
  if (filters.account !== undefined) conditions.push(eq(eventArchives.accountId, filters.account));
  if (page.after) conditions.push(gt(eventArchives.firstSeq, typeof page.after.key === "number" ? page.after.key : 0));
  return db
    .select()
    .from(eventArchives)
    .where(and(...conditions))
    .orderBy(asc(eventArchives.firstSeq))
    .limit(page.limit + 1);
}

export function findEventArchive(db: Database, id: string) {
  return db.select().from(eventArchives).where(eq(eventArchives.id, id));
}
