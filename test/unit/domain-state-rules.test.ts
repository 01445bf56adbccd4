// The registry's own statuses on a domain and the transfer lock (src/registry/statuses.ts,
// src/registry/lifecycle.ts): pure rules, which the reads' SQL mirrors follow
// (test/registry-rules-sql.test.ts holds them to these).
import { describe, expect, it } from "vitest";
import { transferLockedUntil, transferLockHolds } from "../../src/registry/lifecycle";
import { domainStatus, LOCK_STATUSES, lockedAgainstUpdate, prohibitingStatus, serverStatusesOf, shownStatuses } from "../../src/registry/statuses";

const registered = { serverStatuses: [] as string[], deletedAt: null, pendingTransfer: false };

describe("serverStatusesOf: the lock in canonical order, then pendingDelete while deleted, then pendingTransfer while a transfer waits", () => {
  it("sets none on a registered domain with no lock and no transfer", () => {
    expect(serverStatusesOf(registered)).toEqual([]);
  });
  it("orders and deduplicates the lock, and keeps only lock statuses", () => {
    expect(
      serverStatusesOf({ ...registered, serverStatuses: ["serverUpdateProhibited", "serverDeleteProhibited", "serverUpdateProhibited", "clientHold"] }),
    ).toEqual(["serverDeleteProhibited", "serverUpdateProhibited"]);
  });
  it("adds pendingDelete for a deleted domain and pendingTransfer for a waiting transfer, after the lock", () => {
    expect(serverStatusesOf({ serverStatuses: [...LOCK_STATUSES].reverse(), deletedAt: "2026-01-01T00:00:00.000Z", pendingTransfer: true })).toEqual([
      ...LOCK_STATUSES,
      "pendingDelete",
      "pendingTransfer",
    ]);
  });
  it("combines with the client statuses into what the domain shows", () => {
    const domain = { ...registered, statuses: ["clientHold"], pendingTransfer: true };
    expect(shownStatuses(domain)).toEqual(["clientHold", "pendingTransfer"]);
    expect(domainStatus(domain.statuses, 0, serverStatusesOf(domain))).toEqual(["clientHold", "pendingTransfer", "inactive"]);
    expect(domainStatus([], 2, serverStatusesOf(registered))).toEqual(["ok"]);
  });
  it("is what the prohibition table reads: a waiting transfer forbids a renew, a deletion an update", () => {
    expect(prohibitingStatus("renew", shownStatuses({ ...registered, statuses: [], pendingTransfer: true }))).toBe("pendingTransfer");
    expect(prohibitingStatus("update", shownStatuses({ ...registered, statuses: [], deletedAt: "2026-01-01T00:00:00.000Z" }))).toBe("pendingDelete");
  });
});

describe("transferLockHolds: a transfer request is refused before transfer_locked_until, and allowed from that instant", () => {
  const until = transferLockedUntil("2026-01-01T00:00:00.000Z", null, 60)!;
  it("holds until its last millisecond", () => {
    expect(transferLockHolds(until, new Date(Date.parse(until) - 1))).toBe(true);
    expect(transferLockHolds(until, new Date(until))).toBe(false);
    expect(transferLockHolds(until, new Date(Date.parse(until) + 1))).toBe(false);
  });
  it("never holds where the extension has no lock", () => {
    expect(transferLockHolds(transferLockedUntil("2026-01-01T00:00:00.000Z", null, 0), new Date("2026-01-01T00:00:00.000Z"))).toBe(false);
  });
  it("starts again at the last transfer", () => {
    expect(transferLockedUntil("2020-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z", 60)).toBe("2026-03-02T00:00:00.000Z");
  });
});

describe("lockedAgainstUpdate: serverUpdateProhibited holds the service's own updates of a domain, and nothing else does", () => {
  it("is true under serverUpdateProhibited only", () => {
    for (const status of LOCK_STATUSES) expect(lockedAgainstUpdate([status]), status).toBe(status === "serverUpdateProhibited");
    expect(lockedAgainstUpdate([])).toBe(false);
    expect(lockedAgainstUpdate(["clientUpdateProhibited"])).toBe(false);
  });
});
