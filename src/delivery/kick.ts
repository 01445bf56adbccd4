// After a successful write, the queue is asked to look at the events committed since it
// last looked (dispatch.ts). Off the request path: the message is sent after the answer,
// through waitUntil, and a lost one costs only time (the cron finds what is owed within a
// minute). The message says nothing of the write: the consumer works out which webhooks the
// new events concern, whatever the number of webhooks.
//
// One message a second per isolate at most, however many writes it serves: each is sent
// with a delay of KICK_DELAY_SECONDS, so its consumer looks at the events no earlier than
// that after it was sent, and every write this isolate commits before then (those that
// send no message of their own, KICK_EVERY_MS) is among what it finds. A burst of writes
// costs the queue and the consumer one run a second, not one per write; a delivery still
// starts about a second after its commit (docs/webhooks.md, "Delivery").
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { safeErrorSummary } from "../http/error-log";
import type { WebhookMessage } from "./dispatch";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Queues deliver a delayed message no earlier than this after it was sent. */
export const KICK_DELAY_SECONDS = 1;
/** A write within this time of the last message sent is covered by it: never more than the delay. */
export const KICK_EVERY_MS = KICK_DELAY_SECONDS * 1000;

/** When this isolate last sent the queue a message that is still to be consumed (0: none). */
let lastKickAt = 0;

export const kickDeliveries: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (READS.has(c.req.method) || c.res.status >= 400 || !c.env.WEBHOOK_QUEUE) return;
  let ctx: { waitUntil(promise: Promise<unknown>): void };
  try {
    ctx = c.executionCtx;
  } catch {
    return;
  }
  // The write has committed: a message sent less than KICK_EVERY_MS ago reaches its
  // consumer after this moment, so it covers this write's events too.
  const sentAt = Date.now();
  if (sentAt - lastKickAt < KICK_EVERY_MS) return;
  lastKickAt = sentAt;
  ctx.waitUntil(
    c.env.WEBHOOK_QUEUE.send({ kind: "events" } satisfies WebhookMessage, { delaySeconds: KICK_DELAY_SECONDS }).catch((error: unknown) => {
      // Not sent: the next write sends one (the cron covers the writes in between).
      if (lastKickAt === sentAt) lastKickAt = 0;
      console.error(
        JSON.stringify({
          level: "error",
          service: "domain-api",
          request_id: c.get("requestId"),
          webhooks: "queue send failed",
          error: safeErrorSummary(error),
        }),
      );
    }),
  );
};
