// Quota guards (docs/safety.md, "Quotas"): the last statements of a create's batch. The
// account's counts in account_usage were moved by triggers as the batch inserted its rows
// (drizzle/0024_account_quotas.sql); a guard marks the account `over_quota` when a count now
// passes its limit, and a trigger turns that into an abort naming the quota, so the whole
// batch rolls back and nothing is written. One row read, and it holds under concurrency:
// two creates racing for the last place commit one after the other, and the second aborts.
import { and, eq, sql } from "drizzle-orm";
import type { Limits, QuotaKind } from "../registry/quotas";
import type { Database } from "./client";
import { accountUsage } from "./schema";

const COLUMN = {
  zones: accountUsage.zones,
  records: accountUsage.records,
  domains: accountUsage.domains,
  contacts: accountUsage.contacts,
  hosts: accountUsage.hosts,
  tokens: accountUsage.tokens,
  tsig_keys: accountUsage.tsigKeys,
  webhooks: accountUsage.webhooks,
} as const;

/**
 * The statement that aborts its batch with `quota_exceeded:<kind>` when the account now
 * holds more than its limit: the operator's override in accounts.limits, else `defaults`.
 * `coming` counts objects the batch does not insert yet but promises (a transfer requested
 * now moves the domain later).
 */
export function quotaGuard(db: Database, accountId: string, kind: QuotaKind, defaults: Limits, coming = 0) {
  const limit = sql`coalesce((select json_extract(a.limits, ${`$.${kind}`}) from accounts a where a.id = ${accountId}), ${defaults[kind]})`;
  return db
    .update(accountUsage)
    .set({ overQuota: kind })
    .where(and(eq(accountUsage.accountId, accountId), sql`${COLUMN[kind]} + ${coming} > ${limit}`));
}

/** What the account holds, by quota kind (zeros for an account without a row). */
export async function usageOf(db: Database, accountId: string): Promise<Record<QuotaKind, number>> {
  const [row] = await db.select().from(accountUsage).where(eq(accountUsage.accountId, accountId));
  return {
    zones: row?.zones ?? 0,
    records: row?.records ?? 0,
    domains: row?.domains ?? 0,
    contacts: row?.contacts ?? 0,
    hosts: row?.hosts ?? 0,
    tokens: row?.tokens ?? 0,
    tsig_keys: row?.tsigKeys ?? 0,
    webhooks: row?.webhooks ?? 0,
  };
}

/** The quota a failed batch passed, from its error: `quota_exceeded:zones` → "zones". */
export function exceededQuota(error: unknown): QuotaKind | null {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    const text = e instanceof Error ? e.message : String(e);
    const match = /quota_exceeded:([a-z_]+)/.exec(text);
    if (match && match[1]! in COLUMN) return match[1] as QuotaKind;
    e = e instanceof Error ? (e as { cause?: unknown }).cause : null;
  }
  return null;
}
