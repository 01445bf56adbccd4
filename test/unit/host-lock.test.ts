// The registry lock as it binds hosts (src/registry/host-lock.ts): pure rules, each case
// stated as the rule says it. The HTTP behaviour is in test/host-lock.test.ts.
import { describe, expect, it } from "vitest";
import { type HostWrite, hostLockProblem, nameserverUsersLockProblem, superordinateLockProblem } from "../../src/registry/host-lock";
import { LOCK_STATUSES } from "../../src/registry/statuses";

const locked = { name: "locked.de", serverStatuses: ["serverUpdateProhibited"] };
const open = { name: "open.de", serverStatuses: LOCK_STATUSES.filter((s) => s !== "serverUpdateProhibited") };

function write(fields: Partial<HostWrite>): HostWrite {
  return {
    operation: "update",
    name: "ns1.locked.de",
    nextName: "ns1.locked.de",
    addressesChanged: true,
    superordinate: null,
    nextSuperordinate: null,
    users: [],
    ...fields,
  };
}

describe("verifySuperordinateNotLocked: serverUpdateProhibited holds the hosts under the domain", () => {
  it("refuses a re-address, a rename within or out of the domain, and a delete of a host under a locked domain, naming what is refused", () => {
    expect(superordinateLockProblem(write({ superordinate: locked, nextSuperordinate: locked }))).toBe(
      "locked.de has serverUpdateProhibited, which holds the hosts under it as they are: ns1.locked.de cannot be re-addressed until the registry's operator clears it.",
    );
    expect(superordinateLockProblem(write({ nextName: "ns2.locked.de", addressesChanged: false, superordinate: locked, nextSuperordinate: locked }))).toContain(
      "ns1.locked.de cannot be renamed until",
    );
    expect(superordinateLockProblem(write({ nextName: "ns1.open.de", superordinate: locked, nextSuperordinate: open }))).toContain(
      "ns1.locked.de cannot be renamed or re-addressed until",
    );
    expect(superordinateLockProblem(write({ operation: "delete", addressesChanged: false, superordinate: locked }))).toContain(
      "ns1.locked.de cannot be deleted until",
    );
  });

  it("refuses a new host under a locked domain, and a host renamed into one", () => {
    expect(superordinateLockProblem(write({ operation: "create", name: "ns2.locked.de", nextName: "ns2.locked.de", nextSuperordinate: locked }))).toBe(
      "locked.de has serverUpdateProhibited, which holds the hosts under it as they are: no host ns2.locked.de can be created until the registry's operator clears it.",
    );
    expect(superordinateLockProblem(write({ name: "ns1.open.de", nextName: "ns1.locked.de", superordinate: open, nextSuperordinate: locked }))).toContain(
      "ns1.open.de cannot be renamed to ns1.locked.de",
    );
    expect(superordinateLockProblem(write({ name: "ns1.ext.net", nextName: "ns1.locked.de", nextSuperordinate: locked }))).toContain(
      "ns1.ext.net cannot be renamed to ns1.locked.de",
    );
  });

  it("lets every write pass under the other lock statuses, and for external hosts", () => {
    expect(superordinateLockProblem(write({ superordinate: open, nextSuperordinate: open }))).toBeNull();
    expect(superordinateLockProblem(write({ operation: "create", nextSuperordinate: open }))).toBeNull();
    expect(superordinateLockProblem(write({ operation: "delete", superordinate: open }))).toBeNull();
    expect(superordinateLockProblem(write({ name: "ns1.ext.net", nextName: "ns2.ext.net" }))).toBeNull();
  });
});

describe("verifyNameserverUsersNotLocked: a host a locked domain uses keeps its name and addresses", () => {
  it("refuses a rename or a re-address of a host a locked domain uses, naming the locked domains only", () => {
    const users = [open, locked, { name: "also-locked.de", serverStatuses: ["serverHold", "serverUpdateProhibited"] }];
    expect(nameserverUsersLockProblem(write({ name: "ns1.ext.net", nextName: "ns1.ext.net", users }))).toBe(
      "ns1.ext.net is a name server of locked.de and also-locked.de, which have serverUpdateProhibited: it cannot be re-addressed, as that would change the delegation the lock holds, until the registry's operator clears it.",
    );
    expect(nameserverUsersLockProblem(write({ name: "ns1.ext.net", nextName: "ns2.ext.net", addressesChanged: false, users: [locked] }))).toContain(
      "ns1.ext.net is a name server of locked.de, which has serverUpdateProhibited: it cannot be renamed",
    );
  });

  it("names at most five locked domains and counts the rest", () => {
    const users = Array.from({ length: 8 }, (_, i) => ({ name: `l${i}.de`, serverStatuses: ["serverUpdateProhibited"] }));
    expect(nameserverUsersLockProblem(write({ name: "ns1.ext.net", users }))).toContain("l0.de, l1.de, l2.de, l3.de, l4.de and 3 more, which have");
  });

  it("lets the write pass when no user is locked, and says nothing of users for a create or a delete", () => {
    expect(nameserverUsersLockProblem(write({ users: [open] }))).toBeNull();
    expect(nameserverUsersLockProblem(write({ operation: "delete", users: [locked] }))).toBeNull();
    expect(nameserverUsersLockProblem(write({ operation: "update", addressesChanged: false, users: [locked] }))).toBeNull();
  });
});

describe("hostLockProblem: the superordinate domains first, then the users", () => {
  it("names the superordinate domain when both hold the host, and the users otherwise", () => {
    expect(hostLockProblem(write({ superordinate: locked, nextSuperordinate: locked, users: [{ ...locked, name: "user.de" }] }))).toContain(
      "locked.de has serverUpdateProhibited",
    );
    expect(hostLockProblem(write({ name: "ns1.open.de", nextName: "ns1.open.de", superordinate: open, nextSuperordinate: open, users: [locked] }))).toContain(
      "is a name server of locked.de",
    );
    expect(hostLockProblem(write({ superordinate: open, nextSuperordinate: open, users: [open] }))).toBeNull();
  });
});
