import type { Database } from "./db/client";

/** Bindings and variables the Worker receives (wrangler.toml). */
export interface Env {
  DB: D1Database;
  /** Comma-separated host names used for a new zone's apex NS when none are given. */
  DEFAULT_NAMESERVERS?: string;
  /** HMAC key for pagination cursors; set with `wrangler secret put CURSOR_SECRET`. */
  CURSOR_SECRET?: string;
  /** "true" switches authentication off for requests to a loopback host (npm start). */
  AUTH_DISABLED?: string;
  /** Origins allowed by CORS: empty = CORS off, `*`, or a comma-separated list. */
  CORS_ORIGINS?: string;
  /** The Workers rate limiting binding ([[ratelimits]] in wrangler.toml). */
  RATE_LIMITER?: RateLimit;
  /** The limiter's period, sent back as Retry-After (keep equal to `simple.period`). */
  RATE_LIMIT_PERIOD_SECONDS?: string;
}

/** Who is making the request: the bearer token's name and scope. */
export interface Principal {
  /** The token's name, or "local" when authentication is switched off for local use. */
  name: string;
  scope: "read" | "write";
}

/** Per-request values that middleware hands to handlers. */
export interface RequestVariables {
  /** The request's database: drizzle over its D1 session (src/http/d1-session.ts). */
  db: Database;
  requestId: string;
  /** Set by the authentication middleware before any resource handler runs. */
  principal: Principal;
}

export interface AppEnv {
  Bindings: Env;
  Variables: RequestVariables;
}
