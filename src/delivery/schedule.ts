// When a failed delivery is tried again (docs/webhooks.md, "Retries"): growing delays
// over a little more than three days, then the event is given up; a webhook whose every
// attempt has failed for five days is disabled. Pure, so the schedule reads as a table.

/** The delay after the n-th failed attempt at an event (n = 1 … 10); after the 11th the event is given up. */
export const RETRY_DELAYS_SECONDS = [5, 60, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 14 * 3600, 20 * 3600, 24 * 3600] as const;

/** A webhook whose deliveries have all failed for this long is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;

/** Delivery attempts are listed for this long, then forgotten by the cron. */
export const DELIVERY_RETENTION_MS = 7 * 24 * 3600 * 1000;

/** When the event is tried again after its `failed`-th failed attempt, or null when that was the last. */
export function nextAttemptAt(failed: number, at: Date): Date | null {
  const delay = RETRY_DELAYS_SECONDS[failed - 1];
  return delay === undefined ? null : new Date(at.getTime() + delay * 1000);
}

/** Whether a webhook failing since `failingSince` is disabled at `now`. */
export function failedTooLong(failingSince: string | null, now: Date): boolean {
  return failingSince !== null && now.getTime() - Date.parse(failingSince) >= DISABLE_AFTER_MS;
}
