// Bearer-token authentication (RFC 6750) with two scopes: `read` for GET/HEAD, `write`
// for everything. Tokens are `tok_<id>.<secret>`; only SHA-256(secret) is stored, and the
// comparison runs in constant time. The service fails closed: with no token configured
// it refuses every non-public request and says why.
import type { Context, MiddlewareHandler } from "hono";
import { eq, isNull, sql } from "drizzle-orm";
import type { AppEnv, Env, Principal } from "../env";
import { database } from "../db/client";
import { apiTokens } from "../db/schema";
import { ApiError } from "./problem";

const REALM = 'Bearer realm="domain-api"';
/** How long an isolate trusts a token it has checked: revocation takes effect within this. */
export const TOKEN_CACHE_MS = 10_000;

/** Public documents: the index, the API description and reference page, problem types. */
export function isPublic(path: string): boolean {
  return path === "/v1" || path === "/v1/" || path === "/v1/openapi.json" || path.startsWith("/v1/docs") || path.startsWith("/v1/problems");
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Auth is off only when AUTH_DISABLED is "true" AND the request came to a loopback
 * address: the setting is for `npm start` (wrangler dev --var AUTH_DISABLED:true) and
 * does nothing on a deployed Worker, whose host name is never a loopback one.
 */
export function authDisabled(env: Env, url: URL): boolean {
  return env.AUTH_DISABLED === "true" && isLoopback(url);
}

/** A request to this machine (wrangler dev, the tests' scripts), never a deployed Worker. */
export function isLoopback(url: URL): boolean {
  return LOOPBACK_HOSTS.has(url.hostname);
}

export function requiredScope(method: string): Principal["scope"] {
  return method === "GET" || method === "HEAD" ? "read" : "write";
}

const encoder = new TextEncoder();

export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

interface CachedToken {
  principal: Principal | null;
  secretHash: string;
  until: number;
}
const tokenCache = new Map<string, CachedToken>();

const TOKEN_SHAPE = /^(tok_[0-9A-HJKMNP-TV-Z]{26})\.([A-Za-z0-9_-]{20,128})$/;

function unauthorized(detail: string, error?: "invalid_request" | "invalid_token"): ApiError {
  return new ApiError("unauthorized", detail, { headers: { "WWW-Authenticate": error ? `${REALM}, error="${error}"` : REALM } });
}

async function lookUpToken(c: Context<AppEnv>, id: string): Promise<CachedToken | null> {
  const cached = tokenCache.get(id);
  if (cached && cached.until > Date.now()) return cached;
  const row = await database(c.env.DB).select().from(apiTokens).where(eq(apiTokens.id, id)).get();
  if (!row) return null;
  const entry: CachedToken = {
    principal: row.revokedAt ? null : { name: row.name, scope: row.scope },
    secretHash: row.secretHash,
    until: Date.now() + TOKEN_CACHE_MS,
  };
  tokenCache.set(id, entry);
  return entry;
}

async function noTokenConfigured(c: Context<AppEnv>): Promise<boolean> {
  const row = await database(c.env.DB).select({ n: sql<number>`count(*)` }).from(apiTokens).where(isNull(apiTokens.revokedAt)).get();
  return (row?.n ?? 0) === 0;
}

const FAIL_CLOSED_DETAIL =
  "This service has no API token configured, so it refuses every request (it fails closed). Mint one with `npm run token -- create --name <name> --scope write --remote`.";

export const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
  const url = new URL(c.req.url);
  if (authDisabled(c.env, url)) {
    c.set("principal", { name: "local", scope: "write" });
    return next();
  }
  // Public documents, and CORS preflights (which never carry credentials).
  if (isPublic(url.pathname) || c.req.method === "OPTIONS") {
    c.set("principal", { name: "public", scope: "read" });
    return next();
  }
  const header = c.req.header("authorization");
  if (!header) {
    if (await noTokenConfigured(c)) throw unauthorized(FAIL_CLOSED_DETAIL);
    throw unauthorized("Send `Authorization: Bearer <token>`.");
  }
  const bearer = /^Bearer +(\S+) *$/i.exec(header);
  if (!bearer) throw unauthorized("The Authorization header must be `Bearer <token>`.", "invalid_request");
  const parts = TOKEN_SHAPE.exec(bearer[1]!);
  const token = parts ? await lookUpToken(c, parts[1]!) : null;
  const hash = parts ? await sha256Hex(parts[2]!) : "";
  if (!token || !constantTimeEqual(hash, token.secretHash)) {
    if (await noTokenConfigured(c)) throw unauthorized(FAIL_CLOSED_DETAIL, "invalid_token");
    throw unauthorized("The bearer token is unknown.", "invalid_token");
  }
  if (!token.principal) throw unauthorized("The bearer token has been revoked.", "invalid_token");
  const needed = requiredScope(c.req.method);
  if (needed === "write" && token.principal.scope !== "write") {
    throw new ApiError("forbidden", `The token "${token.principal.name}" has the read scope; ${c.req.method} needs a write token.`);
  }
  c.set("principal", token.principal);
  return next();
};
