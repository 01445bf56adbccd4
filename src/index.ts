// Worker entry: the whole service is the Hono app, plus the Cron Triggers and the queue
// consumer. Hourly: forget expired idempotency keys and old webhook delivery records, and
// run the lifecycle sweep (contract §12: expiries, ends of grace periods, purges,
// transfers past act_by). Every minute, and with the hourly run: deliver what webhooks are
// owed (the safety net under the queue, docs/webhooks.md). The queue: webhook deliveries.
import { app, consumeWebhookMessages, cronSweep, dispatchOwed, forgetOldDeliveries } from "./app";
import type { Env } from "./env";
import { safeErrorSummary } from "./http/error-log";
import { deleteExpiredIdempotencyKeys } from "./http/idempotency";

/** The cron of the webhooks' safety net alone (wrangler.toml); any other run does everything. */
const WEBHOOKS_CRON = "* * * * *";

function logFailure(what: string) {
  return (error: unknown) => console.error(JSON.stringify({ level: "error", service: "domain-api", [what]: "failed", error: safeErrorSummary(error) }));
}

export default {
  fetch: app.fetch,
  async scheduled(controller: ScheduledController, env: Env, ctx: ExecutionContext) {
    const now = new Date(controller.scheduledTime);
    // Each on its own: one failing keeps none of the others from running.
    ctx.waitUntil(
      dispatchOwed(env, now).then((report) => {
        if (report.webhooks > 0) console.log(JSON.stringify({ level: "info", service: "domain-api", webhooks: report }));
      }, logFailure("webhooks")),
    );
    if (controller.cron === WEBHOOKS_CRON) return;
    ctx.waitUntil(deleteExpiredIdempotencyKeys(env).then(() => undefined));
    ctx.waitUntil(forgetOldDeliveries(env, now).then(() => undefined, logFailure("webhook_deliveries")));
    // The report, or a summary of the failure that carries no SQL text or bound values; the
    // next hour's run resumes from the rows themselves either way.
    ctx.waitUntil(
      cronSweep(env.DB, controller.scheduledTime).then(
        (report) => console.log(JSON.stringify({ level: "info", service: "domain-api", sweep: report })),
        logFailure("sweep"),
      ),
    );
  },
  async queue(batch: MessageBatch, env: Env) {
    await consumeWebhookMessages(batch as MessageBatch<never>, env);
  },
} satisfies ExportedHandler<Env>;
