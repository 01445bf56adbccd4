// Bearer-token authentication (RFC 6750). Tokens are `tok_<id>.<secret>`; only SHA-256 of
// the secret is stored and the comparison runs in constant time. Scopes: `read` for
// GET/HEAD, `write` for everything, `dns` for the DNS serving backend under /v1/pdns only
// (its token travels in the path: PowerDNS's HTTP connector sends no headers).
//
// What a bad token costs: every token the isolate has not verified in the last
// TOKEN_CACHE_MS costs exactly one D1 read, whether its id is unknown or its secret wrong
// (the same query, the same hash, the same comparison: no timing oracle). Failures spend
// a budget per client address (AUTH_RATE_LIMITER); past it, tokens this isolate has never
// verified are refused before they reach D1, while valid ones are never limited by it
// (below). The service fails closed: with no token configured it refuses every non-public
// request and says why.
import type { Context, MiddlewareHandler } from "hono";
import { OPERATOR_ACCOUNT_ID } from "../db/schema";
import type { Principal } from "../access/principal";
import type { AppEnv, Env } from "../env";
import { dnsBackendPath, otherDnsBackendSpelling } from "./dns-backend-path";
import { ApiError } from "./problem";
import { addressAllowed, type RecordRule, type TokenRights } from "../access/token-rights";

const REALM = 'Bearer realm="domain-api"';
/** How long an isolate trusts a token it has checked: revocation takes effect within this. */
export const TOKEN_CACHE_MS = 10_000;

/** Public documents: the index, the API description and reference page, problem types. */
export function isPublic(path: string): boolean {
  return path === "/" || path === "/v1" || path === "/v1/" || path === "/v1/openapi.json" || path.startsWith("/v1/docs") || path.startsWith("/v1/problems");
}

// The exact host names `npm start` prints and serves (scripts/start.mjs binds 127.0.0.1).
// The Host header is compared as sent, not as the URL parser reads it: WHATWG URL turns
// `127.1`, `2130706433` and `LOCALHOST` into loopback names too.
const LOCAL_HOST_HEADER = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?$/;
const LOOPBACK_ADDRESSES = new Set(["127.0.0.1", "::1"]);

/**
 * A request made on this machine to `npm start`: the Host is one of the names it serves
 * AND the connection came from a loopback address. The connection's address is what the
 * runtime tells: `CF-Connecting-IP`, which Cloudflare sets on every request to a deployed
 * Worker (a client cannot forge it there) and wrangler dev sets from its socket — so a
 * deployed Worker never qualifies, even behind a proxy that forwards `Host: 127.0.0.1`.
 */
export function isLocalDevelopment(request: Request): boolean {
  const host = request.headers.get("host") ?? new URL(request.url).host;
  if (!LOCAL_HOST_HEADER.test(host)) return false;
  const address = request.headers.get("cf-connecting-ip");
  return address === null || LOOPBACK_ADDRESSES.has(address);
}

/**
 * Auth is off only when AUTH_DISABLED is "true" AND the request is local development
 * (above): the setting is for `npm start` (wrangler dev --var AUTH_DISABLED:true) and does
 * nothing on a deployed Worker.
 */
export function authDisabled(env: Env, request: Request): boolean {
  return env.AUTH_DISABLED === "true" && isLocalDevelopment(request);
}

/**
 * The sweep may run at a time the request names (`as_of`) only when CLOCK_OVERRIDE is
 * "true" AND the request is local development, exactly as AUTH_DISABLED is obeyed: the
 * setting is for `npm start` and does nothing on a deployed Worker.
 */
export function clockOverridable(env: Env, request: Request): boolean {
  return env.CLOCK_OVERRIDE === "true" && isLocalDevelopment(request);
}

/** The client's address for per-address limits. */
export function clientAddress(c: Context<AppEnv>): string {
  return c.req.header("cf-connecting-ip") ?? "unknown";
}

