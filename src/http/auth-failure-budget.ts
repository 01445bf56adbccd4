// The failure budget of authentication (AUTH_RATE_LIMITER, per client address), spent by
// failures only: a missing, unknown or wrong token. A valid token never spends it, and one
// this isolate has verified before is re-checked against D1 whatever the budget says, so
// bad tokens from an address (a shared NAT, an attacker beside a customer) never lock
// valid tokens out of it. An address past its budget is remembered here until its period
// ends: a token this isolate has never verified, or none, from it is refused before D1 is
// asked.
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { clientAddress } from "./client-key";
import { ApiError } from "./problem";

const overBudgetUntil = new Map<string, number>();
const MAX_REMEMBERED_ADDRESSES = 10_000;

function retryAfterSeconds(c: Context<AppEnv>): string {
  return c.env.RATE_LIMIT_PERIOD_SECONDS ?? "60";
}

function overBudget(c: Context<AppEnv>): ApiError {
  const retryAfter = retryAfterSeconds(c);
  return new ApiError(
    "rate_limited",
    `Too many requests with unknown, wrong or missing tokens from this address; retry after ${retryAfter} seconds with a valid token.`,
    { headers: { "Retry-After": retryAfter } },
  );
}

/** Before an unverified lookup: an address past its failure budget gets 429 without a D1 read. */
export function refuseOverBudget(c: Context<AppEnv>): void {
  const until = overBudgetUntil.get(clientAddress(c));
  if (until === undefined) return;
  if (until > Date.now()) throw overBudget(c);
  overBudgetUntil.delete(clientAddress(c));
}

/** After a failure: it spends one of the address's failures; past the budget, 429 (and remembered). */
export async function spendFailure(c: Context<AppEnv>, failure: ApiError): Promise<ApiError> {
  const limiter = c.env.AUTH_RATE_LIMITER;
  if (!limiter) return failure;
  const { success } = await limiter.limit({ key: `auth:${clientAddress(c)}` });
  if (success) return failure;
  if (overBudgetUntil.size >= MAX_REMEMBERED_ADDRESSES) overBudgetUntil.clear();
  overBudgetUntil.set(clientAddress(c), Date.now() + Number(retryAfterSeconds(c)) * 1000);
  return overBudget(c);
}
