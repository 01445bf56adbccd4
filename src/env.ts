import type { Database } from "./db/client";
import type { SetAsideFields } from "./http/json-body";
import type { TokenRights } from "./access/token-rights";

/**
 * Bindings and variables the Worker receives. Those wrangler.toml declares (DB, the rate
 * limiters, DEFAULT_NAMESERVERS, CORS_ORIGINS, RATE_LIMIT_PERIOD_SECONDS) come from
 * worker-configuration.d.ts, which `npm run types` generates from it (`wrangler types`;
 * repo-check fails when it is stale). Added here: the secrets, which wrangler.toml cannot
 * hold, and the switches only `npm start` passes (`--var`).
 */
export interface Env extends Cloudflare.Env {
  /** HMAC key for pagination cursors; set with `wrangler secret put CURSOR_SECRET`. */
  CURSOR_SECRET?: string;
  /** Seals zones' private DNSSEC keys (AES-256-GCM); set with `wrangler secret put DNSSEC_KEY_SECRET`. */
  DNSSEC_KEY_SECRET?: string;
  /** Seals webhooks' signing secrets (AES-256-GCM); set with `wrangler secret put WEBHOOK_SECRET_KEY`. */
  WEBHOOK_SECRET_KEY?: string;
  /** The DNS-over-HTTPS resolver (JSON API) that webhook host names are checked with; default Cloudflare's. */
  WEBHOOK_DNS_RESOLVER?: string;
  /** "true" switches authentication off for requests to a loopback host (npm start). */
  AUTH_DISABLED?: string;
  /** "true" lets POST /v1/lifecycle/sweep and POST /v1/webhooks/dispatch act at the body's `as_of`, for requests to a loopback host (npm start). */
  CLOCK_OVERRIDE?: string;
}

/**
 * Who is making the request. A token is identified by its id, never by its name (a name
 * is the user's choice and could be "public" or "local"): rate limits, idempotency keys
 * and the audit trail key on `tokenId`.
 */
export interface Principal {
  /** `token`: a bearer token; `local`: authentication off (npm start); `public`: no token, public documents. */
  kind: "token" | "local" | "public";
  /** The token's id (`tok_…`); null for `local` and `public`. */
  tokenId: string | null;
  /** The token's name, for messages only. */
  name: string;
  scope: "read" | "write" | "dns";
  /**
   * What the principal may see and do: its account, role and restrictions (docs/accounts.md).
   * Local development acts as the operator account, unrestricted; `public` has none.
   */
  rights: TokenRights | null;
  /**
   * A token's account's limits as the operator overrode them (accounts.limits), read with
   * the token: its requests_per_minute is enforced per request (src/http/rate-limit.ts).
   */
  accountLimits?: Partial<Record<string, number>> | null;
}

/** Per-request values that middleware hands to handlers. */
export interface RequestVariables {
  /** The request's database: drizzle over its D1 session, as the caller may see it (src/http/d1-session.ts). */
  db: Database;
  /** The request's D1 session itself (src/http/d1-session.ts). */
  d1?: D1DatabaseSession;
  /**
   * The same session seeing every account: only for what must look across accounts — a
   * name another account holds (409), a name server host another account sponsors.
   */
  dbAllAccounts?: Database;
  requestId: string;
  /** Set by the authentication middleware before any resource handler runs. */
  principal: Principal;
  /** The request body, read once within its size limit by operations that take one (src/http/body.ts). */
  requestBody?: Uint8Array;
  /** Unknown and read-only body fields, reported together with the validator's findings (src/http/json-body.ts). */
  setAsideFields?: SetAsideFields;
  /**
   * The idempotency key this request claimed (src/http/idempotency.ts): its row id, so that
   * a write can record its answer in the same batch as the change.
   */
  idempotencyKeyId?: string;
  /** The account a write's quota guards hold to (src/http/quotas.ts), for the 422 if one fires. */
  quotaAccount?: string;
}

export interface AppEnv {
  Bindings: Env;
  Variables: RequestVariables;
}
