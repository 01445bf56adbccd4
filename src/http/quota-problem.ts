// Quotas over HTTP (docs/safety.md, "Quotas"): the problem a batch the write routine
// refused for a quota answers (422 quota_exceeded naming the limit, its value and what
// the account holds); with it the configured defaults every request's writes are held
// to, and an account's limits and usage as the API shows them. The limits are pure
// (src/registry/limits.ts); the check is the routine's (src/db/quota-check.ts): no
// operation adds one.
import type { Context } from "hono";
import { eq } from "drizzle-orm";
import { type QuotaExceeded, usageOf } from "../db/quota-check";
import { accounts } from "../db/schema";
import type { AppEnv } from "../env";
import { accountOf, isOperatorRights } from "../access/ownership";
import {
  configuredLimits,
  effectiveLimits,
  type Limits,
  QUOTA_KINDS,
  quotaExceededElsewhereMessage,
  quotaExceededMessage,
  type Usage,
} from "../registry/limits";
import { ApiError } from "./problem";

/** The configured defaults (wrangler.toml LIMIT_* variables). */
export function defaultLimits(c: Context<AppEnv>): Limits {
  return configuredLimits(c.env as unknown as Record<string, unknown>);
}

/**
 * An account's limits and usage, as `GET /v1/accounts/{id}` and `/v1/me` show them (usage as
 * usageQuery read it, in the same round trip as the account), and the quotas it holds more
 * than (`over_quota`): a limit an operator lowered below what it holds, or a domain a
 * connected registry gave it without room (docs/safety.md, "Quotas").
 */
export function limitsAndUsage(c: Context<AppEnv>, account: { limits: Partial<Record<string, number>> | null }, usage: Usage) {
  const limits = effectiveLimits(defaultLimits(c), account.limits);
  return { limits, usage, over_quota: QUOTA_KINDS.filter((kind) => usage[kind] > limits[kind]) };
}

/**
 * The 422 of a batch that would have taken an account past a limit, read after it rolled
 * back. The figures are shown to the account itself and to the operator; a caller whose
 * write would have filled another account (the losing account approving a transfer) is
 * told which limit, not that account's figures.
 */
export async function quotaProblem(c: Context<AppEnv>, exceeded: QuotaExceeded): Promise<ApiError> {
  const { kind, accountId } = exceeded;
  const rights = c.get("principal").rights;
  let message: string;
  if (accountOf(rights) === accountId || isOperatorRights(rights)) {
    const db = c.get("dbAllAccounts") ?? c.get("db");
    const [row] = await db.select({ limits: accounts.limits }).from(accounts).where(eq(accounts.id, accountId));
    const limit = effectiveLimits(defaultLimits(c), row?.limits ?? null)[kind];
    message = quotaExceededMessage(kind, limit, (await usageOf(db, accountId))[kind]);
  } else {
    message = quotaExceededElsewhereMessage(kind);
  }
  return new ApiError("quota_exceeded", `${message}.`, { errors: [{ field: kind, message }] });
}
