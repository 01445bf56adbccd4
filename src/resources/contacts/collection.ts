// Contacts as the write routine sees them (src/http/mutate.ts), and how a body becomes a
// contact's stored fields: the same for a creation and for a merged patch.
import type { Collection } from "../../http/mutate";
import { presentContact } from "./present";
import { type ContactRow, type ContactWithLinks, findContact } from "./queries";
import type { Contact, ContactCreate } from "./schemas";

// Contacts have no name to be found by: a path segment is always an id.
export const contactCollection: Collection<ContactWithLinks, Contact> = {
  type: "contact",
  path: "/v1/contacts",
  byName: false,
  find: findContact,
  present: presentContact,
  accountOf: (row) => row.accountId,
};

export type ContactFields = Omit<ContactRow, "id" | "accountId" | "version" | "createdAt" | "updatedAt">;

/** The writable part of a contact as the API shows it: what a patch is merged onto. */
export function writableContact(row: ContactRow): ContactCreate {
  const { id: _id, account: _account, status: _status, created_at: _created, updated_at: _updated, ...writable } = presentContact({ ...row, linked: false });
  return writable;
}

/** A contact's stored fields from a body: absent optional fields are empty. */
export function contactFields(input: ContactCreate): ContactFields {
  return {
    name: input.name,
    nameKey: input.name.toLowerCase(),
    organization: input.organization ?? null,
    email: input.email,
    emailKey: input.email.toLowerCase(),
    phone: input.phone ?? null,
    fax: input.fax ?? null,
    street: input.address?.street ?? [],
    city: input.address?.city ?? null,
    state: input.address?.state ?? null,
    postalCode: input.address?.postal_code ?? null,
    countryCode: input.address?.country_code ?? null,
    privacy: input.privacy ?? false,
  };
}
