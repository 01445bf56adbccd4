// POST /v1/webhooks/{webhook}/rotate-secret: a new signing secret, shown in this answer
// only. For 24 hours deliveries carry a signature with each (the new one first), so a
// receiver can switch to the new secret at its own pace; a second rotation within those
// hours drops the oldest. The write is an `update` event of the webhook, with no secret.
import type { RouteHandler } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { webhooks } from "../../db/schema";
import type { AppEnv } from "../../env";
import { entityTag } from "../../http/etag";
import { answerRecordStatement } from "../../http/idempotency";
import { updateResource } from "../../http/mutate";
import { webhookCollection } from "./collection";
import { presentWebhook } from "../../delivery/webhook-resource";
import type { WebhookRow } from "../../delivery/rows";
import type * as routes from "./routes";
import { newSigningSecret, ROTATION_OVERLAP_MS, sealSecret } from "../../delivery/secrets";

export const rotateWebhookSecret: RouteHandler<typeof routes.rotateWebhookSecret, AppEnv> = async (c) => {
  let secret = "";
  const answer = await updateResource(c, webhookCollection, c.req.valid("param").webhook, {
    async update({ db, now, at }, current) {
      secret = newSigningSecret();
      const changes = {
        secretSealed: await sealSecret(c.env, current.loopback, current.id, secret),
        // Sealed with the webhook's id, so the sealed current secret is the sealed previous one as it is.
        previousSecretSealed: current.secretSealed,
        previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
        version: current.version + 1,
        updatedAt: at,
      };
      const next: WebhookRow = { ...current, ...changes };
      const key = c.get("idempotencyKeyId");
      const body = presentWebhook(next);
      // An idempotent replay repeats this answer without the secret, which nothing keeps in clear.
      const recorded = key
        ? [answerRecordStatement(db, key, { status: 200, headers: { "Content-Type": "application/json", ETag: entityTag(next.version, body) }, body })]
        : [];
      return {
        next,
        write: db
          .update(webhooks)
          .set(changes)
          .where(and(eq(webhooks.id, current.id), eq(webhooks.version, current.version))),
        alongside: recorded,
      };
    },
  });
  const webhook = (await answer.json()) as ReturnType<typeof presentWebhook>;
  return c.json({ ...webhook, secret }, 200);
};
