// A webhook as its writes see it (src/db/resource-write.ts): what the API shows of it (never
// a secret, nor the delivery machinery's state) and whose it is. The webhooks collection
// (src/resources/webhooks/collection.ts) answers with it; the delivery engine writes with it
// when it disables a failing webhook (lease.ts).
import type { Resource } from "../db/resource-write";
import type { WebhookRow } from "./rows";

export interface WebhookJson {
  id: string;
  account: string;
  url: string;
  description: string | null;
  event_types: string[] | null;
  enabled: boolean;
  disabled_reason: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A webhook as the API shows it: never a secret, nor the delivery machinery's state. */
export function presentWebhook(row: WebhookRow): WebhookJson {
  return {
    id: row.id,
    account: row.accountId,
    url: row.url,
    description: row.description,
    event_types: row.eventTypes,
    enabled: row.enabled,
    disabled_reason: row.disabledReason,
    previous_secret_expires_at: row.previousSecretExpiresAt,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export const webhookResource: Resource<WebhookRow> = {
  type: "webhook",
  present: presentWebhook,
  accountOf: (row) => row.accountId,
};
