// The one write routine: every create, update and delete of a resource runs through it.
// An operation (src/resources/<name>/create.ts, update.ts, delete.ts) says only what is its
// own: its checks, and the statements that write it. The routine does what every write
// does alike:
//
//   1. finds the resource by id or by name (404) and checks If-Match (412);
//   2. runs the operation on what it read;
//   3. writes, in one D1 batch (one transaction): the resource's own row, its event
//      (src/db/events.ts), the linked rows and their events, the guards that check the
//      operation's rules again at commit (src/db/guards.ts), and a read back of what only
//      the database knows;
//   4. when the batch lost a race (a version trigger, a guard, a foreign key that moved,
//      or a resource row that changed nothing), reads again and decides again; when it
//      keeps losing, answers 409 write_conflict (src/http/writes.ts);
//   5. turns the other constraint failures into the operation's problems;
//   6. answers with the representation, its ETag and, for a creation, its Location; a
//      POST with Idempotency-Key records that answer in the same batch as the write
//      (src/http/idempotency.ts), so a crash between the two cannot make a retry write
//      again: the write and its record commit together or not at all.
import type { Context } from "hono";
import type { SQL } from "drizzle-orm";
import type { BatchItem, BatchResponse } from "drizzle-orm/batch";
import { narrowReaches } from "../access/token-rights";
import type { AppEnv } from "../env";
import type { Database } from "../db/client";
import { writeFailure, type WriteFailure } from "../db/errors";
import { type EventOperation, type EventResourceType, eventInsert, previousStatementChanged } from "../db/events";
import type { ResourceRef } from "../db/ref";
import { actorOf } from "./actor";
import { checkIfMatch, entityTag } from "./etag";
import { answerRecordStatement } from "./idempotency";
import { notFound, resourceRef } from "./lookup";
import type { ApiError } from "./problem";
import { VersionConflict, withVersionRetry } from "./writes";

/** One statement of a write's batch. */
export type Statement = BatchItem<"sqlite">;

/** A statement that reads rows of type `Row`. */
export type Query<Row> = Statement & PromiseLike<Row[]>;

/** What every stored resource has. */
export interface Stored {
  id: string;
  version: number;
}

/** A collection as the write routine sees it: each resource folder's `collection.ts`. */
export interface Collection<Row extends Stored, Body> {
  /** The event type, and the word for the resource in messages (`host`). */
  type: EventResourceType;
  /** The collection's path: a created resource's Location is `${path}/${id}`. */
  path: string;
  /** Whether a path segment with a dot is a name (domains, hosts, zones) or, like any other, an id. */
  byName: boolean;
  find(db: Database, ref: ResourceRef): Query<Row>;
  present(row: Row): Body;
  /** The sponsoring account of a resource, for its events (docs/accounts.md): its id, or SQL that finds it. */
  accountOf(row: Row): string | SQL;
}

/** When a write happens and who makes it. */
export interface WriteContext {
  /** The database as the caller sees it (src/db/visibility.ts). */
  db: Database;
  /**
   * The database across accounts, for the few checks that must look past the caller's
   * own objects: a name another account holds, a name server host of another account.
   */
  allAccounts: Database;
  /** The write's time: its rows' timestamps and its events' `at`. */
  now: Date;
  at: string;
  /** Who makes the write, as its events name them (src/http/actor.ts). */
  actor: string;
}

/** What a delete writes. */
export interface Removal {
  /** Guards that must see what the write's reads saw: first in the batch, before the write (src/db/guards.ts). */
  beforeWrite?: Statement[];
  /** The statement that deletes the resource's own row; if it deletes nothing, the resource moved on. */
  write: Statement;
  /** The event's `before`, when it records more than the representation (a zone's records). */
  before?: unknown;
  /** Statements after the resource's event. */
  alongside?: Statement[];
}