/** The key a principal's rate limits and idempotency keys are kept under: never a name a user chose. */
export function principalKey(principal: Principal, address: string): string {
  switch (principal.kind) {
    case "token":
      return `token:${principal.tokenId}`;
    case "local":
      return "local";
    case "public":
      return `ip:${address}`;
  }
}

const encoder = new TextEncoder();

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function sha256Hex(text: string): Promise<string> {
  return hex(await sha256(text));
}

function fromHex(text: string): Uint8Array {
  const bytes = new Uint8Array(32);
  if (!/^[0-9a-f]{64}$/.test(text)) return bytes;
  for (let i = 0; i < 32; i++) bytes[i] = Number.parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

// Compared with an unknown id, so that it takes the same path as a known one.
const NO_SUCH_HASH = new Uint8Array(32);

interface TokenRow {
  id: string | null;
  name: string | null;
  scope: Principal["scope"] | null;
  secret_hash: string | null;
  revoked_at: string | null;
  expires_at: string | null;
  account_id: string | null;
  zones: string | null;
  domains: string | null;
  records: string | null;
  allowed_ips: string | null;
  last_used_at: string | null;
  role: "operator" | "customer" | null;
  account_status: "active" | "suspended" | null;
  account_limits: string | null;
  any_active: number;
}

/**
 * A verified token (its secret matched), as the isolate remembers it for TOKEN_CACHE_MS:
 * revocation, expiry and suspension are decided from this copy.
 */
interface VerifiedToken {
  principal: Principal;
  revoked: boolean;
  expiresAt: string | null;
  suspended: boolean;
  until: number;
}
// Keyed by SHA-256 of the whole presented token, so only a token whose secret matched is
// ever answered from memory; a wrong secret for a known id costs what an unknown id costs.
const verifiedTokens = new Map<string, VerifiedToken>();
const MAX_CACHED_TOKENS = 10_000;

const TOKEN_SHAPE = /^(tok_[0-9A-HJKMNP-TV-Z]{26})\.([A-Za-z0-9_-]{20,128})$/;

function unauthorized(detail: string, error?: "invalid_request" | "invalid_token"): ApiError {
  return new ApiError("unauthorized", detail, { headers: { "WWW-Authenticate": error ? `${REALM}, error="${error}"` : REALM } });
}

const FAIL_CLOSED_DETAIL =
  "This service has no API token configured, so it refuses every request (it fails closed). Mint one with `npm run token -- create --name <name> --scope write --remote`.";

// The failure budget (AUTH_RATE_LIMITER, per client address) is spent by failures only: a
// missing, unknown or wrong token. A valid token never spends it, and one this isolate has
// verified before is re-checked against D1 whatever the budget says, so bad tokens from an
// address (a shared NAT, an attacker beside a customer) never lock valid tokens out of it.
// An address past its budget is remembered here until its period ends: a token this
// isolate has never verified, or none, from it is refused before D1 is asked.
const overBudgetUntil = new Map<string, number>();
const MAX_REMEMBERED_ADDRESSES = 10_000;

function retryAfterSeconds(c: Context<AppEnv>): string {
  return c.env.RATE_LIMIT_PERIOD_SECONDS ?? "60";
}

function overBudget(c: Context<AppEnv>): ApiError {
  const retryAfter = retryAfterSeconds(c);
  return new ApiError(
    "rate_limited",
    `Too many requests with unknown, wrong or missing tokens from this address; retry after ${retryAfter} seconds with a valid token.`,
    { headers: { "Retry-After": retryAfter } },
  );
}

/** Before an unverified lookup: an address past its failure budget gets 429 without a D1 read. */
function refuseOverBudget(c: Context<AppEnv>): void {
  const until = overBudgetUntil.get(clientAddress(c));
  if (until === undefined) return;
  if (until > Date.now()) throw overBudget(c);
  overBudgetUntil.delete(clientAddress(c));
}

/** After a failure: it spends one of the address's failures; past the budget, 429 (and remembered). */
async function spendFailure(c: Context<AppEnv>, failure: ApiError): Promise<ApiError> {
  const limiter = c.env.AUTH_RATE_LIMITER;
  if (!limiter) return failure;
  const { success } = await limiter.limit({ key: `auth:${clientAddress(c)}` });
  if (success) return failure;
  if (overBudgetUntil.size >= MAX_REMEMBERED_ADDRESSES) overBudgetUntil.clear();
  overBudgetUntil.set(clientAddress(c), Date.now() + Number(retryAfterSeconds(c)) * 1000);
  return overBudget(c);
}

/**
 * One D1 read: the token's row with its account (if any), and whether any active token
 * exists (to fail closed).
 */
async function readToken(env: Env, id: string | null): Promise<TokenRow> {
  const row = await env.DB.prepare(
    `select t.id, t.name, t.scope, t.secret_hash, t.revoked_at, t.expires_at, t.account_id, t.zones, t.domains,
            t.records, t.allowed_ips, t.last_used_at, a.role, a.status as account_status, a.limits as account_limits,
            exists (select 1 from api_tokens x where x.revoked_at is null) as any_active
       from (select 1) left join api_tokens t on t.id = ?1 left join accounts a on a.id = t.account_id`,
  )
    .bind(id ?? "")
    .first<TokenRow>();
  return (
    row ?? {
      id: null,
      name: null,
      scope: null,
      secret_hash: null,
      revoked_at: null,
      expires_at: null,
      account_id: null,
      zones: null,
      domains: null,
      records: null,
      allowed_ips: null,
      last_used_at: null,
      role: null,
      account_status: null,
      account_limits: null,
      any_active: 0,
    }
  );
}

function jsonList<T>(text: string | null): T[] | null {
  if (text === null) return null;
  const value = JSON.parse(text) as unknown;
  return Array.isArray(value) ? (value as T[]) : null;
}

/** The operator's overrides of the account's limits (a JSON object), as the token's row read them. */
function accountLimitsOf(row: TokenRow): Partial<Record<string, number>> | null {
  if (row.account_limits === null) return null;
  const value = JSON.parse(row.account_limits) as unknown;
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Partial<Record<string, number>>) : null;
}

