// The credentials a request may present as its bearer (RFC 6750 §2.1), by shape, and the
// 401 that refuses one (§3). An API token is `tok_<id>.<secret>`; `npm start`'s local
// credential is `local_` and 43 base64url characters (src/http/auth.ts says who takes each).
import { ApiError } from "./problem";

const REALM = 'Bearer realm="domain-api"';

/** 401 with `WWW-Authenticate: Bearer` (RFC 6750 §3), and the error code when a credential was sent. */
export function unauthorized(detail: string, error?: "invalid_request" | "invalid_token"): ApiError {
  return new ApiError("unauthorized", detail, { headers: { "WWW-Authenticate": error ? `${REALM}, error="${error}"` : REALM } });
}

/** The service has no active API token: it refuses every non-public request and says why. */
export const FAIL_CLOSED_DETAIL =
  "This service has no API token configured, so it refuses every request (it fails closed). Mint one with `npm run token -- create --name <name> --scope write --remote`.";

/** The credential of an `Authorization: Bearer <credential>` header; undefined for no header or another scheme. */
export function bearerCredential(header: string | undefined): string | undefined {
  return /^Bearer +(\S+) *$/i.exec(header ?? "")?.[1];
}

const API_TOKEN_SHAPE = /^(tok_[0-9A-HJKMNP-TV-Z]{26})\.([A-Za-z0-9_-]{20,128})$/;

/** An API token's id and secret; null for anything not shaped as one (no lookup could match it). */
export function apiTokenParts(presented: string): { id: string; secret: string } | null {
  const parts = API_TOKEN_SHAPE.exec(presented);
  return parts ? { id: parts[1]!, secret: parts[2]! } : null;
}

/**
 * `npm start`'s local credential (`local_` and 43 base64url characters): made afresh by
 * each run and written to a file of its state directory only its user can read
 * (scripts/lib/local-server.mjs), so that `npm run token` reaches the running server
 * instead of opening its database file; the Worker gets only its SHA-256.
 */
export function isLocalCredential(presented: string): boolean {
  return /^local_[A-Za-z0-9_-]{43}$/.test(presented);
}
