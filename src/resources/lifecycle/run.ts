// POST /v1/lifecycle/sweep (contract §12): an operator runs the sweep now, at the present
// time or, on a local development server, at `as_of`.
import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { actorOf } from "../../http/actor";
import { clockOverridable } from "../../http/auth";
import { ApiError } from "../../http/problem";
import type * as routes from "./routes";
import { sweep } from "./sweep";

/** The time the run acts at: now, or `as_of` where the service allows a clock of the caller's choosing. */
function runTime(c: Parameters<RouteHandler<typeof routes.runSweep, AppEnv>>[0], asOf: string | undefined): Date {
  if (asOf === undefined) return new Date();
  const at = Date.parse(asOf);
  if (Number.isNaN(at) || !/^\d{4}-\d{2}-\d{2}(T|$)/.test(asOf)) {
    throw new ApiError("validation_failed", "as_of: must be an RFC 3339 time, such as 2030-01-01T00:00:00Z", {
      errors: [{ field: "as_of", message: "must be an RFC 3339 time, such as 2030-01-01T00:00:00Z" }],
    });
  }
  if (!clockOverridable(c.env, c.req.raw)) {
    const message = "is honoured only by a local development server (npm start sets CLOCK_OVERRIDE); here the sweep runs at the present time";
    throw new ApiError("policy_violation", `as_of: ${message}.`, { errors: [{ field: "as_of", message }] });
  }
  return new Date(at);
}

export const runSweep: RouteHandler<typeof routes.runSweep, AppEnv> = async (c) => {
  const body = (c.req.valid("json") ?? {}) as { as_of?: string };
  const now = runTime(c, body.as_of);
  const report = await sweep(c.get("dbAllAccounts") ?? c.get("db"), { now, actor: actorOf(c) });
  return c.json(report, 200);
};
