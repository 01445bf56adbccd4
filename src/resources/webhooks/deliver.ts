// Delivering what one webhook is owed (docs/webhooks.md, "Delivery"). The events table is
// the outbox and the webhook's `cursor_seq` the only bookmark: the event owed next is the
// first one after the cursor that the webhook's account sees and its filter selects. One
// deliverer at a time holds the webhook (a lease with a wall-clock end, so a deliverer
// that died is replaced after LEASE_MS), sends that event, and records the attempt and
// the new cursor together, only while it still holds the lease. Nothing else is kept
// between attempts, so a crash, restart or deploy at any moment loses no delivery: the
// worst it does is send an event again whose answer was not recorded yet (receivers
// deduplicate on `webhook-id`).
//
// Per webhook the attempts go in commit order: an event is delivered, or given up after
// its last retry, before the next one is attempted.
import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import { type Database, database } from "../../db/client";
import { newId } from "../../db/ids";
import { webhookDeliveries, webhooks } from "../../db/schema";
import type { Env } from "../../env";
import { unattendedContext, writeUnattended } from "../../http/mutate";
import { presentEvent } from "../events/present";
import { webhookCollection } from "./collection";
import { selects } from "./event-types";
import { eventBySeq, eventsAfter, isOperatorAccount, type WebhookRow } from "./queries";
import { failedTooLong, nextAttemptAt } from "./schedule";
import { openSecret } from "./secrets";
import { type AttemptResult, post } from "./send";
import { signedHeaders } from "./signing";
import type { TargetPolicy } from "./target";

/** How long a deliverer holds a webhook before another may take it over (wall clock). */
export const LEASE_MS = 60_000;
/** A pass starts no attempt after this long, so that it ends (an attempt takes at most ~16 s) well inside its lease. */
const PASS_MS = 30_000;
/** Events read per page while looking for the next one the filter selects. */
const PAGE_SIZE = 100;
/** Who the audit trail names for a webhook the service disabled. */
export const WEBHOOK_ACTOR = "webhooks";

export interface PassReport {
  delivered: number;
  retrying: number;
  failed: number;
  disabled: number;
}

/**
 * How a pass ended: nothing more owed (`idle`); another deliverer holds the webhook, or it
 * is disabled or gone (`skipped`); the pass reached its bound with more owed (`more`); the
 * event owed next waits for its retry time (`waiting`, `scheduled` when this pass set it).
 */
export type PassEnd = { kind: "idle" } | { kind: "skipped" } | { kind: "more" } | { kind: "waiting"; until: string; scheduled: boolean };

export function emptyReport(): PassReport {
  return { delivered: 0, retrying: 0, failed: 0, disabled: 0 };
}

/** The URL rules as they apply to a stored webhook (target.ts). */
export function storedPolicy(row: WebhookRow): TargetPolicy {
  return { loopbackDeployment: row.loopback, apiHost: row.apiHost };
}

/** The secrets a delivery at `now` is signed with: the current one, and the previous one during its overlap. */
export async function signingSecrets(env: Env, row: WebhookRow, now: Date): Promise<string[] | null> {
  const current = await openSecret(env, row.loopback, row.id, row.secretSealed);
  if (current === null) return null;
  const previous =
    row.previousSecretSealed && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now.toISOString()
      ? await openSecret(env, row.loopback, row.id, row.previousSecretSealed)
      : null;
  return previous ? [current, previous] : [current];
}

const SEALED_SECRET_UNREADABLE: AttemptResult = {
  ok: false,
  statusCode: null,
  durationMs: 0,
  error: "Not sent: the signing secret cannot be opened (WEBHOOK_SECRET_KEY changed?); rotate the secret.",
};

/** Takes the webhook for this deliverer, when it is enabled and no one else holds it. */
async function claim(db: Database, webhookId: string, leaseId: string): Promise<WebhookRow | null> {
  const wall = Date.now();
  const [row] = await db
    .update(webhooks)
    .set({ leaseId, leaseUntil: wall + LEASE_MS })
    .where(and(eq(webhooks.id, webhookId), eq(webhooks.enabled, true), or(isNull(webhooks.leaseUntil), lte(webhooks.leaseUntil, wall))))
    .returning();
  return row ?? null;
}

