import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import { databaseBusy } from "./errors";
export type Database = DrizzleD1Database;

const clients = new WeakMap<D1Database | D1DatabaseSession, Database>();

/**
 * A drizzle client over a D1 binding (built once per isolate) or over a request's D1
 * session (src/http/d1-session.ts). Drizzle needs only prepare() and batch(), which a
 * session has.
 */
export function database(d1: D1Database | D1DatabaseSession): Database {
  let db = clients.get(d1);
  if (!db) {
    // No `schema`: the handlers use the query builder only, and drizzle would otherwise
    // rebuild its relational-query map for every table on every request's session.
    db = drizzle(d1 as D1Database);
    clients.set(d1, db);
  }
  return db;
}

// A database that another process is writing (SQLITE_BUSY, "database is locked") is waited
// for, never answered with a 5xx. SQLite lets one writer at a time hold a database file:
// deployed, D1 orders its writes itself, but `npm start` keeps its D1 in a SQLite file under
// the state directory that any other program may open (`sqlite3`, a second wrangler, a
// script writing there while the server runs), and a statement that meets that program's
// lock fails having done nothing (a batch is one transaction, rolled back whole: SQLite
// says such a statement may simply be run again). So every D1 call the Worker makes goes
// through `withBusyRetry` (src/index.ts wraps the binding before anything sees it): it is
// tried again after each of these pauses, and an error still busy after the last is the
// app's 503 `database_busy` with Retry-After (src/app.ts).

/** The pauses, in milliseconds, before each new try of a call that met a locked database: 0.8 s in all. */
export const BUSY_RETRY_PAUSES_MS: readonly number[] = [25, 50, 100, 200, 400];

/** Runs `call`, again after each pause while it fails on a locked database; then fails as it did. */
export async function retryWhileBusy<T>(call: () => Promise<T>, pauses: readonly number[] = BUSY_RETRY_PAUSES_MS): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const pause = pauses[attempt];
      if (pause === undefined || !databaseBusy(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/** The D1 statement under a retrying one: what D1's own batch() takes. */
const underlying = new WeakMap<object, D1PreparedStatement>();

function retryingStatement(statement: D1PreparedStatement): D1PreparedStatement {
  const retrying = {
    bind: (...values: unknown[]) => retryingStatement(statement.bind(...values)),
    first: (column?: string) => retryWhileBusy(() => (column === undefined ? statement.first() : statement.first(column))),
    run: () => retryWhileBusy(() => statement.run()),
    all: () => retryWhileBusy(() => statement.all()),
    raw: (options?: { columnNames?: boolean }) => retryWhileBusy(() => statement.raw(options as { columnNames?: false })),
  };
  underlying.set(retrying, statement);
  return retrying as unknown as D1PreparedStatement;
}

function unwrapped(statements: D1PreparedStatement[]): D1PreparedStatement[] {
  return statements.map((statement) => underlying.get(statement) ?? statement);
}

function retryingSession(session: D1DatabaseSession): D1DatabaseSession {
  return {
    prepare: (query: string) => retryingStatement(session.prepare(query)),
    batch: (statements: D1PreparedStatement[]) => retryWhileBusy(() => session.batch(unwrapped(statements))),
    getBookmark: () => session.getBookmark(),
  } as D1DatabaseSession;
}

const retryingBindings = new WeakMap<D1Database, D1Database>();

/** The D1 binding with every call tried again while the database is locked (above); one wrapper per binding. */
export function withBusyRetry(d1: D1Database): D1Database {
  let retrying = retryingBindings.get(d1);
  if (!retrying) {
    retrying = {
      prepare: (query: string) => retryingStatement(d1.prepare(query)),
      batch: (statements: D1PreparedStatement[]) => retryWhileBusy(() => d1.batch(unwrapped(statements))),
      exec: (query: string) => retryWhileBusy(() => d1.exec(query)),
      withSession: (constraintOrBookmark?: string) => retryingSession(d1.withSession(constraintOrBookmark)),
      dump: () => d1.dump(),
    } as D1Database;
    retryingBindings.set(d1, retrying);
  }
  return retrying;
}
