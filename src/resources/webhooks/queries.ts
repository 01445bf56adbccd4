import { and, asc, desc, eq, gt, lt, lte, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import type { ResourceRef } from "../../db/ref";
import { accounts, webhookDeliveryRecords, webhooks } from "../../db/schema";
import type { PageRequest } from "../../http/pagination";
import type { StoredAttempt } from "../../delivery/rows";

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

/** One attempt of a stored record (src/db/schema.ts, webhookDeliveryRecords), as the listing shows it. */
export interface DeliveryRow {
  seq: number;
  kind: "event" | "ping";
  at: string;
  attempt: StoredAttempt;
}

/** Where a deliveries page starts: after this attempt (its record's `seq` and its delivery id), or at the newest. */
function deliveriesAfter(page: PageRequest): { seq: number; id: string } | null {
  return page.after && typeof page.after.key === "number" ? { seq: page.after.key, id: page.after.id } : null;
}

/**
 * The stored records a page of a webhook's deliveries needs, newest first: at most
 * `limit + 1` (each holds an attempt at least), and only as many as the attempts they hold
 * take to fill the page (`before`: the attempts of the newer ones read). The record the
 * cursor stopped in counts for none: how many of its attempts are left is known only once
 * it is read, and counting them all would leave out the older records the page needs.
 */
export function deliveryRecordsPage(db: Database, webhookId: string, page: PageRequest) {
  const wanted = page.limit + 1;
  const after = deliveriesAfter(page);
  const t = webhookDeliveryRecords;
  const counted = after ? sql`case when ${t.seq} = ${after.seq} then 0 else ${t.count} end` : sql`${t.count}`;
  const newest = db
    .select({
      seq: t.seq,
      kind: t.kind,
      at: t.at,
      attempts: t.attempts,
      before: sql<number>`coalesce(sum(${counted}) over (order by ${t.seq} desc rows between unbounded preceding and 1 preceding), 0)`.as("before"),
    })
    .from(t)
    .where(and(eq(t.webhookId, webhookId), after ? lte(t.seq, after.seq) : undefined))
    .orderBy(desc(t.seq))
    .limit(wanted)
    .as("newest");
  return db.select({ seq: newest.seq, kind: newest.kind, at: newest.at, attempts: newest.attempts }).from(newest).where(lt(newest.before, wanted));
}

/**
 * A webhook's delivery attempts, newest first: the records by `seq` descending, each one's
 * attempts from its last. The cursor is the last attempt shown, by its record's `seq` and
 * its delivery id (ids grow along a record; an attempt recorded a row each before
 * drizzle/0030 is a record of one, so its cursor still reads on).
 */
export async function listDeliveries(db: Database, webhookId: string, page: PageRequest): Promise<DeliveryRow[]> {
  const wanted = page.limit + 1;
  const after = deliveriesAfter(page);
  const rows: DeliveryRow[] = [];
  // Newest first, as the subquery read them (sorted here: a subquery's order is not the statement's).
  const records = (await deliveryRecordsPage(db, webhookId, page)).sort((a, b) => b.seq - a.seq);
  for (const record of records) {
    const attempts = JSON.parse(record.attempts) as StoredAttempt[];
    for (let i = attempts.length - 1; i >= 0 && rows.length < wanted; i--) {
      const attempt = attempts[i]!;
      if (after && record.seq === after.seq && attempt[0] >= after.id) continue;
      rows.push({ seq: record.seq, kind: record.kind, at: record.at, attempt });
    }
    if (rows.length >= wanted) break;
  }
  return rows;
}

/** The last event committed so far: a new or re-enabled webhook starts after it. */
export const LAST_EVENT_SEQ = sql<number>`(select coalesce(max("seq"), 0) from "events")`;

/** Whether the account is an operator's, whose webhooks see every account's events (as its tokens do). */
export function isOperatorAccount(db: Database, accountId: string) {
  return db.select({ role: accounts.role }).from(accounts).where(eq(accounts.id, accountId));
}
