import { defineRoute } from "../../http/route";
import { CONDITIONAL_GET, errorResponses, listResponse, notModifiedResponse, resourceResponse } from "../../http/openapi";
import { pathParams } from "../../http/params";
import { EventListQuery, EventListSchema, EventSchema } from "./schemas";
import { EVENT_EXAMPLE } from "../examples";

const tags = ["Events"];
const EventParams = pathParams("event", "Event id (`evt_…`).", "evt_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B");

export const listEvents = defineRoute({
  operationId: "listEvents",
  method: "get",
  path: "/events",
  tags,
  summary: "List events (the audit trail)",
  description:
    "Every successful write, one event per resource it changed, **oldest first** (id order), keyset-paginated: following `next_cursor` to the end and later resuming from the last cursor reads every event exactly once. Rejected writes (4xx) and no-op PATCHes record nothing. Filters combine with AND.",
  request: { query: EventListQuery },
  responses: { 200: listResponse(EventListSchema, "A page of events.", [EVENT_EXAMPLE]), ...errorResponses(400) },
});

export const getEvent = defineRoute({
  operationId: "getEvent",
  method: "get",
  path: "/events/{event}",
  tags,
  summary: "Get an event",
  description: "One event of the audit trail by id, with the resource as it was before and after the write." + CONDITIONAL_GET,
  request: { params: EventParams },
  responses: { 200: resourceResponse(EventSchema, "The event.", EVENT_EXAMPLE), 304: notModifiedResponse, ...errorResponses(404) },
});
