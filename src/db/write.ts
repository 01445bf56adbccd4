// The one write routine: every writer — the HTTP operations (through src/http/mutate.ts),
// the lifecycle sweep, DNSSEC, DNS UPDATE commits, webhook bookkeeping, the events
// archive — states what it writes as a `Write` and commits it here, in one D1 batch (one
// transaction: all of it or none of it). No HTTP here: If-Match, ETag, Location and the
// idempotency record live in the layer above.
//
// Concurrency is four things, which a reader can hold at once:
//
//   - a *version step*: an update of a versioned row (`versionStep`) sets the columns the
//     change moves and the version one on, only WHERE the row is still at the version
//     read. The version triggers (drizzle/0002_version_guards.sql, 0027 for transfers)
//     refuse any other step, a backstop for statements that step in SQL (touchZone);
//   - a *row that must change*: each of a write's `rows` is followed by an assertion that
//     it changed a row; a version step that matched nothing fails the whole batch;
//   - a *guard*: a rule the writer checked on what it read, asserted again at its turn in
//     the batch (`assertion`, src/db/guards.ts);
//   - a *lost race*: a batch that failed one of these (or a version trigger) rolled back
//     whole; the writer reads again and decides again (`retryLostRaces`), and contention
//     that outlasts the attempts is `WriteContention`.
//
// Every batch also ends with the quota check (src/db/quota-check.ts, docs/safety.md "Quotas"):
// an account whose count the batch raised past its limit makes the batch roll back with
// `QuotaExceeded`. The writer does nothing for it but give the configured limits in its
// `WriteContext`, which it cannot be built without.
//
// Assertions are INSERT … SELECT into `write_assertions` (drizzle/0027) of a row that exists
// only when the assertion fails, and a CHECK refuses it: the batch rolls back.
import { and, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "./client";
import { type WriteFailure, writeFailure } from "./errors";
import { type EventInput, eventInsert, previousStatementChanged } from "./events";
import { exceededQuota, forgetNotesLeftOutside, type QuotaDefaults, quotaCheck } from "./quota-check";
import { writeAssertions } from "./schema";

/** One statement of a write's batch. */
export type Statement = BatchItem<"sqlite">;

/** A statement that reads rows of type `Row`. */
export type Query<Row> = Statement & PromiseLike<Row[]>;

/** What every versioned row has. */
export interface Stored {
  id: string;
  version: number;
}

/** When a write happens and who makes it. */
export interface WriteContext {
  /** The database as the writer sees it (src/access/visibility.ts). */
  db: Database;
  /**
   * The database across accounts, for the few checks that must look past the caller's
   * own objects: a name another account holds, a name server host of another account.
   */
  allAccounts: Database;
  /** The write's time: its rows' timestamps and its events' `at`. */
  now: Date;
  at: string;
  /** Who makes the write, as its events name them (a token's id, `cron`, `webhooks`). */
  actor: string;
  /**
   * The limits the write's batch is held to: the configured defaults (wrangler.toml
   * LIMIT_*: `configuredLimits(env)`), which each account's overrides in accounts.limits
   * replace; or RAISES_NO_COUNT for a writer that never raises a count.
   */
  limits: QuotaDefaults;
}

/**
 * The time and author of a write (`actor`: what the audit trail names), and the limits it
 * is held to (`configuredLimits(env)`, or RAISES_NO_COUNT).
 */
export function writeContextAt(db: Database, now: Date, actor: string, limits: QuotaDefaults, allAccounts: Database = db): WriteContext {
  return { db, allAccounts, now, at: now.toISOString(), actor, limits };
}

/** An event of a write: its time and actor are the write's (src/db/events.ts). */
export interface WriteEvent extends Omit<EventInput, "at" | "actor"> {
  /** Parts of `after` that only the database knows once the batch ran. */
  afterFromDatabase?: Record<string, SQL>;
}

/** A row the write must change, with its event: written right after it, and only if it did. */
export interface RowWrite {
  statement: Statement;
  event?: WriteEvent;
}

/** Everything one write commits, in the batch's order. */
export interface Write {
  /** Guards that must see what the write's reads saw: first, before anything is written. */
  first?: readonly Statement[];
  /** The rows the write must change, each with its event; one that changes nothing fails the batch (a lost race). */
  rows?: readonly RowWrite[];
  /** Linked rows and their own events, whose count of changes does not matter. */
  alongside?: readonly Statement[];
  /** The writer's rules, asserted again at their turn, after what they hold to is written (`assertion`). */
  guards?: readonly Statement[];
  /** Statements last in the batch whose results the writer wants back (a read back, a record of the answer). */
  last?: readonly Statement[];
}

/**
 * How a writer names a constraint failure of its batch (`unique`: the name is taken):
 * the error to throw. Failures it leaves unnamed: a version conflict, a failed assertion
 * or a foreign key is a lost race; the rest are thrown as they are.
 */
export type FailureProblem = (failure: WriteFailure) => Error | undefined | Promise<Error | undefined>;

/** The batch lost a race: what it read changed before it committed, and nothing was written. Read again and decide again. */
export class LostRace extends Error {
  constructor() {
    super("version_conflict");
    this.name = "LostRace";
  }
}

/** Other writes kept committing first through every attempt (the HTTP layer answers 409 write_conflict). */
export class WriteContention extends Error {
  constructor() {
    super("write_contention");
    this.name = "WriteContention";
  }
}

/**
 * The statement that fails its batch unless `holds` is true at its turn. `rule` names the
 * rule for a reader of the schema and of the statement (it is never stored).
 */
export function assertion(db: Database, rule: string, holds: SQL): Statement {
  return db.insert(writeAssertions).select(
    db
      .select({ holds: sql<number>`0`.as("holds"), rule: sql<string>`${rule}`.as("rule") })
      .from(sql`(select 1)`)
      .where(sql`not coalesce((${holds}), 0)`),
  );
}

/** Fails the batch unless its previous statement changed a row. */
function previousChanged(db: Database): Statement {
  return assertion(db, "the row was written", previousStatementChanged);
}

/**
 * A row that must change, as statements: the row, its event (written only if the row
 * was), and the assertion that it changed. `Write.rows` come first in the batch; a writer
 * that needs one later (after the rows that point at it are gone) puts these in `alongside`.
 */
export function rowStatements(ctx: WriteContext, { statement, event }: RowWrite): Statement[] {
  return [
    statement,
    // The assertion then sees the event's changes: one row exactly when the row changed.
    ...(event
      ? [eventInsert(ctx.db, { ...event, at: ctx.at, actor: ctx.actor }, { onlyIf: previousStatementChanged, afterFromDatabase: event.afterFromDatabase })]
      : []),
    previousChanged(ctx.db),
  ];
}

function statementsOf(ctx: WriteContext, write: Write): Statement[] {
  const rows = (write.rows ?? []).flatMap((row) => rowStatements(ctx, row));
  return [...(write.first ?? []), ...rows, ...(write.alongside ?? []), ...(write.guards ?? []), ...(write.last ?? [])];
}

/** The batch of a write: its statements, then the quota check every batch ends with (src/db/quota-check.ts). */
function batchOf(ctx: WriteContext, statements: readonly Statement[]): [Statement, ...Statement[]] {
  const batch: Statement[] = [...statements, quotaCheck(ctx.db, ctx.limits)];
  return batch as [Statement, ...Statement[]];
}

/** Whether an error is a lost race: the writer reads again and decides again. */
export function isLostRace(error: unknown): boolean {
  if (error instanceof LostRace) return true;
  const kind = writeFailure(error);
  return kind === "version_conflict" || kind === "assertion_failed";
}

/**
 * Commits a write in one batch. Returns the results of its `last` statements. Throws
 * `QuotaExceeded` when the batch would take an account past a limit, `LostRace` when the
 * batch lost a race, the writer's problem for a failure it names, or the error as it came.
 */
export async function commitWrite(ctx: WriteContext, write: Write, failure?: FailureProblem): Promise<unknown[]> {
  const statements = statementsOf(ctx, write);
  if (statements.length === 0) return [];
  let results: unknown[];
  try {
    results = await ctx.db.batch(batchOf(ctx, statements));
  } catch (error) {
    // Not a race and not the writer's to name: the limit holds whoever wrote. Unless the
    // check judged notes a write outside the routine left (src/db/quota-check.ts): then once
    // more without them.
    const quota = exceededQuota(error);
    if (quota && (await forgetNotesLeftOutside(ctx.db))) return commitWrite(ctx, write, failure);
    if (quota) throw quota;
    const kind = writeFailure(error);
    if (kind === null) throw error;
    const problem = await failure?.(kind);
    if (problem) throw problem;
    // Someone else's write committed between our reads and this batch: read again.
    if (kind === "version_conflict" || kind === "assertion_failed" || kind === "foreign_key") throw new LostRace();
    throw error;
  }
  // The check is the batch's last statement; the `last` ones come just before it.
  const end = results.length - 1;
  return results.slice(end - (write.last?.length ?? 0), end);
}

/**
 * Runs `attempt` (read, decide, commit) again while it loses races, `attempts` times at
 * most; then throws `WriteContention`.
 */
export async function retryLostRaces<T>(attempt: () => Promise<T>, attempts = 8): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isLostRace(error)) throw error;
      if (i >= attempts) throw new WriteContention();
      // A short random pause spreads out writers that keep colliding.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * i));
    }
  }
}

