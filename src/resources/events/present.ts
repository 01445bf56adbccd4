import type { EventRow } from "./queries";
import type { Event } from "./schemas";

/** An event as GET /v1/events/{event} shows it, and as a webhook delivery's body carries it. */
export function presentEvent(row: EventRow): Event {
  return {
    id: row.id,
    at: row.at,
    token: row.actor,
    type: row.resourceType,
    resource: row.resourceId,
    operation: row.operation,
    before: (row.before ?? null) as Event["before"],
    after: (row.after ?? null) as Event["after"],
  };
}
