// Delivering what one webhook is owed, inside a delivery pass that holds it (pass.ts;
// docs/webhooks.md, "Delivery"). The events table is the outbox and the webhook's
// `cursor_seq` the only bookmark: the event owed next is the first one after the cursor
// that the webhook's account sees and its filter selects. The pass's lease keeps every
// other deliverer off the webhook; the attempts and the new cursor are recorded together,
// only while that lease still holds. Nothing else is kept between attempts, so a crash,
// restart or deploy at any moment loses no delivery: the worst it does is send an event
// again whose answer was not recorded yet (receivers deduplicate on `webhook-id`).
//
// Per webhook the attempts go in commit order: an event is delivered, or given up after
// its last retry, before the next one is attempted. Webhooks go side by side.
import type { Database } from "../db/client";
import type { Env } from "../env";
import type { Body, EventHead, HeadsPage } from "./deliver-reads";
import { selects } from "./event-types";
import { type DeliveryRecord, type DeliveryState, disable } from "./lease";
import type { Attempt, WebhookRow } from "./rows";
import { failedTooLong, nextAttemptAt } from "./schedule";
import { type AttemptResult, jobEvents, MAX_JOB_EVENTS, SEALED_SECRET_UNREADABLE, type SendJob } from "./send";
import { signingSecrets, storedPolicy } from "./signing-secrets";

export interface PassReport {
  delivered: number;
  retrying: number;
  failed: number;
  disabled: number;
}

/**
 * How a webhook's turn in a pass ended: nothing more owed (`idle`); another deliverer holds
 * it, or it is disabled or gone (`skipped`); the pass reached its bound with more owed
 * (`more`); the event owed next waits for its retry time (`waiting`, `scheduled` when this
 * pass set it); D1 or something else failed (`error`: the cursor still says what is owed).
 */
export type PassEnd = { kind: "idle" } | { kind: "skipped" } | { kind: "more" } | { kind: "waiting"; until: string; scheduled: boolean } | { kind: "error" };

export function emptyReport(): PassReport {
  return { delivered: 0, retrying: 0, failed: 0, disabled: 0 };
}

/** What the pass shares with each of its webhooks. */
export interface PassTools {
  db: Database;
  heads(ask: { after: number; scope: string | null }): Promise<HeadsPage>;
  bodies(seqs: readonly number[]): Promise<Map<number, Body>>;
  /** Records, while the pass's lease holds the webhook; false when it no longer does. */
  record(entry: DeliveryRecord): Promise<boolean>;
  /** The record of a turn's end: written with the other webhooks' before the pass lets go (a lost lease then skips it). */
  recordAtEnd(entry: DeliveryRecord): void;
  /**
   * Whether the pass may still hand the webhook a job (lease.ts, stillSending): its lease
   * holds, it is enabled, its account active. Asked in SQL before every job.
   */
  stillSending(webhookId: string): Promise<boolean>;
  /**
   * Hands events to the webhook sender (src/sender.ts), which sends them in order until one
   * fails or the pass's time is up: their results, in order, maybe fewer than the events.
   */
  send(job: Pick<SendJob, "url" | "policy" | "secrets" | "events">): Promise<AttemptResult[]>;
  /** How many events the webhook may still be sent in this pass. */
  room(webhookId: string): number;
  /** True once the pass should start no more attempts at this webhook. */
  outOfTime(webhookId: string): boolean;
  report: PassReport;
}

/**
 * Delivers what the webhook is owed at `now` (the clock of retries and of the 5 days; the
 * signatures carry the wall-clock time of sending), until nothing is, or its next event
 * waits for a retry, or the pass is out of time.
 */
