// Keyset pagination (docs/conventions.md). A page is the rows after the last row of the previous
// page in the list's order, so a page costs the same at row 100 000 as at row 1 and rows
// inserted while paging are neither skipped nor repeated. The cursor carries that last
// row's sort key and id, signed with HMAC-SHA-256 over the list it belongs to (path, sort
// and filters), so an altered cursor or one from another list answers 400 `invalid_cursor`.
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { isPublic } from "./auth";
import { isLocalDevelopment } from "./local-development";
import { z } from "@hono/zod-openapi";
import { integerParam } from "./query";
import { ApiError } from "./problem";

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

export const paginationQuery = {
  limit: integerParam(1, MAX_LIMIT)
    .optional()
    .openapi({ type: "integer", minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: "Page size, 1–200 (default 50)." }),
  cursor: z.string().max(2048).optional().openapi({ description: 'Opaque cursor from the previous page\'s `next_cursor` (or its `Link: rel="next"`).' }),
};

/** Where the previous page stopped: the sort key (if the order is not by id) and the id. */
export type KeysetPosition = { key: string | number | null; id: string };

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    keys.set(secret, key);
  }
  return key;
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

const SIGNATURE_BYTES = 16;

async function signature(secret: string, scope: string, payload: string): Promise<Uint8Array> {
  const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(`${scope}\n${payload}`));
  return new Uint8Array(mac).slice(0, SIGNATURE_BYTES);
}

/** The runtime's constant-time comparison (it throws on different lengths, which are no secret here). */
function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && crypto.subtle.timingSafeEqual(a, b);
}

/**
 * The list a cursor belongs to: the path and every query parameter except the page
 * controls, in a fixed order.
 */
export function listScope(c: Context): string {
  const url = new URL(c.req.url);
  const params = [...url.searchParams].filter(([name]) => name !== "cursor" && name !== "limit").sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${url.pathname}?${new URLSearchParams(params).toString()}`;
}

export async function encodeCursor(secret: string, scope: string, position: KeysetPosition): Promise<string> {
  const payload = toBase64Url(encoder.encode(JSON.stringify([position.key, position.id])));
  return `${payload}.${toBase64Url(await signature(secret, scope, payload))}`;
}

export async function decodeCursor(secret: string, scope: string, cursor: string): Promise<KeysetPosition> {
  const invalid = new ApiError("invalid_cursor", "The cursor is not one this list issued; start again from the first page.");
  const [payload, mac, extra] = cursor.split(".");
  if (!payload || !mac || extra !== undefined) throw invalid;
  const given = fromBase64Url(mac);
  const raw = fromBase64Url(payload);
  // Only the canonical spelling counts: a last character that differs in padding bits
  // alone would decode to the same bytes.
  if (given && toBase64Url(given) !== mac) throw invalid;
  if (raw && toBase64Url(raw) !== payload) throw invalid;
  if (!given || !raw || !timingSafeEqual(given, await signature(secret, scope, payload))) throw invalid;
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw invalid;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[1] !== "string") throw invalid;
  const key: unknown = parsed[0];
  if (key !== null && typeof key !== "string" && typeof key !== "number") throw invalid;
  return { key, id: parsed[1] };
}

export interface PageRequest {
  limit: number;
  after: KeysetPosition | null;
}

// Signs cursors when CURSOR_SECRET is unset and the request came to a loopback host
// (`npm start`, the e2e scripts): a key anyone can read, so never used by a deployed Worker.
const LOCAL_CURSOR_SECRET = "local-development-cursor-secret";

/** 32 characters: `openssl rand -base64 32` gives 44, i.e. 256 bits for HMAC-SHA-256. */
const MIN_CURSOR_SECRET_LENGTH = 32;

function cursorSecret(c: Context<AppEnv>): string {
  return c.env.CURSOR_SECRET || LOCAL_CURSOR_SECRET;
}

/**
 * Fails closed, like authentication with no token: a deployed Worker without the
 * CURSOR_SECRET secret would sign cursors with the public development key, so it refuses
 * every request but the public documents with 503 `not_configured`, naming the command
 * that fixes it. (The secret is not a [vars] entry in wrangler.toml: Cloudflare refuses a
 * var and a secret of the same name.)
 */
export const cursorSecretConfigured: MiddlewareHandler<AppEnv> = async (c, next) => {
  const secret = c.env.CURSOR_SECRET;
  if (secret && secret.length >= MIN_CURSOR_SECRET_LENGTH) return next();
  if (isLocalDevelopment(c.req.raw) || isPublic(c.req.path)) return next();
  const what = secret
    ? `a CURSOR_SECRET of ${secret.length} characters, too short to be a key (at least ${MIN_CURSOR_SECRET_LENGTH})`
    : "no CURSOR_SECRET, the key that signs pagination cursors";
  throw new ApiError(
    "not_configured",
    `This Worker has ${what}, so it refuses every request. Set one with \`openssl rand -base64 32 | npx wrangler secret put CURSOR_SECRET\`.`,
  );
};

/** Reads `limit` and `cursor` (already validated in shape) into a page request. */
export async function pageRequest(c: Context, query: { limit?: number | undefined; cursor?: string | undefined }): Promise<PageRequest> {
  const limit = query.limit ?? DEFAULT_LIMIT;
  if (query.cursor === undefined) return { limit, after: null };
  return { limit, after: await decodeCursor(cursorSecret(c), listScope(c), query.cursor) };
}

/** A cursor that another list issued (`scope`: its path and filters, as listScope writes them), read back. */
export function decodeListCursor(c: Context, scope: string, cursor: string): Promise<KeysetPosition> {
  return decodeCursor(cursorSecret(c), scope, cursor);
}

/** A cursor of this list standing at `position` (as `next_cursor` is, but on any page). */
export function signCursor(c: Context, position: KeysetPosition): Promise<string> {
  return encodeCursor(cursorSecret(c), listScope(c), position);
}

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/**
 * Turns the rows of a page query (which asks for `limit + 1` rows to learn whether a
 * next page exists) into the list body, and sets `Link: rel="next"` (RFC 8288).
 */
export async function pageResponse<Row, Item>(
  c: Context,
  page: PageRequest,
  rows: Row[],
  positionOf: (row: Row) => KeysetPosition,
  present: (row: Row) => Item,
): Promise<Page<Item>> {
  const hasMore = rows.length > page.limit;
  const pageRows = hasMore ? rows.slice(0, page.limit) : rows;
  let nextCursor: string | null = null;
  if (hasMore) {
    nextCursor = await encodeCursor(cursorSecret(c), listScope(c), positionOf(pageRows[pageRows.length - 1]!));
    const url = new URL(c.req.url);
    url.searchParams.set("cursor", nextCursor);
    c.header("Link", `<${url.pathname}${url.search}>; rel="next"`);
  }
  return { data: pageRows.map(present), next_cursor: nextCursor };
}