function rightsOf(row: TokenRow): TokenRights {
  return {
    scope: row.scope!,
    accountId: row.account_id ?? OPERATOR_ACCOUNT_ID,
    role: row.role ?? "customer",
    zones: jsonList<string>(row.zones),
    domains: jsonList<string>(row.domains),
    records: jsonList<RecordRule>(row.records),
    allowedIps: jsonList<string>(row.allowed_ips),
    expiresAt: row.expires_at,
  };
}

/** last_used_at is written at most this often per token and isolate, after the answer. */
const LAST_USED_EVERY_MS = 60_000;
const lastUsedWritten = new Map<string, number>();

function noteUse(c: Context<AppEnv>, tokenId: string): void {
  const now = Date.now();
  if ((lastUsedWritten.get(tokenId) ?? 0) > now - LAST_USED_EVERY_MS) return;
  if (lastUsedWritten.size >= MAX_CACHED_TOKENS) lastUsedWritten.clear();
  lastUsedWritten.set(tokenId, now);
  const write = c.env.DB.prepare("update api_tokens set last_used_at = ?1 where id = ?2")
    .bind(new Date(now).toISOString(), tokenId)
    .run()
    .catch(() => undefined);
  try {
    c.executionCtx.waitUntil(write);
  } catch {
    // No execution context (a direct call in a test): the write runs on its own.
  }
}

/** A verified token's standing now: revoked and expired tokens are unknown (401), a suspended account is 403. */
function admit(c: Context<AppEnv>, token: VerifiedToken): Principal {
  if (token.revoked) throw unauthorized("The bearer token has been revoked.", "invalid_token");
  if (token.expiresAt !== null && token.expiresAt <= new Date().toISOString()) throw unauthorized("The bearer token is unknown.", "invalid_token");
  if (token.suspended) throw new ApiError("forbidden", "The token's account is suspended; its data is kept, but no token of it may be used.");
  const rights = token.principal.rights!;
  if (!addressAllowed(rights.allowedIps, c.req.header("cf-connecting-ip") ?? null)) {
    throw new ApiError(
      "forbidden",
      `This token may be used only from ${rights.allowedIps!.join(", ")}; this request came from ${c.req.header("cf-connecting-ip") ?? "an unknown address"}.`,
    );
  }
  if (token.principal.tokenId) noteUse(c, token.principal.tokenId);
  return token.principal;
}

