// Failed transfer requests (a wrong auth_info), counted in D1 per domain and per
// requesting account (src/registry/auth-info.ts has the rules and the numbers;
// docs/safety.md § Transfers and auth_info tells them). One statement counts a failure
// and sets the lock it earns, atomically, so that requests racing each other, from any
// isolate and any token, are counted one by one: no more than the allowed number of
// passwords is ever compared and answered before a lock holds.
import { eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import { eventInsert } from "../../db/events";
import { guard } from "../../db/guards";
import type { ResourceRef } from "../../db/ref";
import { domains, transferAuthFailures } from "../../db/schema";
import type { Write, WriteContext } from "../../db/write";
import { ApiError } from "../../http/problem";
import { type FailureLimit, lockedFor, TRANSFER_FAILURE_LIMITS, TRANSFER_FAILURES_FORGOTTEN_AFTER_SECONDS } from "../../registry/auth-info";

/** The two counts a transfer request meets: its domain's and its account's. */
export interface FailureKeys {
  domain: string;
  account: string;
}

const domainKey = (domainId: string) => `domain:${domainId}`;
const accountKey = (accountId: string) => `account:${accountId}`;

export function failureKeys(domainId: string, accountId: string): FailureKeys {
  return { domain: domainKey(domainId), account: accountKey(accountId) };
}

type Row = typeof transferAuthFailures.$inferSelect;

/** Both counts as stored (absent: no failure remembered). */
export function readFailureCounts(db: Database, keys: FailureKeys) {
  return db
    .select()
    .from(transferAuthFailures)
    .where(inArray(transferAuthFailures.key, [keys.domain, keys.account]));
}

/**
 * Both counts of a transfer request, the domain named as the path names it: read in the
 * same round trip as the domain itself (a domain by name is found by the same statement).
 */
export function readRequestCounts(db: Database, domain: ResourceRef, accountId: string) {
  const t = transferAuthFailures;
  const ofDomain =
    domain.kind === "id"
      ? sql`${domainKey(domain.id)}`
      : sql`(select ${domainKey("")} || ${domains.id} from ${domains} where ${domains.name} = ${domain.name} limit 1)`;
  return db
    .select()
    .from(t)
    .where(or(eq(t.key, accountKey(accountId)), eq(t.key, ofDomain)));
}

/** Seconds until neither count refuses a request at `now` (ms); 0: none refuses. */
export function lockedSeconds(rows: readonly Pick<Row, "lockedUntil">[], now: number): number {
  return Math.max(0, ...rows.map((row) => lockedFor(row, now)));
}

/** The 429 of a locked count: the same whatever the password, naming neither count. */
export function transferLocked(seconds: number): ApiError {
  return new ApiError(
    "rate_limited",
    `Too many transfer requests with a wrong auth_info, for this domain or from this account; retry after ${seconds} seconds.`,
    { headers: { "Retry-After": String(seconds) } },
  );
}

/** No count of these keys is locked at `now` by another request than `request` (SQL). */
function noLock(keys: FailureKeys, now: number, request: string): SQL {
  return sql`not exists (select 1 from ${transferAuthFailures} where ${transferAuthFailures.key} in (${keys.domain}, ${keys.account}) and ${transferAuthFailures.lockedUntil} > ${now} and ${transferAuthFailures.lastRequest} <> ${request})`;
}

/**
 * The lock a count of `failures` (SQL) earns, as its end in ms: src/registry/auth-info.ts
 * lockSeconds, written in SQL so that the count and its lock change in one statement.
 */
function lockEnd(failures: SQL, limit: FailureLimit, now: number): SQL {
  return sql`case when ${failures} < ${limit.free} then 0 else ${now} + min(${limit.firstLockSeconds} << min(${failures} - ${limit.free}, 20), ${limit.maxLockSeconds}) * 1000 end`;
}

/**
 * One more failure of `key` at `now`, unless a count of `keys` is locked (by another
 * request): then nothing is written, and the request is refused as locked. src/registry
 * /auth-info.ts afterFailure, in SQL.
 */
function countFailure(db: Database, key: string, limit: FailureLimit, keys: FailureKeys, now: number, request: string) {
  const forgottenBefore = now - TRANSFER_FAILURES_FORGOTTEN_AFTER_SECONDS * 1000;
  const t = transferAuthFailures;
  const failures = sql`(case when max(${t.lockedUntil}, ${t.lastFailedAt}) <= ${forgottenBefore} then 1 else ${t.failures} + 1 end)`;
  return db
    .insert(t)
    .select(
      db
        .select({
          // In the table's column order: drizzle's INSERT … SELECT names no columns.
          key: sql<string>`${key}`.as("key"),
          failures: sql<number>`1`.as("failures"),
          lastFailedAt: sql<number>`${now}`.as("last_failed_at"),
          lockedUntil: sql<number>`${lockEnd(sql`1`, limit, now)}`.as("locked_until"),
          lastRequest: sql<string>`${request}`.as("last_request"),
        })
        .from(sql`(select 1)`)
        // An upsert's SELECT needs a WHERE (SQLite's parsing of ON CONFLICT); this one is the lock.
        .where(noLock(keys, now, request)),
    )
    .onConflictDoUpdate({
      target: t.key,
      set: { failures, lastFailedAt: now, lockedUntil: lockEnd(failures, limit, now), lastRequest: request },
    });
}

/** What a wrong auth_info writes, and how to read its outcome. */
export interface FailureWrite {
  write: Write;
  /** From the write's `last` result (the counts as written): whether this request's failure was counted. */
  counted(rows: readonly Row[]): boolean;
}

/**
 * A wrong auth_info: both counts grow by one (unless one is locked by now, a request that
 * raced this one), and the sponsor's trail gets a `transfer_auth_failed` event on the
 * domain, which shows the requesting account, the domain's count and its lock. Last, the
 * counts as written.
 */
export function recordFailure(ctx: WriteContext, domain: { id: string; accountId: string }, gainingAccountId: string, keys: FailureKeys): FailureWrite {
  const now = ctx.now.getTime();
  const request = crypto.randomUUID();
  const t = transferAuthFailures;
  const domainCount = (column: SQL) => sql`(select ${column} from ${t} where ${t.key} = ${keys.domain})`;
  return {
    write: {
      alongside: [
        countFailure(ctx.db, keys.domain, TRANSFER_FAILURE_LIMITS.domain, keys, now, request),
        countFailure(ctx.db, keys.account, TRANSFER_FAILURE_LIMITS.account, keys, now, request),
        eventInsert(
          ctx.db,
          {
            at: ctx.at,
            actor: ctx.actor,
            account: domain.accountId,
            type: "domain",
            id: domain.id,
            operation: "transfer_auth_failed",
            before: null,
            after: { gaining_account: gainingAccountId, failures: 0, locked_until: null },
          },
          {
            onlyIf: sql`exists (select 1 from ${t} where ${t.key} = ${keys.domain} and ${t.lastRequest} = ${request})`,
            afterFromDatabase: {
              "$.failures": domainCount(sql`${t.failures}`),
              "$.locked_until": domainCount(
                sql`case when ${t.lockedUntil} = 0 then null else strftime('%Y-%m-%dT%H:%M:%fZ', ${t.lockedUntil} / 1000.0, 'unixepoch') end`,
              ),
            },
          },
        ),
      ],
      last: [readFailureCounts(ctx.db, keys)],
    },
    counted: (rows) => rows.some((row) => row.key === keys.domain && row.lastRequest === request),
  };
}

/**
 * The guard of a transfer request with the right auth_info: the batch fails (and the
 * request reads again, to answer 429) when a failure that raced it locked a count first.
 */
export function notLockedGuard(db: Database, _domainId: string, keys: FailureKeys, now: number) {
  return guard(db, "no failure count is locked", noLock(keys, now, ""));
}

/** A new auth_info starts the domain's count again: failures guessed at the old one say nothing of it. */
export function forgetDomainFailures(db: Database, domainId: string) {
  return db.delete(transferAuthFailures).where(eq(transferAuthFailures.key, domainKey(domainId)));
}

/**
 * A wrong auth_info for a domain another registrar holds at a connected registry (the
 * registry answered 2202): both counts grow as recordFailure's do (the domain's keyed by its
 * name, `failureKeys("name:" + name, account)`), with no event: no account here sponsors it.
 */
export function recordRegistryFailure(ctx: WriteContext, keys: FailureKeys): FailureWrite {
  const now = ctx.now.getTime();
  const request = crypto.randomUUID();
  return {
    write: {
      alongside: [
        countFailure(ctx.db, keys.domain, TRANSFER_FAILURE_LIMITS.domain, keys, now, request),
        countFailure(ctx.db, keys.account, TRANSFER_FAILURE_LIMITS.account, keys, now, request),
      ],
      last: [readFailureCounts(ctx.db, keys)],
    },
    counted: (rows) => rows.some((row) => row.key === keys.domain && row.lastRequest === request),
  };
}
