// Domain statuses (RFC 5731 §2.3). Clients set only the client* statuses; server*,
// pending* and the computed `ok`/`inactive` belong to the registry.

export const CLIENT_STATUSES = ["clientDeleteProhibited", "clientHold", "clientRenewProhibited", "clientTransferProhibited", "clientUpdateProhibited"] as const;
export type ClientStatus = (typeof CLIENT_STATUSES)[number];

const SERVER_STATUSES = [
  "serverDeleteProhibited",
  "serverHold",
  "serverRenewProhibited",
  "serverTransferProhibited",
  "serverUpdateProhibited",
  "pendingCreate",
  "pendingDelete",
  "pendingRenew",
  "pendingTransfer",
  "pendingUpdate",
  "ok",
  "inactive",
  "linked",
];

export function isClientStatus(value: string): value is ClientStatus {
  return (CLIENT_STATUSES as readonly string[]).includes(value);
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

/**
 * The status a domain shows (RFC 5731 §2.3): its client statuses, `inactive` when it has
 * no name servers, and `ok` alone when nothing else applies.
 */
export function domainStatus(clientStatuses: readonly string[], nameserverCount: number): string[] {
  const status = [...clientStatuses];
  if (nameserverCount === 0) status.push("inactive");
  return status.length === 0 ? ["ok"] : status;
}

/** Contacts and hosts (RFC 5733 §2.2, RFC 5732 §2.3): `linked` while a domain uses them. */
export function objectStatus(linked: boolean): string[] {
  return linked ? ["linked"] : ["ok"];
}

/** The statuses a domain filter may ask for: every status a domain can show. */
export const DOMAIN_STATUS_FILTERS = [...CLIENT_STATUSES, "inactive", "ok"] as const;

/**
 * RFC 5731 §2.3: while clientUpdateProhibited is set, only a change that removes it is
 * allowed. `nextStatuses` is undefined when the update leaves statuses untouched.
 */
export function updateProhibited(current: readonly string[], nextStatuses: readonly string[] | undefined): boolean {
  if (!current.includes("clientUpdateProhibited")) return false;
  return nextStatuses === undefined || nextStatuses.includes("clientUpdateProhibited");
}

export function deleteProhibited(current: readonly string[]): boolean {
  return current.includes("clientDeleteProhibited");
}
