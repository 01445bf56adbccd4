// POST /v1/webhooks: a webhook for the caller's account (an operator may name another),
// with a new signing secret, shown in this answer only. Deliveries start with the events
// committed after it (its own creation's event among them). The account's webhooks quota
// is checked by the write routine at the end of the batch (src/db/quota-check.ts): two creates
// racing for the last place cannot both win.
import type { RouteHandler } from "@hono/zod-openapi";
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import { newId } from "../../db/ids";
import { webhooks } from "../../db/schema";
import type { AppEnv } from "../../env";
import { createResource } from "../../http/mutate";
import { sponsorFor } from "../../http/caller";
import { requestPolicy, requireDeliverableUrl, webhookCollection } from "./collection";
import { distinctPatterns } from "../../delivery/event-types";
import { presentWebhook } from "../../delivery/webhook-resource";
import { LAST_EVENT_SEQ } from "./queries";
import type { WebhookRow } from "../../delivery/rows";
import type * as routes from "./routes";
import { newSigningSecret, requireSealingKey, sealSecret } from "../../delivery/secrets";

const COLUMNS = getTableColumns(webhooks);

/** The row's values in the table's column order (what INSERT … SELECT takes); SQL values are computed at the insert. */
export function storedValues(row: { [K in keyof typeof COLUMNS]: unknown }): SQL {
  return sql.join(
    (Object.keys(COLUMNS) as (keyof typeof COLUMNS)[]).map((key) => {
      const value = row[key];
      if (value === null) return sql`null`;
      if (typeof value === "object" && value !== null && "getSQL" in value) return sql`${value as SQL}`;
      return sql`${COLUMNS[key].mapToDriverValue(value as never)}`;
    }),
    sql`, `,
  );
}

export const createWebhook: RouteHandler<typeof routes.createWebhook, AppEnv> = async (c) => {
  const { account, ...input } = c.req.valid("json");
  const policy = requestPolicy(c);
  requireSealingKey(c.env, policy.loopbackDeployment);
  await requireDeliverableUrl(c, input.url, policy);
  const accountId = await sponsorFor(c, account);

  const made: { row?: WebhookRow; secret?: string } = {};
  await createResource(c, webhookCollection, {
    async create({ db, now, at }) {
      const id = newId("webhook", now);
      const secret = newSigningSecret();
      const row: WebhookRow = {
        id,
        accountId,
        url: input.url,
        description: input.description ?? null,
        eventTypes: distinctPatterns(input.event_types),
        enabled: input.enabled ?? true,
        disabledReason: null,
        secretSealed: await sealSecret(c.env, policy.loopbackDeployment, id, secret),
        previousSecretSealed: null,
        previousSecretExpiresAt: null,
        loopback: policy.loopbackDeployment,
        apiHost: policy.apiHost,
        cursorSeq: 0,
        attempts: 0,
        nextAttemptAt: null,
        failingSince: null,
        leaseId: null,
        leaseUntil: null,
        turnedAway: false,
        version: 1,
        createdAt: at,
        updatedAt: at,
      };
      made.row = row;
      made.secret = secret;
      return {
        next: row,
        write: db.insert(webhooks).select(sql`select ${storedValues({ ...row, cursorSeq: LAST_EVENT_SEQ })}`),
      };
    },
  });
  // The routine answered with the webhook (and recorded that answer for an idempotent
  // replay); the same answer again with the secret, which nothing keeps in clear.
  return c.json({ ...presentWebhook(made.row!), secret: made.secret! }, 201);
};
