// After every successful write, the queue is asked to look at the events it committed
// (dispatch.ts). Off the request path: the message is sent after the answer, through
// waitUntil, and a lost one costs only time (the cron finds what is owed within a minute).
// One message per write, whatever the number of webhooks: the consumer works out which
// webhooks the new events concern.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../../env";
import { safeErrorSummary } from "../../http/error-log";
import type { WebhookMessage } from "./dispatch";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

export const kickDeliveries: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (READS.has(c.req.method) || c.res.status >= 400 || !c.env.WEBHOOK_QUEUE) return;
  let ctx: { waitUntil(promise: Promise<unknown>): void };
  try {
    ctx = c.executionCtx;
  } catch {
    return;
  }
  ctx.waitUntil(
    c.env.WEBHOOK_QUEUE.send({ kind: "events" } satisfies WebhookMessage).catch((error: unknown) =>
      console.error(
        JSON.stringify({
          level: "error",
          service: "domain-api",
          request_id: c.get("requestId"),
          webhooks: "queue send failed",
          error: safeErrorSummary(error),
        }),
      ),
    ),
  );
};
