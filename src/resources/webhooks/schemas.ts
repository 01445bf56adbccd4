import { z } from "@hono/zod-openapi";
import { AccountFilterSchema, AccountRefSchema, listSchema, SponsorInputSchema, TimestampSchema } from "../../http/openapi";
import { paginationQuery } from "../../http/pagination";
import { booleanParam } from "../../http/query";
import { readOnlyFields } from "../../http/patch";
import { EVENT_TYPE_PATTERN, EVENT_TYPE_PATTERN_HELP, MAX_EVENT_TYPES } from "../../delivery/event-types";
import { MAX_URL_LENGTH } from "../../delivery/target";

const eventTypes = z
  .array(z.string().max(64).regex(EVENT_TYPE_PATTERN, { error: EVENT_TYPE_PATTERN_HELP }))
  .min(1, { error: "must list at least one pattern; null (or leaving it out) means every event" })
  .max(MAX_EVENT_TYPES, { error: `has at most ${MAX_EVENT_TYPES} patterns` });

const url = z
  .string()
  .min(1)
  .max(MAX_URL_LENGTH, { error: `must be at most ${MAX_URL_LENGTH} characters` });
const description = z.string().max(500, { error: "must be at most 500 characters" });

export const WebhookSchema = z
  .object({
    id: z.string().openapi({ example: "whk_01M8188Q3C8M6S3V9W2D4H7KQA" }),
    account: AccountRefSchema,
    url: z.string().openapi({
      example: "https://hooks.example.net/dns",
      description:
        "Where deliveries are POSTed: `https` (plain `http` only to a loopback address of a loopback deployment, `npm start`), never a loopback, private, link-local, CGNAT, multicast, reserved or documentation address, nor the service itself (docs/webhooks.md, Safety).",
    }),
    description: z.string().nullable().openapi({ example: "DNS changes to the provisioning system" }),
    event_types: z
      .array(z.string())
      .nullable()
      .openapi({
        example: ["domain.*", "record.create"],
        description:
          "`<type>.<operation>` patterns over the events of `/v1/events` (`type` and `operation` as they name them; `*` for any), an event is delivered when one matches; null: every event.",
      }),
    enabled: z.boolean().openapi({
      example: true,
      description: "Disabled webhooks receive nothing; events committed meanwhile are not delivered when it is enabled again (replay them).",
    }),
    disabled_reason: z.string().nullable().openapi({
      example: null,
      description: 'Why the service disabled the webhook ("failing": every delivery failed for 5 days); null when enabled, or disabled by a PATCH.',
    }),
    previous_secret_expires_at: TimestampSchema.nullable().openapi({
      example: null,
      description: "After `rotate-secret`: until this time (24 hours) deliveries are signed with the previous secret too.",
    }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .openapi("Webhook");

export const WebhookWithSecretSchema = z
  .object({
    ...WebhookSchema.shape,
    secret: z.string().optional().openapi({
      example: "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD",
      description:
        "The signing secret (`whsec_` and the base64 of 32 random bytes), shown in this answer only: the service keeps it sealed and never shows it again. Absent from an idempotent replay (`Idempotent-Replayed: true`).",
    }),
  })
  .openapi("WebhookWithSecret");

export const WebhookCreateSchema = z
  .object({
    url,
    description: description.nullable().optional(),
    event_types: eventTypes.nullable().optional(),
    enabled: z.boolean().optional().openapi({ description: "Default true." }),
    account: SponsorInputSchema,
  })
  .openapi("WebhookCreate");

export const WebhookPatchSchema = z
  .object({
    url: url.optional(),
    description: description.nullable().optional(),
    event_types: eventTypes.nullable().optional(),
    enabled: z.boolean().optional().openapi({
      description: "false: stop deliveries; true: deliver again, from the events committed after this write (replay what was missed).",
    }),
  })
  .openapi("WebhookPatch");

export const WEBHOOK_READ_ONLY = [...readOnlyFields(WebhookSchema, WebhookPatchSchema), "secret"];
export const WEBHOOK_CREATE_READ_ONLY = WEBHOOK_READ_ONLY.filter((field) => field !== "account");

export const WebhookListQuery = z.object({
  ...paginationQuery,
  account: AccountFilterSchema,
  enabled: booleanParam.optional().openapi({ type: "boolean", description: "Only enabled (`true`) or disabled (`false`) webhooks." }),
});

export const WebhookListSchema = listSchema(WebhookSchema, "WebhookList");

export const DeliverySchema = z
  .object({
    id: z.string().openapi({ example: "dlv_01M8188Q9X3G2H5J7K8M0N1P2Q" }),
    kind: z.enum(["event", "ping"]).openapi({ description: "`event`: an event of /v1/events; `ping`: a test delivery (POST …/ping)." }),
    event: z.string().nullable().openapi({ example: "evt_01M8188PRAZ776Y7KHQ8XACA72", description: "The event delivered; null for a ping." }),
    message_id: z
      .string()
      .openapi({ example: "evt_01M8188PRAZ776Y7KHQ8XACA72", description: "The `webhook-id` header sent: the event's id, or the ping's `png_…`." }),
    attempt: z.number().int().openapi({ example: 1, description: "1 for the first attempt at this event, then one more for each retry." }),
    at: TimestampSchema.openapi({ description: "When the attempt was made." }),
    status_code: z
      .number()
      .int()
      .nullable()
      .openapi({ example: 204, description: "The receiver's HTTP status; null when no answer came (refused address, connection error, timeout)." }),
    duration_ms: z.number().int().openapi({ example: 42 }),
    error: z
      .string()
      .nullable()
      .openapi({ example: null, description: "Why the attempt failed (the start of the receiver's answer, at most 4 KiB read); null on success." }),
    outcome: z.enum(["succeeded", "retrying", "failed"]).openapi({
      example: "succeeded",
      description:
        "`succeeded`: a 2xx within 10 s; `retrying`: failed, tried again at `next_attempt_at`; `failed`: the last attempt failed, the event is given up.",
    }),
    next_attempt_at: TimestampSchema.nullable().openapi({ example: null, description: "When the event is tried again (outcome `retrying`)." }),
  })
  .openapi("WebhookDelivery");

export const DeliveryListQuery = z.object({ ...paginationQuery });
export const DeliveryListSchema = listSchema(DeliverySchema, "WebhookDeliveryList");

export const ReplaySchema = z
  .object({
    since: z.string().min(1).max(2048).openapi({
      example: "2026-11-22T00:00:00Z",
      description: "An RFC 3339 time (events at or after it), or a `resume_cursor` / `next_cursor` of `GET /v1/events` without filters (events after it).",
    }),
  })
  .openapi("WebhookReplay");

export const ReplayResultSchema = z
  .object({
    webhook: z.string().openapi({ example: "whk_01M8188Q3C8M6S3V9W2D4H7KQA" }),
    from_event: z.string().nullable().openapi({
      example: "evt_01M8188PRAZ776Y7KHQ8XACA72",
      description: "The first event that is sent again (the filter decides which of the following are); null when there is none.",
    }),
  })
  .openapi("WebhookReplayResult");

export const DispatchRequestSchema = z
  .object({
    as_of: z.string().max(64).optional().openapi({
      example: "2030-01-01T00:00:00Z",
      description: "Deliver as if it were this time (retries due by then, webhooks failing for 5 days by then disabled). Only on a local development server.",
    }),
  })
  .openapi("WebhookDispatchRequest");

export const DispatchReportSchema = z
  .object({
    as_of: TimestampSchema,
    webhooks: z.number().int().openapi({ example: 2, description: "Webhooks that were owed something and were worked on." }),
    delivered: z.number().int().openapi({ example: 14 }),
    retrying: z.number().int().openapi({ example: 1, description: "Attempts that failed and will be retried." }),
    failed: z.number().int().openapi({ example: 0, description: "Events given up after their last attempt." }),
    disabled: z.number().int().openapi({ example: 0, description: "Webhooks disabled because every delivery failed for 5 days." }),
    more: z.boolean().openapi({ example: false, description: "The run stopped at its bound with deliveries still owed: they follow on the queue." }),
  })
  .openapi("WebhookDispatchReport");

export type Webhook = z.infer<typeof WebhookSchema>;
export type WebhookCreate = z.output<typeof WebhookCreateSchema>;
export type WebhookPatch = z.output<typeof WebhookPatchSchema>;
export type Delivery = z.infer<typeof DeliverySchema>;
export type DispatchReport = z.infer<typeof DispatchReportSchema>;
