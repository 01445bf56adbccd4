// POST /v1/webhooks/{webhook}/replay: send again every matching event since a time or a
// resume cursor of GET /v1/events. The webhook's cursor moves back to that point (never
// forward: what is owed stays owed), and the deliveries follow in commit order as any
// others, with the same `webhook-id`s as the first time.
import type { RouteHandler } from "@hono/zod-openapi";
import { and, asc, eq, gt, gte, min, sql } from "drizzle-orm";
import { database } from "../../db/client";
import { events, webhooks } from "../../db/schema";
import type { AppEnv } from "../../env";
import { findResource } from "../../http/mutate";
import { decodeListCursor } from "../../http/pagination";
import { ApiError } from "../../http/problem";
import { webhookCollection } from "./collection";
import type { WebhookMessage } from "../../delivery/dispatch";
import { isOperatorAccount } from "./queries";
import type * as routes from "./routes";

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;
/** The list whose cursors replay takes: GET /v1/events without filters (src/http/pagination.ts listScope). */
const EVENTS_LIST_SCOPE = "/v1/events?";

function badSince(message: string): ApiError {
  return new ApiError("validation_failed", `since: ${message}`, { errors: [{ field: "since", message }] });
}

export const replayWebhook: RouteHandler<typeof routes.replayWebhook, AppEnv> = async (c) => {
  const row = await findResource(c, webhookCollection, c.req.valid("param").webhook);
  const { since } = c.req.valid("json");
  if (!row.enabled) throw badSince("the webhook is disabled; enable it (PATCH enabled: true), then replay");
  const db = database(c.env.DB);

  // The last event before the replay's first: the cursor moves back to it.
  let before: number;
  if (RFC3339.test(since) && !Number.isNaN(Date.parse(since))) {
    const from = new Date(Date.parse(since)).toISOString();
    const [first] = await db
      .select({ seq: min(events.seq) })
      .from(events)
      .where(gte(events.at, from));
    before = first?.seq === null || first?.seq === undefined ? Number.MAX_SAFE_INTEGER : first.seq - 1;
  } else {
    let position: Awaited<ReturnType<typeof decodeListCursor>>;
    try {
      position = await decodeListCursor(c, EVENTS_LIST_SCOPE, since);
    } catch {
      throw badSince("is neither an RFC 3339 time nor a resume_cursor (or next_cursor) of GET /v1/events without filters");
    }
    if (typeof position.key === "number") before = position.key;
    else {
      const event = await db.select({ seq: events.seq }).from(events).where(eq(events.id, position.id)).get();
      before = event?.seq ?? 0;
    }
  }
  const [account] = await isOperatorAccount(db, row.accountId);
  const cursor = Math.min(row.cursorSeq, before);
  const first = await db
    .select({ id: events.id })
    .from(events)
    .where(account?.role === "operator" ? gt(events.seq, cursor) : and(eq(events.accountId, row.accountId), gt(events.seq, cursor)))
    .orderBy(asc(events.seq))
    .limit(1)
    .get();
  if (before < row.cursorSeq) {
    // Whoever is delivering lets go; the event being retried is sent again with the others, at once.
    await db
      .update(webhooks)
      .set({ cursorSeq: sql`min(${webhooks.cursorSeq}, ${before})`, attempts: 0, nextAttemptAt: null, leaseId: null, leaseUntil: null })
      .where(eq(webhooks.id, row.id));
  }
  const queue = c.env.WEBHOOK_QUEUE;
  if (queue) c.executionCtx.waitUntil(queue.send({ kind: "webhook", id: row.id } satisfies WebhookMessage).catch(() => undefined));
  return c.json({ webhook: row.id, from_event: first?.id ?? null }, 202);
};
