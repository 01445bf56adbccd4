import { z } from "@hono/zod-openapi";
import { dateTimeParam } from "../../http/query";
import { paginationQuery } from "../../http/pagination";
import { EVENT_OPERATIONS, EVENT_RESOURCE_TYPES } from "../../db/schema";
import { AccountFilterSchema, TimestampSchema, listSchema } from "../../http/openapi";

export const RESOURCE_TYPES = EVENT_RESOURCE_TYPES;
export const OPERATIONS = EVENT_OPERATIONS;

const Representation = z
  .record(z.string(), z.unknown())
  .nullable()
  .openapi({ type: ["object", "null"], description: "The resource as the API returns it (GET /v1/<collection>/{id})." });

export const EventSchema = z
  .object({
    id: z.string().openapi({ example: "evt_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" }),
    at: TimestampSchema.openapi({ description: "When the write committed (the resource's `updated_at` for a create or update)." }),
    account: z.string().openapi({
      example: "acc_01JD3Q6Y4T8N0V4W5X6Y7Z8A9C",
      description:
        "The account that sponsored the resource when the write was made (a transfer's events: the losing account's until the approval, the gaining account's from it). An event is visible to whoever sees its resource's account.",
    }),
    token: z.string().openapi({
      example: "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B",
      description:
        'Id of the API token that made the write (never its name); "local" when authentication is off; "cron" for a lifecycle sweep the cron trigger ran (one run by `POST /lifecycle/sweep` names its token); "webhooks" when the service disabled a failing webhook.',
    }),
    type: z.enum(RESOURCE_TYPES).openapi({ description: "Type of the resource written.", example: "domain" }),
    resource: z.string().openapi({ example: "dom_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B", description: "Id of the resource written." }),
    operation: z.enum(OPERATIONS).openapi({
      description:
        "Kind of write. `transfer_auth_failed` (type `domain`) records a transfer request refused for a wrong `auth_info`, for the sponsor to see: nothing of the domain changed, `before` is null and `after` is `{gaining_account, failures, locked_until}` (the requesting account, the domain's failed requests counted so far, and until when its transfer requests are refused, or null).",
      example: "create",
    }),
    before: Representation.openapi({
      description:
        "The resource before the write; null for a create. A domain's `auth_info` is never recorded (in `before` or `after`). A zone's `delete` event adds `master_file`: the zone's records as `GET /zones/{zone}` with `Accept: text/dns` exported them, which `POST /zones` (text/dns) imports back — or null when the file is over about 1.9 MB (D1 keeps rows under 2 MB): export such a zone yourself before deleting it.",
    }),
    after: Representation.openapi({ description: "The resource after the write; null for a delete (for `transfer_auth_failed`, what the failure counted)." }),
  })
  .openapi("Event", {
    description:
      "One resource changed by one successful write, recorded in the same transaction as the write. Events are immutable. A write that changes several resources records one event per resource (a domain that creates external hosts for its name servers: a host `create` each; a record whose TTL is set for its RRset: an `update` for each other record of the set). Changes that follow from a write without being writes of their own are not events: a zone's SOA serial, `record_count` and `updated_at` follow every record event; the apex NS records of a new zone and the records of an imported or deleted zone are part of the zone's `create` / `delete` event; computed fields (`status`, `domain` / `zone` links, a renamed host's name in domains' `nameservers`) are not writes.",
  });

export const EventListQuery = z.object({
  ...paginationQuery,
  resource: z.string().min(1).max(64).optional().openapi({ description: "Id of the resource written (`dom_…`, `rec_…`, …): its history." }),
  type: z
    .enum(RESOURCE_TYPES, { error: `must be one of: ${RESOURCE_TYPES.join(", ")}` })
    .optional()
    .openapi({ description: "Resource type." }),
  operation: z
    .enum(OPERATIONS, { error: `must be one of: ${OPERATIONS.join(", ")}` })
    .optional()
    .openapi({ description: "Kind of write." }),
  token: z.string().min(1).max(255).optional().openapi({ description: 'Id of the token that made the write (`tok_…`), or "local".' }),
  since: dateTimeParam.optional().openapi({ type: "string", format: "date-time", description: "Only events at or after this RFC 3339 time." }),
});

export const EventListSchema = z
  .object({
    ...listSchema(EventSchema, "EventList").shape,
    resume_cursor: z.string().openapi({
      description:
        "Cursor standing after the last event of this page (on an empty page: where the request started), never null: keep the last page's `resume_cursor` and ask again with it later to read only the events committed since, each exactly once.",
      example: "WzEyMywiZXZ0XzAxTTgxODhQUkFaNzc2WTdLSFE4WEFDQTcyIl0.3Xv1yQ3ySx2Gm9HhU3l5Ww",
    }),
  })
  .openapi("EventList");

export const EventArchiveSchema = z
  .object({
    id: z.string().openapi({ example: "arc_01M8188PRAZ776Y7KHQ8XACA72", description: "`arc_` and the ULID of the object's first event." }),
    account: z.string().openapi({ example: "acc_01M8188MZ3N4D5RW2QKJ7H8V6E", description: "The account whose events the object holds." }),
    day: z.string().openapi({ format: "date", example: "2026-10-01", description: "The UTC day of the events' `at`." }),
    first_event: z.string().openapi({ example: "evt_01M8188PRAZ776Y7KHQ8XACA72", description: "Id of the object's first event (in commit order)." }),
    last_event: z.string().openapi({ example: "evt_01M818A2B5Q0X3JH7C4N9R6T1V", description: "Id of the object's last event." }),
    count: z.number().int().openapi({ example: 412, description: "Events the object holds, one per line." }),
    bytes: z.number().int().openapi({ example: 48213, description: "The object's size as stored and served (gzip'd)." }),
    created_at: TimestampSchema.openapi({ description: "When the object was archived." }),
  })
  .openapi("EventArchive", {
    description:
      "One archive object: an account's events of one UTC day (or a part of that day's, when it had many), moved out of the database once older than the hot window (`EVENT_HOT_DAYS`, 30 days by default). Immutable. `GET /events/archive/{object}` serves it: a gzip file (`application/gzip`) of newline-delimited JSON, one event per line exactly as `GET /events/{event}` returned it, in commit order.",
  });

export const EventArchiveListQuery = z.object({
  ...paginationQuery,
  account: AccountFilterSchema,
});

export const EventArchiveListSchema = listSchema(EventArchiveSchema, "EventArchiveList");

export type Event = z.infer<typeof EventSchema>;
export type EventArchive = z.infer<typeof EventArchiveSchema>;
export type EventListQueryInput = z.infer<typeof EventListQuery>;
