import { and, asc, desc, eq, gt, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Database } from "../../db/client";
import type { ResourceRef } from "../../db/ref";
import { accounts, events, webhookDeliveries, webhooks } from "../../db/schema";
import type { PageRequest } from "../../http/pagination";

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** Bound parameters one list may take (D1 allows 100 per statement, and a statement has others). */
const LISTED_PARAMETERS = 50;

/**
 * `column IN (values)`: bound parameters for a short list, one JSON array read by
 * `json_each` for a long one (whose rows D1 counts as rows read, one per value).
 */
export function inList<T extends string | number>(column: SQLiteColumn, values: readonly T[]): SQL {
  return values.length <= LISTED_PARAMETERS ? inArray(column, [...values]) : inArray(column, sql`(select value from json_each(${JSON.stringify(values)}))`);
}

/** Webhooks have no name: a path segment is an id. */
export function findWebhook(db: Database, ref: ResourceRef) {
  return db
    .select()
    .from(webhooks)
    .where(eq(webhooks.id, ref.kind === "id" ? ref.id : ""));
}

export function listWebhooks(db: Database, filters: { account?: string | undefined; enabled?: boolean | undefined }, page: PageRequest) {
  const conditions: (SQL | undefined)[] = [];
  if (filters.account !== undefined) conditions.push(eq(webhooks.accountId, filters.account));
  if (filters.enabled !== undefined) conditions.push(eq(webhooks.enabled, filters.enabled));
  if (page.after) conditions.push(gt(webhooks.id, page.after.id));
  return db
    .select()
    .from(webhooks)
    .where(and(...conditions))
    .orderBy(asc(webhooks.id))
    .limit(page.limit + 1);
}

/** A webhook's delivery attempts, newest first (keyset: `seq` descending). */
export function listDeliveries(db: Database, webhookId: string, page: PageRequest) {
  const conditions: SQL[] = [eq(webhookDeliveries.webhookId, webhookId)];
  if (page.after && typeof page.after.key === "number") conditions.push(lt(webhookDeliveries.seq, page.after.key));
  return db
    .select()
    .from(webhookDeliveries)
    .where(and(...conditions))
    .orderBy(desc(webhookDeliveries.seq))
    .limit(page.limit + 1);
}

/** The last event committed so far: a new or re-enabled webhook starts after it. */
export const LAST_EVENT_SEQ = sql<number>`(select coalesce(max("seq"), 0) from "events")`;

/** Whether the account is an operator's, whose webhooks see every account's events (as its tokens do). */
export function isOperatorAccount(db: Database, accountId: string) {
  return db.select({ role: accounts.role }).from(accounts).where(eq(accounts.id, accountId));
}

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
