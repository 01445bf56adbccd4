// The audit trail's write side: every handler adds one `eventInsert` per resource its
// write changes to the very D1 batch that writes it, so an event exists exactly when the
// change committed (a failed or rolled-back batch leaves neither), numbered in commit
// order by the database itself, and never holding a secret.
import { sql, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "./client";
import { newId } from "./ids";
import { jsonChunks } from "./json-chunks";
import { events } from "./schema";

export type EventResourceType = (typeof events.$inferSelect)["resourceType"];
export type EventOperation = (typeof events.$inferSelect)["operation"];

/** What one write did to one resource. */
export interface EventInput {
  /** When the write happened: the write's own timestamp (the resource's `updated_at`). */
  at: string;
  /** Id of the token that made the write (src/http/actor.ts). */
  actor: string;
  /**
   * The sponsoring account of the resource (docs/accounts.md: events are visible as their
   * object is): its id, or SQL that finds it in the batch (a record's: its zone's).
   */
  account: string | SQL;
  type: EventResourceType;
  id: string;
  operation: EventOperation;
  /** The resource's API representation before the write; null for a create. */
  before: unknown;
  /** The resource's API representation after the write; null for a delete. */
  after: unknown;
}

export interface EventInsertOptions {
  /**
   * Write the event only when this holds at its turn in the batch: for a guarded write
   * that may match no row (`previousStatementChanged`), or a row that may have been
   * written by someone else (`rowExists`).
   */
  onlyIf?: SQL;
  /**
   * Parts of `after` that only the database knows once the write ran (a serial computed
   * in SQL, a count kept by triggers), keyed by JSON path (`$.soa.serial`), read by a
   * subquery at the event's turn in the batch.
   */
  afterFromDatabase?: Record<string, SQL>;
}

/**
 * D1 stores a row of at most 2 MB (2 000 000 bytes); `before` and `after` together may
 * take this much of it, the rest is room for the other columns.
 */
export const MAX_EVENT_PAYLOAD_BYTES = 1_900_000;

const encoder = new TextEncoder();

/** The UTF-8 size of a value's JSON text. */
export function jsonBytes(value: unknown): number {
  return value === null || value === undefined ? 0 : encoder.encode(JSON.stringify(value)).byteLength;
}

/** `changes() > 0`: the batch's previous statement changed a row (see db/zones.ts touchZone). */
export const previousStatementChanged: SQL = sql`changes() > 0`;

/** The row exists at this point of the batch (the write that was to create it did). */
export function rowExists(table: SQLiteTable, where: SQL): SQL {
  return sql`exists (select 1 from ${table} where ${where})`;
}

/**
 * Fields of a representation that are secrets, never recorded: a domain's `auth_info`
 * (RFC 5731 §2.6, the transfer password) would otherwise stay readable, old and rotated
 * values alike, by every read token for as long as the trail is kept. The event of a
 * PATCH that changed only `auth_info` shows that an update happened (`updated_at` moves),
 * not the secret.
 */
export const SECRET_FIELDS = ["auth_info"] as const;

/** The representation as an event records it: without its secret fields. */
export function withoutSecrets(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  if (!SECRET_FIELDS.some((field) => Object.hasOwn(value, field))) return value;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const field of SECRET_FIELDS) delete copy[field];
  return copy;
}

function jsonText(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(withoutSecrets(value));
}

/**
 * The next `seq`: one more than the largest so far, read at the statement's turn in its
 * batch. D1 runs one write (one batch, one transaction) at a time, so seq order is commit
 * order, which ids minted in the Worker before the write are not (src/db/schema.ts).
 */
const nextSeq = sql<number>`(select coalesce(max("seq"), 0) + 1 from "events")`;

/** The statement that records one event; put it in the same batch as the write. */
export function eventInsert(db: Database, event: EventInput, options: EventInsertOptions = {}) {
  const id = newId("event", new Date(event.at));
  let after: SQL = sql`${jsonText(event.after)}`;
  const patches = Object.entries(options.afterFromDatabase ?? {});
  if (patches.length > 0 && event.after !== null) {
    after = sql`json_set(${jsonText(event.after)}, ${sql.join(
      patches.map(([path, value]) => sql`${path}, (${value})`),
      sql`, `,
    )})`;
  }
  // INSERT … SELECT, so that `onlyIf` can hold the row back (a plain VALUES cannot).
  return db.insert(events).select(
    db
      .select({
        seq: nextSeq.as("seq"),
        id: sql<string>`${id}`.as("id"),
        // In the table's column order: drizzle's INSERT … SELECT names no columns.
        accountId: sql<string>`${event.account}`.as("account_id"),
        at: sql<string>`${event.at}`.as("at"),
        actor: sql<string>`${event.actor}`.as("actor"),
        resourceType: sql<EventResourceType>`${event.type}`.as("resource_type"),
        resourceId: sql<string>`${event.id}`.as("resource_id"),
        operation: sql<EventOperation>`${event.operation}`.as("operation"),
        before: sql<unknown>`${jsonText(event.before)}`.as("before"),
        after: sql<unknown>`${after}`.as("after"),
      })
      .from(sql`(select 1)`)
      .where(options.onlyIf),
  );
}

/** One event of a chunk, with the value its guard compares (`guard`, read as `$.guard`). */
export interface ChunkedEvent extends EventInput {
  account: string;
  guard?: string | number;
}

/**
 * The statements that record these events, a few at most whatever their number. Each
 * event is written only when `onlyIf(entry)` holds at the statement's turn in the batch,
 * `entry` being its JSON object (fields `resource_id` and `guard`). Events are numbered
 * in the order given, after every event committed before them.
 */
export function chunkedEventInserts(db: Database, list: readonly ChunkedEvent[], onlyIf?: (entry: { resourceId: SQL; guard: SQL }) => SQL) {
  // JSON chunks (src/db/json-chunks.ts): a statement per 900 kB of events, whatever their number.
  const chunks = jsonChunks(list, (event) =>
    JSON.stringify({
      id: newId("event", new Date(event.at)),
      account: event.account,
      at: event.at,
      actor: event.actor,
      type: event.type,
      resource_id: event.id,
      operation: event.operation,
      before: jsonText(event.before),
      after: jsonText(event.after),
      guard: event.guard ?? null,
    }),
  );
  const field = (name: string) => sql`json_extract(value, ${`$.${name}`})`;
  return chunks.map((chunk) =>
    db.insert(events).select(
      db
        .select({
          // `key` numbers the chunk's entries from 0; the largest seq is read once, before the insert.
          seq: sql<number>`(select coalesce(max("seq"), 0) from "events") + "key" + 1`.as("seq"),
          id: sql<string>`${field("id")}`.as("id"),
          // In the table's column order: drizzle's INSERT … SELECT names no columns.
          accountId: sql<string>`${field("account")}`.as("account_id"),
          at: sql<string>`${field("at")}`.as("at"),
          actor: sql<string>`${field("actor")}`.as("actor"),
          resourceType: sql<EventResourceType>`${field("type")}`.as("resource_type"),
          resourceId: sql<string>`${field("resource_id")}`.as("resource_id"),
          operation: sql<EventOperation>`${field("operation")}`.as("operation"),
          before: sql<unknown>`${field("before")}`.as("before"),
          after: sql<unknown>`${field("after")}`.as("after"),
        })
        .from(sql`json_each(${chunk.json})`)
        .where(onlyIf?.({ resourceId: field("resource_id"), guard: field("guard") })),
    ),
  );
}
