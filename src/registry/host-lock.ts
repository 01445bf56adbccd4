// The registry lock as it binds hosts (docs/lifecycle.md "Registry lock", docs/decisions.md).
// A subordinate host is part of its superordinate domain: the domain's info lists it (RFC
// 5731 §3.1.2, <domain:host>), only the domain's sponsor creates or changes it (RFC 5732
// §3.2.1), and its glue is what the parent publishes for the domain's delegation. A host's
// name and addresses are part of the delegation of every domain that names it (RFC 1034
// §4.2.2). RFC 5732 §2.3 gives a host statuses of its own, and registries that sell a lock
// set them on the domain's hosts together with the domain's; hosts here carry none, so the
// domain's serverUpdateProhibited holds them instead: otherwise the delegation the lock is
// there to keep could be changed through the hosts while the domain's own PATCH answers 409.
import { lockedAgainstUpdate } from "./statuses";

/** A domain as these rules read it: its name and the registry lock's statuses. */
export interface DomainLockState {
  name: string;
  serverStatuses: readonly string[];
}

/** A host write as these rules read it. */
export interface HostWrite {
  /** `update` is a rename, new addresses, or both. */
  operation: "create" | "update" | "delete";
  /** The host's name as it is (a create: the new host's name). */
  name: string;
  /** Its name after the write: another one for a rename. */
  nextName: string;
  /** Whether the write replaces the host's addresses with others (its glue). */
  addressesChanged: boolean;
  /** The domain the host is under now (null: external, or a create). */
  superordinate: DomainLockState | null;
  /** The domain the host is under after the write (null: external, or a delete). */
  nextSuperordinate: DomainLockState | null;
  /** The domains that use the host as a name server. */
  users: readonly DomainLockState[];
}

const UNTIL = "until the registry's operator clears it";

/** "a.de", "a.de and b.de", "a.de, b.de, c.de, d.de, e.de and 3 more". */
function nameList(names: readonly string[], shown = 5): string {
  if (names.length === 1) return names[0]!;
  if (names.length > shown) return `${names.slice(0, shown).join(", ")} and ${names.length - shown} more`;
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** "renamed", "re-addressed", "renamed and re-addressed", "deleted". */
function done(write: HostWrite): string {
  if (write.operation === "delete") return "deleted";
  const renamed = write.nextName !== write.name;
  if (renamed && write.addressesChanged) return "renamed or re-addressed";
  return renamed ? "renamed" : "re-addressed";
}

/**
 * verifySuperordinateNotLocked: under serverUpdateProhibited a domain's subordinate hosts
 * stay as they are: none is created, renamed (within the domain or out of it),
 * re-addressed or deleted, and no host is renamed into the domain. The refusal's detail,
 * or null. (Deleting a subordinate host changes no delegation, but the set of the domain's
 * hosts is the domain's, and a new one is refused: the lock holds the set both ways.)
 */
export function superordinateLockProblem(write: HostWrite): string | null {
  const { superordinate, nextSuperordinate } = write;
  if (superordinate && lockedAgainstUpdate(superordinate.serverStatuses)) {
    return `${superordinate.name} has serverUpdateProhibited, which holds the hosts under it as they are: ${write.name} cannot be ${done(write)} ${UNTIL}.`;
  }
  if (nextSuperordinate && lockedAgainstUpdate(nextSuperordinate.serverStatuses)) {
    const what = write.operation === "create" ? `no host ${write.nextName} can be created` : `${write.name} cannot be renamed to ${write.nextName}`;
    return `${nextSuperordinate.name} has serverUpdateProhibited, which holds the hosts under it as they are: ${what} ${UNTIL}.`;
  }
  return null;
}

/**
 * verifyNameserverUsersNotLocked: a rename or new addresses of a host change the delegation
 * of every domain that names it (which records an update of each), so neither is made while
 * one of them has serverUpdateProhibited. The refusal's detail, or null.
 */
export function nameserverUsersLockProblem(write: HostWrite): string | null {
  if (write.operation !== "update" || (write.nextName === write.name && !write.addressesChanged)) return null;
  const locked = write.users.filter((domain) => lockedAgainstUpdate(domain.serverStatuses)).map((domain) => domain.name);
  if (locked.length === 0) return null;
  const names = nameList(locked);
  const has = locked.length === 1 ? "which has" : "which have";
  return `${write.name} is a name server of ${names}, ${has} serverUpdateProhibited: it cannot be ${done(write)}, as that would change the delegation the lock holds, ${UNTIL}.`;
}

/** The lock's refusal of a host write (409 status_prohibits), or null: its superordinate domains first, then the domains that use it. */
export function hostLockProblem(write: HostWrite): string | null {
  return superordinateLockProblem(write) ?? nameserverUsersLockProblem(write);
}
