// The write routine's HTTP layer: what a request's create, update and delete add to the
// routine below it (src/db/write.ts, src/db/resource-write.ts), which commits every write
// in one batch and reads again when a batch lost a race. An operation
// (src/resources/<name>/create.ts, update.ts, delete.ts) says only what is its own: its
// checks, and its `Change` or `Removal`. This layer does what every request does alike:
//
//   1. finds the resource by id or by name (404) and checks If-Match (412);
//   2. runs the operation on what it read, and commits what it returns (the routine);
//   3. when the batch lost a race, reads again and decides again (`retryLostRaces`), so
//      that a conditional request gets its 412 from the next attempt's If-Match check,
//      and only if the resource itself changed; when it keeps losing, the routine's
//      `WriteContention` is answered 409 write_conflict (src/http/writes.ts);
//   4. turns the constraint failures the operation names into its problems;
//   5. answers with the representation, its ETag and, for a creation, its Location; a
//      POST with Idempotency-Key records that answer in the same batch as the write
//      (src/http/idempotency.ts), so a crash between the two cannot make a retry write
//      again: the write and its record commit together or not at all.
import type { Context } from "hono";
import type { BatchResponse } from "drizzle-orm/batch";
import { narrowReaches } from "../access/token-rights";
import type { AppEnv } from "../env";
import type { Database } from "../db/client";
import type { WriteFailure } from "../db/errors";
import type { EventOperation } from "../db/events";
import type { ResourceRef } from "../db/ref";
import { type Change, type Removal, type Resource, writeChange, writeRemoval } from "../db/resource-write";
import { readTogether, retryLostRaces, type Query, type Statement, type Stored, type WriteContext, writeContextAt } from "../db/write";
import { actorOf } from "./actor";
import { checkIfMatch, entityTag } from "./etag";
import { answerRecordStatement } from "./idempotency";
import { notFound, resourceRef } from "./lookup";
import { defaultLimits } from "./quota-problem";
import type { ApiError } from "./problem";

/** A collection as a request's write sees it: each resource folder's `collection.ts`. */
export interface Collection<Row extends Stored, Body> extends Resource<Row> {
  /** The collection's path: a created resource's Location is `${path}/${id}`. */
  path: string;
  /** Whether a path segment with a dot is a name (domains, hosts, zones) or, like any other, an id. */
  byName: boolean;
  find(db: Database, ref: ResourceRef): Query<Row>;
  present(row: Row): Body;
}

/**
 * How an operation names a constraint failure of its batch (`unique`: the name is taken),
 * given the resource it was writing (the new one, or the one it deleted). Failures it
 * leaves unnamed: a version conflict, a guard or a foreign key reads again and decides
 * again; the rest reach the app's error handler.
 */
export type FailureProblem<Row> = (failure: WriteFailure, row: Row) => ApiError | undefined | Promise<ApiError | undefined>;

/** A request's write: now, by its token, held to the configured limits (src/db/quota-check.ts). */
export function writeContext(c: Context<AppEnv>): WriteContext {
  return writeContextAt(c.get("db"), new Date(), actorOf(c), defaultLimits(c), c.get("dbAllAccounts") ?? c.get("db"));
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
  const [rows, ...read] = await readTogether(db, [collection.find(db, ref), ...reads(db)]);
  const current = (rows as Row[])[0];
  // Across accounts, a narrow token still reaches only the names it was given.
  if (!current || (acrossAccounts && !narrowReaches(c.get("principal").rights, collection.type, (current as { name?: string }).name))) {
    throw notFound(collection.type, segment);
  }
  checkIfMatch(c, current.version, collection.present(current));
  return { current, read };
}

/** POST to a collection: 201 with the new resource, its ETag and Location. */
export async function createResource<Row extends Stored, Body>(
  c: Context<AppEnv>,
  collection: Collection<Row, Body>,
  operation: { create(ctx: WriteContext): Promise<Change<Row>>; failure?: FailureProblem<Row> },
) {
  let extras: Record<string, unknown> | undefined;
  const created = await retryLostRaces(async () => {
    const ctx = writeContext(c);
    const change = await operation.create(ctx);
    extras = change.answerExtras;
    // A write whose answer the database only knows after the batch (`readBack`) leaves the record to the middleware.
    const recorded = change.readBack ? [] : idempotentAnswer(c, ctx, creation(collection, change.next, extras));
    return writeChange(ctx, collection, "create", null, change, { failure: (kind) => operation.failure?.(kind, change.next), last: recorded });
  });
  const answer = creation(collection, created, extras);
  c.header("ETag", answer.headers.ETag);
  c.header("Location", answer.headers.Location);
  return c.json(answer.body, 201);
}

/** What an update operation is: its reads, its decision, how it names its failures. */
export interface UpdateOperation<Row extends Stored, R extends readonly Statement[], Answer> {
  /** Read in the same round trip as the resource (what the checks need). */
  reads?: (db: Database) => R;
  /** The change, or null when there is nothing to write (no event, the ETag stays). */
  update(ctx: WriteContext, current: Row, read: BatchResponse<R>): Promise<(Change<Row> & { answer?: Answer }) | null>;
  failure?: FailureProblem<Row>;
  /** The event's operation when the write is more than an update (a renew, a restore: docs/lifecycle.md). */
  event?: EventOperation;
  /** Finds the resource in every account (a transfer's gaining account acts on a domain it cannot see yet); the operation decides who may act. */
  acrossAccounts?: boolean;
}

/**
 * An update of one resource, committed: the resource as it now is, the extras of its
 * answer, and what the operation's change carried as `answer` (a transfer: the operation
 * answers with that rather than the resource). Sets no header.
 */
export async function changeResource<Row extends Stored, Body, const R extends readonly Statement[] = [], Answer = never>(
  c: Context<AppEnv>,
  collection: Collection<Row, Body>,
  segment: string,
  operation: UpdateOperation<Row, R, Answer>,
): Promise<{ resource: Row; extras?: Record<string, unknown>; answer?: Answer }> {
  return retryLostRaces(async () => {
    const { current, read } = await currentResource(c, collection, segment, operation.reads ?? (() => []), operation.acrossAccounts);
    const ctx = writeContext(c);
    const change = await operation.update(ctx, current, read as BatchResponse<R>);
    if (change === null) return { resource: current };
    const failure = (kind: WriteFailure) => operation.failure?.(kind, change.next);
    const resource = await writeChange(ctx, collection, operation.event ?? "update", current, change, { failure });
    return { resource, extras: change.answerExtras, answer: change.answer };
  });
}

/**
 * PATCH of one resource: 200 with the resource as it now is. `update` returns null when
 * the patch changes nothing: then nothing is written (no event, the ETag stays).
 */
export async function updateResource<Row extends Stored, Body, const R extends readonly Statement[] = []>(
  c: Context<AppEnv>,
  collection: Collection<Row, Body>,
  segment: string,
  operation: UpdateOperation<Row, R, never>,
) {
  const { resource, extras } = await changeResource(c, collection, segment, operation);
  const body = collection.present(resource);
  c.header("ETag", entityTag(resource.version, body));
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
  await retryLostRaces(async () => {
    const { current, read } = await currentResource(c, collection, segment, operation.reads ?? (() => []));
    const ctx = writeContext(c);
    const removal = await operation.remove(ctx, current, read as BatchResponse<R>);
    await writeRemoval(ctx, collection, "delete", current, removal, (kind) => operation.failure?.(kind, current));
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