async function release(db: Database, webhookId: string, leaseId: string): Promise<void> {
  await db
    .update(webhooks)
    .set({ leaseId: null, leaseUntil: null })
    .where(and(eq(webhooks.id, webhookId), eq(webhooks.leaseId, leaseId)));
}

/** A webhook every delivery of which failed for 5 days is disabled, with its event. */
async function disable(db: Database, row: WebhookRow, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const disabledReason = `failing: every delivery since ${row.failingSince} failed, for 5 days; fix the receiver, then enable the webhook again (PATCH enabled: true) and replay what it missed`;
  const next: WebhookRow = { ...row, enabled: false, disabledReason, leaseId: null, leaseUntil: null, version: row.version + 1, updatedAt: at };
  return writeUnattended(unattendedContext(db, now, WEBHOOK_ACTOR), webhookCollection, "update", row, {
    change: {
      next,
      write: db
        .update(webhooks)
        .set({ enabled: false, disabledReason, leaseId: null, leaseUntil: null, version: next.version, updatedAt: at })
        .where(and(eq(webhooks.id, row.id), eq(webhooks.version, row.version))),
    },
  });
}

/** Records an attempt and moves the webhook's state on, only while `leaseId` still holds it. */
async function record(
  db: Database,
  row: WebhookRow,
  leaseId: string,
  attempt: { messageId: string; number: number; at: string; result: AttemptResult; outcome: "succeeded" | "retrying" | "failed"; nextAttemptAt: string | null },
  state: Pick<WebhookRow, "cursorSeq" | "attempts" | "nextAttemptAt" | "failingSince">,
): Promise<boolean> {
  const held = sql`exists (select 1 from ${webhooks} where ${webhooks.id} = ${row.id} and ${webhooks.leaseId} = ${leaseId})`;
  const id = newId("delivery", new Date());
  const { result } = attempt;
  const [, updated] = await db.batch([
    // INSERT … SELECT, so that the lease can hold the row back; in the table's column order (`seq` null: the next one).
    db.insert(webhookDeliveries).select(
      db
        .select({
          seq: sql<number>`null`.as("seq"),
          id: sql<string>`${id}`.as("id"),
          webhookId: sql<string>`${row.id}`.as("webhook_id"),
          kind: sql<"event">`'event'`.as("kind"),
          messageId: sql<string>`${attempt.messageId}`.as("message_id"),
          attempt: sql<number>`${attempt.number}`.as("attempt"),
          at: sql<string>`${attempt.at}`.as("at"),
          statusCode: sql<number | null>`${result.statusCode}`.as("status_code"),
          durationMs: sql<number>`${result.durationMs}`.as("duration_ms"),
          error: sql<string | null>`${result.error}`.as("error"),
          outcome: sql<typeof attempt.outcome>`${attempt.outcome}`.as("outcome"),
          nextAttemptAt: sql<string | null>`${attempt.nextAttemptAt}`.as("next_attempt_at"),
        })
        .from(sql`(select 1)`)
        .where(held),
    ),
    db
      .update(webhooks)
      .set({ ...state, leaseUntil: Date.now() + LEASE_MS })
      .where(and(eq(webhooks.id, row.id), eq(webhooks.leaseId, leaseId))),
  ]);
  return (updated as D1Result).meta.changes > 0;
}

/**
 * Delivers what the webhook is owed at `now` (the clock of retries and of the 5 days; the
 * signatures carry the wall-clock time of sending), until nothing is, or its next event
 * waits for a retry, or the pass reaches `maxDeliveries` or its time.
 */
