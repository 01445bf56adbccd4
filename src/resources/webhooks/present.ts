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

/** One attempt of a stored record (queries.ts, DeliveryRow). */
export function presentDelivery({ kind, at, attempt }: DeliveryRow): Delivery {
  const [id, messageId, number, statusCode, durationMs, error, outcome, nextAttemptAt] = attempt;
  return {
    id,
    kind,
    event: kind === "event" ? messageId : null,
    message_id: messageId,
    attempt: number,
    at,
    status_code: statusCode,
    duration_ms: durationMs,
    error,
    outcome,
    next_attempt_at: nextAttemptAt,
  };
}
