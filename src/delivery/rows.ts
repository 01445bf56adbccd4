// The webhooks' rows as the delivery engine reads and records them: the row, the events a
// delivery pass reads after a webhook's cursor, and the attempts its delivery records keep.
import { and, asc, eq, gt, inArray, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Database } from "../db/client";
import { events, type webhooks } from "../db/schema";

export type WebhookRow = typeof webhooks.$inferSelect;

/** Bound parameters one list may take (D1 allows 100 per statement, and a statement has others). */
const LISTED_PARAMETERS = 50;

/**
 * `column IN (values)`: bound parameters for a short list, one JSON array read by
 * `json_each` for a long one (whose rows D1 counts as rows read, one per value).
 */
export function inList<T extends string | number>(column: SQLiteColumn, values: readonly T[]): SQL {
  return values.length <= LISTED_PARAMETERS ? inArray(column, [...values]) : inArray(column, sql`(select value from json_each(${JSON.stringify(values)}))`);
}

/**
 * One attempt, as its delivery record keeps it, by position: the event's id (the
 * `webhook-id` sent), the attempt's number at that event, the receiver's status (null: no
 * answer), how long it took, why it failed (null: it did not), its outcome, and when the
 * event is tried again (outcome `retrying`). Tuples, not objects: a pass with ten webhooks
 * records thousands of attempts a second under a stream of writes, and what each costs the
 * API to build, serialize and hand to D1 is what subscribing webhooks takes from its write
 * rate (docs/webhooks.md, "Delivery"; bench/README.md).
 */
export type Attempt = readonly [
  messageId: string,
  attempt: number,
  statusCode: number | null,
  durationMs: number,
  error: string | null,
  outcome: "succeeded" | "retrying" | "failed",
  nextAttemptAt: string | null,
];

/** An attempt as a delivery record stores it (src/db/schema.ts, webhookDeliveryRecords): its delivery id, then the attempt. */
export type StoredAttempt = readonly [deliveryId: string, ...attempt: Attempt];

/**
 * The next events after `seq` that webhooks of these accounts see (null: an operator's,
 * which sees every account's): their sequence, type, operation and account only.
 */
export function eventHeadsAfter(db: Database, seq: number, accountIds: readonly string[] | null, limit: number) {
  return db
    .select({ seq: events.seq, id: events.id, type: events.resourceType, operation: events.operation, accountId: events.accountId })
    .from(events)
    .where(
      accountIds === null
        ? gt(events.seq, seq)
        : accountIds.length === 1
          ? // One account: its index in commit order, read only as far as the limit.
            and(eq(events.accountId, accountIds[0]!), gt(events.seq, seq))
          : and(gt(events.seq, seq), inList(events.accountId, accountIds)),
    )
    .orderBy(asc(events.seq))
    .limit(limit);
}

/** Whole events by their sequence numbers. */
export function eventsBySeq(db: Database, seqs: readonly number[]) {
  return db.select().from(events).where(inList(events.seq, seqs));
}
