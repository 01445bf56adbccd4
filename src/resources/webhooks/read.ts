// GET /v1/webhooks, /v1/webhooks/{webhook} and its deliveries: never a secret. A customer's
// token sees its own account's webhooks only (src/access/visibility.ts: another account's is
// 404); an operator's sees every account's, and may filter by `account`.
import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { findResource } from "../../http/mutate";
import { pageRequest, pageResponse } from "../../http/pagination";
import { sendResource } from "../../http/respond";
import { webhookCollection } from "./collection";
import { presentWebhook } from "../../delivery/webhook-resource";
import { presentDelivery } from "./present";
import { listDeliveries, listWebhooks as webhooksPage } from "./queries";
import type * as routes from "./routes";

export const listWebhooks: RouteHandler<typeof routes.listWebhooks, AppEnv> = async (c) => {
  const query = c.req.valid("query");
  const page = await pageRequest(c, query);
  const rows = await webhooksPage(c.get("db"), query, page);
  return c.json(await pageResponse(c, page, rows, (r) => ({ key: null, id: r.id }), presentWebhook), 200);
};

export const getWebhook: RouteHandler<typeof routes.getWebhook, AppEnv> = async (c) => {
  const row = await findResource(c, webhookCollection, c.req.valid("param").webhook);
  return sendResource(c, presentWebhook(row), row.version);
};

export const listWebhookDeliveries: RouteHandler<typeof routes.listWebhookDeliveries, AppEnv> = async (c) => {
  const row = await findResource(c, webhookCollection, c.req.valid("param").webhook);
  const page = await pageRequest(c, c.req.valid("query"));
  const rows = await listDeliveries(c.get("db"), row.id, page);
  return c.json(await pageResponse(c, page, rows, (r) => ({ key: r.seq, id: r.attempt[0] }), presentDelivery), 200);
};
