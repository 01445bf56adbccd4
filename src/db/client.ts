import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
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
