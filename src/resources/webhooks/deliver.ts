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
import { type Database, database } from "../../db/client";
import { newId } from "../../db/ids";
import type { Env } from "../../env";
import { BODIES_PER_READ, bodiesOf, RECORD_EVERY, scopeOf } from "./deliver-reads";
import { selects } from "./event-types";
import { type Attempt, claim, type DeliveryState, disable, record, release } from "./lease";
import { eventsAfter, type WebhookRow } from "./queries";
import { failedTooLong, nextAttemptAt } from "./schedule";
import { type AttemptResult, post } from "./send";
import { signedHeaders } from "./signing";
import { signingSecrets, storedPolicy } from "./signing-secrets";

/** A pass starts no attempt after this long, so that it ends (an attempt takes at most ~16 s) well inside its lease. */
const PASS_MS = 30_000;
/** Events read per page while looking for the next one the filter selects. */
const PAGE_SIZE = 100;

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

const SEALED_SECRET_UNREADABLE: AttemptResult = {
  ok: false,
  statusCode: null,
  durationMs: 0,
  error: "Not sent: the signing secret cannot be opened (WEBHOOK_SECRET_KEY changed?); rotate the secret.",
};

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
