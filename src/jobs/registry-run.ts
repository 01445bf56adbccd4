// POST /v1/registry-messages and POST /v1/repositories/{repository}/reconcile/run: the
// registry jobs run for the gateway and for an operator (src/jobs/registry-messages.ts,
// src/jobs/reconcile.ts).
import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { actorOf } from "../http/actor";
import { defaultLimits } from "../http/quota-problem";
import { reconcile } from "./reconcile";
import { applyRegistryMessage } from "./registry-messages";
import type * as routes from "./registry-routes";

export const receiveRegistryMessage: RouteHandler<typeof routes.receiveRegistryMessage, AppEnv> = async (c) => {
  const input = c.req.valid("json");
  const report = await applyRegistryMessage(c.env, c.get("dbAllAccounts") ?? c.get("db"), input, { now: new Date(), limits: defaultLimits(c) });
  return c.json(report, 200);
};

export const runReconciliation: RouteHandler<typeof routes.runReconciliation, AppEnv> = async (c) => {
  const body = (c.req.valid("json") ?? {}) as { limit?: number };
  const report = await reconcile(c.env, c.get("dbAllAccounts") ?? c.get("db"), c.req.valid("param").repository, {
    now: new Date(),
    actor: actorOf(c),
    limits: defaultLimits(c),
    ...(body.limit !== undefined ? { limit: body.limit } : {}),
  });
  return c.json(report, 200);
};
