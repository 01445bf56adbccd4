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
import { and, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import { type Database, database } from "../../db/client";
import { newId } from "../../db/ids";
import { events, webhookDeliveries, webhooks } from "../../db/schema";
import type { Env } from "../../env";
import { unattendedContext, writeUnattended } from "../../http/mutate";
import { presentEvent } from "../events/present";
import { webhookCollection } from "./collection";
import { selects } from "./event-types";
import { eventsAfter, eventsBySeq, isOperatorAccount, type WebhookRow } from "./queries";
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

/**
 * Lets go of the webhook and, in the same round trip, looks whether it is owed an event
 * committed meanwhile (one another deliverer was turned away from by our lease).
 */
async function release(db: Database, webhookId: string, leaseId: string, scope: string | null): Promise<boolean> {
  const after = sql`(select ${webhooks.cursorSeq} from ${webhooks} where ${webhooks.id} = ${webhookId} and ${webhooks.enabled} = 1)`;
  const [, owed] = await db.batch([
    db
      .update(webhooks)
      .set({ leaseId: null, leaseUntil: null })
      .where(and(eq(webhooks.id, webhookId), eq(webhooks.leaseId, leaseId))),
    db
      .select({ seq: events.seq })
      .from(events)
      .where(scope === null ? gt(events.seq, after) : and(eq(events.accountId, scope), gt(events.seq, after)))
      .limit(1),
  ]);
  return owed.length > 0;
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

/** One attempt, as its delivery record keeps it. */
interface Attempt {
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

type DeliveryState = Pick<WebhookRow, "cursorSeq" | "attempts" | "nextAttemptAt" | "failingSince">;

/**
 * Records attempts and moves the webhook's state on, in one batch, only while `leaseId`
 * still holds it (else nothing is written and the caller stops).
 */
async function record(db: Database, row: WebhookRow, leaseId: string, attempts: readonly Attempt[], state: DeliveryState): Promise<boolean> {
  const held = sql`exists (select 1 from ${webhooks} where ${webhooks.id} = ${row.id} and ${webhooks.leaseId} = ${leaseId})`;
  const field = (name: keyof Attempt) => sql`json_extract(value, ${`$.${name}`})`;
  const move = db
    .update(webhooks)
    .set({ ...state, leaseUntil: Date.now() + LEASE_MS })
    .where(and(eq(webhooks.id, row.id), eq(webhooks.leaseId, leaseId)));
  if (attempts.length === 0) return (await move).meta.changes > 0;
  const [, moved] = await db.batch([
    // INSERT … SELECT from a JSON array, so that the lease can hold the rows back; in the
    // table's column order (`seq` null: the next one).
    db.insert(webhookDeliveries).select(
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
        .from(sql`json_each(${JSON.stringify(attempts)})`)
        .where(held),
    ),
    move,
  ]);
  return (moved as D1Result).meta.changes > 0;
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
    const scope = await scopeOf(db, row);
    let end: PassEnd = { kind: "skipped" };
    let owed = false;
    try {
      end = await deliverHeld(
        env,
        db,
        row,
        leaseId,
        scope,
        now,
        report,
        () => Date.now() - started > PASS_MS || sent >= maxDeliveries,
        () => sent++,
      );
    } finally {
      owed = await release(db, webhookId, leaseId, scope);
    }
    if (end.kind !== "idle" || !owed) return end;
  }
  return { kind: "more" };
}

/** The account whose events the webhook sees; null for an operator's, which sees every account's. */
async function scopeOf(db: Database, row: WebhookRow): Promise<string | null> {
  const known = accountRoles.get(row.accountId);
  if (known && known.until > Date.now()) return known.role === "operator" ? null : row.accountId;
  const [account] = await isOperatorAccount(db, row.accountId);
  if (accountRoles.size >= 1024) accountRoles.clear();
  accountRoles.set(row.accountId, { role: account?.role ?? "customer", until: Date.now() + ROLE_CACHE_MS });
  return account?.role === "operator" ? null : row.accountId;
}

/** Accounts' roles as this isolate read them lately: a role never changes once the account is made. */
const accountRoles = new Map<string, { role: string; until: number }>();
const ROLE_CACHE_MS = 60_000;

/**
 * Successful deliveries recorded together, at most this many (a failure is recorded at
 * once): one write per batch instead of one per event. A crash before the record sends
 * those events again, which receivers deduplicate.
 */
const RECORD_EVERY = 10;
/** Event bodies read in one query. */
const BODIES_PER_READ = 10;

/**
 * Bodies of events this isolate delivered lately, by sequence: an event goes to every
 * webhook that selects it, and events never change, so the other webhooks' passes need
 * neither its row nor its JSON again. Small ones only, and a bounded number.
 */
const recentBodies = new Map<number, { id: string; body: string }>();
const RECENT_BODIES = 512;
const RECENT_BODY_BYTES = 64 * 1024;

async function bodiesOf(db: Database, seqs: readonly number[]): Promise<Map<number, { id: string; body: string }>> {
  const found = new Map<number, { id: string; body: string }>();
  const missing = seqs.filter((seq) => {
    const known = recentBodies.get(seq);
    if (known) found.set(seq, known);
    return !known;
  });
  if (missing.length === 0) return found;
  for (const event of await eventsBySeq(db, missing)) {
    const entry = { id: event.id, body: JSON.stringify(presentEvent(event)) };
    found.set(event.seq, entry);
    if (entry.body.length <= RECENT_BODY_BYTES) {
      if (recentBodies.size >= RECENT_BODIES) recentBodies.delete(recentBodies.keys().next().value!);
      recentBodies.set(event.seq, entry);
    }
  }
  return found;
}

async function deliverHeld(
  env: Env,
  db: Database,
  row: WebhookRow,
  leaseId: string,
  scope: string | null,
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
  const policy = storedPolicy(row);
  const secrets = await signingSecrets(env, row, now);
  // What is recorded (`state`), and what is delivered but not recorded yet (`pending`, up to `ahead`).
  const state: DeliveryState = { cursorSeq: row.cursorSeq, attempts: row.attempts, nextAttemptAt: row.nextAttemptAt, failingSince: row.failingSince };
  let pending: Attempt[] = [];
  let ahead = state.cursorSeq;
  const flush = async (next: Partial<DeliveryState> = {}) => {
    Object.assign(state, { cursorSeq: ahead }, next);
    const held = await record(db, row, leaseId, pending, state);
    pending = [];
    return held;
  };
  const finish = async (end: PassEnd): Promise<PassEnd> =>
    pending.length > 0 || ahead !== state.cursorSeq ? ((await flush()) ? end : { kind: "skipped" }) : end;

  for (;;) {
    if (state.nextAttemptAt !== null && state.nextAttemptAt > at) return finish({ kind: "waiting", until: state.nextAttemptAt, scheduled: false });
    if (outOfTime()) return finish({ kind: "more" });
    const page = await eventsAfter(db, scope, ahead, PAGE_SIZE);
    if (page.length === 0) return finish({ kind: "idle" });
    const matching = page.filter((event) => selects(row.eventTypes, event.type, event.operation)).slice(0, BODIES_PER_READ);
    if (matching.length === 0) {
      // Nothing here for this webhook: the cursor moves past the page.
      ahead = page.at(-1)!.seq;
      if (!(await flush())) return { kind: "skipped" };
      continue;
    }
    const bodies = await bodiesOf(
      db,
      matching.map((event) => event.seq),
    );
    for (const head of matching) {
      const event = bodies.get(head.seq);
      if (!event) return finish({ kind: "more" });
      const { body } = event;
      const result = secrets ? await post(env, row.url, policy, await signedHeaders(secrets, event.id, body, new Date()), body) : SEALED_SECRET_UNREADABLE;
      count();
      const number = state.attempts + 1;
      const attempt: Attempt = {
        id: newId("delivery", new Date()),
        message_id: event.id,
        attempt: number,
        at,
        status_code: result.statusCode,
        duration_ms: result.durationMs,
        error: result.error,
        outcome: "succeeded",
        next_attempt_at: null,
      };
      if (result.ok) {
        pending.push(attempt);
        ahead = head.seq;
        state.attempts = 0;
        state.nextAttemptAt = null;
        state.failingSince = null;
        report.delivered++;
        if (pending.length >= RECORD_EVERY && !(await flush())) return { kind: "skipped" };
        if (outOfTime()) return finish({ kind: "more" });
        continue;
      }
      const retryAt = nextAttemptAt(number, now)?.toISOString() ?? null;
      const failingSince = state.failingSince ?? at;
      pending.push({ ...attempt, outcome: retryAt === null ? "failed" : "retrying", next_attempt_at: retryAt });
      if (retryAt !== null) {
        // The events before it are recorded as delivered; it waits for its retry.
        report.retrying++;
        if (!(await flush({ attempts: number, nextAttemptAt: retryAt, failingSince }))) return { kind: "skipped" };
        return { kind: "waiting", until: retryAt, scheduled: true };
      }
      // Its last attempt: the event is given up, and the next one is attempted.
      report.failed++;
      ahead = head.seq;
      if (!(await flush({ attempts: 0, nextAttemptAt: null, failingSince }))) return { kind: "skipped" };
      if (failedTooLong(state.failingSince, now)) {
        if (await disable(db, { ...row, ...state }, now)) report.disabled++;
        return { kind: "skipped" };
      }
    }
    // The page's events after the last matching one read are passed over with it on the next read.
  }
}
