// A domain's links to contacts and name servers, checked the same way on registration
// and on update: every problem is collected so that one 422 lists them all.
import type { ExtensionRow } from "../../db/catalog";
import type { Findings } from "../../http/findings";
import { missingAddressFields, ROLES_NEEDING_ADDRESS, type DomainContactRole } from "../../registry/contacts";
import { registrableDomainOf } from "../../registry/extensions";
import { normalizeHostName } from "../../registry/hosts";

export const CONTACT_FIELDS: Record<DomainContactRole, string> = {
  registrant: "registrant",
  admin: "contacts.admin",
  tech: "contacts.tech",
  billing: "contacts.billing",
};

/** Name servers normalised and unique; each bad one is reported at its index. */
export function normalizeNameservers(raw: readonly string[], findings: Findings): string[] {
  const names: string[] = [];
  raw.forEach((input, index) => {
    const normalized = normalizeHostName(input);
    if (!normalized.ok) {
      findings.invalid.push({ field: `nameservers[${index}]`, message: `"${input}" ${normalized.error}` });
    } else if (names.includes(normalized.name)) {
      findings.invalid.push({ field: `nameservers[${index}]`, message: `${normalized.name} is listed twice` });
    } else {
      names.push(normalized.name);
    }
  });
  return names;
}

/** The extension's name server count (RFC 5731 §2.6: a registry sets its own bounds). */
export function checkNameserverCount(count: number, extension: ExtensionRow, findings: Findings): void {
  const { nameserversMin: min, nameserversMax: max } = extension;
  if (count < min || count > max) {
    findings.policy.push({ field: "nameservers", message: `.${extension.id} domains have ${min} to ${max} name servers; ${count} given` });
  }
}

/** Names of the only domains that could be superordinate to these name servers. */
export function superordinateCandidates(nameservers: readonly string[], extensions: ReadonlyMap<string, unknown>): string[] {
  const candidates = new Set<string>();
  for (const name of nameservers) {
    const domain = registrableDomainOf(name, extensions);
    if (domain) candidates.add(domain);
  }
  return [...candidates];
}

/**
 * Which name servers must become new (external) host objects. An unknown name under a
 * domain managed here (the one being written included) is refused: its host needs glue
 * addresses, which only a host creation can give (RFC 5732 §3.2.1).
 */
export function planNameservers(
  nameservers: readonly string[],
  known: ReadonlySet<string>,
  managedDomains: ReadonlySet<string>,
  extensions: ReadonlyMap<string, unknown>,
  findings: Findings,
): string[] {
  const newExternal: string[] = [];
  nameservers.forEach((name, index) => {
    if (known.has(name)) return;
    const superordinate = registrableDomainOf(name, extensions);
    if (superordinate && managedDomains.has(superordinate)) {
      findings.invalid.push({
        field: `nameservers[${index}]`,
        message: `${name} is under ${superordinate}, a domain managed here: create the host with its addresses first (POST /v1/hosts)`,
      });
    } else {
      newExternal.push(name);
    }
  });
  return newExternal;
}

/** Contacts referenced must exist; registrant, admin and tech contacts need a postal address. */
export function checkContacts(
  assigned: Partial<Record<DomainContactRole, string | null>>,
  found: ReadonlyMap<string, { city: string | null; countryCode: string | null }>,
  findings: Findings,
): void {
  for (const [role, id] of Object.entries(assigned) as [DomainContactRole, string | null | undefined][]) {
    if (id === null || id === undefined) continue;
    const field = CONTACT_FIELDS[role];
    const contact = found.get(id);
    if (!contact) {
      findings.invalid.push({ field, message: `contact ${id} does not exist` });
      continue;
    }
    if (!ROLES_NEEDING_ADDRESS.includes(role)) continue;
    const missing = missingAddressFields(contact);
    if (missing.length > 0) {
      findings.policy.push({ field, message: `contact ${id} lacks ${missing.join(" and ")}, required for a ${role} contact` });
    }
  }
}

/** The contacts assigned to roles that need a postal address: what the write's guard holds to. */
export function contactsNeedingAddress(assigned: Partial<Record<DomainContactRole, string | null>>): string[] {
  return ROLES_NEEDING_ADDRESS.map((role) => assigned[role]).filter((id): id is string => typeof id === "string");
}
