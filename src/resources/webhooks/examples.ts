// The webhooks' examples in the OpenAPI document: the example world's account
// (src/http/example-world.ts) sends its DNS changes to its provisioning system; deliveries
// of the domain's update event, a ping, a replay and a dispatch run.
import type { z } from "@hono/zod-openapi";
import { ACCOUNT_ID, CREATED, UPDATED, WEBHOOK_ID } from "../../http/example-world";
import { EVENT_EXAMPLE } from "../events/examples";
import type {
  DeliverySchema,
  DispatchReportSchema,
  ReplayResultSchema,
  ReplaySchema,
  WebhookCreateSchema,
  WebhookPatchSchema,
  WebhookSchema,
  WebhookWithSecretSchema,
} from "./schemas";

export const WEBHOOK_CREATE_EXAMPLE = {
  url: "https://hooks.example.net/dns",
  description: "DNS changes to the provisioning system",
  event_types: ["domain.*", "record.create"],
} satisfies z.input<typeof WebhookCreateSchema>;

export const WEBHOOK_PATCH_EXAMPLE = { event_types: null, enabled: true } satisfies z.input<typeof WebhookPatchSchema>;

export const WEBHOOK_EXAMPLE = {
  id: WEBHOOK_ID,
  account: ACCOUNT_ID,
  ...WEBHOOK_CREATE_EXAMPLE,
  enabled: true,
  disabled_reason: null,
  previous_secret_expires_at: null,
  created_at: CREATED,
  updated_at: CREATED,
} satisfies z.output<typeof WebhookSchema>;

export const WEBHOOK_CREATED_EXAMPLE = {
  ...WEBHOOK_EXAMPLE,
  secret: "whsec_pN7dKq2vY9xW3sL8mB4cR6tF1hJ5gZ0aQeUiOyTr0Mk=",
} satisfies z.output<typeof WebhookWithSecretSchema>;

export const WEBHOOK_ROTATED_EXAMPLE = {
  ...WEBHOOK_EXAMPLE,
  previous_secret_expires_at: "2026-11-23T09:09:18.218Z",
  updated_at: UPDATED,
  secret: "whsec_3fQk8ZrW1mN5bV7xC2yL9dT4gH6jP0sAeUoIiYtRrMk=",
} satisfies z.output<typeof WebhookWithSecretSchema>;

export const DELIVERY_EXAMPLE = {
  id: "dlv_01M8188Q9X3G2H5J7K8M0N1P2Q",
  kind: "event",
  event: EVENT_EXAMPLE.id,
  message_id: EVENT_EXAMPLE.id,
  attempt: 1,
  at: UPDATED,
  status_code: 204,
  duration_ms: 42,
  error: null,
  outcome: "succeeded",
  next_attempt_at: null,
} satisfies z.output<typeof DeliverySchema>;

export const DELIVERY_RETRYING_EXAMPLE = {
  ...DELIVERY_EXAMPLE,
  id: "dlv_01M8188Q9X3G2H5J7K8M0N1P2R",
  status_code: 503,
  duration_ms: 18,
  error: "HTTP 503: upstream unavailable",
  outcome: "retrying",
  next_attempt_at: "2026-11-22T09:09:23.218Z",
} satisfies z.output<typeof DeliverySchema>;

export const REPLAY_EXAMPLE = { since: "2026-11-22T00:00:00Z" } satisfies z.input<typeof ReplaySchema>;

export const REPLAY_RESULT_EXAMPLE = { webhook: WEBHOOK_ID, from_event: EVENT_EXAMPLE.id } satisfies z.output<typeof ReplayResultSchema>;

export const PING_EXAMPLE = {
  ...DELIVERY_EXAMPLE,
  id: "dlv_01M8188QB2C4D6E8F0G1H3J5K7",
  kind: "ping",
  event: null,
  message_id: "png_01M8188QB2C4D6E8F0G1H3J5K6",
} satisfies z.output<typeof DeliverySchema>;

export const DISPATCH_REPORT_EXAMPLE = {
  as_of: "2030-01-01T00:00:00.000Z",
  webhooks: 2,
  delivered: 14,
  retrying: 1,
  failed: 0,
  disabled: 0,
  more: false,
} satisfies z.output<typeof DispatchReportSchema>;
