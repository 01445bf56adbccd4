// A deliverer's hold on a webhook (docs/webhooks.md, "Delivery"): the lease it takes and lets
// go of, and what it records while it holds it, each through the write routine
// (src/db/write.ts): a record written only while the lease holds, or not at all.
import { and, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { writeChange } from "../../db/resource-write";
import { events, webhookDeliveries, webhooks } from "../../db/schema";
import { commitWrite, isLostRace, versionStep, writeContextAt } from "../../db/write";
import { webhookCollection } from "./collection";
import type { WebhookRow } from "./queries";

/** How long a deliverer holds a webhook before another may take it over (wall clock). */
export const LEASE_MS = 60_000;
/** Who the audit trail names for a webhook the service disabled. */
export const WEBHOOK_ACTOR = "webhooks";

/** Takes the webhook for this deliverer, when it is enabled and no one else holds it. */
export async function claim(db: Database, webhookId: string, leaseId: string): Promise<WebhookRow | null> {
  const wall = Date.now();
  const [row] = await db
    .update(webhooks)
    .set({ leaseId, leaseUntil: wall + LEASE_MS })
    .where(and(eq(webhooks.id, webhookId), eq(webhooks.enabled, true), or(isNull(webhooks.leaseUntil), lte(webhooks.leaseUntil, wall))))
    .returning();
  return row ?? null;
}

/**
 * Lets go of the webhook and, in the same round trip, looks whether it is owed an event
 * committed meanwhile (one another deliverer was turned away from by our lease).
 */
export async function release(db: Database, webhookId: string, leaseId: string, scope: string | null): Promise<boolean> {
  const after = sql`(select ${webhooks.cursorSeq} from ${webhooks} where ${webhooks.id} = ${webhookId} and ${webhooks.enabled} = 1)`;
  const [owed] = await commitWrite(writeContextAt(db, new Date(), WEBHOOK_ACTOR), {
    alongside: [
      db
        .update(webhooks)
        .set({ leaseId: null, leaseUntil: null })
        .where(and(eq(webhooks.id, webhookId), eq(webhooks.leaseId, leaseId))),
    ],
    last: [
      db
        .select({ seq: events.seq })
        .from(events)
        .where(scope === null ? gt(events.seq, after) : and(eq(events.accountId, scope), gt(events.seq, after)))
        .limit(1),
    ],
  });
  return (owed as unknown[]).length > 0;
}

/** A webhook every delivery of which failed for 5 days is disabled, with its event; false when it changed meanwhile. */
export async function disable(db: Database, row: WebhookRow, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const disabledReason = `failing: every delivery since ${row.failingSince} failed, for 5 days; fix the receiver, then enable the webhook again (PATCH enabled: true) and replay what it missed`;
  const next: WebhookRow = { ...row, enabled: false, disabledReason, leaseId: null, leaseUntil: null, version: row.version + 1, updatedAt: at };
  try {
    await writeChange(writeContextAt(db, now, WEBHOOK_ACTOR), webhookCollection, "update", row, { next, write: versionStep(db, webhooks, row, next) });
    return true;
  } catch (error) {
    if (isLostRace(error)) return false;
    throw error;
  }
}

/** One attempt, as its delivery record keeps it. */
export interface Attempt {
  id: string;
  message_id: string;
  attempt: number;
  at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  outcome: "succeeded" | "retrying" | "failed";
  next_attempt_at: string | null;
}

export type DeliveryState = Pick<WebhookRow, "cursorSeq" | "attempts" | "nextAttemptAt" | "failingSince">;

/**
 * Records attempts and moves the webhook's state on, in one batch, only while `leaseId`
 * still holds it (else nothing is written and the caller stops).
 */
export async function record(db: Database, row: WebhookRow, leaseId: string, attempts: readonly Attempt[], state: DeliveryState): Promise<boolean> {
  const field = (name: keyof Attempt) => sql`json_extract(value, ${`$.${name}`})`;
  // The lease still holds: the row the write must change.
  const move = db
    .update(webhooks)
    .set({ ...state, leaseUntil: Date.now() + LEASE_MS })
    .where(and(eq(webhooks.id, row.id), eq(webhooks.leaseId, leaseId)));
  // INSERT … SELECT from a JSON array, in the table's column order (`seq` null: the next one).
  const deliveries = db.insert(webhookDeliveries).select(
    db
      .select({
        seq: sql<number>`null`.as("seq"),
        id: sql<string>`${field("id")}`.as("id"),
        webhookId: sql<string>`${row.id}`.as("webhook_id"),
        kind: sql<"event">`'event'`.as("kind"),
        messageId: sql<string>`${field("message_id")}`.as("message_id"),
        attempt: sql<number>`${field("attempt")}`.as("attempt"),
        at: sql<string>`${field("at")}`.as("at"),
        statusCode: sql<number | null>`${field("status_code")}`.as("status_code"),
        durationMs: sql<number>`${field("duration_ms")}`.as("duration_ms"),
        error: sql<string | null>`${field("error")}`.as("error"),
        outcome: sql<Attempt["outcome"]>`${field("outcome")}`.as("outcome"),
        nextAttemptAt: sql<string | null>`${field("next_attempt_at")}`.as("next_attempt_at"),
      })
      .from(sql`json_each(${JSON.stringify(attempts)})`),
  );
  try {
    await commitWrite(writeContextAt(db, new Date(), WEBHOOK_ACTOR), { rows: [{ statement: move }], alongside: attempts.length > 0 ? [deliveries] : [] });
    return true;
  } catch (error) {
    if (isLostRace(error)) return false;
    throw error;
  }
}
