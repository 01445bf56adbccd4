import { and, asc, eq, gt, gte, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import { idFloor } from "../../db/ids";
import { events } from "../../db/schema";
import type { PageRequest } from "../../http/pagination";

export type EventRow = typeof events.$inferSelect;

export interface EventFilters {
  resource?: string | undefined;
  type?: EventRow["resourceType"] | undefined;
  operation?: EventRow["operation"] | undefined;
  token?: string | undefined;
  /** RFC 3339, normalised (UTC, ms). */
  since?: string | undefined;
}

/** Oldest first: ids are ULIDs, so id order is time order and the keyset is the id alone. */
export function listEvents(db: Database, filters: EventFilters, page: PageRequest) {
  const conditions: (SQL | undefined)[] = [];
  if (filters.resource !== undefined) conditions.push(eq(events.resourceId, filters.resource));
  if (filters.type !== undefined) conditions.push(eq(events.resourceType, filters.type));
  if (filters.operation !== undefined) conditions.push(eq(events.operation, filters.operation));
  if (filters.token !== undefined) conditions.push(eq(events.actor, filters.token));
  if (filters.since !== undefined) {
    // The id bound walks the key from the first possible id; `at` decides exactly.
    conditions.push(gte(events.id, idFloor("event", new Date(filters.since))), gte(events.at, filters.since));
  }
  if (page.after) conditions.push(gt(events.id, page.after.id));
  return db
    .select()
    .from(events)
    .where(and(...conditions))
    .orderBy(asc(events.id))
    .limit(page.limit + 1);
}

export function findEvent(db: Database, id: string) {
  return db.select().from(events).where(eq(events.id, id));
}
