// Unit tests of the pure lifecycle rules (src/registry/lifecycle.ts, statuses.ts): each
// takes its clock as an argument, so the boundaries are tested at exact instants.
import { describe, expect, it } from "vitest";
import {
  cappedExpiry,
  earliestEnd,
  expiryStep,
  graceStep,
  hasExpired,
  isRunning,
  renewal,
  sameUtcDay,
  transferAutoApproves,
  transferLockedUntil,
  withGracePeriod,
} from "../../src/registry/lifecycle";
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

// ---- the sweep's rules: what is due at an instant

const gtld = { autoRenew: 45, redemption: 30, pendingDelete: 5 };
const expiry = "2026-05-01T00:00:00.000Z";
const live = { expiresAt: expiry, autoRenew: true, statuses: [] as string[], serverStatuses: [] as string[], rgp: [], deletedAt: null, pendingTransfer: false };
const ms = (at: string, delta: number) => new Date(Date.parse(at) + delta);

describe("expiry: expires_at is the first instant without a registration", () => {
  it("is due at expires_at, not a millisecond before; a deleted domain never expires again", () => {
    expect(hasExpired(live, ms(expiry, -1))).toBe(false);
    expect(hasExpired(live, new Date(expiry))).toBe(true);
    expect(hasExpired({ ...live, deletedAt: "2026-04-01T00:00:00.000Z" }, new Date(expiry))).toBe(false);
    expect(expiryStep(live, gtld, ms(expiry, -1))).toBeNull();
  });
});

describe("expiry with auto_renew renews for one year, autoRenewPeriod counted from the expiry", () => {
  it("grows expires_at by a calendar year and keeps the grace periods still running", () => {
    const running = { status: "transferPeriod" as const, ends_at: "2026-05-03T00:00:00.000Z" };
    const ended = { status: "addPeriod" as const, ends_at: "2026-04-01T00:00:00.000Z" };
    expect(expiryStep({ ...live, rgp: [running, ended] }, gtld, ms(expiry, 3_600_000))).toEqual({
      kind: "auto_renew",
      expiresAt: "2027-05-01T00:00:00.000Z",
      rgp: [running, { status: "autoRenewPeriod", ends_at: "2026-06-15T00:00:00.000Z" }],
    });
  });
  it("a sweep later than the whole autoRenewPeriod renews without it; a registry without one adds none", () => {
    expect(expiryStep(live, gtld, new Date("2026-07-01T00:00:00.000Z"))).toEqual({ kind: "auto_renew", expiresAt: "2027-05-01T00:00:00.000Z", rgp: [] });
    expect(expiryStep(live, { ...gtld, autoRenew: 0 }, new Date(expiry))).toEqual({ kind: "auto_renew", expiresAt: "2027-05-01T00:00:00.000Z", rgp: [] });
  });
  it("29 February renews to 28 February", () => {
    expect(expiryStep({ ...live, expiresAt: "2028-02-29T12:00:00.000Z" }, gtld, new Date("2028-02-29T12:00:00.000Z"))).toMatchObject({
      expiresAt: "2029-02-28T12:00:00.000Z",
    });
  });
});

describe("the registry lock binds the sweep's steps", () => {
  const at = new Date("2026-05-03T00:00:00.000Z");
  it("serverRenewProhibited: no auto-renewal, the domain expires into redemption", () => {
    expect(expiryStep({ ...live, serverStatuses: ["serverRenewProhibited"] }, gtld, at)).toMatchObject({ kind: "expire" });
  });
  it("serverDeleteProhibited: no expiry into redemption (it waits); an auto-renewal still happens", () => {
    expect(expiryStep({ ...live, autoRenew: false, serverStatuses: ["serverDeleteProhibited"] }, gtld, at)).toBeNull();
    expect(expiryStep({ ...live, serverStatuses: ["serverDeleteProhibited", "serverRenewProhibited"] }, gtld, at)).toBeNull();
    expect(expiryStep({ ...live, serverStatuses: ["serverDeleteProhibited"] }, gtld, at)).toMatchObject({ kind: "auto_renew" });
  });
  it("serverDeleteProhibited: a deleted domain neither ends its redemption nor is purged", () => {
    const ended = { status: "redemptionPeriod" as const, ends_at: "2026-04-01T00:00:00.000Z" };
    const held = { rgp: [ended], deletedAt: "2026-03-01T00:00:00.000Z", serverStatuses: ["serverDeleteProhibited"] };
    expect(graceStep(held, gtld, at)).toBeNull();
    expect(graceStep({ ...held, serverStatuses: [] }, gtld, at)).toEqual({ kind: "purge" });
    // A live domain's grace periods still end under the lock (bookkeeping, no deletion).
    const add = { status: "addPeriod" as const, ends_at: "2026-04-01T00:00:00.000Z" };
    expect(graceStep({ rgp: [add], deletedAt: null, serverStatuses: ["serverDeleteProhibited"] }, gtld, at)).toEqual({ kind: "grace_ended", rgp: [] });
  });
});

