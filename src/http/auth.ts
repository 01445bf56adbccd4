// Bearer-token authentication (RFC 6750): the middleware that decides who a request is
// from. Tokens are `tok_<id>.<secret>` (src/http/credentials.ts); only SHA-256 of the
// secret is stored (src/crypto/sha256.ts) and the comparison runs in constant time.
// Scopes: `read` for GET/HEAD, `write` for everything, `dns` for the DNS serving backend
// under /v1/pdns only (its token travels in the path: PowerDNS's HTTP connector sends no
// headers).
//
// What a bad token costs: every token the isolate has not verified in the last
// TOKEN_CACHE_MS (src/http/token-cache.ts) costs exactly one D1 read
// (src/db/api-tokens.ts), whether its id is unknown or its secret wrong (the same query,
// the same hash, the same comparison: no timing oracle). Failures spend a budget per
// client address (src/http/auth-failure-budget.ts); past it, tokens this isolate has never
// verified are refused before they reach D1, while valid ones are never limited by it.
// The service fails closed: with no token configured it refuses every non-public request
// and says why. Local development (src/http/local-development.ts) may switch it off.
import type { Context, MiddlewareHandler } from "hono";
import type { Principal } from "../access/principal";
import { addressAllowed, type RecordRule, type TokenRights } from "../access/token-rights";
import { digestOctets, NO_SUCH_DIGEST, sha256, sha256Hex } from "../crypto/sha256";
import { readTokenWithAccount, type TokenWithAccount, writeTokenLastUsed } from "../db/api-tokens";
import { OPERATOR_ACCOUNT_ID } from "../db/schema";
import type { AppEnv, Env } from "../env";
import { refuseOverBudget, spendFailure } from "./auth-failure-budget";
import { apiTokenParts, bearerCredential, FAIL_CLOSED_DETAIL, isLocalCredential, unauthorized } from "./credentials";
import { dnsBackendPath, otherDnsBackendSpelling } from "./dns-backend-path";
import { authDisabled, isLocalDevelopment } from "./local-development";
import { ApiError } from "./problem";
import { forgetToken, lastUseDue, rememberedToken, rememberToken, TOKEN_CACHE_MS, type VerifiedToken } from "./token-cache";

/** Public documents: the index, the API description and reference page, problem types. */
export function isPublic(path: string): boolean {
  return path === "/" || path === "/v1" || path === "/v1/" || path === "/v1/openapi.json" || path.startsWith("/v1/docs") || path.startsWith("/v1/problems");
}

function jsonList<T>(text: string | null): T[] | null {
  if (text === null) return null;
  const value = JSON.parse(text) as unknown;
  return Array.isArray(value) ? (value as T[]) : null;
}

/** The operator's overrides of the account's limits (a JSON object), as the token's row read them. */
function accountLimitsOf(row: TokenWithAccount): Partial<Record<string, number>> | null {
  if (row.account_limits === null) return null;
  const value = JSON.parse(row.account_limits) as unknown;
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Partial<Record<string, number>>) : null;
}

function rightsOf(row: TokenWithAccount): TokenRights {
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

/** Notes the token's use (last_used_at), at most once a minute per token and isolate, after the answer. */
function noteUse(c: Context<AppEnv>, tokenId: string): void {
  const now = Date.now();
  if (!lastUseDue(tokenId, now)) return;
  const write = writeTokenLastUsed(c.env.DB, tokenId, new Date(now));
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
  const parts = apiTokenParts(presented);
  // Not even the shape of a token: no lookup can match it, so none is made.
  if (!parts) throw unauthorized("The bearer token is unknown.", "invalid_token");
  const cacheKey = await sha256Hex(presented);
  const cached = rememberedToken(cacheKey);
  if (cached && cached.until > Date.now()) return admit(c, cached);
  // A token verified here before (its re-check is due) and the DNS backend's are asked of D1
  // whatever the address's budget: the budget is for failures.
  if (!cached && !options.dnsBackend) refuseOverBudget(c);
  const row = await readTokenWithAccount(c.env.DB, parts.id);
  const presentedHash = await sha256(parts.secret);
  const storedHash = row.secret_hash ? digestOctets(row.secret_hash) : NO_SUCH_DIGEST;
  const matches = crypto.subtle.timingSafeEqual(presentedHash, storedHash) && row.id !== null;
  if (!matches) {
    if (cached) forgetToken(cacheKey);
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
  rememberToken(cacheKey, verified);
  return admit(c, verified);
}

/**
 * A request without credentials: 401, saying whether the service has any token at all
 * (one D1 read, limited per address like every unverified lookup).
 */
async function missingCredentials(c: Context<AppEnv>): Promise<ApiError> {
  refuseOverBudget(c);
  const row = await readTokenWithAccount(c.env.DB, null);
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
  const expected = secret.length >= 32 ? await sha256(secret) : NO_SUCH_DIGEST;
  return crypto.subtle.timingSafeEqual(await sha256(presented), expected) && secret.length >= 32;
}

const PUBLIC_PRINCIPAL: Principal = { kind: "public", tokenId: null, name: "public", scope: "read", rights: null };

/**
 * A presented local credential (src/http/credentials.ts) is the local principal's when it
 * is this run's (its hash is LOCAL_CREDENTIAL_SHA256) and the request is local
 * development, as AUTH_DISABLED is honoured: a deployed Worker never takes one. Checked
 * before AUTH_DISABLED, so that a server of another state directory, authentication off or
 * not, answers it 401 and the tool knows the server is not its own.
 */
async function localCredential(c: Context<AppEnv>, presented: string): Promise<Principal> {
  const expected = c.env.LOCAL_CREDENTIAL_SHA256;
  const honoured = typeof expected === "string" && /^[0-9a-f]{64}$/.test(expected) && isLocalDevelopment(c.req.raw);
  const matches = crypto.subtle.timingSafeEqual(await sha256(presented), honoured ? digestOctets(expected ?? "") : NO_SUCH_DIGEST) && honoured;
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
  const header = c.req.header("authorization");
  const presented = bearerCredential(header);
  if (presented !== undefined && isLocalCredential(presented)) {
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
  if (!header) throw await missingCredentials(c);
  if (presented === undefined) throw unauthorized("The Authorization header must be `Bearer <token>`.", "invalid_request");
  // What the token may do on this route is the route's own declaration (src/access/route-access.ts),
  // decided by defineRoute before the route reads anything.
  const principal = await verifyToken(c, presented);
  c.set("principal", principal);
  return next();
};
