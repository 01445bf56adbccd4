// Worker entry: the whole service is the Hono app, plus the Cron Trigger that forgets
// expired idempotency keys.
import { app } from "./app";
import type { Env } from "./env";
import { deleteExpiredIdempotencyKeys } from "./http/idempotency";

export default {
  fetch: app.fetch,
  async scheduled(_controller: ScheduledController, env: Env, ctx: ExecutionContext) {
    ctx.waitUntil(deleteExpiredIdempotencyKeys(env).then(() => undefined));
  },
} satisfies ExportedHandler<Env>;
