// The quota check in SQL (docs/safety.md, "Quotas"), decided in one place: the write routine
// (src/db/write.ts) ends every batch with `quotaCheck`, so no writer — an HTTP create, a
// change batch, an import, a DNS UPDATE, a transfer's approval, the sweep — can leave it
// out. The account's counts in account_usage are moved by triggers as the batch writes its
// rows (drizzle/0024, 0025, 0026), and the first change of a count in a batch notes what
// the account held before it (`counts_before`, drizzle/0033). The check reads only the rows
// so noted, marks `over_quota` where a count the batch raised now passes its limit, and a
// trigger turns that into an abort naming the quota and the account: the whole batch rolls
// back and nothing is written. A count the batch lowered or left alone is never refused.
// It holds under concurrency: D1 runs batches one after the other, so of two creates
// racing for the last place the second sees the first's count and aborts.
import { and, eq, isNotNull, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { effectiveLimits, type Limits, QUOTA_KINDS, type QuotaKind, type Usage } from "../registry/limits";
import type { Database } from "./client";
import { accounts, accountUsage } from "./schema";

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
 * What a writer that never raises a count gives the routine instead of the configured
 * limits (webhook bookkeeping, the events archive): a count its batch raises anyway is
 * refused, whatever the limit, so the mistake shows at once.
 */
export const RAISES_NO_COUNT = "raises-no-count" as const;

/**
 * What a write the registry decided gives the routine (docs/safety.md, "Quotas"): a domain a
 * connected registry now holds for an account (a transfer in it approved, a name server it
 * names) is recorded whatever the account's limits, since refusing it would leave our copy
 * without what the registry holds, and the poll message that brought it would be handed over
 * again forever. Its counts move as any write's; no limit refuses them.
 */
export const COUNTED_NOT_HELD = "counted-not-held" as const;

/** The limits a write is held to: the configured defaults (wrangler.toml LIMIT_*), none raised, or none at all. */
export type QuotaDefaults = Limits | typeof RAISES_NO_COUNT | typeof COUNTED_NOT_HELD;

/** An account's limit of `kind`: the operator's override in `limits` (accounts.limits), else the default. */
function limitOf(limits: SQLWrapper, kind: QuotaKind, defaults: QuotaDefaults): SQL {
  if (defaults === RAISES_NO_COUNT) return sql`-1`;
  if (defaults === COUNTED_NOT_HELD) return sql`9223372036854775807`;
  return sql`coalesce(json_extract(${limits}, ${sql.raw(`'$.${kind}'`)}), ${defaults[kind]})`;
}

/**
 * A write's note of an account it took past a limit (a write the registry decided, made with
 * COUNTED_NOT_HELD): `{"account", "quota", "limit"}`, the limit as the account's overrides and
 * the defaults make it, read in the write's batch (an event's `afterFromDatabase`). What the
 * account then holds is its `usage` (GET /v1/accounts/{account}).
 */
export function pastLimitNote(accountId: string, kind: QuotaKind, defaults: Limits): SQL {
  return sql`(select json_object('account', a.id, 'quota', ${kind}, 'limit', ${limitOf(sql`a.limits`, kind, defaults)}) from accounts a where a.id = ${accountId})`;
}

/** The limits of `accountId` as the operator overrode them (null: none). */
const overridesOf = (accountId: string) => sql`(select a.limits from accounts a where a.id = ${accountId})`;

/** The notes no check has cleared: none, except after a write outside the routine. */
export function notesLeft(db: Database) {
  return db.update(accountUsage).set({ countsBefore: null }).where(isNotNull(accountUsage.countsBefore));
}

/**
 * After a batch the check refused: any note still there was left by a write outside the
 * routine (a migration's backfill, a row inserted by hand), since the batch's own rolled
 * back with it; the check would judge that write again in every batch, and refuse them all
 * if it passed a limit. Clears such notes (true if there were any), so the refused write
 * is tried once more, judged on its own changes. Costs nothing while no batch is refused.
 */
export async function forgetNotesLeftOutside(db: Database): Promise<boolean> {
  const cleared = await notesLeft(db).returning({ accountId: accountUsage.accountId });
  return cleared.length > 0;
}

/**
 * The check that ends every batch: for each account whose counts the batch changed, the
 * first kind whose count is above both what the account held before the batch and its
 * limit becomes `over_quota`, which aborts the batch with `quota_exceeded:<kind>:<account>`;
 * the notes are cleared. Reads the accounts the batch touched (their usage, and their
 * overrides when a count grew), nothing else.
 */
export function quotaCheck(db: Database, defaults: QuotaDefaults) {
  const grew = QUOTA_KINDS.map((kind, i) => sql`${COLUMN[kind]} > json_extract(${accountUsage.countsBefore}, ${sql.raw(`'$[${i}]'`)})`);
  const passed = QUOTA_KINDS.map(
    (kind, i) => sql`when ${grew[i]!} and ${COLUMN[kind]} > ${limitOf(sql`a.limits`, kind, defaults)} then ${sql.raw(`'${kind}'`)}`,
  );
  // The account's overrides are read once, and only when a count grew.
  const overQuota = sql`case when ${sql.join(grew, sql` or `)} then (select case ${sql.join(passed, sql` `)} end from accounts a where a.id = ${accountUsage.accountId}) end`;
  return db.update(accountUsage).set({ overQuota, countsBefore: null }).where(isNotNull(accountUsage.countsBefore));
}

/**
 * A guard for objects an account is promised but does not hold yet (a transfer requested
 * now moves the domain, its subordinate hosts and copies of its contacts at approval):
 * aborts the batch as the check does when a count and what is promised would pass the
 * limit. The approval is held to the limits again by the check of its own batch.
 */
export function promisedQuotaGuard(db: Database, accountId: string, promised: Partial<Record<QuotaKind, number | SQL>>, defaults: QuotaDefaults) {
  const kinds = QUOTA_KINDS.filter((kind) => promised[kind] !== undefined);
  const passes = (kind: QuotaKind) => sql`${COLUMN[kind]} + ${promised[kind]!} > ${limitOf(overridesOf(accountId), kind, defaults)}`;
  return db
    .update(accountUsage)
    .set({
      overQuota: sql`case ${sql.join(
        kinds.map((kind) => sql`when ${passes(kind)} then ${sql.raw(`'${kind}'`)}`),
        sql` `,
      )} end`,
    })
    .where(and(eq(accountUsage.accountId, accountId), sql`(${sql.join(kinds.map(passes), sql` or `)})`));
}

/**
 * The quota `promised` would take `accountId` past, read before a write that must ask a
 * registry first (null: there is room): the first kind, in the check's order, whose count and
 * what is promised pass the account's limit. A transfer's approval between our accounts at a
 * connected registry asks this before sending anything (docs/registries.md, "Transfers between
 * our accounts"), so the registry is never given what the batch's check then refuses. The
 * batch is held to the limits again: this is the answer given early, not the check.
 */
export async function quotaPassedBy(
  db: Database,
  accountId: string,
  promised: Partial<Record<QuotaKind, number>>,
  defaults: QuotaDefaults,
): Promise<QuotaExceeded | null> {
  const kinds = QUOTA_KINDS.filter((kind) => (promised[kind] ?? 0) > 0);
  if (kinds.length === 0 || defaults === COUNTED_NOT_HELD) return null;
  const [usageRows, accountRows] = await db.batch([
    usageQuery(db, accountId),
    db.select({ limits: accounts.limits }).from(accounts).where(eq(accounts.id, accountId)),
  ]);
  const usage = usageFromRows(usageRows);
  const limits = defaults === RAISES_NO_COUNT ? null : effectiveLimits(defaults, accountRows[0]?.limits ?? null);
  const kind = kinds.find((k) => limits === null || usage[k] + promised[k]! > limits[k]);
  return kind === undefined ? null : new QuotaExceeded(kind, accountId);
}

/** A batch refused by a quota: which account would have passed which limit. Nothing was written. */
export class QuotaExceeded extends Error {
  constructor(
    readonly kind: QuotaKind,
    readonly accountId: string,
  ) {
    super(`quota_exceeded:${kind}:${accountId}`);
    this.name = "QuotaExceeded";
  }
}

/** The quota a failed batch passed, from its error (`quota_exceeded:records:acc_…`), or null. */
export function exceededQuota(error: unknown): QuotaExceeded | null {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if (e instanceof QuotaExceeded) return e;
    const text = e instanceof Error ? e.message : String(e);
    const match = /quota_exceeded:([a-z_]+):([A-Za-z0-9_]+)/.exec(text);
    if (match && match[1]! in COLUMN) return new QuotaExceeded(match[1] as QuotaKind, match[2]!);
    e = e instanceof Error ? (e as { cause?: unknown }).cause : null;
  }
  return null;
}

/** The statement that reads what an account holds, for a batch of reads (readTogether). */
export function usageQuery(db: Database, accountId: string) {
  return db.select().from(accountUsage).where(eq(accountUsage.accountId, accountId));
}

/** What the account holds, by quota kind (zeros for an account without a row). */
export async function usageOf(db: Database, accountId: string): Promise<Usage> {
  return usageFromRows(await usageQuery(db, accountId));
}

/** The usage usageQuery's rows show. */
export function usageFromRows(rows: (typeof accountUsage.$inferSelect)[]): Usage {
  const [row] = rows;
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