/**
 * Checks a presented token (`tok_<id>.<secret>`) and returns who it is. Throws 401 for an
 * unknown, wrong, revoked or malformed token (and 429 when the address has spent its
 * unverified lookups).
 */
export async function verifyToken(c: Context<AppEnv>, presented: string, options: { dnsBackend?: boolean } = {}): Promise<Principal> {
  const parts = TOKEN_SHAPE.exec(presented);
  // Not even the shape of a token: no lookup can match it, so none is made.
  if (!parts) throw unauthorized("The bearer token is unknown.", "invalid_token");
  const cacheKey = hex(await sha256(presented));
  const cached = verifiedTokens.get(cacheKey);
  if (cached && cached.until > Date.now()) return admit(c, cached);
  // A token verified here before (its re-check is due) and the DNS backend's are asked of D1
  // whatever the address's budget: the budget is for failures.
  if (!cached && !options.dnsBackend) refuseOverBudget(c);
  const row = await readToken(c.env, parts[1]!);
  const presentedHash = await sha256(parts[2]!);
  const storedHash = row.secret_hash ? fromHex(row.secret_hash) : NO_SUCH_HASH;
  const matches = crypto.subtle.timingSafeEqual(presentedHash, storedHash) && row.id !== null;
  if (!matches) {
    if (cached) verifiedTokens.delete(cacheKey);
    if (!row.any_active) throw await spendFailure(c, unauthorized(FAIL_CLOSED_DETAIL, "invalid_token"));
    throw await spendFailure(c, unauthorized("The bearer token is unknown.", "invalid_token"));
  }
  const rights = rightsOf(row);
  const verified: VerifiedToken = {
    principal: { kind: "token", tokenId: row.id!, name: row.name!, scope: row.scope!, rights, accountLimits: accountLimitsOf(row) },
    revoked: row.revoked_at !== null,
    expiresAt: row.expires_at,
    suspended: row.account_status === "suspended",
    until: Date.now() + TOKEN_CACHE_MS,
  };
  if (verifiedTokens.size >= MAX_CACHED_TOKENS) verifiedTokens.clear();
  verifiedTokens.set(cacheKey, verified);
  return admit(c, verified);
}

/**
 * A request without credentials: 401, saying whether the service has any token at all
 * (one D1 read, limited per address like every unverified lookup).
 */
async function missingCredentials(c: Context<AppEnv>): Promise<ApiError> {
  refuseOverBudget(c);
  const row = await readToken(c.env, null);
  return spendFailure(c, row.any_active ? unauthorized("Send `Authorization: Bearer <token>`.") : unauthorized(FAIL_CLOSED_DETAIL));
}

/** Local development (authentication off) acts as the operator account, unrestricted (docs/accounts.md). */
export const LOCAL_PRINCIPAL: Principal = {
  kind: "local",
  tokenId: null,
  name: "local",
  scope: "write",
  rights: {
    scope: "write",
    accountId: OPERATOR_ACCOUNT_ID,
    role: "operator",
    zones: null,
    domains: null,
    records: null,
    allowedIps: null,
    expiresAt: null,
  },
};
/** The route the registry gateway hands poll messages to (POST; docs/registries.md). */
export const REGISTRY_MESSAGES_PATH = "/v1/registry-messages";

/**
 * The registry gateway, presenting REGISTRY_GATEWAY_SECRET (the secret the Worker sends it
 * as its own bearer token): the operator's rights on the registry-messages route alone.
 */
export const REGISTRY_GATEWAY_PRINCIPAL: Principal = { ...LOCAL_PRINCIPAL, name: "registry-gateway" };

