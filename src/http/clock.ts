// The time an operator's run acts at (the lifecycle sweep, the events archive): now, or
// the body's `as_of` where the service allows a clock of the caller's choosing — a local
// development server (npm start sets CLOCK_OVERRIDE), for requests to a loopback host.
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { clockOverridable } from "./auth";
import { ApiError } from "./problem";

const RFC3339 = "must be an RFC 3339 time, such as 2030-01-01T00:00:00Z";

/** `as_of` as a time (422 naming it when it is not one, or when this server does not take it); now without it. */
export function runTime(c: Context<AppEnv>, asOf: string | undefined, what: string): Date {
  if (asOf === undefined) return new Date();
  const at = Date.parse(asOf);
  if (Number.isNaN(at) || !/^\d{4}-\d{2}-\d{2}(T|$)/.test(asOf)) {
    throw new ApiError("validation_failed", `as_of: ${RFC3339}`, { errors: [{ field: "as_of", message: RFC3339 }] });
  }
  if (!clockOverridable(c.env, c.req.raw)) {
    const message = `is honoured only by a local development server (npm start sets CLOCK_OVERRIDE); here ${what} runs at the present time`;
    throw new ApiError("policy_violation", `as_of: ${message}.`, { errors: [{ field: "as_of", message }] });
  }
  return new Date(at);
}
