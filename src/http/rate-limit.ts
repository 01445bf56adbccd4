// Rate limiting through the Workers rate limiting binding ([[ratelimits]] in
// wrangler.toml): per token, or per client address when authentication is off.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "./problem";

export const rateLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  const limiter = c.env.RATE_LIMITER;
  const principal = c.get("principal");
  // Public documents are served without a token, so they are counted per address too.
  const key =
    principal.name === "local" || principal.name === "public"
      ? `ip:${c.req.header("cf-connecting-ip") ?? c.req.header("x-real-ip") ?? "local"}`
      : `token:${principal.name}`;
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
