// Contact roles (RFC 5733, ICANN RDDS): a contact that is a domain's registrant, admin or
// tech contact must be reachable by post, so it needs at least a city and a country.

import type { FieldError } from "./field-error";

const DOMAIN_CONTACT_ROLES = ["registrant", "admin", "tech", "billing"] as const;
export type DomainContactRole = (typeof DOMAIN_CONTACT_ROLES)[number];

const ROLES_NEEDING_ADDRESS: readonly DomainContactRole[] = ["registrant", "admin", "tech"];

export function missingAddressFields(contact: { city: string | null; countryCode: string | null }): string[] {
  const missing: string[] = [];
  if (!contact.city) missing.push("address.city");
  if (!contact.countryCode) missing.push("address.country_code");
  return missing;
}

/** The address fields a contact may not lose while it is a registrant, admin or tech contact. */
export function addressRequiredErrors(missing: readonly string[]): FieldError[] {
  return missing.map((field) => ({ field, message: "is required while the contact is a registrant, admin or tech contact" }));
}

/** The field each role is written in. */
const CONTACT_FIELDS: Record<DomainContactRole, string> = {
  registrant: "registrant",
  admin: "contacts.admin",
  tech: "contacts.tech",
  billing: "contacts.billing",
};

/** The contacts assigned to roles: a role absent or null assigns none. */
export type AssignedContacts = Partial<Record<DomainContactRole, string | null>>;

/** The contacts assigned to roles that need a postal address. */
export function contactsNeedingAddress(assigned: AssignedContacts): string[] {
  return ROLES_NEEDING_ADDRESS.map((role) => assigned[role]).filter((id): id is string => typeof id === "string");
}

/** Every contact a domain names must exist (RFC 5731 §3.2.1). */
export function unknownContactErrors(assigned: AssignedContacts, found: ReadonlyMap<string, unknown>): FieldError[] {
  return (Object.entries(assigned) as [DomainContactRole, string | null | undefined][])
    .filter(([, id]) => typeof id === "string" && !found.has(id))
    .map(([role, id]) => ({ field: CONTACT_FIELDS[role], message: `contact ${id} does not exist` }));
}

/** Registrant, admin and tech contacts need a city and a country. */
export function contactAddressErrors(
  assigned: AssignedContacts,
  found: ReadonlyMap<string, { city: string | null; countryCode: string | null }>,
): FieldError[] {
  const errors: FieldError[] = [];
  for (const [role, id] of Object.entries(assigned) as [DomainContactRole, string | null | undefined][]) {
    const contact = typeof id === "string" ? found.get(id) : undefined;
    if (!contact || !ROLES_NEEDING_ADDRESS.includes(role)) continue;
    const missing = missingAddressFields(contact);
    if (missing.length > 0)
      errors.push({ field: CONTACT_FIELDS[role], message: `contact ${id} lacks ${missing.join(" and ")}, required for a ${role} contact` });
  }
  return errors;
}
