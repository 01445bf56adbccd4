import { scheduledRunRoute } from "../../http/scheduled-run-route";
import { collectionRoutes } from "../../http/collection-routes";
import { JSON_MEDIA_TYPE } from "../../http/json-body";
import { errorResponses, IF_MATCH_HEADER_DOC, jsonBody, listResponse, resourceResponse } from "../../http/openapi";
import { defineRoute } from "../../http/route";
import {
  DELIVERY_EXAMPLE,
  DELIVERY_RETRYING_EXAMPLE,
  DISPATCH_REPORT_EXAMPLE,
  PING_EXAMPLE,
  REPLAY_EXAMPLE,
  REPLAY_RESULT_EXAMPLE,
  WEBHOOK_CREATE_EXAMPLE,
  WEBHOOK_CREATED_EXAMPLE,
  WEBHOOK_EXAMPLE,
  WEBHOOK_PATCH_EXAMPLE,
  WEBHOOK_ROTATED_EXAMPLE,
} from "./examples";
import {
  DeliveryListQuery,
  DeliveryListSchema,
  DeliverySchema,
  DispatchReportSchema,
  DispatchRequestSchema,
  ReplayResultSchema,
  ReplaySchema,
  WEBHOOK_CREATE_READ_ONLY,
  WEBHOOK_READ_ONLY,
  WebhookCreateSchema,
  WebhookListQuery,
  WebhookListSchema,
  WebhookPatchSchema,
  WebhookSchema,
  WebhookWithSecretSchema,
} from "./schemas";

const tags = ["Webhooks"];
const webhooks = collectionRoutes({
  path: "/webhooks",
  member: { param: "webhook", description: "Webhook id (`whk_…`).", example: "whk_01M8188Q3C8M6S3V9W2D4H7KQA" },
  tags,
  operationIds: { one: "Webhook", many: "Webhooks" },
  noun: { one: "webhook", many: "webhooks" },
  schema: WebhookSchema,
  example: WEBHOOK_EXAMPLE,
});
const WebhookParams = webhooks.params;

const NARROW = "Tokens restricted to zones, domains or record rules cannot use webhooks (403 `forbidden`); another account's webhook is 404.";
const DELIVERY =
  "Every event of `/v1/events` the webhook's account sees (an operator's: every account's) and `event_types` selects is POSTed to `url`, its body exactly what `GET /v1/events/{event}` shows, signed per Standard Webhooks (`webhook-id`: the event id, `webhook-timestamp`, `webhook-signature`: `v1,<base64 HMAC-SHA256 of id.timestamp.body>`). At least once, one at a time in commit order per webhook; a 2xx within 10 s is a success, anything else is retried for a little over 3 days (5 s, 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h), then given up; a webhook whose every delivery failed for 5 days is disabled. Receivers deduplicate on `webhook-id` (docs/webhooks.md).";

export const listWebhooks = webhooks.list({
  access: { scope: "read" },
  description: `The webhooks of the caller's account (an operator's token: of every account; filter with \`account\`), in creation order, keyset-paginated; never a secret. ${NARROW}`,
  query: WebhookListQuery,
  page: WebhookListSchema,
});

export const getWebhook = webhooks.get({
  access: { scope: "read" },
  description: `One webhook by id, never its secret. ${NARROW}`,
});

export const createWebhook = webhooks.create({
  access: { scope: "write" },
  description: `A webhook for the caller's account (an operator's token may name another with \`account\`), receiving the events committed from now on. The answer has one extra field, \`secret\` (\`whsec_…\`), shown this once: the service keeps it sealed. The URL is checked (https; no loopback, private, link-local, CGNAT, multicast, reserved or documentation address, resolving its name; not the service itself): 422 naming what is wrong. At most the account's \`webhooks\` limit (20 by default): 422 \`quota_exceeded\`. ${DELIVERY} ${NARROW}`,
  readOnly: WEBHOOK_CREATE_READ_ONLY,
  body: WebhookCreateSchema,
  bodyDescription: "The webhook.",
  example: WEBHOOK_CREATE_EXAMPLE,
  response: { schema: WebhookWithSecretSchema, description: "The webhook was created; `secret` is shown only here.", example: WEBHOOK_CREATED_EXAMPLE },
  errors: [400, 413, 415, 422],
});

export const updateWebhook = webhooks.update({
  access: { scope: "write" },
  description: `Fields to change (JSON Merge Patch). A new \`url\` is checked as at creation, and the event being retried is tried at once there. \`enabled: false\` stops deliveries; \`enabled: true\` starts them again from the events committed after this write (replay the rest with \`POST …/replay\`) and clears \`disabled_reason\`. ${IF_MATCH_HEADER_DOC} ${NARROW}`,
  readOnly: WEBHOOK_READ_ONLY,
  body: WebhookPatchSchema,
  example: WEBHOOK_PATCH_EXAMPLE,
});

