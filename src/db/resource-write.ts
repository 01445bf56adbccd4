// The most common write (src/db/write.ts): one resource changes, created, updated or
// removed, with its event, the rows linked to it and the guards of its rules. A request's
// operation (through src/http/mutate.ts), the sweep and the webhook deliverer state it as a
// `Change` or a `Removal`; this turns it into the routine's `Write`.
import type { SQL } from "drizzle-orm";
import type { EventOperation, EventResourceType } from "./events";
import { type FailureProblem, type Statement, type Stored, type Query, type Write, type WriteContext, commitWrite } from "./write";

/** A kind of resource as its writes see it: each resource folder's `collection.ts` gives one. */
export interface Resource<Row extends Stored> {
  /** The event type, and the word for the resource in messages (`host`). */
  type: EventResourceType;
  /** The representation, as the resource's events record it. */
  present(row: Row): unknown;
  /** The sponsoring account of a resource, for its events (docs/accounts.md): its id, or SQL that finds it. */
  accountOf(row: Row): string | SQL;
}

/** What a create or an update writes. */
export interface Change<Row> {
  /** The resource as written: the answer and its event's `after`. */
  next: Row;
  /** Guards that must see what the write's reads saw: first in the batch, before the write (src/db/guards.ts). */
  beforeWrite?: Statement[];
  /** The statement that writes the resource's own row (for an update, `versionStep`); if it changes no row, the write lost a race. */
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

/** What a removal writes. */
export interface Removal {
  /** Guards that must see what the write's reads saw: first in the batch, before the write (src/db/guards.ts). */
  beforeWrite?: Statement[];
  /** The statement that deletes the resource's own row (or steps its version); if it changes no row, the write lost a race. */
  write: Statement;
  /** The event's `before`, when it records more than the representation (a zone's records). */
  before?: unknown;
  /** Statements after the resource's event. */
  alongside?: Statement[];
}

/** The routine's `Write` of a change: the resource's row first, its event right after, then the rest; `last` at the end. */
export function changeWrite<Row extends Stored>(
  resource: Resource<Row>,
  operation: EventOperation,
  before: Row | null,
  change: Change<Row>,
  last: Statement[] = [],
): Write {
  return {
    first: change.beforeWrite,
    rows: [
      {
        statement: change.write,
        event: {
          account: resource.accountOf(change.next),
          type: resource.type,
          id: change.next.id,
          operation,
          before: before === null ? null : resource.present(before),
          after: resource.present(change.next),
          afterFromDatabase: change.afterFromDatabase,
        },
      },
    ],
    alongside: change.alongside,
    guards: change.guards,
    last: [...(change.readBack ? [change.readBack] : []), ...last],
  };
}

/** The routine's `Write` of a removal: its event records the resource before and nothing after. */
export function removalWrite<Row extends Stored>(
  resource: Resource<Row>,
  operation: EventOperation,
  current: Row,
  removal: Removal,
  last: Statement[] = [],
): Write {
  return {
    first: removal.beforeWrite,
    rows: [
      {
        statement: removal.write,
        event: {
          account: resource.accountOf(current),
          type: resource.type,
          id: current.id,
          operation,
          before: removal.before ?? resource.present(current),
          after: null,
        },
      },
    ],
    alongside: removal.alongside,
    last,
  };
}

/**
 * Commits a change of one resource (`before`: null for a creation). Returns the resource as
 * written, read back when the change asks for it.
 */
export async function writeChange<Row extends Stored>(
  ctx: WriteContext,
  resource: Resource<Row>,
  operation: EventOperation,
  before: Row | null,
  change: Change<Row>,
  options: { failure?: FailureProblem; last?: Statement[] } = {},
): Promise<Row> {
  const results = await commitWrite(ctx, changeWrite(resource, operation, before, change, options.last), options.failure);
  return change.readBack ? ((results[0] as Row[])[0] ?? change.next) : change.next;
}

/** Commits a removal of one resource. */
export async function writeRemoval<Row extends Stored>(
  ctx: WriteContext,
  resource: Resource<Row>,
  operation: EventOperation,
  current: Row,
  removal: Removal,
  failure?: FailureProblem,
): Promise<void> {
  await commitWrite(ctx, removalWrite(resource, operation, current, removal), failure);
}