/** What a create or an update writes. */
export interface Change<Row> {
  /** The resource as written: the answer and its event's `after`. */
  next: Row;
  /** Guards that must see what the write's reads saw: first in the batch, before the write (src/db/guards.ts). */
  beforeWrite?: Statement[];
  /** The statement that writes the resource's own row; if it changes no row, the resource moved on. */
  write: Statement;
  /** Parts of the event's `after` that only the database knows once the batch ran (src/db/events.ts). */
  afterFromDatabase?: Record<string, SQL>;
  /** Statements after the resource's event: linked rows and their own events. */
  alongside?: Statement[];
  /** The operation's rules, checked again at their turn in the batch (src/db/guards.ts). */
  guards?: Statement[];
  /** Reads the resource back last in the batch, when the answer needs what only the database knows. */
  readBack?: Query<Row>;
  /**
   * Fields the answer adds to the resource (an import's warnings, what a renewal cost): in
   * the answer and its idempotent replay, not in the resource's ETag or its event.
   */
  answerExtras?: Record<string, unknown>;
}

/**
 * How an operation names a constraint failure of its batch (`unique`: the name is taken),
 * given the resource it was writing (the new one, or the one it deleted). Failures it
 * leaves unnamed: a version conflict or a foreign key reads again and decides again; the
 * rest reach the app's error handler.
 */
export type FailureProblem<Row> = (failure: WriteFailure, row: Row) => ApiError | undefined | Promise<ApiError | undefined>;

export function writeContext(c: Context<AppEnv>): WriteContext {
  const now = new Date();
  return { db: c.get("db"), allAccounts: c.get("dbAllAccounts") ?? c.get("db"), now, at: now.toISOString(), actor: actorOf(c) };
}

/** The resource the path names, as it is now, checked against If-Match. */
async function currentResource<Row extends Stored, Body>(
  c: Context<AppEnv>,
  collection: Collection<Row, Body>,
  segment: string,
  reads: (db: Database) => readonly Statement[],
  acrossAccounts = false,
): Promise<{ current: Row; read: unknown[] }> {
  const db = acrossAccounts ? (c.get("dbAllAccounts") ?? c.get("db")) : c.get("db");
  const ref: ResourceRef = collection.byName ? resourceRef(segment, collection.type) : { kind: "id", id: segment };
  const [rows, ...read] = await db.batch([collection.find(db, ref), ...reads(db)] as [Statement, ...Statement[]]);
  const current = (rows as Row[])[0];
  // Across accounts, a narrow token still reaches only the names it was given.
  if (!current || (acrossAccounts && !narrowReaches(c.get("principal").rights, collection.type, (current as { name?: string }).name))) {
    throw notFound(collection.type, segment);
  }
  checkIfMatch(c, current.version, collection.present(current));
  return { current, read };
}

/** A statement changed a row: its D1 result counts changes, a `returning` one lists rows. */
function changedARow(result: unknown): boolean {
  return Array.isArray(result) ? result.length > 0 : (result as D1Result).meta.changes > 0;
}

/**
 * Runs one write's batch: the resource's row first, its event right after (written only
 * if the row was), then the rest. Returns the batch's results. `writeIndex` is the
 * statement that must change a row (else the resource moved on: read again).
 */
export async function commit<Row>(
  ctx: WriteContext,
  statements: Statement[],
  row: Row,
  failure: FailureProblem<Row> | undefined,
  writeIndex = 0,
): Promise<unknown[]> {
  let results: unknown[];
  try {
    results = await ctx.db.batch(statements as [Statement, ...Statement[]]);
  } catch (error) {
    const kind = writeFailure(error);
    if (kind === null) throw error;
    const problem = await failure?.(kind, row);
    if (problem) throw problem;
    // Someone else's write committed between our reads and this batch: read again.
    if (kind === "version_conflict" || kind === "foreign_key") throw new VersionConflict();
    throw error;
  }
  if (!changedARow(results[writeIndex])) throw new VersionConflict();
  return results;
}

function eventOf(
  ctx: WriteContext,
  account: string | SQL,
  type: EventResourceType,
  id: string,
  operation: EventOperation,
  before: unknown,
  after: unknown,
  afterFromDatabase?: Record<string, SQL>,
) {
  return eventInsert(
    ctx.db,
    { at: ctx.at, actor: ctx.actor, account, type, id, operation, before, after },
    { onlyIf: previousStatementChanged, afterFromDatabase },
  );
}

