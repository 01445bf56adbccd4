// POST /v1/lifecycle/sweep: an operator runs the sweep now, at the present
// time or, on a local development server, at `as_of`.
import type { RouteHandler } from "@hono/zod-openapi";
import { connectedRepositories } from "../connector/config";
import type { AppEnv } from "../env";
import { actorOf } from "../http/actor";
import { runTime } from "../http/clock";
import { defaultLimits } from "../http/quota-problem";
import type * as routes from "./routes";
import { sweep } from "./sweep";

export const runSweep: RouteHandler<typeof routes.runSweep, AppEnv> = async (c) => {
  const body = (c.req.valid("json") ?? {}) as { as_of?: string };
  const now = runTime(c, body.as_of, "the sweep runs at the present time");
  const report = await sweep(c.get("dbAllAccounts") ?? c.get("db"), {
    now,
    actor: actorOf(c),
    limits: defaultLimits(c),
    // The connected repositories' domains are their registries' (503 not_configured when REGISTRY_CONNECTORS cannot be read).
    connected: connectedRepositories(c.env),
    settings: c.env,
  });
  return c.json(report, 200);
};
