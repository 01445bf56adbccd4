// An event as the API shows it: GET /v1/events/{event}, every page of GET /v1/events, each
// line of an archive object (src/jobs/event-archive.ts) and a webhook delivery's body
// (src/delivery/). The OpenAPI schema of an event (src/resources/events/schemas.ts) is
// checked against this shape where the events collection presents one.
import type { events } from "./schema";

export type EventRow = typeof events.$inferSelect;

export interface EventJson {
  id: string;
  at: string;
  account: string;
  token: string;
  type: EventRow["resourceType"];
  resource: string;
  operation: EventRow["operation"];
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export function presentEvent(row: EventRow): EventJson {
  return {
    id: row.id,
    at: row.at,
    account: row.accountId,
    token: row.actor,
    type: row.resourceType,
    resource: row.resourceId,
    operation: row.operation,
    before: (row.before ?? null) as EventJson["before"],
    after: (row.after ?? null) as EventJson["after"],
  };
}
