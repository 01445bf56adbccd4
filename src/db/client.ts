import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import { schema } from "./schema";

export type Database = DrizzleD1Database<typeof schema>;

const clients = new WeakMap<D1Database, Database>();

/** One drizzle client per D1 binding, built once per isolate rather than per request. */
export function database(d1: D1Database): Database {
  let db = clients.get(d1);
  if (!db) {
    db = drizzle(d1, { schema });
    clients.set(d1, db);
  }
  return db;
}