async function writeChange<Row extends Stored, Body>(
  ctx: WriteContext,
  collection: Collection<Row, Body>,
  operation: EventOperation,
  before: Row | null,
  change: Change<Row>,
  failure: FailureProblem<Row> | undefined,
  recorded: Statement[] = [],
): Promise<Row> {
  const event = eventOf(
    ctx,
    collection.accountOf(change.next),
    collection.type,
    change.next.id,
    operation,
    before === null ? null : collection.present(before),
    collection.present(change.next),
    change.afterFromDatabase,
  );
  const first = change.beforeWrite ?? [];
  const statements = [
    ...first,
    change.write,
    event,
    ...(change.alongside ?? []),
    ...(change.guards ?? []),
    ...(change.readBack ? [change.readBack] : []),
    ...recorded,
  ];
  const results = await commit(ctx, statements, change.next, failure, first.length);
  return change.readBack ? ((results.at(-1) as Row[])[0] ?? change.next) : change.next;
}

/** POST to a collection: 201 with the new resource, its ETag and Location. */
export async function createResource<Row extends Stored, Body>(
  c: Context<AppEnv>,
  collection: Collection<Row, Body>,
  operation: { create(ctx: WriteContext): Promise<Change<Row>>; failure?: FailureProblem<Row> },
) {
  let extras: Record<string, unknown> | undefined;
  const created = await withVersionRetry(c, async () => {
    const ctx = writeContext(c);
    const change = await operation.create(ctx);
    extras = change.answerExtras;
    return writeChange(ctx, collection, "create", null, change, operation.failure, answerRecord(c, ctx, change, creation(collection, change.next, extras)));
  });
  const answer = creation(collection, created, extras);
  c.header("ETag", answer.headers.ETag);
  c.header("Location", answer.headers.Location);
  return c.json(answer.body, 201);
}

/**
 * PATCH of one resource: 200 with the resource as it now is. `update` returns null when
 * the patch changes nothing: then nothing is written (no event, the ETag stays).
 * `reads` are read in the same round trip as the resource (what the checks need).
 */
export async function updateResource<Row extends Stored, Body, const R extends readonly Statement[] = []>(
  c: Context<AppEnv>,
  collection: Collection<Row, Body>,
  segment: string,
  operation: {
    reads?: (db: Database) => R;
    update(ctx: WriteContext, current: Row, read: BatchResponse<R>): Promise<Change<Row> | null>;
    failure?: FailureProblem<Row>;
    /** The event's operation when the write is more than an update (a renew, a restore: docs/lifecycle.md). */
    event?: EventOperation;
    /** Finds the resource in every account (a transfer's gaining account acts on a domain it cannot see yet); the operation decides who may act. */
    acrossAccounts?: boolean;
  },
) {
  let extras: Record<string, unknown> | undefined;
  const updated = await withVersionRetry(c, async () => {
    const { current, read } = await currentResource(c, collection, segment, operation.reads ?? (() => []), operation.acrossAccounts);
    const ctx = writeContext(c);
    const change = await operation.update(ctx, current, read as BatchResponse<R>);
    extras = change?.answerExtras;
    return change === null ? current : writeChange(ctx, collection, operation.event ?? "update", current, change, operation.failure);
  });
  const body = collection.present(updated);
  c.header("ETag", entityTag(updated.version, body));
  return c.json(extras ? { ...body, ...extras } : body, 200);
}