export const deleteWebhook = webhooks.delete({
  access: { scope: "write" },
  description: `The webhook and its delivery records; nothing more is sent to it. ${IF_MATCH_HEADER_DOC} ${NARROW}`,
});

export const rotateWebhookSecret = defineRoute({
  operationId: "rotateWebhookSecret",
  access: { scope: "write" },
  method: "post",
  path: "/webhooks/{webhook}/rotate-secret",
  tags,
  summary: "Rotate a webhook's signing secret",
  description: `A new signing secret, shown in this answer only (\`secret\`). For 24 hours (\`previous_secret_expires_at\`) every delivery carries two signatures in \`webhook-signature\`, the new secret's first, so the receiver can switch when it likes; a second rotation within those hours drops the oldest secret. An \`update\` event records the rotation, never a secret. No body. ${NARROW}`,
  request: { params: WebhookParams },
  responses: {
    200: { ...resourceResponse(WebhookWithSecretSchema, "The webhook, with its new `secret` shown only here.", WEBHOOK_ROTATED_EXAMPLE) },
    ...errorResponses(404, 409),
  },
});

export const listWebhookDeliveries = defineRoute({
  operationId: "listWebhookDeliveries",
  access: { scope: "read" },
  method: "get",
  path: "/webhooks/{webhook}/deliveries",
  tags,
  summary: "List a webhook's delivery attempts",
  description: `Every attempt (and ping) of the last 7 days, newest first, keyset-paginated: the event, the attempt's number, when, the receiver's status code, how long it took, why it failed, and when the event is tried next. ${NARROW}`,
  request: { params: WebhookParams, query: DeliveryListQuery },
  responses: {
    200: listResponse(DeliveryListSchema, "A page of delivery attempts.", [DELIVERY_RETRYING_EXAMPLE, DELIVERY_EXAMPLE]),
    ...errorResponses(400, 404),
  },
});

export const replayWebhook = defineRoute({
  operationId: "replayWebhook",
  access: { scope: "write" },
  method: "post",
  path: "/webhooks/{webhook}/replay",
  tags,
  summary: "Send events again",
  description: `Sends again every event since \`since\` (an RFC 3339 time, or a \`resume_cursor\` of \`GET /v1/events\` without filters) that the webhook would receive, in commit order, with the same \`webhook-id\`s as before, then continues with what it was owed. Answers 202 at once; the deliveries follow. A disabled webhook is enabled first (422 otherwise). ${NARROW}`,
  request: { params: WebhookParams, body: jsonBody(ReplaySchema, "Where to start.", REPLAY_EXAMPLE) },
  responses: {
    202: { description: "The replay is under way.", content: { [JSON_MEDIA_TYPE]: { schema: ReplayResultSchema, example: REPLAY_RESULT_EXAMPLE } } },
    ...errorResponses(400, 404, 413, 415, 422),
  },
});

export const pingWebhook = defineRoute({
  operationId: "pingWebhook",
  access: { scope: "write" },
  method: "post",
  path: "/webhooks/{webhook}/ping",
  tags,
  summary: "Send a test delivery",
  description: `Sends one test delivery now and answers with its outcome (waiting at most 10 s): body \`{"id": "png_…", "type": "ping", "webhook": "whk_…", "at": "…"}\`, signed like every delivery, with \`webhook-id\` the ping's id. Not an event, never retried; works on a disabled webhook too. No body. ${NARROW}`,
  request: { params: WebhookParams },
  responses: { 200: resourceResponse(DeliverySchema, "The test delivery's outcome.", PING_EXAMPLE), ...errorResponses(404) },
});

export const dispatchWebhooks = scheduledRunRoute({
  operationId: "dispatchWebhooks",
  access: { scope: "write", operator: true },
  path: "/webhooks/dispatch",
  tags,
  summary: "Deliver what is owed now",
  description:
    "What the cron trigger does every minute, at once: every enabled webhook owed an event (or due for a retry) is delivered to, and a webhook whose every delivery failed for 5 days is disabled (an `update` event, `disabled_reason` set). On a local development server `as_of` makes the run act at that time (retries due by then, the 5 days counted to then). Operators' tokens only. The body is optional.",
  body: DispatchRequestSchema,
  report: DispatchReportSchema,
  example: DISPATCH_REPORT_EXAMPLE,
});
