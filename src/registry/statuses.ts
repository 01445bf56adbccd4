// Domain statuses (RFC 5731 §2.3). Clients set only the client* statuses; server*,
// pending* and the computed `ok`/`inactive` belong to the registry.
import type { FieldError } from "./field-error";

export const CLIENT_STATUSES = ["clientDeleteProhibited", "clientHold", "clientRenewProhibited", "clientTransferProhibited", "clientUpdateProhibited"] as const;
export type ClientStatus = (typeof CLIENT_STATUSES)[number];

/**
 * The registry lock (RFC 5731 §2.3 server statuses): set and cleared by the registry's
 * operator only. While set, each forbids what it names to every account, the operator's
 * own routine operations and the lifecycle sweep included, until an operator clears it.
 */
export const LOCK_STATUSES = ["serverDeleteProhibited", "serverHold", "serverRenewProhibited", "serverTransferProhibited", "serverUpdateProhibited"] as const;
export type LockStatus = (typeof LOCK_STATUSES)[number];

const SERVER_STATUSES = [...LOCK_STATUSES, "pendingCreate", "pendingDelete", "pendingRenew", "pendingTransfer", "pendingUpdate", "ok", "inactive", "linked"];

export function isClientStatus(value: string): value is ClientStatus {
  return (CLIENT_STATUSES as readonly string[]).includes(value);
}

function isKnown(value: string): boolean {
  return SERVER_STATUSES.includes(value);
}

export function isLockStatus(value: string): value is LockStatus {
  return (LOCK_STATUSES as readonly string[]).includes(value);
}

/** Why a status a client asked for cannot be set, or null when it can. */
export function clientStatusProblem(value: string): string | null {
  if (isClientStatus(value)) return null;
  if (SERVER_STATUSES.includes(value)) return `"${value}" cannot be set by clients`;
  return `"${value}" is not a domain status; clients may set ${CLIENT_STATUSES.join(", ")}`;
}

/** Client statuses deduplicated, in the canonical (alphabetical) order. */
export function canonicalStatuses(values: readonly ClientStatus[]): ClientStatus[] {
  return CLIENT_STATUSES.filter((s) => values.includes(s));
}

/** Lock statuses deduplicated, in the canonical (alphabetical) order. */
export function canonicalLockStatuses(values: readonly string[]): LockStatus[] {
  return LOCK_STATUSES.filter((s) => values.includes(s));
}

/** The server statuses the registry sets on a domain (docs/lifecycle.md, docs/lifecycle.md#availability-and-prices). */
export type ServerStatus = LockStatus | "pendingDelete" | "pendingTransfer";

/** What the registry's statuses of a domain are made of, as stored. */
export interface DomainState {
  /** The registry lock's statuses the operator set. */
  serverStatuses: readonly string[];
  /** When the domain was deleted (it is in redemption, RFC 3915): null while it is registered. */
  deletedAt: string | null;
  /** Whether a transfer of the domain waits for the losing account (RFC 5731 §3.2.4). */
  pendingTransfer: boolean;
}

/**
 * The statuses the registry sets on a domain: the lock, then `pendingDelete` while it is
 * deleted and `pendingTransfer` while a transfer waits; they combine with its client
 * statuses. The list filter holds the SQL mirror of this (src/db/domain-rules.ts), held to
 * it by test/registry-rules-sql.test.ts.
 */
export function serverStatusesOf(domain: DomainState): ServerStatus[] {
  const statuses: ServerStatus[] = canonicalLockStatuses(domain.serverStatuses);
  if (domain.deletedAt !== null) statuses.push("pendingDelete");
  if (domain.pendingTransfer) statuses.push("pendingTransfer");
  return statuses;
}

/** Every status a domain shows but the computed ones: what the prohibition table reads (prohibitingStatus). */
export function shownStatuses(domain: DomainState & { statuses: readonly string[] }): string[] {
  return [...domain.statuses, ...serverStatusesOf(domain)];
}

/**
 * The status a domain shows (RFC 5731 §2.3): its client statuses, the registry's lock
 * statuses and `pendingDelete`/`pendingTransfer`, `inactive` when it has no name servers,
 * and `ok` alone when nothing else applies.
 */
export function domainStatus(clientStatuses: readonly string[], nameserverCount: number, serverStatuses: readonly ServerStatus[] = []): string[] {
  const status = [...clientStatuses, ...serverStatuses];
  if (nameserverCount === 0) status.push("inactive");
  return status.length === 0 ? ["ok"] : status;
}

/**
 * Whether the registry publishes the domain's delegation (its name servers and DS): not
 * while it is on hold, by its sponsor (`clientHold`) or by the operator (`serverHold`):
 * RFC 5731 §2.3, "DNS delegation information MUST NOT be published for the object". A
 * zone of the same name hosted here is another object and is served as before.
 */
export function delegationPublished(statuses: readonly string[]): boolean {
  return !statuses.includes("clientHold") && !statuses.includes("serverHold");
}

/**
 * The statuses a caller may set in `status`, and who decides: a customer sets the client
 * statuses, and the operator the registry lock as well (RFC 5731 §2.3: server statuses
 * are the server operator's). Each problem comes at `status[i]`; `readOnly` are the lock
 * statuses a customer sent (422 read_only_field), `invalid` the rest.
 */
