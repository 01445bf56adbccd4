// Rate limiting through the Workers rate limiting binding ([[ratelimits]] in
// wrangler.toml): per token, or per client address when authentication is off.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { clientAddress, principalKey } from "./auth";
import { ApiError } from "./problem";

export const rateLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  const limiter = c.env.RATE_LIMITER;
  const principal = c.get("principal");
  // The DNS backend's token is PowerDNS, which calls on every cache miss of every resolver
  // it serves: a limit here would turn into SERVFAIL answers. Its load is bounded by
  // PowerDNS's caches; pair the token with allowed_ips (docs/serving.md).
  if (principal.scope === "dns") return next();
  // Per token id; public documents and local use (no token) are counted per address.
  const key = principal.kind === "token" ? principalKey(principal, "") : `ip:${clientAddress(c)}`;
  if (limiter) {
    const { success } = await limiter.limit({ key });
    if (!success) {
      const retryAfter = c.env.RATE_LIMIT_PERIOD_SECONDS ?? "60";
      throw new ApiError("rate_limited", `Too many requests for ${key.startsWith("ip:") ? "this address" : "this token"}; retry after ${retryAfter} seconds.`, {
        headers: { "Retry-After": retryAfter },
      });
    }
  }
  return next();
};
