import { and, asc, eq, gt, gte, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { events } from "../../db/schema";
import type { KeysetPosition, PageRequest } from "../../http/pagination";

export type EventRow = typeof events.$inferSelect;

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