export async function deliverOwed(env: Env, webhookId: string, now: Date, report: PassReport, maxDeliveries = 200): Promise<PassEnd> {
  const db = database(env.DB);
  const started = Date.now();
  let sent = 0;
  // Once more after letting go: an event may have committed while another deliverer was turned away by our lease.
  for (let round = 0; round < 3; round++) {
    const leaseId = crypto.randomUUID();
    const row = await claim(db, webhookId, leaseId);
    if (!row) return { kind: "skipped" };
    let end: PassEnd;
    try {
      end = await deliverHeld(
        env,
        db,
        row,
        leaseId,
        now,
        report,
        () => Date.now() - started > PASS_MS || sent >= maxDeliveries,
        () => sent++,
      );
    } finally {
      await release(db, webhookId, leaseId);
    }
    if (end.kind !== "idle") return end;
    const current = await db.select().from(webhooks).where(eq(webhooks.id, webhookId)).get();
    if (!current?.enabled) return end;
    const scope = await scopeOf(db, current);
    if ((await eventsAfter(db, scope, current.cursorSeq, 1)).length === 0) return end;
  }
  return { kind: "more" };
}

/** The account whose events the webhook sees; null for an operator's, which sees every account's. */
async function scopeOf(db: Database, row: WebhookRow): Promise<string | null> {
  const [account] = await isOperatorAccount(db, row.accountId);
  return account?.role === "operator" ? null : row.accountId;
}

async function deliverHeld(
  env: Env,
  db: Database,
  row: WebhookRow,
  leaseId: string,
  now: Date,
  report: PassReport,
  outOfTime: () => boolean,
  count: () => void,
): Promise<PassEnd> {
  const at = now.toISOString();
  if (failedTooLong(row.failingSince, now)) {
    if (await disable(db, row, now)) report.disabled++;
    return { kind: "skipped" };
  }
  const scope = await scopeOf(db, row);
  const policy = storedPolicy(row);
  const secrets = await signingSecrets(env, row, now);
  const state = { cursorSeq: row.cursorSeq, attempts: row.attempts, nextAttemptAt: row.nextAttemptAt, failingSince: row.failingSince };
  for (;;) {
    if (state.nextAttemptAt !== null && state.nextAttemptAt > at) return { kind: "waiting", until: state.nextAttemptAt, scheduled: false };
    if (outOfTime()) return { kind: "more" };
    const page = await eventsAfter(db, scope, state.cursorSeq, PAGE_SIZE);
    if (page.length === 0) return { kind: "idle" };
    const head = page.find((event) => selects(row.eventTypes, event.type, event.operation));
    if (!head) {
      // Nothing here for this webhook: the cursor moves past the page.
      const skipped = { ...state, cursorSeq: page.at(-1)!.seq };
      const [moved] = await db
        .update(webhooks)
        .set({ cursorSeq: skipped.cursorSeq })
        .where(and(eq(webhooks.id, row.id), eq(webhooks.leaseId, leaseId)))
        .returning({ id: webhooks.id });
      if (!moved) return { kind: "skipped" };
      state.cursorSeq = skipped.cursorSeq;
      continue;
    }
    const event = await eventBySeq(db, head.seq).get();
    if (!event) return { kind: "more" };
    const body = JSON.stringify(presentEvent(event));
    const result = secrets ? await post(env, row.url, policy, await signedHeaders(secrets, event.id, body, new Date()), body) : SEALED_SECRET_UNREADABLE;
    count();
    const number = state.attempts + 1;
    let outcome: "succeeded" | "retrying" | "failed";
    let retryAt: string | null = null;
    if (result.ok) {
      outcome = "succeeded";
      Object.assign(state, { cursorSeq: head.seq, attempts: 0, nextAttemptAt: null, failingSince: null });
      report.delivered++;
    } else {
      retryAt = nextAttemptAt(number, now)?.toISOString() ?? null;
      outcome = retryAt === null ? "failed" : "retrying";
      const failingSince = state.failingSince ?? at;
      if (retryAt === null) {
        Object.assign(state, { cursorSeq: head.seq, attempts: 0, nextAttemptAt: null, failingSince });
        report.failed++;
      } else {
        Object.assign(state, { attempts: number, nextAttemptAt: retryAt, failingSince });
        report.retrying++;
      }
    }
    if (!(await record(db, row, leaseId, { messageId: event.id, number, at, result, outcome, nextAttemptAt: retryAt }, state))) return { kind: "skipped" };
    if (retryAt !== null) return { kind: "waiting", until: retryAt, scheduled: true };
    if (failedTooLong(state.failingSince, now)) {
      if (await disable(db, { ...row, ...state }, now)) report.disabled++;
      return { kind: "skipped" };
    }
  }
}
