// Deterministic races: a request runs through the real Worker against the real D1 of the
// test file, but its D1 binding is wrapped so that a test can act between the request's
// reads and its write (another request that commits first, as a concurrent client would),
// or fail right after its write committed (as a crashed isolate would). Nothing of the
// service is imitated: the wrapper only decides when the real batch runs.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import worker from "../src/index";
import type { ApiResponse } from "./helpers";
import { bearer } from "./tokens";

/** The SQL of each statement of a batch, lowercased, as D1 received it. */
export type BatchSql = string[];

export interface BatchHooks {
  /** Runs before a batch reaches D1; it sees the batch's SQL. */
  beforeBatch?: (sql: BatchSql) => unknown;
  /** Runs after a batch committed; throwing from it fails the request as a crash would. */
  afterBatch?: (sql: BatchSql) => unknown;
}

/** A batch that writes to `table` (insert, update or delete), as opposed to the reads a handler batches. */
export function writesTo(sql: BatchSql, table: string): boolean {
  const pattern = new RegExp(`^(insert into|update|delete from) "${table}"`);
  return sql.some((statement) => pattern.test(statement));
}

const sqlOf = new WeakMap<object, string>();
const originals = new WeakMap<object, D1PreparedStatement>();

function trackedStatement(statement: D1PreparedStatement, sql: string): D1PreparedStatement {
  const proxy = new Proxy(statement, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (key === "bind") return (...args: unknown[]) => trackedStatement((value as (...a: unknown[]) => D1PreparedStatement).apply(target, args), sql);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  sqlOf.set(proxy, sql.toLowerCase());
  originals.set(proxy, statement);
  return proxy;
}

function hookedDatabase<T extends D1Database | D1DatabaseSession>(db: T, hooks: BatchHooks): T {
  return new Proxy(db, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (key === "prepare") return (sql: string) => trackedStatement((value as (s: string) => D1PreparedStatement).call(target, sql), sql);
      if (key === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          const sql = statements.map((s) => sqlOf.get(s) ?? "");
          await hooks.beforeBatch?.(sql);
          const results = await (value as (s: D1PreparedStatement[]) => Promise<unknown>).call(
            target,
            statements.map((s) => originals.get(s) ?? s),
          );
          await hooks.afterBatch?.(sql);
          return results;
        };
      }
      if (key === "withSession") return (constraint?: string) => hookedDatabase((value as (c?: string) => D1DatabaseSession).call(target, constraint), hooks);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Like `api` (test/helpers.ts), but the request's D1 runs `hooks` around each batch. */
export async function apiWithHooks<T = any>(
  method: string,
  path: string,
  hooks: BatchHooks,
  options: { json?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers = new Headers(options.headers);
  if (!headers.has("authorization")) headers.set("authorization", bearer("write"));
  let body: string | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`http://api.test${path}`, { method, headers, body }), { ...env, DB: hookedDatabase(env.DB, hooks) }, ctx);
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  let parsed: unknown;
  if (text && /json/.test(response.headers.get("content-type") ?? "")) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/**
 * Runs `action` once, before the first batch that writes to `table`: the write then
 * commits on a database that `action` changed after the request read it.
 */
export function onceBeforeWriting(table: string, action: () => Promise<unknown>): BatchHooks {
  let done = false;
  return {
    beforeBatch: async (sql) => {
      if (done || !writesTo(sql, table)) return;
      done = true;
      await action();
    },
  };
}
