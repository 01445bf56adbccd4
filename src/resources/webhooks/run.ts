// POST /v1/webhooks/dispatch: an operator runs the cron's delivery run now, at the present
// time or, on a local development server, at `as_of` (as the lifecycle sweep does), so that
// tests can watch retries come due and a failing webhook reach its fifth day.
import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { runTime } from "../../http/clock";
import { dispatchOwed } from "../../delivery/dispatch";
import type * as routes from "./routes";

export const dispatchWebhooks: RouteHandler<typeof routes.dispatchWebhooks, AppEnv> = async (c) => {
  const body = (c.req.valid("json") ?? {}) as { as_of?: string };
  const now = runTime(c, body.as_of, "deliveries run at the present time");
  return c.json(await dispatchOwed(c.env, now), 200);
};
