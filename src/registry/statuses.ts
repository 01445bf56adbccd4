// Domain statuses (RFC 5731 §2.3). Clients set only the client* statuses; server*,
// pending* and the computed `ok`/`inactive` belong to the registry.
import type { FieldError } from "./field-error";

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

/** The server statuses the registry sets on a domain (contract §12). */
export type ServerStatus = "pendingDelete" | "pendingTransfer";

/**
 * The status a domain shows (RFC 5731 §2.3): its client statuses, the registry's
 * `pendingDelete`/`pendingTransfer`, `inactive` when it has no name servers, and `ok`
 * alone when nothing else applies.
 */
export function domainStatus(clientStatuses: readonly string[], nameserverCount: number, serverStatuses: readonly ServerStatus[] = []): string[] {
  const status = [...clientStatuses, ...serverStatuses];
  if (nameserverCount === 0) status.push("inactive");
  return status.length === 0 ? ["ok"] : status;
}

/** Contacts and hosts (RFC 5733 §2.2, RFC 5732 §2.3): `linked` while a domain uses them. */
export function objectStatus(linked: boolean): string[] {
  return linked ? ["linked"] : ["ok"];
}

/** The statuses a domain filter may ask for: every status a domain can show. */
export const DOMAIN_STATUS_FILTERS = [...CLIENT_STATUSES, "pendingDelete", "pendingTransfer", "inactive", "ok"] as const;

/**
 * The operations a status forbids (RFC 5731 §2.3): while a domain shows one of these
 * statuses, the operation is refused (EPP 2304). Clients set the client statuses; the
 * registry sets `pendingDelete` (a deleted domain in redemption, RFC 3915) and
 * `pendingTransfer` (a transfer waiting for the losing account, RFC 5731 §3.2.4).
 */
export const PROHIBITING_STATUSES = {
  update: ["clientUpdateProhibited", "serverUpdateProhibited", "pendingDelete", "pendingTransfer"],
  delete: ["clientDeleteProhibited", "serverDeleteProhibited", "pendingDelete", "pendingTransfer"],
  renew: ["clientRenewProhibited", "serverRenewProhibited", "pendingDelete", "pendingTransfer"],
  transfer: ["clientTransferProhibited", "serverTransferProhibited", "pendingDelete", "pendingTransfer"],
} as const satisfies Record<string, readonly string[]>;

export type DomainOperation = keyof typeof PROHIBITING_STATUSES;

/**
 * The status that forbids `operation` on a domain with `current` statuses, or null. An
 * update may remove the status that forbids it, and nothing else with it: `nextStatuses`
 * are the statuses the update sets (undefined when it leaves them untouched).
 */
export function prohibitingStatus(operation: DomainOperation, current: readonly string[], nextStatuses?: readonly string[]): string | null {
  const status = PROHIBITING_STATUSES[operation].find((s) => current.includes(s)) ?? null;
  // Only a client status can be removed by the update itself; the registry's stay.
  if (status !== null && operation === "update" && isClientStatus(status) && nextStatuses !== undefined && !nextStatuses.includes(status)) return null;
  return status;
}

/** Each status a client asked for that it may not set, at `status[i]`. */
export function clientStatusErrors(statuses: readonly string[]): FieldError[] {
  return statuses.flatMap((status, index) => {
    const problem = clientStatusProblem(status);
    return problem ? [{ field: `status[${index}]`, message: problem }] : [];
  });
}
