/** Bindings and variables the Worker receives (wrangler.toml). */
export interface Env {
  DB: D1Database;
  /** Comma-separated host names used for a new zone's apex NS when none are given. */
  DEFAULT_NAMESERVERS?: string;
  /** HMAC key for pagination cursors; set with `wrangler secret put CURSOR_SECRET`. */
  CURSOR_SECRET?: string;
}

/** Per-request values that middleware hands to handlers. */
export interface RequestVariables {
  requestId: string;
}

export interface AppEnv {
  Bindings: Env;
  Variables: RequestVariables;
}
