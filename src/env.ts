import type { Principal } from "./access/principal";
import type { Database } from "./db/client";

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
  /**
   * The registry connectors, JSON keyed by repository id (docs/registries.md): the gateway's
   * secret, of which the Worker reads only which repositories have one; set with
   * `wrangler secret put REGISTRY_CONNECTORS`.
   */
  REGISTRY_CONNECTORS?: string;
  /** The bearer secret the registry gateway takes (REGISTRY_GATEWAY_URL); set with `wrangler secret put REGISTRY_GATEWAY_SECRET`. */
  REGISTRY_GATEWAY_SECRET?: string;
  /** The DNS-over-HTTPS resolver (JSON API) that webhook host names are checked with; default Cloudflare's. */
  WEBHOOK_DNS_RESOLVER?: string;
  /**
   * Where the DNSSEC run's lookup of a parent not managed here starts (docs/dnssec-rollovers.md
   * "The parent"): comma-separated `a.b.c.d`, `a.b.c.d:port`, `[v6]` or `[v6]:port` (port 53
   * when absent); the IANA root servers' IPv4 addresses unless set.
   */
  DNSSEC_ROOT_SERVERS?: string;
  /** The queries one DNSSEC run's lookups of parents make together (each a connection, so a subrequest): 1 to 9 000, 40 unless set. */
  DNSSEC_PARENT_QUERIES_PER_RUN?: string;
  /** "true" switches authentication off for requests to a loopback host (npm start). */
  AUTH_DISABLED?: string;
  /** SHA-256 (hex) of `npm start`'s local credential, which `npm run token` presents over loopback (src/http/auth.ts, src/http/credentials.ts); npm start passes it. */
  LOCAL_CREDENTIAL_SHA256?: string;
  /** "true" lets POST /v1/lifecycle/sweep and POST /v1/webhooks/dispatch act at the body's `as_of`, for requests to a loopback host (npm start). */
  CLOCK_OVERRIDE?: string;
  /** "true" lets customers create zones under `test`, in a runtime no network reaches (vitest.config.ts); see src/http/test-zones.ts. */
  TEST_ZONES_ALLOWED?: string;
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
  /**
   * The idempotency key this request claimed (src/http/idempotency.ts): its row id, so that
   * a write can record its answer in the same batch as the change.
   */
  idempotencyKeyId?: string;
}

export interface AppEnv {
  Bindings: Env;
  Variables: RequestVariables;
}
