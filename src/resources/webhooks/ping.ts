// POST /v1/webhooks/{webhook}/ping: one test delivery, now, signed as every delivery is,
// whose answer this request waits for (at most 10 s). Not an event: it has an id of its
// own (`png_…`), is not retried, and moves nothing along the events. A disabled webhook
// can be pinged, to test a receiver before enabling it.
import type { RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import { newId } from "../../db/ids";
import { eq } from "drizzle-orm";
import { accounts, webhookDeliveryRecords } from "../../db/schema";
import type { AppEnv } from "../../env";
import { findResource } from "../../http/mutate";
import { webhookCollection } from "./collection";
import { signingSecrets, storedPolicy } from "../../delivery/signing-secrets";
import { presentDelivery } from "./present";
import type { StoredAttempt, WebhookRow } from "../../delivery/rows";
import type * as routes from "./routes";
import { type AttemptResult, SEALED_SECRET_UNREADABLE, sendThrough, webhookSender } from "../../delivery/send";
import { dnsResolver } from "../../delivery/target";

/** What a ping records if the sender started no attempt (its job's time was up before it began). */
const NOT_STARTED: AttemptResult = {
  ok: false,
  statusCode: null,
  durationMs: 0,
  error: "Not sent: the webhook sender started no attempt in time; ping again.",
};

/** What a ping of a suspended account's webhook records: its webhooks send nothing until it is active again. */
function accountSuspended(accountId: string): AttemptResult {
  return {
    ok: false,
    statusCode: null,
    durationMs: 0,
    error: `Not sent: the account ${accountId} is suspended, and its webhooks send nothing until it is active again.`,
  };
}

/**
 * The ping's one attempt, sent by the webhook sender as every delivery is (src/sender.ts),
 * a job of one event; not for a suspended account, whose webhooks pause (docs/webhooks.md),
 * nor with a secret that cannot be opened. Never a throw: a sender that fails is the
 * attempt's failure (sendThrough), recorded and answered as any other.
 */
async function pingResult(c: Context<AppEnv>, row: WebhookRow, messageId: string, body: string, now: Date): Promise<AttemptResult> {
  const [account] = await c.get("db").select({ status: accounts.status }).from(accounts).where(eq(accounts.id, row.accountId));
  if (account?.status !== "active") return accountSuspended(row.accountId);
  const secrets = await signingSecrets(c.env, row, now);
  if (!secrets) return SEALED_SECRET_UNREADABLE;
  const results = await sendThrough(webhookSender(c.env), {
    url: row.url,
    policy: storedPolicy(row),
    secrets,
    resolver: dnsResolver(c.env),
    events: [{ id: messageId, body }],
    // It starts at once; the bound only matters to a job of many.
    startBy: Date.now() + 30_000,
  });
  return results[0] ?? NOT_STARTED;
}

export const pingWebhook: RouteHandler<typeof routes.pingWebhook, AppEnv> = async (c) => {
  const row = await findResource(c, webhookCollection, c.req.valid("param").webhook);
  const now = new Date();
  const messageId = newId("ping", now);
  const body = JSON.stringify({ id: messageId, type: "ping", webhook: row.id, at: now.toISOString() });
  const result = await pingResult(c, row, messageId, body, now);
  const attempt: StoredAttempt = [
    newId("delivery", now),
    messageId,
    1,
    result.statusCode,
    result.durationMs,
    result.error,
    result.ok ? "succeeded" : "failed",
    null,
  ];
  // A record of its own, of one attempt (src/db/schema.ts, webhookDeliveryRecords).
  const [delivery] = await c
    .get("db")
    .insert(webhookDeliveryRecords)
    .values({ webhookId: row.id, kind: "ping", at: now.toISOString(), count: 1, attempts: JSON.stringify([attempt]) })
    .returning({ seq: webhookDeliveryRecords.seq, kind: webhookDeliveryRecords.kind, at: webhookDeliveryRecords.at });
  return c.json(presentDelivery({ ...delivery!, attempt }), 200);
};
