import { objectStatus } from "../../registry/statuses";
import type { ContactWithLinks } from "./queries";
import type { Contact } from "./schemas";

/**
 * A contact's API representation. Its own module, apart from the handlers, because the
 * RDAP view of a domain shows the domain's contacts.
 */
export function presentContact(row: ContactWithLinks): Contact {
  return {
    id: row.id,
    account: row.accountId,
    name: row.name,
    organization: row.organization,
    email: row.email,
    phone: row.phone,
    fax: row.fax,
    address: { street: row.street, city: row.city, state: row.state, postal_code: row.postalCode, country_code: row.countryCode },
    privacy: row.privacy,
    status: objectStatus(row.linked) as Contact["status"],
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
