import type { DeliveryRow } from "./queries";
import type { Delivery } from "./schemas";

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