export async function deliverHeld(env: Env, tools: PassTools, row: WebhookRow, scope: string | null, now: Date, sent: () => void): Promise<PassEnd> {
  const { db, report } = tools;
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
    const held = await tools.record({ webhookId: row.id, at, attempts: pending, state: { ...state } });
    pending = [];
    return held;
  };
  // The turn's last record goes with every other webhook's, in one batch before the pass
  // lets go (pass.ts): how many round trips a pass takes does not depend on when each
  // webhook's jobs came back from the sender.
  const finish = (end: PassEnd, next: Partial<DeliveryState> = {}): PassEnd => {
    const moved = ahead !== state.cursorSeq || Object.keys(next).length > 0;
    Object.assign(state, { cursorSeq: ahead }, next);
    if (pending.length > 0 || moved) tools.recordAtEnd({ webhookId: row.id, at, attempts: pending, state: { ...state } });
    pending = [];
    return end;
  };

  // Events read and not dealt with yet, and how far the read went.
  let queue: EventHead[] = [];
  let readTo = ahead;
  let more = true;
  for (;;) {
    if (state.nextAttemptAt !== null && state.nextAttemptAt > at) return finish({ kind: "waiting", until: state.nextAttemptAt, scheduled: false });
    if (tools.outOfTime(row.id)) return finish({ kind: "more" });
    if (queue.length === 0) {
      // Every event read so far is dealt with: the cursor may pass what the filter left out.
      ahead = Math.max(ahead, readTo);
      if (!more) return finish({ kind: "idle" });
      const page = await tools.heads({ after: ahead, scope });
      queue = page.heads.filter((event) => selects(row.eventTypes, event.type, event.operation));
      readTo = page.last;
      more = page.more;
      continue;
    }
    // One job for the sender at a time: the events it sends are recorded together after it
    // (a failure at once), so a crash before the record sends at most one job's again,
    // which receivers deduplicate on webhook-id.
    const chunk = queue.slice(0, Math.min(MAX_JOB_EVENTS, tools.room(row.id)));
    // A webhook whose account was suspended (or that was disabled or changed) since the
    // pass took it is sent nothing more: what it is owed stays owed (docs/webhooks.md).
    const [bodies, sending] = await Promise.all([tools.bodies(chunk.map((event) => event.seq)), tools.stillSending(row.id)]);
    if (!sending) return finish({ kind: "skipped" });
    const read: { id: string; body: string }[] = [];
    for (const head of chunk) {
      const event = bodies.get(head.seq);
      if (!event) break;
      read.push({ id: event.id, body: event.body });
    }
    // Within a job's size (send.ts, MAX_JOB_BYTES); the events after it are the next job's.
    const events = jobEvents(read);
    if (events.length === 0) return finish({ kind: "more" });
    const results = secrets ? await tools.send({ url: row.url, policy, secrets, events }) : [SEALED_SECRET_UNREADABLE];
    if (results.length === 0) return finish({ kind: "more" });
    // Every result is recorded before the pass stops here: what was sent is not sent again.
    for (const [i, result] of results.entries()) {
      const head = queue.shift()!;
      sent();
      const number = state.attempts + 1;
      const messageId = events[i]!.id;
      if (result.ok) {
        pending.push([messageId, number, result.statusCode, result.durationMs, null, "succeeded", null]);
        ahead = head.seq;
        state.attempts = 0;
        state.nextAttemptAt = null;
        state.failingSince = null;
        report.delivered++;
        continue;
      }
      const retryAt = nextAttemptAt(number, now)?.toISOString() ?? null;
      const failingSince = state.failingSince ?? at;
      pending.push([messageId, number, result.statusCode, result.durationMs, result.error, retryAt === null ? "failed" : "retrying", retryAt]);
      if (retryAt !== null) {
        // The events before it are recorded as delivered; it waits for its retry.
        report.retrying++;
        return finish({ kind: "waiting", until: retryAt, scheduled: true }, { attempts: number, nextAttemptAt: retryAt, failingSince });
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
    // More to send: what this job sent is recorded before the next job (else at the turn's end).
    if (pending.length > 0 && (queue.length > 0 || more) && !(await flush())) return { kind: "skipped" };
  }
}
