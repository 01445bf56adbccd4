// A domain's authorisation information (RFC 5731 §2.6): the password a registrant gives
// to the gaining registrar. RFC 5731 leaves its strength and the handling of wrong
// guesses to the server; these are this registry's rules (docs/safety.md § Transfers).
// Pure functions: every rule that depends on time takes the time.

/** Length bounds of a user-set auth_info; generated ones are 20 characters. */
export const AUTH_INFO_MIN_LENGTH = 12;
export const AUTH_INFO_MAX_LENGTH = 32;
/** How many of the four character classes (upper case, lower case, digits, other) a user-set auth_info mixes. */
export const AUTH_INFO_MIN_CLASSES = 3;

const CLASSES = [/[A-Z]/, /[a-z]/, /[0-9]/, /[^A-Za-z0-9]/] as const;

/** The character classes a value mixes: upper case, lower case, digits, anything else. */
export function characterClasses(value: string): number {
  return CLASSES.filter((pattern) => pattern.test(value)).length;
}

/**
 * Why a user-set auth_info is refused, or null: 12 to 32 printable ASCII characters
 * without spaces (copyable), from at least 3 of the 4 classes. `123456` or `password` is
 * refused; a stored value set before this rule keeps working until it is changed.
 */
export function authInfoProblem(value: string): string | null {
  if (value.length < AUTH_INFO_MIN_LENGTH || value.length > AUTH_INFO_MAX_LENGTH) {
    return `must be ${AUTH_INFO_MIN_LENGTH} to ${AUTH_INFO_MAX_LENGTH} characters`;
  }
  if (!/^[\x21-\x7e]+$/.test(value)) return "may contain only printable ASCII characters without spaces";
  if (characterClasses(value) < AUTH_INFO_MIN_CLASSES) {
    return `must mix at least ${AUTH_INFO_MIN_CLASSES} of: upper-case letters, lower-case letters, digits, other characters`;
  }
  return null;
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/**
 * A new auth_info: 20 characters of a 64-symbol alphabet (120 bits less the few values the
 * strength rule refuses, which are drawn again), so that a generated value passes the
 * rule a user-set one must.
 */
export function generateAuthInfo(random: (bytes: Uint8Array) => Uint8Array = (bytes) => crypto.getRandomValues(bytes)): string {
  for (;;) {
    const value = Array.from(random(new Uint8Array(20)), (b) => ALPHABET[b % 64]).join("");
    if (authInfoProblem(value) === null) return value;
  }
}

// ---- Failed transfer requests (a wrong auth_info). Counted per domain (every account's
// guesses at one password) and per requesting account (one account's guesses at every
// password, whatever its number of tokens), in D1 so that every isolate sees one count.

/** How one count is limited. */
export interface FailureLimit {
  /** Failures answered as such before the first lock. */
  free: number;
  /** The lock after the `free`-th failure; each further failure doubles it. */
  firstLockSeconds: number;
  /** The longest lock. */
  maxLockSeconds: number;
}

export const TRANSFER_FAILURE_LIMITS = {
  /** One domain's password, whoever guesses: at most 24 guesses a day once locks are long. */
  domain: { free: 5, firstLockSeconds: 60, maxLockSeconds: 3_600 },
  /** One account's requests, whichever domain and token: at most one guess a day once locks are long. */
  account: { free: 10, firstLockSeconds: 60, maxLockSeconds: 86_400 },
} as const satisfies Record<string, FailureLimit>;

/** A count is forgotten once a day has passed without a failure since its last lock ended. */
export const TRANSFER_FAILURES_FORGOTTEN_AFTER_SECONDS = 86_400;

/** The lock a count of failures earns, in seconds (0: none yet). */
export function lockSeconds(failures: number, limit: FailureLimit): number {
  if (failures < limit.free) return 0;
  // 2^20 already passes any cap; the exponent stays small.
  const doublings = Math.min(failures - limit.free, 20);
  return Math.min(limit.firstLockSeconds * 2 ** doublings, limit.maxLockSeconds);
}

/** One count as stored (times in milliseconds since the epoch). */
export interface FailureCount {
  failures: number;
  lastFailedAt: number;
  /** Until when requests are refused; 0: not locked. */
  lockedUntil: number;
}

/** Whether a count still counts at `now` (ms), or has been forgotten. */
export function failuresRemembered(count: FailureCount, now: number): boolean {
  return now < Math.max(count.lockedUntil, count.lastFailedAt) + TRANSFER_FAILURES_FORGOTTEN_AFTER_SECONDS * 1000;
}

/** The count after one more failure at `now` (ms). */
export function afterFailure(count: FailureCount | null, limit: FailureLimit, now: number): FailureCount {
  const failures = count !== null && failuresRemembered(count, now) ? count.failures + 1 : 1;
  const lock = lockSeconds(failures, limit);
  return { failures, lastFailedAt: now, lockedUntil: lock > 0 ? now + lock * 1000 : 0 };
}

/** Whole seconds until the count lets a request through at `now` (ms); 0: it does. */
export function lockedFor(count: Pick<FailureCount, "lockedUntil"> | null | undefined, now: number): number {
  return count ? Math.max(0, Math.ceil((count.lockedUntil - now) / 1000)) : 0;
}
