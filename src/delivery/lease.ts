// A delivery pass's hold on its webhooks (docs/webhooks.md, "Delivery"): the lease it takes
// on all of them and lets go of, and what it records while it holds them, each through the
// write routine (src/db/write.ts): a webhook's record is written only while the lease holds
// it, or not at all.
import { and, eq, isNull, lte, not, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { newIds } from "../db/ids";
import { jsonChunks } from "../db/json-chunks";
import type { Database } from "../db/client";
import { writeChange } from "../db/resource-write";
import { accounts, webhookDeliveryRecords, webhooks } from "../db/schema";
import { RAISES_NO_COUNT } from "../db/quota-check";
import { commitWrite, isLostRace, versionStep, writeContextAt } from "../db/write";
import { webhookResource } from "./webhook-resource";
import { type Attempt, inList, type StoredAttempt, type WebhookRow } from "./rows";
import { DISABLE_AFTER_MS } from "./schedule";
import { MAX_JOB_EVENTS } from "./send";

/** How long a deliverer holds a webhook before another may take it over (wall clock). */
export const LEASE_MS = 60_000;
/** Who the audit trail names for a webhook the service disabled. */
export const WEBHOOK_ACTOR = "webhooks";

/**
 * Whether the webhook's account is active: a suspended account's webhooks pause (docs/
 * webhooks.md, "A suspended account"), nothing sent and nothing lost, asked of the
 * database at every step that could send (claimAll, owedCondition, stillSending), not only
 * of the tokens at the HTTP layer.
 */
const accountActive = sql`exists (select 1 from ${accounts} where ${accounts.id} = ${webhooks.accountId} and ${accounts.status} = 'active')`;

/**
 * Takes the webhooks for this pass, those of them enabled, of an active account, that no
 * one else holds: one lease id for all of them. Those another pass holds are marked
 * `turned_away` in the same batch, so that their holder looks at what they are owed once
 * more when it lets go (releaseAll): what this pass would have delivered is not left for the cron.
 */
export async function claimAll(db: Database, ids: readonly string[], leaseId: string): Promise<WebhookRow[]> {
  const wall = Date.now();
  const free = or(isNull(webhooks.leaseUntil), lte(webhooks.leaseUntil, wall));
  const [claimed] = await commitWrite(writeContextAt(db, new Date(), WEBHOOK_ACTOR, RAISES_NO_COUNT), {
    alongside: [
      db
        .update(webhooks)
        .set({ turnedAway: true })
        .where(and(inList(webhooks.id, ids), eq(webhooks.enabled, true), not(free!))),
    ],
    last: [
      db
        .update(webhooks)
        .set({ leaseId, leaseUntil: wall + LEASE_MS })
        .where(and(inList(webhooks.id, ids), eq(webhooks.enabled, true), free, accountActive))
        .returning(),
    ],
  });
  return claimed as WebhookRow[];
}

/**
 * Of the pass's webhooks, those it may still hand a job to the sender for: its lease still
 * holds them, they are enabled, and their account is active. Asked before every job, so
 * that a webhook disabled, changed or whose account was suspended after the pass took it
 * is sent nothing more (a job already at the sender finishes: at most MAX_JOB_EVENTS
 * events or MAX_JOB_BYTES, within the pass's 30 seconds).
 */
export async function stillSending(db: Database, leaseId: string, ids: readonly string[]): Promise<Set<string>> {
  const rows = await db
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(and(inList(webhooks.id, ids), eq(webhooks.leaseId, leaseId), eq(webhooks.enabled, true), accountActive));
  return new Set(rows.map((row) => row.id));
}

const owedWebhook = alias(webhooks, "w");
const owedAccount = alias(accounts, "a");

/** The webhooks (`w`, with their accounts `a`) that `owedCondition` is asked of. */
export function owedAmong(db: Database) {
  return db.select({ id: owedWebhook.id }).from(owedWebhook).innerJoin(owedAccount, eq(owedAccount.id, owedWebhook.accountId)).$dynamic();
}

/**
 * Enabled webhooks of active accounts owed something at `now`: an event after their cursor
 * in what their account sees, with no retry time in the future; or failing for 5 days (to
 * be disabled). A suspended account's webhooks are owed nothing until it is active again:
 * their cursors stay where they are, and what they are owed waits.
 */
export function owedCondition(now: Date): SQL {
  const at = now.toISOString();
  const cutoff = new Date(now.getTime() - DISABLE_AFTER_MS).toISOString();
  return sql`w.enabled = 1 and a.status = 'active' and (
      w.failing_since <= ${cutoff}
      or ((w.next_attempt_at is null or w.next_attempt_at <= ${at}) and case
        when a.role = 'operator' then exists (select 1 from events e where e.seq > w.cursor_seq)
        else exists (select 1 from events e where e.account_id = w.account_id and e.seq > w.cursor_seq) end))`;
}

/**
 * Lets go of the pass's webhooks and, in the same round trip, finds those of them that a
 * pass turned away meanwhile (claimAll) and that are owed something at `now`: the events
 * that pass came for, committed while this one held them. A webhook no pass was turned
 * away from needs no second look: whatever was committed meanwhile has a pass of its own
 * to come (its queue message is delivered after this lease was taken, and finds it free).
 */
export async function releaseAll(db: Database, ids: readonly string[], leaseId: string, now: Date): Promise<Set<string>> {
  // Let go, then (the same transaction: no pass can claim in between) read and clear the marks of the webhooks let go.
  const letGo = and(inList(webhooks.id, ids), isNull(webhooks.leaseId));
  const [owed] = await commitWrite(writeContextAt(db, new Date(), WEBHOOK_ACTOR, RAISES_NO_COUNT), {
    alongside: [
      db
        .update(webhooks)
        .set({ leaseId: null, leaseUntil: null })
        .where(and(inList(webhooks.id, ids), eq(webhooks.leaseId, leaseId))),
    ],
    last: [
      owedAmong(db).where(and(inList(owedWebhook.id, ids), isNull(owedWebhook.leaseId), eq(owedWebhook.turnedAway, true), owedCondition(now))),
      db
        .update(webhooks)
        .set({ turnedAway: false })
        .where(and(letGo, eq(webhooks.turnedAway, true))),
    ],
  });
  return new Set((owed as { id: string }[]).map((row) => row.id));
}

/** A webhook every delivery of which failed for 5 days is disabled, with its event; false when it changed meanwhile. */
export async function disable(db: Database, row: WebhookRow, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const disabledReason = `failing: every delivery since ${row.failingSince} failed, for 5 days; fix the receiver, then enable the webhook again (PATCH enabled: true) and replay what it missed`;
  const next: WebhookRow = { ...row, enabled: false, disabledReason, leaseId: null, leaseUntil: null, version: row.version + 1, updatedAt: at };
  try {
    await writeChange(writeContextAt(db, now, WEBHOOK_ACTOR, RAISES_NO_COUNT), webhookResource, "update", row, {
      next,
      write: versionStep(db, webhooks, row, next),
    });
    return true;
  } catch (error) {
    if (isLostRace(error)) return false;
    throw error;
  }
}

export type DeliveryState = Pick<WebhookRow, "cursorSeq" | "attempts" | "nextAttemptAt" | "failingSince">;

/** What one webhook of a pass records: its attempts since the last record (all made at `at`, the pass's clock), and its state now. */
export interface DeliveryRecord {
  webhookId: string;
  at: string;
  attempts: readonly Attempt[];
  state: DeliveryState;
}

/** Attempts one stored record holds at most: a job's worth, so that a row stays far under D1's row size limit. */
export const RECORD_ATTEMPTS = MAX_JOB_EVENTS;

/**
 * Records the attempts and moves the webhooks' state on, for any number of the pass's
 * webhooks in one batch, each only while `leaseId` still holds it (else nothing of that
 * webhook is written and its deliverer stops). Answers, for each, whether it held.
 */
export async function recordAll(db: Database, leaseId: string, records: readonly DeliveryRecord[]): Promise<boolean[]> {
  const count = records.reduce((total, r) => total + r.attempts.length, 0);
  const deliveryIds = newIds("delivery", count, new Date());
  let next = 0;
  // A stored record per webhook's attempts (RECORD_ATTEMPTS at most each): [webhook id,
  // at, count, attempts], its attempts one JSON array kept as it is (src/db/schema.ts). A
  // pass's attempts cost D1 a row per webhook and job, not a row and three index entries
  // per attempt.
  const stored: [string, string, number, StoredAttempt[]][] = [];
  for (const r of records) {
    for (let from = 0; from < r.attempts.length; from += RECORD_ATTEMPTS) {
      const attempts = r.attempts.slice(from, from + RECORD_ATTEMPTS).map((a): StoredAttempt => [deliveryIds[next++]!, ...a]);
      stored.push([r.webhookId, r.at, attempts.length, attempts]);
    }
  }
  const heldIds = JSON.stringify(records.map((r) => r.webhookId));
  // INSERT … SELECT from the JSON, for the webhooks the lease still holds (found once, not
  // per row), in the order given (`seq`, the listing's order, is the insertion's). One
  // statement per chunk of under 1 MB (D1's string limit, src/db/json-chunks.ts): a cron
  // pass holds up to 50 webhooks of 200 attempts, about 1.6 MB, and a record refused for
  // its size would leave its deliveries to be sent again at every pass.
  const deliveries = jsonChunks(stored, (record) => JSON.stringify(record)).map((chunk) =>
    db.insert(webhookDeliveryRecords).select(
      db
        .select({
          seq: sql<number>`null`.as("seq"),
          webhookId: sql<string>`r.value ->> 0`.as("webhook_id"),
          kind: sql<"event">`'event'`.as("kind"),
          at: sql<string>`r.value ->> 1`.as("at"),
          count: sql<number>`r.value ->> 2`.as("count"),
          attempts: sql<string>`r.value -> 3`.as("attempts"),
        })
        .from(sql`json_each(${chunk.json}) r`)
        .where(sql`r.value ->> 0 in (select w.id from ${webhooks} w where w.id in (select value from json_each(${heldIds})) and w.lease_id = ${leaseId})`),
    ),
  );
  // Each webhook's new state, where the lease holds (`returning`: those it held): one
  // UPDATE … FROM the states as JSON, whatever the number of webhooks, so that the batch's
  // statements stay fixed by the operation (src/db/d1-limits.ts). A webhook recorded twice
  // in one call takes its last state (as successive updates would leave it).
  const until = Date.now() + LEASE_MS;
  const states = [...new Map(records.map((r) => [r.webhookId, r.state])).entries()].map(([id, s]) => [
    id,
    s.cursorSeq,
    s.attempts,
    s.nextAttemptAt,
    s.failingSince,
  ]);
  const state = (i: number) => sql.raw(`s.value ->> ${i}`);
  const moves = db
    .update(webhooks)
    .set({ cursorSeq: sql`${state(1)}`, attempts: sql`${state(2)}`, nextAttemptAt: sql`${state(3)}`, failingSince: sql`${state(4)}`, leaseUntil: until })
    .from(sql`json_each(${JSON.stringify(states)}) s`)
    .where(and(eq(webhooks.id, sql`${state(0)}`), eq(webhooks.leaseId, leaseId)))
    .returning({ id: webhooks.id });
  const moved = await commitWrite(writeContextAt(db, new Date(), WEBHOOK_ACTOR, RAISES_NO_COUNT), { alongside: deliveries, last: [moves] });
  const ids = new Set((moved as { id: string }[][]).flat().map((row) => row.id));
  return records.map((r) => ids.has(r.webhookId));
}
