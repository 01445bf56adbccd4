import { defineRoute } from "../../http/route";
import { CONDITIONAL_GET, errorResponses, listResponse, notModifiedResponse, resourceResponse } from "../../http/openapi";
import { pathParams } from "../../http/params";
import { JSON_MEDIA_TYPE } from "../../http/json-body";
import { EventListQuery, EventListSchema, EventSchema } from "./schemas";
import { EVENT_EXAMPLE } from "../examples";

const tags = ["Events"];
/** A page of events, as every list's, with the `resume_cursor` a poller keeps. */
const eventPage = listResponse(EventListSchema, "A page of events.", [EVENT_EXAMPLE]);
const eventPageContent = eventPage.content[JSON_MEDIA_TYPE];
const EVENT_PAGE_RESPONSE = {
  ...eventPage,
  content: { [JSON_MEDIA_TYPE]: { ...eventPageContent, example: { ...eventPageContent.example, resume_cursor: eventPageContent.example.next_cursor } } },
};

const EventParams = pathParams("event", "Event id (`evt_…`).", "evt_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B");

export const listEvents = defineRoute({
  operationId: "listEvents",
  access: { scope: "read", narrow: "visible" },
  method: "get",
  path: "/events",
  tags,
  summary: "List events (the audit trail)",
  description:
    "Every successful write, one event per resource it changed, **in commit order** (oldest first; a sequence the database assigns as each write commits, not the id), keyset-paginated. Every page has a `resume_cursor`, never null: a poller follows `next_cursor` to the last page (`next_cursor` null), keeps that page's `resume_cursor` and asks again with it later, reading every event committed since exactly once. Rejected writes (4xx) and no-op PATCHes record nothing, with one exception: a transfer request refused for a wrong `auth_info` records `transfer_auth_failed` on the domain, for its sponsor. Each event carries `account`, the sponsor of its resource, and is visible to whoever sees that account's objects. A domain's `auth_info` is never recorded. Filters combine with AND.",
  request: { query: EventListQuery },
  responses: { 200: EVENT_PAGE_RESPONSE, ...errorResponses(400) },
});

export const getEvent = defineRoute({
  operationId: "getEvent",
  access: { scope: "read", narrow: "visible" },
  method: "get",
  path: "/events/{event}",
  tags,
  summary: "Get an event",
  description: "One event of the audit trail by id, with the resource as it was before and after the write." + CONDITIONAL_GET,
  request: { params: EventParams },
  responses: { 200: resourceResponse(EventSchema, "The event.", EVENT_EXAMPLE), 304: notModifiedResponse, ...errorResponses(404) },
});
