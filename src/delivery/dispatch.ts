// Who runs the deliveries, all off the request path (docs/webhooks.md, "Delivery"):
//
// - every successful write asks the queue (WEBHOOK_QUEUE) to look at the events just
//   committed (kick.ts); the consumer finds the accounts of the events after the last
//   ones it looked at (`webhook_dispatch`), and delivers what their webhooks (and the
//   operators', which see every account) are owed;
// - a failed attempt sends the webhook to the queue again, delayed until its retry time;
// - the cron trigger, every minute, is the safety net: it finds every enabled webhook that
//   is owed an event (or failing for 5 days) straight from the webhooks' cursors, whatever
//   the queue did or lost, and delivers.
// All three run the same pass (pass.ts) over the webhooks they found, one pass for all of
// them, which a lease keeps to one deliverer at a time per webhook.
import { sql } from "drizzle-orm";
import { type Database, database } from "../db/client";
import { webhookDeliveryRecords, webhookDispatch } from "../db/schema";
import type { Env } from "../env";
import { safeErrorSummary } from "../http/error-log";
import { emptyReport, type PassEnd, type PassReport } from "./deliver";
import { owedAmong, owedCondition } from "./lease";
import { deliverPass } from "./pass";
import { DELIVERY_RETENTION_MS } from "./schedule";

/** What the queue carries: "look at the new events", or "deliver what this webhook is owed". */
export type WebhookMessage = { kind: "events" } | { kind: "webhook"; id: string };

/** Queues deliver a delayed message at most 12 hours later. */
const MAX_QUEUE_DELAY_SECONDS = 12 * 3600;
/**
 * Webhooks one pass works on at most, the cron's or a queue batch's: what a pass holds in
 * memory and at the sender grows with them. The cron's others follow on the queue or in
 * its next run; a queue batch's are sent back to the queue, in messages of their own.
 */
export const PASS_WEBHOOKS = 50;
/** Messages one `sendBatch` call carries at most (Cloudflare Queues' limit). */
const QUEUE_BATCH_MESSAGES = 100;

export interface DispatchReport extends PassReport {
  as_of: string;
  webhooks: number;
  more: boolean;
}

/** After a pass: the webhook's next turn on the queue, when it has one. */
async function followUp(env: Env, id: string, end: PassEnd, now: Date): Promise<boolean> {
  const queue = env.WEBHOOK_QUEUE;
  if (end.kind === "more") {
    if (queue) await queue.send({ kind: "webhook", id } satisfies WebhookMessage);
    return true;
  }
  if (end.kind === "waiting" && end.scheduled && queue) {
    const delaySeconds = Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil((Date.parse(end.until) - now.getTime()) / 1000)));
    await queue.send({ kind: "webhook", id } satisfies WebhookMessage, { delaySeconds });
  }
  return false;
}

async function runPasses(env: Env, ids: readonly string[], now: Date): Promise<DispatchReport> {
  const report: DispatchReport = { as_of: now.toISOString(), webhooks: ids.length, more: false, ...emptyReport() };
  if (ids.length === 0) return report;
  let ends: Map<string, PassEnd>;
  try {
    ends = await deliverPass(env, ids, now, report);
  } catch (error) {
    // The cursors still say what is owed: the next message or the cron finds it again.
    console.error(JSON.stringify({ level: "error", service: "domain-api", webhooks: ids.length, deliveries: "failed", error: safeErrorSummary(error) }));
    report.more = true;
    return report;
  }
  await Promise.all(
    [...ends].map(async ([id, end]) => {
      if (end.kind === "error" || (await followUp(env, id, end, now))) report.more = true;
    }),
  );
  return report;
}

/** Enabled webhooks owed something at `now` (lease.ts, owedCondition). */
export function owedWebhooks(db: Database, now: Date, limit: number) {
  return owedAmong(db).where(owedCondition(now)).orderBy(sql`w.id`).limit(limit);
}

/** The cron's run (and POST /v1/webhooks/dispatch's): every webhook owed something, from the webhooks' own cursors. */
export async function dispatchOwed(env: Env, now: Date): Promise<DispatchReport> {
  const db = database(env.DB);
  const owed = await owedWebhooks(db, now, PASS_WEBHOOKS + 1);
  const report = await runPasses(
    env,
    owed.slice(0, PASS_WEBHOOKS).map((row) => row.id),
    now,
  );
  if (owed.length > PASS_WEBHOOKS) report.more = true;
  return report;
}

/** The webhooks that may be owed the events committed since the consumer last looked, and how far it looked. */
async function webhooksOfNewEvents(db: Database): Promise<{ ids: string[]; upTo: number | null }> {
  const accounts = await db.all<{ account_id: string; last: number }>(
    sql`select account_id, max(seq) as last from events where seq > coalesce((select seq from ${webhookDispatch} where id = 1), 0) group by account_id`,
  );
  if (accounts.length === 0) return { ids: [], upTo: null };
  const upTo = Math.max(...accounts.map((a) => a.last));
  const ids = await db.all<{ id: string }>(sql`
    select id from webhooks where enabled = 1 and (
      account_id in (select value from json_each(${JSON.stringify(accounts.map((a) => a.account_id))}))
      or account_id in (select id from accounts where role = 'operator'))`);
  return { ids: ids.map((row) => row.id), upTo };
}

/** The queue consumer: a batch of messages, one pass per webhook they name (or that the new events concern). */
export async function consumeWebhookMessages(batch: MessageBatch<WebhookMessage>, env: Env): Promise<void> {
  const db = database(env.DB);
  const ids = new Set<string>();
  let upTo: number | null = null;
  for (const message of batch.messages) {
    if (message.body?.kind === "webhook" && typeof message.body.id === "string") ids.add(message.body.id);
  }
  if (batch.messages.some((message) => message.body?.kind === "events")) {
    const found = await webhooksOfNewEvents(db);
    for (const id of found.ids) ids.add(id);
    upTo = found.upTo;
  }
  // Past PASS_WEBHOOKS, the others go back to the queue, each a message of its own, before
  // the pass: if they cannot be sent, the batch fails and is retried whole, the events'
  // position unmoved.
  const all = [...ids];
  const later = all.slice(PASS_WEBHOOKS);
  for (let i = 0; i < later.length; i += QUEUE_BATCH_MESSAGES) {
    await env.WEBHOOK_QUEUE?.sendBatch(later.slice(i, i + QUEUE_BATCH_MESSAGES).map((id) => ({ body: { kind: "webhook", id } satisfies WebhookMessage })));
  }
  await runPasses(env, all.slice(0, PASS_WEBHOOKS), new Date());
  // Only after the passes: had they not run, the next message or the cron finds the same events again.
  if (upTo !== null) {
    await db.run(sql`update ${webhookDispatch} set seq = max(seq, ${upTo}) where id = 1`);
  }
  batch.ackAll();
}

/** Delivery records one run forgets at most (each of up to a job's attempts): one index range of a bounded size. */
export const FORGET_PER_RUN = 5000;

/** Delivery records older than DELIVERY_RETENTION_MS go, the oldest first, FORGET_PER_RUN records at most per run (each minute's cron). */
export async function forgetOldDeliveries(env: Env, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - DELIVERY_RETENTION_MS).toISOString();
  const result = await database(env.DB).run(
    sql`delete from ${webhookDeliveryRecords} where seq in (select seq from ${webhookDeliveryRecords} where at < ${cutoff} order by at limit ${FORGET_PER_RUN})`,
  );
  return result.meta.changes;
}
