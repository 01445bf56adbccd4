// Worker entry: the whole service is the Hono app, plus the Cron Triggers and the queue
// consumer. Hourly: forget expired idempotency keys and old webhook delivery records, run
// the lifecycle sweep (expiries, ends of grace periods, purges, transfers past act_by),
// move the serial of signed zones when a new signing week begins
// (src/jobs/signature-renewal.ts), take DNSSEC keys through their rolls
// (src/jobs/dnssec-run.ts, docs/dnssec-rollovers.md) and move events older than the hot window to the
// archive (docs/capacity.md), and compare a batch of each connected repository's domains
// with its registry (docs/registries.md). Every minute, and with the hourly run: deliver what webhooks
// are owed (the safety net under the queue, docs/webhooks.md). The queue: webhook deliveries.
import { app } from "./app";
// Every D1 call tried again while another program holds the database locked (src/db/client.ts).
import { withBusyRetry } from "./db/client";
// Webhook deliveries, for the queue consumer and the cron trigger (docs/webhooks.md).
import { consumeWebhookMessages, dispatchOwed, forgetOldDeliveries } from "./delivery/dispatch";
import type { Env } from "./env";
import { safeErrorSummary } from "./http/error-log";
import { deleteExpiredIdempotencyKeys } from "./http/idempotency";
import { cronDnssec } from "./jobs/dnssec-run";
import { cronArchive } from "./jobs/event-archive";
import { cronReconcile } from "./jobs/reconcile";
import { cronRenewSignatures } from "./jobs/signature-renewal";
import { cronSweep } from "./jobs/sweep";

/** The cron of the webhooks' safety net alone (wrangler.toml); any other run does everything. */
const WEBHOOKS_CRON = "* * * * *";

function logFailure(what: string) {
  return (error: unknown) => console.error(JSON.stringify({ level: "error", service: "domain-api", [what]: "failed", error: safeErrorSummary(error) }));
}

function logReport(what: string) {
  return (report: unknown) => console.log(JSON.stringify({ level: "info", service: "domain-api", [what]: report }));
}

const retryingEnvs = new WeakMap<Env, Env>();

/**
 * The bindings as every handler sees them: D1 calls that meet a database another program
 * has locked are tried again (src/db/client.ts, withBusyRetry), whoever makes them.
 */
function withRetryingDatabase(env: Env): Env {
  let retrying = retryingEnvs.get(env);
  if (!retrying) {
    retrying = { ...env, DB: withBusyRetry(env.DB) };
    retryingEnvs.set(env, retrying);
  }
  return retrying;
}

export default {
  fetch: (request: Request, env: Env, ctx: ExecutionContext) => app.fetch(request, withRetryingDatabase(env), ctx),
  async scheduled(controller: ScheduledController, plainEnv: Env, ctx: ExecutionContext) {
    const env = withRetryingDatabase(plainEnv);
    const now = new Date(controller.scheduledTime);
    // Each on its own: one failing keeps none of the others from running. A failure's log
    // is a summary that carries no SQL text or bound values; the next run resumes from the
    // rows themselves either way.
    ctx.waitUntil(
      dispatchOwed(env, now).then((report) => {
        if (report.webhooks > 0) logReport("webhooks")(report);
      }, logFailure("webhooks")),
    );
    // Delivery records past their 7 days, every minute as deliveries are made:
    // FORGET_PER_RUN (5 000) a run is 7.2 million a day, where an hourly run kept up with
    // only 120 000, which ten webhooks of one busy account exceed.
    ctx.waitUntil(forgetOldDeliveries(env, now).then(() => undefined, logFailure("webhook_deliveries")));
    if (controller.cron === WEBHOOKS_CRON) return;
    ctx.waitUntil(deleteExpiredIdempotencyKeys(env).then(() => undefined));
    ctx.waitUntil(cronSweep(env.DB, controller.scheduledTime, env).then(logReport("sweep"), logFailure("sweep")));
    ctx.waitUntil(cronRenewSignatures(env.DB, controller.scheduledTime).then(logReport("signatures_renewed"), logFailure("signatures_renewed")));
    // DNSSEC keys whose next step is due (a bounded batch an hour; docs/dnssec-rollovers.md).
    ctx.waitUntil(cronDnssec(env.DB, controller.scheduledTime, env).then(logReport("dnssec"), logFailure("dnssec")));
    // What a failed run wrote to R2 and did not delete from D1 is found and completed by the next.
    ctx.waitUntil(cronArchive(env.DB, env.ARCHIVE, env.EVENT_HOT_DAYS, controller.scheduledTime).then(logReport("archive"), logFailure("archive")));
    // Each connected repository's next batch compared with its registry (docs/registries.md, "Reconciliation").
    ctx.waitUntil(cronReconcile(env.DB, controller.scheduledTime, env).then(logReport("reconciliation"), logFailure("reconciliation")));
  },
  async queue(batch: MessageBatch, env: Env) {
    await consumeWebhookMessages(batch as MessageBatch<never>, withRetryingDatabase(env));
  },
} satisfies ExportedHandler<Env>;
