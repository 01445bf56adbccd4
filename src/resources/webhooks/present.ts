import type { DeliveryRow, WebhookRow } from "./queries";
import type { Delivery, Webhook } from "./schemas";

/** A webhook as the API shows it: never a secret, nor the delivery machinery's state. */
export function presentWebhook(row: WebhookRow): Webhook {
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

export function presentDelivery(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    kind: row.kind,
    event: row.kind === "event" ? row.messageId : null,
    message_id: row.messageId,
    attempt: row.attempt,
    at: row.at,
    status_code: row.statusCode,
    duration_ms: row.durationMs,
    error: row.error,
    outcome: row.outcome,
    next_attempt_at: row.nextAttemptAt,
  };
}