describe("expiry without auto_renew (or under clientRenewProhibited) enters redemptionPeriod from now", () => {
  it("redemption runs its whole length from the sweep's instant; the other grace periods end", () => {
    const at = new Date("2026-05-03T00:00:00.000Z");
    const off = { ...live, autoRenew: false, rgp: [{ status: "renewPeriod" as const, ends_at: "2026-05-04T00:00:00.000Z" }] };
    expect(expiryStep(off, gtld, at)).toEqual({ kind: "expire", rgp: [{ status: "redemptionPeriod", ends_at: "2026-06-02T00:00:00.000Z" }] });
    expect(expiryStep({ ...live, statuses: ["clientRenewProhibited"] }, gtld, at)).toMatchObject({ kind: "expire" });
  });
  it("waits while a transfer is pending; auto-renew does not wait", () => {
    expect(expiryStep({ ...live, autoRenew: false, pendingTransfer: true }, gtld, new Date(expiry))).toBeNull();
    expect(expiryStep({ ...live, pendingTransfer: true }, gtld, new Date(expiry))).toMatchObject({ kind: "auto_renew" });
  });
});

describe("the end of a grace period: ended ones leave rgp_status", () => {
  const add = { status: "addPeriod" as const, ends_at: "2026-04-01T00:00:00.000Z" };
  const renew = { status: "renewPeriod" as const, ends_at: "2026-04-10T00:00:00.000Z" };
  it("nothing at the last instant; the ended one goes a millisecond later, the running one stays", () => {
    expect(graceStep({ rgp: [add, renew], deletedAt: null, serverStatuses: [] }, gtld, new Date(add.ends_at))).toBeNull();
    expect(graceStep({ rgp: [add, renew], deletedAt: null, serverStatuses: [] }, gtld, ms(add.ends_at, 1))).toEqual({ kind: "grace_ended", rgp: [renew] });
  });
});

describe("the end of redemptionPeriod starts pendingDelete; the end of pendingDelete is the purge", () => {
  const deletedAt = "2026-03-01T00:00:00.000Z";
  const redemption = { status: "redemptionPeriod" as const, ends_at: "2026-03-31T00:00:00.000Z" };
  it("restorable until the last instant of redemption; then pendingDelete counted from that end", () => {
    expect(graceStep({ rgp: [redemption], deletedAt, serverStatuses: [] }, gtld, new Date(redemption.ends_at))).toBeNull();
    expect(graceStep({ rgp: [redemption], deletedAt, serverStatuses: [] }, gtld, ms(redemption.ends_at, 1))).toEqual({
      kind: "pending_delete",
      rgp: [{ status: "pendingDelete", ends_at: "2026-04-05T00:00:00.000Z" }],
    });
  });
  it("pendingDelete ended: purge; pendingDelete already over when redemption is seen ended: purge at once", () => {
    const pending = { status: "pendingDelete" as const, ends_at: "2026-04-05T00:00:00.000Z" };
    expect(graceStep({ rgp: [pending], deletedAt, serverStatuses: [] }, gtld, new Date(pending.ends_at))).toBeNull();
    expect(graceStep({ rgp: [pending], deletedAt, serverStatuses: [] }, gtld, ms(pending.ends_at, 1))).toEqual({ kind: "purge" });
    expect(graceStep({ rgp: [redemption], deletedAt, serverStatuses: [] }, gtld, new Date("2026-04-06T00:00:00.000Z"))).toEqual({ kind: "purge" });
  });
  it("a registry without pendingDelete (or without redemption) purges when redemption ends", () => {
    expect(graceStep({ rgp: [redemption], deletedAt, serverStatuses: [] }, { pendingDelete: 0 }, ms(redemption.ends_at, 1))).toEqual({ kind: "purge" });
    expect(graceStep({ rgp: [], deletedAt, serverStatuses: [] }, { pendingDelete: 0 }, ms(deletedAt, 1))).toEqual({ kind: "purge" });
  });
});

describe("a transfer still pending at act_by is approved by the registry", () => {
  const actBy = "2026-03-06T00:00:00.000Z";
  it("at act_by, not before, and only while pending", () => {
    expect(transferAutoApproves({ status: "pending", actBy }, ms(actBy, -1))).toBe(false);
    expect(transferAutoApproves({ status: "pending", actBy }, new Date(actBy))).toBe(true);
    expect(transferAutoApproves({ status: "cancelled", actBy }, new Date(actBy))).toBe(false);
  });
});
