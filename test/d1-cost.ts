// What a request costs D1, observed by wrapping the D1 binding the Worker receives (as
// test/round-trips.test.ts does): every batch with the SQL text and bound values of each
// of its statements, and the rows read and written that D1 reports in each result's meta.
import { databaseBusy } from "../src/db/errors";
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { expect } from "vitest";
import { D1_LIMITS, MAX_STATEMENTS_PER_BATCH } from "../src/db/d1-limits";
import worker from "../src/index";
import { bearer } from "./tokens";

export interface StatementSeen {
  sql: string;
  params: unknown[];
}

export interface D1Cost {
  /** Every batch, in order: its statements. */
  batches: StatementSeen[][];
  /** Statements run on their own (outside a batch). */
  singles: StatementSeen[];
  rowsRead: number;
  rowsWritten: number;
  /**
   * Trips that met a database another connection held locked (SQLITE_BUSY) and were tried
   * again by the Worker's retry (src/db/client.ts): the machine's contention, not the
   * operation's shape, so they are counted here and not among the round trips.
   */
  busyRetries?: number;
}

/** Each batch and each statement run on its own is one trip to the database. */
export function roundTrips(cost: D1Cost): number {
  return cost.batches.length + cost.singles.length;
}

/** Runs one trip; one that failed on a locked database is taken back out of `trips` and counted apart. */
async function trip<R>(cost: D1Cost, trips: unknown[], entry: unknown, run: () => Promise<R>): Promise<R> {
  trips.push(entry);
  try {
    return await run();
  } catch (error) {
    if (databaseBusy(error)) {
      trips.splice(trips.lastIndexOf(entry), 1);
      cost.busyRetries = (cost.busyRetries ?? 0) + 1;
    }
    throw error;
  }
}

/** The statement that verifies a bearer token (src/db/api-tokens.ts), which the token cache spares a warm request. */
const TOKEN_VERIFICATION = /select t\.id, t\.name, t\.scope, t\.secret_hash/;

/**
 * Whether a request meant to be warm verified its token afresh: on a machine loaded enough
 * that the token cache's 10 s ran out between the warm-up and the request. Such a read is
 * measured again; the token's read is not the operation's cost.
 */
export function tokenVerifiedAfresh(cost: D1Cost): boolean {
  return TOKEN_VERIFICATION.test(tripsText(cost));
}

/** The SQL of each round trip, for a message when a count is over its bound. */
export function tripsText(cost: D1Cost): string {
  return [...cost.batches.map((b) => `batch[${b.map((s) => s.sql.slice(0, 80)).join(" ; ")}]`), ...cost.singles.map((s) => s.sql.slice(0, 80))].join("\n");
}

const seen = new WeakMap<object, { real: D1PreparedStatement; statement: StatementSeen }>();

function addMeta(cost: D1Cost, result: unknown) {
  const meta = (result as { meta?: { rows_read?: number; rows_written?: number } } | null)?.meta;
  cost.rowsRead += meta?.rows_read ?? 0;
  cost.rowsWritten += meta?.rows_written ?? 0;
}

/** A statement that reads only (raw() of it may run twice, for its meta). */
const READ_ONLY = /^\s*(select|with)\b(?![\s\S]*\b(insert|update|delete)\b)/i;

