// Rate limiting through the Workers rate limiting binding ([[ratelimits]] in
// wrangler.toml): per token, or per client address when authentication is off; and per
// account, over all its tokens (requests_per_minute, docs/safety.md "Rate limits").
import type { Context, MiddlewareHandler } from "hono";
import type { Principal } from "../access/principal";
import type { AppEnv } from "../env";
import { configuredLimits, effectiveLimits } from "../registry/limits";
import { clientAddress, principalKey } from "./client-key";
import { ApiError } from "./problem";

/** What ACCOUNT_RATE_SHARE says when the configuration does not: the binding's limit in wrangler.toml. */
const DEFAULT_ACCOUNT_RATE_SHARE = 10;
/** Shares one request tries before it is refused (each try is one call of the binding). */
const MAX_SHARE_TRIES = 4;

function retryAfter(c: Context<AppEnv>): string {
  return c.env.RATE_LIMIT_PERIOD_SECONDS ?? "60";
}

function tooMany(c: Context<AppEnv>, detail: string, limit?: { name: string; value: number }): ApiError {
  const seconds = retryAfter(c);
  return new ApiError("rate_limited", `${detail}; retry after ${seconds} seconds.`, {
    headers: { "Retry-After": seconds },
    ...(limit ? { errors: [{ field: limit.name, message: `at most ${limit.value} requests a minute` }] } : {}),
  });
}

// Each isolate hands its requests to an account's shares in turn, from a random first one,
// so that one isolate fills them evenly and several isolates spread over them.
let nextShare = Math.floor(Math.random() * 1_000_000);

/**
 * The account's limit, requests_per_minute (the operator's override, else the configured
 * default), over all its tokens. The binding's limit is one number for every key, so an
 * account's requests are counted on ceil(limit / share) keys of `share` requests each
 * (`account:<id>:<n>`), taken in turn: the account gets its limit rounded up to a whole
 * share. A request whose share is full tries a few others before it is refused (429).
 */
async function limitAccount(c: Context<AppEnv>, principal: Principal): Promise<void> {
  const limiter = c.env.ACCOUNT_RATE_LIMITER;
  const accountId = principal.rights?.accountId;
  if (!limiter || !accountId) return;
  const limit = effectiveLimits(configuredLimits(c.env as unknown as Record<string, unknown>), principal.accountLimits ?? null).requests_per_minute;
  const named = { name: "requests_per_minute", value: limit };
  const detail = `Too many requests for this token's account (limit requests_per_minute: ${limit} a minute over all its tokens)`;
  if (limit <= 0) throw tooMany(c, detail, named);
  const configured = Number(c.env.ACCOUNT_RATE_SHARE);
  const share = Number.isInteger(configured) && configured > 0 ? configured : DEFAULT_ACCOUNT_RATE_SHARE;
  const shares = Math.ceil(limit / share);
  const first = nextShare++ % shares;
  for (let tried = 0; tried < Math.min(shares, MAX_SHARE_TRIES); tried++) {
    const { success } = await limiter.limit({ key: `account:${accountId}:${(first + tried) % shares}` });
    if (success) return;
  }
  throw tooMany(c, detail, named);
}

export const rateLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  const limiter = c.env.RATE_LIMITER;
  const principal = c.get("principal");
  // The DNS backend's token is PowerDNS, which calls on every cache miss of every resolver
  // it serves: a limit here would turn into SERVFAIL answers. Its load is bounded by
  // PowerDNS's caches; pair the token with allowed_ips (docs/serving.md). Exempt from its
  // account's limit too.
  if (principal.scope === "dns") return next();
  // Per token id; public documents and local use (no token) are counted per address.
  const key = principal.kind === "token" ? principalKey(principal, "") : `ip:${clientAddress(c)}`;
  if (limiter) {
    const { success } = await limiter.limit({ key });
    if (!success) throw tooMany(c, `Too many requests for ${key.startsWith("ip:") ? "this address" : "this token"}`);
  }
  if (principal.kind === "token") await limitAccount(c, principal);
  return next();
};
