// The audit trail (read side). Events are written by every write handler through
// src/db/events.ts, in the batch of the write itself.
import { notFound } from "../../http/lookup";
import { pageRequest, pageResponse } from "../../http/pagination";
import { sendResource } from "../../http/respond";
import { createRouter } from "../../http/router";
import { findEvent, listEvents, type EventRow } from "./queries";
import * as routes from "./routes";
import type { Event } from "./schemas";

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

/** Events never change: one version for ever. */
const EVENT_VERSION = 1;

export const eventsRouter = createRouter()
  .openapi(routes.listEvents, async (c) => {
    const query = c.req.valid("query");
    const page = await pageRequest(c, query);
    const rows = await listEvents(c.get("db"), query, page);
    return c.json(await pageResponse(c, page, rows, (r) => ({ key: null, id: r.id }), presentEvent), 200);
  })
  .openapi(routes.getEvent, async (c) => {
    const { event: id } = c.req.valid("param");
    const row = await findEvent(c.get("db"), id).get();
    if (!row) throw notFound("event", id);
    return sendResource(c, presentEvent(row), EVENT_VERSION);
  });