export function statusSettingErrors(statuses: readonly string[], byOperator: boolean): { readOnly: FieldError[]; invalid: FieldError[] } {
  const readOnly: FieldError[] = [];
  const invalid: FieldError[] = [];
  statuses.forEach((status, index) => {
    const field = `status[${index}]`;
    if (isLockStatus(status)) {
      if (!byOperator) readOnly.push({ field, message: `"${status}" is the registry lock: only the registry's operator sets and clears it` });
      return;
    }
    const problem = clientStatusProblem(status);
    if (problem) invalid.push({ field, message: byOperator && isKnown(status) ? `"${status}" is the registry's to compute, not to set` : problem });
  });
  return { readOnly, invalid };
}

/** Contacts and hosts (RFC 5733 §2.2, RFC 5732 §2.3): `linked` while a domain uses them. */
export function objectStatus(linked: boolean): string[] {
  return linked ? ["linked"] : ["ok"];
}

/** The statuses a domain filter may ask for: every status a domain can show. */
export const DOMAIN_STATUS_FILTERS = [...CLIENT_STATUSES, ...LOCK_STATUSES, "pendingDelete", "pendingTransfer", "inactive", "ok"] as const;

/**
 * The operations a status forbids (RFC 5731 §2.3): while a domain shows one of these
 * statuses, the operation is refused (EPP 2304). Clients set the client statuses; the
 * registry sets `pendingDelete` (a deleted domain in redemption, RFC 3915) and
 * `pendingTransfer` (a transfer waiting for the losing account, RFC 5731 §3.2.4).
 */
export const PROHIBITING_STATUSES = {
  // pendingUpdate: an update a connected registry holds for review (1001) admits no other until it settles.
  update: ["clientUpdateProhibited", "serverUpdateProhibited", "pendingDelete", "pendingTransfer", "pendingUpdate"],
  delete: ["clientDeleteProhibited", "serverDeleteProhibited", "pendingDelete", "pendingTransfer"],
  renew: ["clientRenewProhibited", "serverRenewProhibited", "pendingDelete", "pendingTransfer"],
  transfer: ["clientTransferProhibited", "serverTransferProhibited", "pendingDelete", "pendingTransfer"],
  // A restore is an update (RFC 3915 §4.2: the <rgp:restore> extends EPP <update>); the
  // pendingDelete it undoes is its own condition (src/resources/domains/restore.ts).
  restore: ["serverUpdateProhibited"],
  // Ending a pending transfer by approval moves the domain: the losing account's approval
  // and the sweep's automatic one (rejecting or cancelling it moves nothing).
  approveTransfer: ["serverTransferProhibited"],
} as const satisfies Record<string, readonly string[]>;

export type DomainOperation = keyof typeof PROHIBITING_STATUSES;

/**
 * The status that forbids `operation` on a domain with `current` statuses, or null. An
 * update may remove the status that forbids it, and nothing else with it: `nextStatuses`
 * are the statuses the update sets (undefined when it leaves them untouched).
 */
export function prohibitingStatus(operation: DomainOperation, current: readonly string[], nextStatuses?: readonly string[]): string | null {
  const status = (PROHIBITING_STATUSES[operation] as readonly string[]).find((s) => current.includes(s)) ?? null;
  // A client or lock status can be removed by the update itself (the lock only by the
  // operator, whose `status` alone may leave it out); pendingDelete and pendingTransfer stay.
  const removable = status !== null && (isClientStatus(status) || isLockStatus(status));
  if (removable && operation === "update" && nextStatuses !== undefined && !nextStatuses.includes(status)) return null;
  return status;
}

/**
 * A change of the registry lock alone (the operator's patch that changes nothing but lock
 * statuses) is not an update of the domain: the registry sets its own statuses whatever the
 * domain's state (RFC 5731 §2.3), in redemption or during a transfer too, and so clears a
 * serverUpdateProhibited it set.
 */
export function isLockChangeOnly(
  current: { statuses: readonly string[]; serverStatuses: readonly string[] },
  next: { statuses: readonly string[]; serverStatuses: readonly string[] },
  otherFieldsChanged: boolean,
): boolean {
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((s, i) => s === b[i]);
  return !otherFieldsChanged && same(current.statuses, next.statuses) && !same(current.serverStatuses, next.serverStatuses);
}

/**
 * Whether the registry lock holds the domain against the service's own updates of it
 * (serverUpdateProhibited): the DS one-click DNSSEC links or removes, a name server the
 * purge of another domain drops. They wait until the operator clears the lock.
 */
export function lockedAgainstUpdate(serverStatuses: readonly string[]): boolean {
  return serverStatuses.includes("serverUpdateProhibited");
}

// ---- What the lock forbids the lifecycle sweep (docs/lifecycle.md, docs/lifecycle.md#availability-and-prices). The sweep's due
// queries hold SQL mirrors of these (src/jobs/sweep.ts), and
// test/registry-lock.test.ts holds each mirror to its rule.

/** The registry renews an expired domain by itself only with `auto_renew` and neither renew prohibition. */
export function autoRenewAllowed(domain: { autoRenew: boolean; statuses: readonly string[]; serverStatuses: readonly string[] }): boolean {
  return domain.autoRenew && !domain.statuses.includes("clientRenewProhibited") && !domain.serverStatuses.includes("serverRenewProhibited");
}

/**
 * Whether the sweep may take a domain toward deletion (an expiry into redemption, the end
 * of redemption, the purge): not under serverDeleteProhibited, which holds the domain as it
 * is until the operator clears it.
 */
export function sweepDeleteAllowed(serverStatuses: readonly string[]): boolean {
  return !serverStatuses.includes("serverDeleteProhibited");
}