function watchedStatement(cost: D1Cost, real: D1PreparedStatement, statement: StatementSeen, db: D1Database | D1DatabaseSession): D1PreparedStatement {
  const proxy = new Proxy(real, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (key === "bind") {
        return (...args: unknown[]) =>
          watchedStatement(cost, (value as (...a: unknown[]) => D1PreparedStatement).apply(target, args), { sql: statement.sql, params: args }, db);
      }
      if (key === "all" || key === "run") {
        return async (...args: unknown[]) => {
          const result = await trip(cost, cost.singles, statement, () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
          addMeta(cost, result);
          return result;
        };
      }
      if (key === "raw" || key === "first") {
        // raw() and first() drop D1's meta. first() is all()'s first row; raw() keeps its
        // arrays (a join may repeat a column name, which objects would merge), and a read
        // is run once more through all() for its meta alone (not a round trip of the
        // request's); a write through raw() runs as a batch of one, which has meta.
        return (...args: unknown[]) =>
          trip(cost, cost.singles, statement, async () => {
            if (key === "first") {
              const result = (await target.all()) as D1Result<Record<string, unknown>>;
              addMeta(cost, result);
              const row = result.results[0] ?? null;
              const column = args[0] as string | undefined;
              return column === undefined || row === null ? row : row[column];
            }
            if (READ_ONLY.test(statement.sql)) {
              const rows = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
              addMeta(cost, await target.all());
              return rows;
            }
            const [result] = await db.batch([target]);
            addMeta(cost, result);
            return ((result as D1Result<Record<string, unknown>>).results ?? []).map((row) => Object.values(row));
          });
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  seen.set(proxy, { real, statement });
  return proxy;
}

function watchedDatabase<T extends D1Database | D1DatabaseSession>(cost: D1Cost, db: T): T {
  return new Proxy(db, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (key === "prepare") {
        return (sql: string) => watchedStatement(cost, (value as (s: string) => D1PreparedStatement).call(target, sql), { sql, params: [] }, target);
      }
      if (key === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          const entry = statements.map((s) => seen.get(s)?.statement ?? { sql: "?", params: [] });
          const results = await trip(cost, cost.batches, entry, () =>
            (value as (s: D1PreparedStatement[]) => Promise<unknown[]>).call(
              target,
              statements.map((s) => seen.get(s)?.real ?? s),
            ),
          );
          for (const result of results) addMeta(cost, result);
          return results;
        };
      }
      if (key === "withSession") return (constraint?: string) => watchedDatabase(cost, (value as (c?: string) => D1DatabaseSession).call(target, constraint));
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

export interface CostedResponse {
  status: number;
  text: string;
  body: any;
  cost: D1Cost;
}

/** Sends one request through the Worker (write token) and reports what it cost D1. */
export async function costOf(method: string, path: string, options: { body?: string; headers?: Record<string, string> } = {}): Promise<CostedResponse> {
  const headers = { authorization: bearer("write"), ...options.headers };
  const { response, cost } = await costOfRequest(new Request(`http://api.test${path}`, { method, headers, body: options.body }));
  // A binary answer (an archive object, application/gzip) is read whole but not as text.
  const binary = response.headers.get("content-type") === "application/gzip";
  const text = binary ? `(${(await response.arrayBuffer()).byteLength} bytes)` : await response.text();
  let body: unknown;
  if (/json/.test(response.headers.get("content-type") ?? "")) body = JSON.parse(text);
  return { status: response.status, text, body, cost };
}

/** Sends a request as given through the Worker (with `settings` beside the runtime's bindings) and reports what it cost D1; the response is left unread. */
export async function costOfRequest(request: Request, settings: Record<string, string> = {}): Promise<{ response: Response; cost: D1Cost }> {
  const cost: D1Cost = { batches: [], singles: [], rowsRead: 0, rowsWritten: 0 };
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, { ...env, ...settings, DB: watchedDatabase(cost, env.DB) }, ctx);
  await waitOnExecutionContext(ctx);
  return { response, cost };
}

const encoder = new TextEncoder();

/**
 * Every statement the request sent stays within D1's documented per-statement limits, and
 * every batch within the service's bound on statements (src/db/d1-limits.ts). Returns the
 * largest figures seen, for the test to show.
 */
export function expectWithinD1Limits(cost: D1Cost) {
  const statements = [...cost.batches.flat(), ...cost.singles];
  const largest = {
    statementsPerBatch: Math.max(0, ...cost.batches.map((b) => b.length)),
    boundParameters: Math.max(0, ...statements.map((s) => s.params.length)),
    statementBytes: Math.max(0, ...statements.map((s) => encoder.encode(s.sql).byteLength)),
    stringBytes: Math.max(0, ...statements.flatMap((s) => s.params.map((p) => (typeof p === "string" ? encoder.encode(p).byteLength : 0)))),
  };
  expect(largest.statementsPerBatch, "statements in one batch").toBeLessThanOrEqual(MAX_STATEMENTS_PER_BATCH);
  expect(largest.boundParameters, "bound parameters of one statement").toBeLessThanOrEqual(D1_LIMITS.boundParametersPerStatement);
  expect(largest.statementBytes, "bytes of one statement's SQL").toBeLessThanOrEqual(D1_LIMITS.statementBytes);
  expect(largest.stringBytes, "bytes of one bound string").toBeLessThanOrEqual(D1_LIMITS.stringBytes);
  return largest;
}
