// Unit tests of the pure lifecycle rules (src/registry/lifecycle.ts, statuses.ts): each
// takes its clock as an argument, so the boundaries are tested at exact instants.
import { describe, expect, it } from "vitest";
import { cappedExpiry, earliestEnd, isRunning, renewal, sameUtcDay, transferLockedUntil, withGracePeriod } from "../../src/registry/lifecycle";
import { domainStatus, PROHIBITING_STATUSES, prohibitingStatus } from "../../src/registry/statuses";

const com = { id: "com", periodMin: 1, periodMax: 10 };
const now = new Date("2026-11-22T10:00:00.000Z");

describe("a grace period runs until its last instant (RFC 3915)", () => {
  const entry = { status: "addPeriod" as const, ends_at: "2026-11-27T10:00:00.000Z" };
  it("is running at its ends_at and over one millisecond later", () => {
    expect(isRunning(entry, new Date("2026-11-27T10:00:00.000Z"))).toBe(true);
    expect(isRunning(entry, new Date("2026-11-27T10:00:00.001Z"))).toBe(false);
  });
  it("starting a period drops the ended ones and replaces one of the same status", () => {
    const entries = [entry, { status: "renewPeriod" as const, ends_at: "2026-11-20T00:00:00.000Z" }];
    expect(withGracePeriod(entries, now, { status: "addPeriod", days: 5 })).toEqual([{ status: "addPeriod", ends_at: "2026-11-27T10:00:00.000Z" }]);
    expect(withGracePeriod(entries, now, { status: "renewPeriod", days: 5 })).toEqual([entry, { status: "renewPeriod", ends_at: "2026-11-27T10:00:00.000Z" }]);
  });
  it("a grace period of 0 days adds nothing", () => {
    expect(withGracePeriod([], now, { status: "addPeriod", days: 0 })).toEqual([]);
  });
  it("the sweep keys on the earliest end", () => {
    expect(earliestEnd([])).toBeNull();
    expect(earliestEnd([entry, { status: "renewPeriod", ends_at: "2026-11-25T00:00:00.000Z" }])).toBe("2026-11-25T00:00:00.000Z");
  });
});

describe("renew: current_expires_at must equal the stored expiry to the day (RFC 5731 §3.2.3)", () => {
  const stored = "2027-11-22T09:30:00.000Z";
  it("accepts the same day at any time of day", () => {
    expect(renewal({ period: 1, currentExpiresAt: "2027-11-22T00:00:00.000Z" }, stored, com, now)).toEqual({
      errors: [],
      expiresAt: "2028-11-22T09:30:00.000Z",
    });
    expect(sameUtcDay(new Date("2027-11-22T23:59:59.999Z"), new Date(stored))).toBe(true);
  });
  it("refuses another day, and a missing one", () => {
    expect(renewal({ period: 1, currentExpiresAt: "2027-11-23T09:30:00.000Z" }, stored, com, now).errors).toEqual([
      { field: "current_expires_at", message: "does not match the domain's expiry date (2027-11-22)" },
    ]);
    expect(renewal({ period: 1, currentExpiresAt: undefined }, stored, com, now).errors.map((e) => e.field)).toEqual(["current_expires_at"]);
  });
});

describe("renew: the period lies in the extension's range and the new expiry within periods.max years from now", () => {
  const stored = "2027-11-22T09:30:00.000Z";
  it("refuses a period outside the range", () => {
    expect(renewal({ period: 11, currentExpiresAt: stored }, stored, com, now).errors).toEqual([{ field: "period", message: ".com renews for 1 to 10 years" }]);
  });
  it("refuses an expiry past the 10-year horizon, accepts one on it", () => {
    expect(renewal({ period: 10, currentExpiresAt: stored }, stored, com, now).errors).toEqual([
      { field: "period", message: "would make the domain expire on 2037-11-22, more than 10 years from now" },
    ]);
    const early = "2026-11-22T09:00:00.000Z";
    expect(renewal({ period: 10, currentExpiresAt: early }, early, com, now)).toEqual({ errors: [], expiresAt: "2036-11-22T09:00:00.000Z" });
  });
  it("a transfer's added year is capped at the horizon", () => {
    expect(cappedExpiry("2036-06-01T00:00:00.000Z", 1, 10, now)).toBe("2036-11-22T10:00:00.000Z");
    expect(cappedExpiry("2027-06-01T00:00:00.000Z", 1, 10, now)).toBe("2028-06-01T00:00:00.000Z");
  });
});

describe("the transfer lock: registration or last transfer plus transfer_lock_days", () => {
  it("starts at the last transfer when there is one, and is null without a lock", () => {
    expect(transferLockedUntil("2026-01-01T00:00:00.000Z", null, 60)).toBe("2026-03-02T00:00:00.000Z");
    expect(transferLockedUntil("2026-01-01T00:00:00.000Z", "2026-06-01T00:00:00.000Z", 60)).toBe("2026-07-31T00:00:00.000Z");
    expect(transferLockedUntil("2026-01-01T00:00:00.000Z", null, 0)).toBeNull();
  });
});

describe("the registry's statuses forbid operations as the table says", () => {
  it("pendingDelete and pendingTransfer forbid update, delete, renew and transfer", () => {
    for (const operation of ["update", "delete", "renew", "transfer"] as const) {
      expect(PROHIBITING_STATUSES[operation]).toContain("pendingDelete");
      expect(prohibitingStatus(operation, ["pendingTransfer"])).toBe("pendingTransfer");
    }
  });
  it("an update cannot remove a server status the way it removes clientUpdateProhibited", () => {
    expect(prohibitingStatus("update", ["pendingTransfer"], [])).toBe("pendingTransfer");
    expect(prohibitingStatus("update", ["clientUpdateProhibited"], [])).toBeNull();
  });
  it("clientRenewProhibited forbids renew only", () => {
    expect(prohibitingStatus("renew", ["clientRenewProhibited"])).toBe("clientRenewProhibited");
    expect(prohibitingStatus("transfer", ["clientRenewProhibited"])).toBeNull();
  });
  it("server statuses combine with client statuses; ok never combines", () => {
    expect(domainStatus(["clientHold"], 2, ["pendingDelete"])).toEqual(["clientHold", "pendingDelete"]);
    expect(domainStatus([], 2, ["pendingTransfer"])).toEqual(["pendingTransfer"]);
    expect(domainStatus([], 2, [])).toEqual(["ok"]);
  });
});