/** Runs `attempt` again while it loses races; `null` when it lost every one (the caller leaves the row for later). */
export async function retryOrGiveUp<T>(attempt: () => Promise<T>, attempts: number): Promise<T | null> {
  try {
    return await retryLostRaces(attempt, attempts);
  } catch (error) {
    if (error instanceof WriteContention) return null;
    throw error;
  }
}

/** Reads in one round trip (not a write: nothing here needs the routine's care). */
export function readTogether<const Q extends readonly [Statement, ...Statement[]]>(db: Database, queries: Q) {
  return db.batch(queries);
}

type Versioned = SQLiteTable & { id: SQLiteColumn; version: SQLiteColumn };

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The version step of a row from `current` to `next` (next.version = current.version + 1):
 * sets every column of `table` whose value `next` changes, and the version, only where the
 * row is still at the version read (and `also` holds). `leave`: columns the write sets
 * elsewhere in its batch (a domain's contacts, after the copies they point at exist).
 */
export function versionStep<T extends Versioned, Row extends Stored>(
  db: Database,
  table: T,
  current: Row,
  next: Row,
  options: { also?: SQL; leave?: readonly string[] } = {},
) {
  if (next.version !== current.version + 1) throw new Error(`a version step goes from ${current.version} to ${current.version + 1}, not ${next.version}`);
  const set: Record<string, unknown> = {};
  for (const key of Object.keys(getTableColumns(table))) {
    if (key === "id" || options.leave?.includes(key) || !(key in next)) continue;
    const value = (next as Record<string, unknown>)[key];
    if (value !== undefined && !sameValue((current as Record<string, unknown>)[key], value)) set[key] = value;
  }
  set.version = next.version;
  return db
    .update(table)
    .set(set as never)
    .where(and(eq(table.id, current.id), eq(table.version, current.version), options.also));
}
