// Whether customers' zones may lie under `test` (RFC 6761 §6.2: authoritative servers answer
// test names negatively "unless explicitly configured by the administrator"): on a
// loopback deployment only (src/registry/reserved-zone-names.ts, docs/accounts.md).
import type { Env } from "../env";
import { isLocalDevelopment } from "./local-development";

/**
 * True for local development (`npm start`, src/http/local-development.ts), and for a runtime that no
 * network reaches and that says it is for tests: TEST_ZONES_ALLOWED "true" (set only by
 * vitest.config.ts, whose requests go to `http://api.test` straight to the Worker's fetch)
 * on a request that no connection brought (no CF-Connecting-IP, which Cloudflare sets on
 * every request to a deployed Worker and wrangler dev on every request it serves).
 */
export function testZonesAllowed(env: Env, request: Request): boolean {
  if (isLocalDevelopment(request)) return true;
  return env.TEST_ZONES_ALLOWED === "true" && !request.headers.has("cf-connecting-ip");
}
