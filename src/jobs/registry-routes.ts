// The registry jobs' routes (docs/registries.md): the gateway hands each poll message over,
// and an operator runs a repository's reconciliation now.
import { JSON_MEDIA_TYPE } from "../http/json-body";
import { errorResponses, jsonBody } from "../http/openapi";
import { RepositoryParams } from "../http/params";
import { defineRoute } from "../http/route";
import {
  RECONCILE_REPORT_EXAMPLE,
  ReconcileReportSchema,
  ReconcileRequestSchema,
  REGISTRY_MESSAGE_EXAMPLE,
  RegistryMessageReportSchema,
  RegistryMessageSchema,
} from "./registry-schemas";

export const receiveRegistryMessage = defineRoute({
  operationId: "receiveRegistryMessage",
  access: { scope: "write", operator: true },
  method: "post",
  path: "/registry-messages",
  tags: ["Repositories"],
  summary: "Hand over a registry's poll message",
  description:
    "The registry gateway (docs/registries.md) reads each connected registry's message queue (`<poll op=\"req\">`, RFC 5730 §2.9.2.3) and hands each message here, authenticated by `REGISTRY_GATEWAY_SECRET` as its bearer token (on this route only; an operator's token works too); it acks the message at the registry only once this answered 200. Transfers asked, approved, auto-approved, rejected or cancelled, in both directions, pending actions settled, deletions and changes made by the registry each change our copy in one write with its event; a message of a kind the service does not act on is kept as a `registry_message` event on the repository and answered 200 all the same, so none is asked for forever; one handed over twice is applied once. 503 `registry_unavailable` when the registry must be asked (`<domain:info>`) and cannot be: the gateway hands the message over again later.",
  request: {
    body: jsonBody(RegistryMessageSchema, "The message as the gateway read it, with the repository and the login it came to.", REGISTRY_MESSAGE_EXAMPLE),
  },
  responses: {
    200: {
      description: "What was done with the message.",
      content: {
        [JSON_MEDIA_TYPE]: {
          schema: RegistryMessageReportSchema,
          example: {
            message_id: "12345",
            kind: "domain:trnData",
            outcome: "applied",
            domain: "dom_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B",
            detail: "other-registrar asked for example.com: it shows pendingTransfer until its account approves or rejects.",
          },
        },
      },
    },
    ...errorResponses(400, 404, 413, 415, 422, 503),
  },
});

export const runReconciliation = defineRoute({
  operationId: "runReconciliation",
  access: { scope: "write", operator: true },
  method: "post",
  path: "/repositories/{repository}/reconcile/run",
  tags: ["Repositories"],
  summary: "Reconcile a connected repository now",
  description:
    "Compares the repository's next batch of domains (`limit`, 50 unless told, at most 100; in id order, from where the last run stopped) with the registry's `<domain:info>`, as the hourly cron trigger does: each domain follows the registry (expiry, statuses, name servers, DS, registrant), with a `reconciled` event whose `after` lists what differed (`registry_differences`); a domain the registry no longer holds for this service (2303, or another registrar's) is marked (`registry.missing_since`, `registry.registrar`), never deleted; but one deleted here (in redemption) that the registry no longer holds was purged there, and is purged here too (`purged`, a `purge` event). A run stops at the first domain the registry cannot be asked about (`failed`) and the next resumes there. `more`: domains are left in this pass. 422 `policy_violation` for a repository without a connector. The body is optional. Operators' tokens only.",
  request: {
    params: RepositoryParams,
    body: {
      required: false,
      description: "Optional: `limit`.",
      content: { [JSON_MEDIA_TYPE]: { schema: ReconcileRequestSchema, example: { limit: 50 } } },
    },
  },
  responses: {
    200: { description: "What the run did.", content: { [JSON_MEDIA_TYPE]: { schema: ReconcileReportSchema, example: RECONCILE_REPORT_EXAMPLE } } },
    ...errorResponses(400, 404, 413, 415, 422, 503),
  },
});
