// Who a request is from, as the limits and records kept per caller key it: the client's
// address, and the principal's key (src/http/rate-limit.ts, src/http/idempotency.ts, the
// failure budget of authentication).
import type { Context } from "hono";
import type { Principal } from "../access/principal";
import type { AppEnv } from "../env";

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
