// Contact roles (RFC 5733, ICANN RDDS): a contact that is a domain's registrant, admin or
// tech contact must be reachable by post, so it needs at least a city and a country.

import type { FieldError } from "./field-error";

export const DOMAIN_CONTACT_ROLES = ["registrant", "admin", "tech", "billing"] as const;
export type DomainContactRole = (typeof DOMAIN_CONTACT_ROLES)[number];

export const ROLES_NEEDING_ADDRESS: readonly DomainContactRole[] = ["registrant", "admin", "tech"];

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