/** Whether the presented bearer is the gateway's secret (compared by SHA-256, in constant time; a secret under 32 characters is never one). */
async function gatewaySecretMatches(env: Env, presented: string): Promise<boolean> {
  const secret = env.REGISTRY_GATEWAY_SECRET ?? "";
  const expected = secret.length >= 32 ? await sha256(secret) : NO_SUCH_HASH;
  return crypto.subtle.timingSafeEqual(await sha256(presented), expected) && secret.length >= 32;
}

const PUBLIC_PRINCIPAL: Principal = { kind: "public", tokenId: null, name: "public", scope: "read", rights: null };

/**
 * `npm start`'s local credential (`local_` and 43 base64url characters): made afresh by
 * each run and written to a file of its state directory only its user can read
 * (scripts/lib/local-server.mjs), so that `npm run token` reaches the running server
 * instead of opening its database file; the Worker gets only its SHA-256.
 */
const LOCAL_CREDENTIAL_SHAPE = /^local_[A-Za-z0-9_-]{43}$/;

/**
 * A presented local credential is the local principal's when it is this run's (its hash is
 * LOCAL_CREDENTIAL_SHA256) and the request is local development, as AUTH_DISABLED is
 * honoured: a deployed Worker never takes one. Checked before AUTH_DISABLED, so that a
 * server of another state directory, authentication off or not, answers it 401 and the
 * tool knows the server is not its own.
 */
async function localCredential(c: Context<AppEnv>, presented: string): Promise<Principal> {
  const expected = c.env.LOCAL_CREDENTIAL_SHA256;
  const honoured = typeof expected === "string" && /^[0-9a-f]{64}$/.test(expected) && isLocalDevelopment(c.req.raw);
  const matches = crypto.subtle.timingSafeEqual(await sha256(presented), honoured ? fromHex(expected ?? "") : NO_SUCH_HASH) && honoured;
  if (!matches) throw await spendFailure(c, unauthorized("The bearer token is unknown.", "invalid_token"));
  return LOCAL_PRINCIPAL;
}

export const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
  const path = c.req.path;
  const backend = dnsBackendPath(new URL(c.req.url).pathname);
  if (backend) {
    // Only /v1/pdns/<token>/… as written is served (src/http/dns-backend-path.ts); only scope `dns` passes.
    if (backend.token === null) throw otherDnsBackendSpelling(c.req.method);
    const principal = await verifyToken(c, backend.token, { dnsBackend: true });
    if (principal.scope !== "dns") throw unauthorized("The DNS backend needs a token of scope dns.", "invalid_token");
    c.set("principal", principal);
    return next();
  }
  const presented = /^Bearer +(\S+) *$/i.exec(c.req.header("authorization") ?? "")?.[1];
  if (presented !== undefined && LOCAL_CREDENTIAL_SHAPE.test(presented)) {
    c.set("principal", await localCredential(c, presented));
    return next();
  }
  // The registry gateway hands the registries' poll messages over under the secret the Worker
  // sends it (docs/registries.md): on that one route only; anywhere else it is no token.
  if (presented !== undefined && path === REGISTRY_MESSAGES_PATH && (await gatewaySecretMatches(c.env, presented))) {
    c.set("principal", REGISTRY_GATEWAY_PRINCIPAL);
    return next();
  }
  if (authDisabled(c.env, c.req.raw)) {
    c.set("principal", LOCAL_PRINCIPAL);
    return next();
  }
  // Public documents, and CORS preflights (which never carry credentials).
  if (isPublic(path) || c.req.method === "OPTIONS") {
    c.set("principal", PUBLIC_PRINCIPAL);
    return next();
  }
  const header = c.req.header("authorization");
  if (!header) throw await missingCredentials(c);
  const bearer = /^Bearer +(\S+) *$/i.exec(header);
  if (!bearer) throw unauthorized("The Authorization header must be `Bearer <token>`.", "invalid_request");
  // What the token may do on this route is the route's own declaration (src/access/route-access.ts),
  // decided by defineRoute before the route reads anything.
  const principal = await verifyToken(c, bearer[1]!);
  c.set("principal", principal);
  return next();
};
