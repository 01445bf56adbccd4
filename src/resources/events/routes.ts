import { defineRoute } from "../../http/route";
import { CONDITIONAL_GET, errorResponses, listResponse, notModifiedResponse, resourceResponse } from "../../http/openapi";
import { pathParams } from "../../http/params";
import { JSON_MEDIA_TYPE } from "../../http/json-body";
import { EventArchiveListQuery, EventArchiveListSchema, EventListQuery, EventListSchema, EventSchema } from "./schemas";
import { EVENT_ARCHIVE_EXAMPLE, EVENT_ARCHIVE_LINES_EXAMPLE, EVENT_EXAMPLE } from "./examples";
import { ARCHIVE_MEDIA_TYPE } from "../../db/event-archive-names";
import { z } from "@hono/zod-openapi";

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
    "Every successful write, one event per resource it changed, **in commit order** (oldest first; a sequence the database assigns as each write commits, not the id), keyset-paginated. Every page has a `resume_cursor`, never null: a poller follows `next_cursor` to the last page (`next_cursor` null), keeps that page's `resume_cursor` and asks again with it later, reading every event committed since exactly once. The list holds the hot window, the last `EVENT_HOT_DAYS` (30 by default) whole days; older events are in the archive (`GET /events/archive`), and a cursor that stands before an archived event answers 410 `gone`: read the archive, then list again from the start. Rejected writes (4xx) and no-op PATCHes record nothing, with one exception: a transfer request refused for a wrong `auth_info` records `transfer_auth_failed` on the domain, for its sponsor. Each event carries `account`, the sponsor of its resource, and is visible to whoever sees that account's objects. A domain's `auth_info` is never recorded. Filters combine with AND.",
  request: { query: EventListQuery },
  responses: { 200: EVENT_PAGE_RESPONSE, ...errorResponses(400, 410) },
});

export const getEvent = defineRoute({
  operationId: "getEvent",
  access: { scope: "read", narrow: "visible" },
  method: "get",
  path: "/events/{event}",
  tags,
  summary: "Get an event",
  description:
    "One event of the audit trail by id, with the resource as it was before and after the write. An event older than the hot window is in the archive (`GET /events/archive`), no longer here (404)." +
    CONDITIONAL_GET,
  request: { params: EventParams },
  responses: { 200: resourceResponse(EventSchema, "The event.", EVENT_EXAMPLE), 304: notModifiedResponse, ...errorResponses(404) },
});

const archiveTags = ["Events"];
const ArchiveParams = pathParams("object", "Archive object id (`arc_…`).", "arc_01M3W0B1N4Q8R2T6V9X3Z5C7E1");

// Declared before getEvent: `/events/archive` would otherwise be the event "archive".
export const listEventArchive = defineRoute({
  operationId: "listEventArchive",
  // Narrow tokens (restricted to zones or domains) see an account's events resource by
  // resource; an archive object holds a whole account's day: 403 for them.
  access: { scope: "read" },
  method: "get",
  path: "/events/archive",
  tags: archiveTags,
  summary: "List the archive of the audit trail",
  description:
    "Events older than the hot window (`EVENT_HOT_DAYS` whole UTC days, 30 by default) leave the database for an R2 bucket, as immutable objects of one account's events of one UTC day (several for a day of many events). This lists the objects, in commit order of their first events, keyset-paginated: a customer its own account's, an operator every account's (`account` narrows). Tokens restricted to zones or domains answer 403 `forbidden`: an object holds the whole account's day.",
  request: { query: EventArchiveListQuery },
  responses: { 200: listResponse(EventArchiveListSchema, "A page of archive objects.", [EVENT_ARCHIVE_EXAMPLE]), ...errorResponses(400) },
});

export const getEventArchive = defineRoute({
  operationId: "getEventArchive",
  access: { scope: "read" },
  method: "get",
  path: "/events/archive/{object}",
  tags: archiveTags,
  summary: "Download an archive object",
  description:
    "Streams one archive object as it is stored: a gzip file (`Content-Type: application/gzip`, `Content-Disposition: attachment`, `Content-Length` = the listing's `bytes`), not a gzip `Content-Encoding`, so that what a client saves is the archive itself. Decompressed (`gunzip`, `zlib.gunzipSync`), it is newline-delimited JSON: one event per line, exactly as `GET /events/{event}` returned it, in commit order, each line ended by `\\n`. Objects never change: `ETag` is R2's, and `If-None-Match` answers 304. Another account's object is 404.",
  request: { params: ArchiveParams },
  responses: {
    200: {
      description: "The object: gzip'd newline-delimited JSON (the example shows its first line after gunzip).",
      headers: {
        ETag: { description: "The object's entity tag.", schema: { type: "string" as const } },
        "Content-Disposition": { description: '`attachment; filename="arc_….ndjson.gz"`.', schema: { type: "string" as const } },
      },
      content: { [ARCHIVE_MEDIA_TYPE]: { schema: z.string().openapi({ format: "binary" }), example: EVENT_ARCHIVE_LINES_EXAMPLE } },
    },
    304: notModifiedResponse,
    ...errorResponses(404),
  },
});
