// An event as the API shows it: GET /v1/events/{event}, every page of GET /v1/events, each
// line of an archive object (src/resources/events/archive.ts) and a webhook delivery's body.
import type { EventRow } from "./queries";
import type { Event } from "./schemas";

export function presentEvent(row: EventRow): Event {
  return {
    id: row.id,
    at: row.at,
    account: row.accountId,
    token: row.actor,
    type: row.resourceType,
    resource: row.resourceId,
    operation: row.operation,
    before: (row.before ?? null) as Event["before"],
    after: (row.after ?? null) as Event["after"],
  };
}
