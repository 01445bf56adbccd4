// Headers that make responses safe to expose to browsers and the internet, and the CORS
// policy (off unless CORS_ORIGINS names the origins allowed to call the API).
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { AppEnv } from "../env";

// JSON and master files are data, never documents: nothing in them may load or run.
const DATA_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
// The reference page loads its own script and style, and fetches /v1/openapi.json.
const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  const headers = c.res.headers;
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "no-referrer");
  headers.set("Content-Security-Policy", (headers.get("Content-Type") ?? "").startsWith("text/html") ? PAGE_CSP : DATA_CSP);
};

const EXPOSED_HEADERS = ["ETag", "Location", "Link", "Retry-After", "X-Request-Id", "X-D1-Bookmark", "Idempotent-Replayed"];
const ALLOWED_HEADERS = ["Authorization", "Content-Type", "If-Match", "If-None-Match", "Idempotency-Key", "X-D1-Bookmark", "X-Request-Id"];

/**
 * CORS_ORIGINS: empty or unset = no CORS headers at all (browsers on other origins are
 * refused by their own same-origin policy); `*` = any origin; otherwise a comma-separated
 * list of exact origins (`https://app.example.com`). Credentials are bearer tokens in a
 * header, never cookies, so `Access-Control-Allow-Credentials` is not sent.
 */
export const corsPolicy: MiddlewareHandler<AppEnv> = async (c, next) => {
  const setting = (c.env.CORS_ORIGINS ?? "").trim();
  if (setting === "") return next();
  const allowed =
    setting === "*"
      ? "*"
      : setting
          .split(",")
          .map((o) => o.trim())
          .filter(Boolean);
  return cors({
    origin: allowed === "*" ? "*" : (origin) => (allowed.includes(origin) ? origin : null),
    allowMethods: ["GET", "HEAD", "POST", "PATCH", "DELETE", "OPTIONS"],
    allowHeaders: ALLOWED_HEADERS,
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  })(c, next);
};
