// The quota guards a create adds to its batch, and the problem a batch that passed a limit
// answers (docs/safety.md, "Quotas"): 422 quota_exceeded naming the limit, its value and
// what the account holds.
import type { Context } from "hono";
import type { Database } from "../db/client";
import { quotaGuard, usageOf } from "../db/quotas";
import { accounts } from "../db/schema";
import type { AppEnv } from "../env";
import { configuredLimits, effectiveLimits, type Limits, type QuotaKind, quotaExceededMessage } from "../registry/quotas";
import { eq } from "drizzle-orm";
import type { Statement } from "./mutate";
import { ApiError } from "./problem";

/** The configured defaults (wrangler.toml LIMIT_* variables). */
export function defaultLimits(c: Context<AppEnv>): Limits {
  return configuredLimits(c.env as unknown as Record<string, unknown>);
}

/**
 * The guards that keep `accountId` within its limits of `kinds`: last in the batch, after
 * the rows they count.
 */
export function quotaGuards(c: Context<AppEnv>, db: Database, accountId: string, ...kinds: QuotaKind[]): Statement[] {
  c.set("quotaAccount", accountId);
  const defaults = defaultLimits(c);
  return kinds.map((kind) => quotaGuard(db, accountId, kind, defaults));
}

/** A guard for one object of `kind` the account is promised but does not hold yet (a transfer requested). */
export function quotaGuardForComing(c: Context<AppEnv>, db: Database, accountId: string, kind: QuotaKind): Statement {
  c.set("quotaAccount", accountId);
  return quotaGuard(db, accountId, kind, defaultLimits(c), 1);
}

/** An account's limits and usage, as `GET /v1/accounts/{id}` and `/v1/me` show them. */
export async function limitsAndUsage(c: Context<AppEnv>, db: Database, account: { id: string; limits: Partial<Record<string, number>> | null }) {
  return { limits: effectiveLimits(defaultLimits(c), account.limits), usage: await usageOf(db, account.id) };
}

/** The 422 a batch that passed the `kind` limit answers, read after it rolled back. */
export async function quotaProblem(c: Context<AppEnv>, kind: QuotaKind): Promise<ApiError> {
  const accountId = c.get("quotaAccount") ?? c.get("principal").rights?.accountId ?? "";
  const db = c.get("dbAllAccounts") ?? c.get("db");
  const [row] = await db.select({ limits: accounts.limits }).from(accounts).where(eq(accounts.id, accountId));
  const limit = effectiveLimits(defaultLimits(c), row?.limits ?? null)[kind];
  const usage = (await usageOf(db, accountId))[kind];
  const message = quotaExceededMessage(kind, limit, usage);
  return new ApiError("quota_exceeded", `${message}.`, { errors: [{ field: kind, message }] });
}
