// Worker entry: the whole service is the Hono app, plus the Cron Trigger, which forgets
// expired idempotency keys, runs the lifecycle sweep (expiries, ends of grace periods,
// purges, transfers past act_by), moves the serial of signed zones when a new signing
// week begins (src/resources/dnssec/renewal.ts) and moves events older than the hot
// window to the archive (docs/capacity.md).
import { app, cronArchive, cronRenewSignatures, cronSweep } from "./app";
import type { Env } from "./env";
import { safeErrorSummary } from "./http/error-log";
import { deleteExpiredIdempotencyKeys } from "./http/idempotency";

export default {
  fetch: app.fetch,
  async scheduled(controller: ScheduledController, env: Env, ctx: ExecutionContext) {
    // Each on its own: a failing sweep does not keep the keys, nor the keys the sweep.
    ctx.waitUntil(deleteExpiredIdempotencyKeys(env).then(() => undefined));
    // The report, or a summary of the failure that carries no SQL text or bound values; the
    // next hour's run resumes from the rows themselves either way.
    ctx.waitUntil(
      cronSweep(env.DB, controller.scheduledTime).then(
        (report) => console.log(JSON.stringify({ level: "info", service: "domain-api", sweep: report })),
        (error: unknown) => console.error(JSON.stringify({ level: "error", service: "domain-api", sweep: "failed", error: safeErrorSummary(error) })),
      ),
    );
    ctx.waitUntil(
      cronRenewSignatures(env.DB, controller.scheduledTime).then(
        (zones) => console.log(JSON.stringify({ level: "info", service: "domain-api", signatures_renewed: zones })),
        (error: unknown) =>
          console.error(JSON.stringify({ level: "error", service: "domain-api", signatures_renewed: "failed", error: safeErrorSummary(error) })),
      ),
    );
    // The archive resumes from the rows themselves too: what a failed run wrote to R2 and did
    // not delete from D1 is found and completed by the next.
    ctx.waitUntil(
      cronArchive(env.DB, env.ARCHIVE, env.EVENT_HOT_DAYS, controller.scheduledTime).then(
        (report) => console.log(JSON.stringify({ level: "info", service: "domain-api", archive: report })),
        (error: unknown) => console.error(JSON.stringify({ level: "error", service: "domain-api", archive: "failed", error: safeErrorSummary(error) })),
      ),
    );
  },
} satisfies ExportedHandler<Env>;
