// The auth_info rules (src/registry/auth-info.ts): the strength of a user-set value, the
// generated value, and the lock that failed transfer requests earn.
import { describe, expect, it } from "vitest";
import {
  afterFailure,
  authInfoProblem,
  characterClasses,
  failuresRemembered,
  generateAuthInfo,
  lockedFor,
  lockSeconds,
  TRANSFER_FAILURE_LIMITS,
} from "../../src/registry/auth-info";

const { domain, account } = TRANSFER_FAILURE_LIMITS;
const DAY = 86_400_000;

describe("a user-set auth_info: 12 to 32 printable ASCII characters of at least 3 classes", () => {
  it("counts the classes: upper case, lower case, digits, other", () => {
    expect(characterClasses("abc")).toBe(1);
    expect(characterClasses("aB")).toBe(2);
    expect(characterClasses("aB3")).toBe(3);
    expect(characterClasses("aB3-")).toBe(4);
  });
  it("refuses short, long, spaced and two-class values, each with its reason", () => {
    expect(authInfoProblem("123456")).toBe("must be 12 to 32 characters");
    expect(authInfoProblem("Aa1-".repeat(8) + "x")).toBe("must be 12 to 32 characters");
    expect(authInfoProblem("Abc 123 def 456")).toBe("may contain only printable ASCII characters without spaces");
    expect(authInfoProblem("Ünïcode-Pass-1")).toBe("may contain only printable ASCII characters without spaces");
    expect(authInfoProblem("passwordpassword")).toContain("must mix at least 3 of");
    expect(authInfoProblem("Passwordpassword")).toContain("must mix at least 3 of");
  });
  it("accepts 12 characters of 3 classes and 32 of 4", () => {
    expect(authInfoProblem("password123!")).toBeNull();
    expect(authInfoProblem("Aa1-".repeat(8))).toBeNull();
  });
  it("a generated value always meets the rule, even from a random source that first draws a weak one", () => {
    let calls = 0;
    // The first draw is all zeros ("AAAA…": one class), the next one the real source.
    const source = (bytes: Uint8Array) => (calls++ === 0 ? bytes : crypto.getRandomValues(bytes));
    const value = generateAuthInfo(source);
    expect(calls).toBe(2);
    expect(authInfoProblem(value)).toBeNull();
    for (let i = 0; i < 1000; i++) expect(authInfoProblem(generateAuthInfo())).toBeNull();
  });
});

describe("failed transfer requests earn a lock that doubles, up to a cap", () => {
  it("no lock before the free failures; then 60 s, doubling, capped", () => {
    expect([1, 2, 3, 4].map((n) => lockSeconds(n, domain))).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 10, 11, 12, 1000].map((n) => lockSeconds(n, domain))).toEqual([60, 120, 240, 1920, 3600, 3600, 3600]);
    expect(lockSeconds(9, account)).toBe(0);
    expect([10, 11, 20, 21, 1e9].map((n) => lockSeconds(n, account))).toEqual([60, 120, 61_440, 86_400, 86_400]);
  });
  it("a failure adds one to a remembered count and sets the lock it earns from now", () => {
    const now = Date.parse("2026-11-25T12:00:00.000Z");
    let count = afterFailure(null, domain, now);
    expect(count).toEqual({ failures: 1, lastFailedAt: now, lockedUntil: 0 });
    for (let i = 0; i < 4; i++) count = afterFailure(count, domain, now + i);
    expect(count).toEqual({ failures: 5, lastFailedAt: now + 3, lockedUntil: now + 3 + 60_000 });
    expect(lockedFor(count, now + 3)).toBe(60);
    expect(lockedFor(count, now + 3 + 59_001)).toBe(1);
    expect(lockedFor(count, now + 3 + 60_000)).toBe(0);
  });
  it("a count is forgotten a day after its last lock ended (or its last failure, before any lock)", () => {
    const now = 1_000_000_000_000;
    const unlocked = { failures: 3, lastFailedAt: now, lockedUntil: 0 };
    expect(failuresRemembered(unlocked, now + DAY - 1)).toBe(true);
    expect(failuresRemembered(unlocked, now + DAY)).toBe(false);
    expect(afterFailure(unlocked, domain, now + DAY).failures).toBe(1);
    const locked = { failures: 11, lastFailedAt: now, lockedUntil: now + 3_600_000 };
    expect(failuresRemembered(locked, now + DAY)).toBe(true);
    expect(afterFailure(locked, domain, now + DAY).failures).toBe(12);
    expect(afterFailure(locked, domain, now + 3_600_000 + DAY).failures).toBe(1);
  });
});
