// Account limits, pure: what one account may hold (docs/safety.md, "Quotas"). One
// service and one D1 database serve every customer, so each account's share is bounded: a create, import,
// transfer-in, change batch or DNS UPDATE that would take an account past a limit is
// refused (422 quota_exceeded) and writes nothing. Pure: the limits an account has, from
// the configured defaults and the operator's overrides.

export const QUOTA_KINDS = ["zones", "records", "domains", "contacts", "hosts", "tokens", "tsig_keys", "webhooks"] as const;
export type QuotaKind = (typeof QUOTA_KINDS)[number];
/** Every limit an account has: what it may hold, and how many requests a minute its tokens may make together. */
export const LIMIT_NAMES = [...QUOTA_KINDS, "requests_per_minute"] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];
export type Limits = Record<LimitName, number>;
export type Usage = Record<QuotaKind, number>;

/** The defaults when the configuration says nothing (wrangler.toml's LIMIT_* variables). */
export const BUILT_IN_LIMITS: Limits = {
  zones: 1_000,
  records: 250_000,
  domains: 10_000,
  contacts: 10_000,
  hosts: 10_000,
  tokens: 1_000,
  tsig_keys: 100,
  webhooks: 20,
  requests_per_minute: 1_200,
};

/** The largest limit an operator may set: beyond it a count could not be exceeded anyway. */
export const MAX_LIMIT = 1_000_000_000;

/** The configuration variable of each limit: `LIMIT_ZONES`, `LIMIT_TSIG_KEYS`, … */
export function limitVariable(name: LimitName): string {
  return `LIMIT_${name.toUpperCase()}`;
}

/** The configured defaults: each LIMIT_* variable that is a whole number ≥ 0, else the built-in one. */
export function configuredLimits(vars: Record<string, unknown>): Limits {
  const limits = { ...BUILT_IN_LIMITS };
  for (const name of LIMIT_NAMES) {
    const text = vars[limitVariable(name)];
    if (typeof text === "string" && /^\d{1,10}$/.test(text) && Number(text) <= MAX_LIMIT) limits[name] = Number(text);
  }
  return limits;
}

/** An account's limits: the defaults with its overrides on top. */
export function effectiveLimits(defaults: Limits, overrides: Partial<Record<string, number>> | null): Limits {
  const limits = { ...defaults };
  for (const name of LIMIT_NAMES) {
    const value = overrides?.[name];
    if (typeof value === "number") limits[name] = value;
  }
  return limits;
}

/** What the quota error says: the limit, its value and the usage. */
export function quotaExceededMessage(kind: QuotaKind, limit: number, usage: number): string {
  return `the account may hold at most ${limit} ${kind.replace("_", " ")} (limit ${kind}), and holds ${usage}; delete some, or ask the operator for a higher limit`;
}

/** What the quota error says to a caller whose write would have filled another account (a transfer's approval). */
export function quotaExceededElsewhereMessage(kind: QuotaKind): string {
  return `the account that would hold the ${kind.replace("_", " ")} has reached its limit (limit ${kind}); nothing was written`;
}