/** DELETE of one resource: 204. */
export async function deleteResource<Row extends Stored, Body, const R extends readonly Statement[] = []>(
  c: Context<AppEnv>,
  collection: Collection<Row, Body>,
  segment: string,
  operation: {
    reads?: (db: Database) => R;
    remove(ctx: WriteContext, current: Row, read: BatchResponse<R>): Promise<Removal>;
    failure?: FailureProblem<Row>;
  },
) {
  await withVersionRetry(c, async () => {
    const { current, read } = await currentResource(c, collection, segment, operation.reads ?? (() => []));
    const ctx = writeContext(c);
    const removal = await operation.remove(ctx, current, read as BatchResponse<R>);
    const before = removal.before ?? collection.present(current);
    const event = eventOf(ctx, collection.accountOf(current), collection.type, current.id, "delete", before, null);
    const first = removal.beforeWrite ?? [];
    await commit(ctx, [...first, removal.write, event, ...(removal.alongside ?? [])], current, operation.failure, first.length);
  });
  return c.body(null, 204);
}

/** The resource a path segment names (GET), or 404. */
export async function findResource<Row extends Stored, Body>(c: Context<AppEnv>, collection: Collection<Row, Body>, segment: string): Promise<Row> {
  const ref: ResourceRef = collection.byName ? resourceRef(segment, collection.type) : { kind: "id", id: segment };
  const [row] = await collection.find(c.get("db"), ref);
  if (!row) throw notFound(collection.type, segment);
  return row;
}

/** A creation's answer: 201, the resource, its ETag and Location (and what a replay repeats). */
function creation<Row extends Stored, Body>(collection: Collection<Row, Body>, row: Row, extras?: Record<string, unknown>) {
  const resource = collection.present(row);
  return {
    status: 201,
    // The headers an idempotent replay repeats, as the response carries them here.
    headers: { "Content-Type": "application/json", Location: `${collection.path}/${row.id}`, ETag: entityTag(row.version, resource) },
    body: (extras ? { ...resource, ...extras } : resource) as Body,
  };
}

/**
 * The statement that records `answer` as the result of the request's Idempotency-Key,
 * for the write's own batch: none without a key. A write whose answer the database only
 * knows after the batch (`readBack`) leaves the record to the middleware, after the write.
 */
function answerRecord<Row>(
  c: Context<AppEnv>,
  ctx: WriteContext,
  change: Change<Row>,
  answer: { status: number; headers: Record<string, string>; body: unknown },
): Statement[] {
  return change.readBack ? [] : idempotentAnswer(c, ctx, answer);
}

/**
 * The statement that records `answer` as the result of the request's Idempotency-Key, for
 * the write's own batch (none without a key): the write and its record commit together.
 */
export function idempotentAnswer(
  c: Context<AppEnv>,
  ctx: WriteContext,
  answer: { status: number; headers: Record<string, string>; body: unknown },
): Statement[] {
  const key = c.get("idempotencyKeyId");
  if (key === undefined) return [];
  return [answerRecordStatement(ctx.db, key, answer)];
}

/**
 * A write the service makes by itself, with no request to answer (the lifecycle sweep,
 * docs/lifecycle.md): the same batch as a request's write — the resource's own statement
 * first, its event right after, then the rest — on a resource the caller has just read.
 * A `removal`'s event records the resource before and nothing after (a purge). Returns
 * false when the batch lost a race (the row moved on, a guard or foreign key failed):
 * nothing was written, and the caller reads again and decides again.
 */
export async function writeUnattended<Row extends Stored, Body>(
  ctx: WriteContext,
  collection: Collection<Row, Body>,
  operation: EventOperation,
  current: Row,
  write: { change: Change<Row> } | { removal: Removal },
): Promise<boolean> {
  try {
    if ("change" in write) {
      await writeChange(ctx, collection, operation, current, write.change, undefined);
    } else {
      const before = write.removal.before ?? collection.present(current);
      const event = eventOf(ctx, collection.accountOf(current), collection.type, current.id, operation, before, null);
      await commit(ctx, [write.removal.write, event, ...(write.removal.alongside ?? [])], current, undefined);
    }
    return true;
  } catch (error) {
    if (error instanceof VersionConflict || writeFailure(error) === "version_conflict") return false;
    throw error;
  }
}

/** The time and author of a write the service makes by itself (`actor`: what the audit trail names). */
export function unattendedContext(db: Database, now: Date, actor: string): WriteContext {
  return { db, allAccounts: db, now, at: now.toISOString(), actor };
}
