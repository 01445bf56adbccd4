import { z } from "@hono/zod-openapi";
import { dateTimeParam } from "../../http/query";
import { paginationQuery } from "../../http/pagination";
import { EVENT_OPERATIONS } from "../../db/schema";
import { TimestampSchema, listSchema } from "../../http/openapi";

export const RESOURCE_TYPES = ["contact", "domain", "host", "zone", "record", "account", "token", "webhook"] as const;
export const OPERATIONS = EVENT_OPERATIONS;

const Representation = z
  .record(z.string(), z.unknown())
  .nullable()
  .openapi({ type: ["object", "null"], description: "The resource as the API returns it (GET /v1/<collection>/{id})." });

export const EventSchema = z
  .object({
    id: z.string().openapi({ example: "evt_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" }),
    at: TimestampSchema.openapi({ description: "When the write committed (the resource's `updated_at` for a create or update)." }),
    token: z.string().openapi({
      example: "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B",
      description:
        'Id of the API token that made the write (never its name); "local" when authentication is off; "cron" for a lifecycle sweep the cron trigger ran (one run by `POST /lifecycle/sweep` names its token); "webhooks" when the service disabled a failing webhook.',
    }),
    type: z.enum(RESOURCE_TYPES).openapi({ description: "Type of the resource written.", example: "domain" }),
    resource: z.string().openapi({ example: "dom_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B", description: "Id of the resource written." }),
    operation: z.enum(OPERATIONS).openapi({ description: "Kind of write.", example: "create" }),
    before: Representation.openapi({
      description:
        "The resource before the write; null for a create. A domain's `auth_info` is never recorded (in `before` or `after`). A zone's `delete` event adds `master_file`: the zone's records as `GET /zones/{zone}` with `Accept: text/dns` exported them, which `POST /zones` (text/dns) imports back — or null when the file is over about 1.9 MB (D1 keeps rows under 2 MB): export such a zone yourself before deleting it.",
    }),
    after: Representation.openapi({ description: "The resource after the write; null for a delete." }),
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

export type Event = z.infer<typeof EventSchema>;
export type EventListQueryInput = z.infer<typeof EventListQuery>;
