// The DNS backend's token travels in its URL path (`/v1/pdns/<token>/…`: PowerDNS's HTTP
// connector sends no headers), so the backend is served at that one path, written as is,
// and at no other spelling of it. A path that reaches /pdns/ by another spelling (letter
// case, percent-encoding, doubled slashes) is no route, answered without echoing the path
// (which holds the token); every log that prints paths redacts all of them alike
// (scripts/lib/dns-log-filter.mjs). Dot segments (`/v1/pdns/./<token>`, `%2e`) never reach
// the Worker: the URL parser removes them (RFC 3986 §5.2.4, WHATWG URL) before a request
// is handed to it, so for the Worker they are the canonical path.

import { ApiError } from "./problem";

/** Paths of the DNS serving backend (PowerDNS remote backend); the token is the next segment. */
export const DNS_BACKEND_PREFIX = "/v1/pdns/";

/** `/v1/pdns/<token>` and then nothing, or `/` and a segment: the token as written, no escape in it. */
const CANONICAL = /^\/v1\/pdns\/([^/%]+)(?:\/(?!\/).*)?$/;

/** The path with its percent-escapes decoded (malformed ones kept), at most `rounds` times over. */
function decoded(path: string, rounds = 3): string {
  let current = path;
  for (let i = 0; i < rounds; i++) {
    const next = current.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    if (next === current) break;
    current = next;
  }
  return current;
}

/**
 * Whether a path, however written, goes to the DNS backend: decoded, in lower case, with
 * backslashes read as slashes, empty and `.` segments dropped and `..` applied, it starts
 * with `/v1/pdns/` (or is `/v1/pdns`).
 */
export function throughDnsBackend(path: string): boolean {
  const segments: string[] = [];
  for (const segment of decoded(path).toLowerCase().replaceAll("\\", "/").split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return segments[0] === "v1" && segments[1] === "pdns";
}

/**
 * How a request path (as the URL holds it: percent-escapes not decoded) stands to the DNS
 * backend: null when it does not go there; the token for the canonical path; `{ token:
 * null }` for any other spelling, which is answered 404 without naming the path.
 */
export function dnsBackendPath(path: string): { token: string } | { token: null } | null {
  if (!throughDnsBackend(path)) return null;
  const canonical = CANONICAL.exec(path);
  return { token: canonical ? canonical[1]! : null };
}

/** The 404 of another spelling of a DNS backend path: it names the canonical form, never the path. */
export function otherDnsBackendSpelling(method: string): ApiError {
  return new ApiError(
    "not_found",
    `No route matches ${method} ${DNS_BACKEND_PREFIX}…; the DNS backend is served only at ${DNS_BACKEND_PREFIX}<token>/…, written as is.`,
  );
}

/** The path as an answer or a log may show it: a DNS backend path never, whatever its spelling. */
export function shownPath(path: string): string {
  return throughDnsBackend(path) ? `${DNS_BACKEND_PREFIX}…` : path;
}
