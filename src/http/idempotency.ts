// Idempotent retries of POST (docs/safety.md; draft-ietf-httpapi-idempotency-key-header).
// A POST with `Idempotency-Key` is remembered for 24 hours with a hash of the request:
// a retry with the same key and request replays the first response (status, body,
// Location, ETag) with `Idempotent-Replayed: true`; the same key with another request is
// 422; a key whose first request is still running is 409. Keys are per principal (the
// token's id; see principalKey). This is route middleware of the POST operations only
// (src/http/route.ts): it runs after authentication, and never for a public path, an
// unknown route or a method a path does not take — none of those store anything.
import type { Context, MiddlewareHandler } from "hono";
import { and, eq, lt } from "drizzle-orm";
import type { AppEnv } from "../env";
import { type Database, database } from "../db/client";
import { idempotencyKeys } from "../db/schema";
import { sha256Hex } from "../crypto/sha256";
import { clientAddress, principalKey } from "./client-key";
import { requestBytes } from "./body";
import { ApiError } from "./problem";

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A request still "in flight" after this long died with its isolate: its key is freed. */
const ABANDONED_AFTER_MS = 60 * 1000;
const REPLAYED_HEADERS = ["Content-Type", "Location", "ETag"];
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

async function requestHash(c: Context<AppEnv>): Promise<string> {
  const url = new URL(c.req.url);
  const head = new TextEncoder().encode([c.req.method, url.pathname, url.search, c.req.header("content-type") ?? "", ""].join("\n"));
  // The bytes route middleware read within the size limit (src/http/body.ts).
  const body = requestBytes(c);
  const bytes = new Uint8Array(head.length + body.length);
  bytes.set(head);
  bytes.set(body, head.length);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

function replay(row: typeof idempotencyKeys.$inferSelect): Response {
  const headers = new Headers(JSON.parse(row.headers ?? "{}") as Record<string, string>);
  headers.set("Idempotent-Replayed", "true");
  return new Response(row.body, { status: row.status ?? 200, headers });
}

export const idempotentPost: MiddlewareHandler<AppEnv> = async (c, next) => {
  const key = c.req.header("idempotency-key");
  if (c.req.method !== "POST" || key === undefined) return next();
  if (!KEY_SHAPE.test(key)) {
    throw new ApiError("validation_failed", "Idempotency-Key must be 1 to 255 printable ASCII characters.", {
      errors: [{ field: "Idempotency-Key", message: "must be 1 to 255 printable ASCII characters" }],
    });
  }
  const db = database(c.env.DB);
  const id = await sha256Hex(`${principalKey(c.get("principal"), clientAddress(c))}\n${key}`);
  c.set("idempotencyKeyId", id);
  const hash = await requestHash(c);
  const now = Date.now();

  const claim = () =>
    db
      .insert(idempotencyKeys)
      .values({
        id,
        requestHash: hash,
        state: "in_flight",
        createdAt: new Date(now).toISOString(),
        expiresAt: new Date(now + IDEMPOTENCY_TTL_MS).toISOString(),
      })
      .onConflictDoNothing()
      .run();

  let claimed = (await claim()).meta.changes > 0;
  if (!claimed) {
    const row = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.id, id)).get();
    const abandoned = row?.state === "in_flight" && Date.parse(row.createdAt) < now - ABANDONED_AFTER_MS;
    if (!row || Date.parse(row.expiresAt) <= now || abandoned) {
      // Expired or abandoned: the key is free again.
      await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.id, id), eq(idempotencyKeys.requestHash, row?.requestHash ?? hash)));
      claimed = (await claim()).meta.changes > 0;
    }
    if (!claimed) {
      const current = row && !abandoned ? row : await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.id, id)).get();
      if (!current) throw new ApiError("request_in_progress", "A request with this Idempotency-Key is being processed; retry shortly.");
      if (current.requestHash !== hash) {
        throw new ApiError("validation_failed", "This Idempotency-Key was used with a different request; use a new key for a new request.", {
          errors: [{ field: "Idempotency-Key", message: "was used with a different request body" }],
        });
      }
      if (current.state === "in_flight") {
        throw new ApiError("request_in_progress", "The first request with this Idempotency-Key is still being processed; retry shortly.", {
          headers: { "Retry-After": "1" },
        });
      }
      return replay(current);
    }
  }

  // A write records its answer in its own batch (src/http/mutate.ts): once that committed
  // the key is `done`, and nothing after it (a failure, this request's end) may free it,
  // or a retry would write again. Only a key still in flight is freed or recorded here.
  const inFlight = and(eq(idempotencyKeys.id, id), eq(idempotencyKeys.state, "in_flight"));
  try {
    await next();
  } catch (error) {
    await db.delete(idempotencyKeys).where(inFlight);
    throw error;
  }
  const response = c.res;
  if (response.status >= 500) {
    // Our failure is not the answer to remember: the client may retry with the same key.
    await db.delete(idempotencyKeys).where(inFlight);
    return;
  }
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const body = await response.clone().text();
  await db
    .update(idempotencyKeys)
    .set({ state: "done", status: response.status, headers: JSON.stringify(headers), body })
    .where(inFlight);
};

/**
 * The statement that records `answer` as the result of an Idempotency-Key still in flight,
 * for the write's own batch (src/http/mutate.ts): so that the write and its record commit
 * together, and so that an answer with a secret can be recorded without it.
 */
export function answerRecordStatement(db: Database, keyId: string, answer: { status: number; headers: Record<string, string>; body: unknown }) {
  return db
    .update(idempotencyKeys)
    .set({ state: "done", status: answer.status, headers: JSON.stringify(answer.headers), body: JSON.stringify(answer.body) })
    .where(and(eq(idempotencyKeys.id, keyId), eq(idempotencyKeys.state, "in_flight")));
}

/** The Cron Trigger's work: forget keys older than 24 hours. */
export async function deleteExpiredIdempotencyKeys(env: { DB: D1Database }, now = new Date()): Promise<number> {
  const result = await database(env.DB).delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, now.toISOString())).run();
  return result.meta.changes;
}
