// The time an operator's run acts at (the lifecycle sweep, the events archive, the
// webhooks' delivery run): now, or the body's `as_of` where the service allows a clock of
// the caller's choosing — a local development server with CLOCK_OVERRIDE (src/http/local-development.ts
// clockOverridable) — so that tests can walk through days and years on one afternoon.
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { clockOverridable } from "./local-development";
import { ApiError } from "./problem";

const EARLIEST_RUN_TIME = Date.parse("1970-01-01T00:00:00Z");
const LATEST_RUN_TIME = Date.parse("9000-01-01T00:00:00Z");

/** `as_of` as a time, or now; `elsewhere` says what the run does on a deployed Worker instead. */
export function runTime(c: Context<AppEnv>, asOf: string | undefined, elsewhere: string): Date {
  if (asOf === undefined) return new Date();
  const at = Date.parse(asOf);
  if (Number.isNaN(at) || !/^\d{4}-\d{2}-\d{2}(T|$)/.test(asOf)) {
    throw new ApiError("validation_failed", "as_of: must be an RFC 3339 time, such as 2030-01-01T00:00:00Z", {
      errors: [{ field: "as_of", message: "must be an RFC 3339 time, such as 2030-01-01T00:00:00Z" }],
    });
  }
  // What a run writes lies up to years after its time (a renewal's new expiry, a retry's
  // due time): a time from 9000 on would write years past 9999, which ISO 8601 spells
  // "+010000-…" and which sorts before every 4-digit year stored beside it.
  if (at < EARLIEST_RUN_TIME || at >= LATEST_RUN_TIME) {
    const message = "must lie between 1970-01-01T00:00:00Z and 9000-01-01T00:00:00Z, so that every time the run writes keeps a 4-digit year";
    throw new ApiError("validation_failed", `as_of: ${message}.`, { errors: [{ field: "as_of", message }] });
  }
  if (!clockOverridable(c.env, c.req.raw)) {
    const message = `is honoured only by a local development server (npm start sets CLOCK_OVERRIDE); here ${elsewhere}`;
    throw new ApiError("policy_violation", `as_of: ${message}.`, { errors: [{ field: "as_of", message }] });
  }
  return new Date(at);
}
