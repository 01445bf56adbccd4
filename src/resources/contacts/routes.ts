import { collectionRoutes } from "../../http/collection-routes";
import { IF_MATCH_HEADER_DOC } from "../../http/openapi";
import { InRepository } from "../../http/params";
import { RdapEntityResponseSchema } from "../../rdap/schemas";
import { CONTACT_CREATE_EXAMPLE, CONTACT_EXAMPLE, CONTACT_PATCH_EXAMPLE, RDAP_ENTITY_EXAMPLE } from "./examples";
import { CONTACT_READ_ONLY, ContactCreateSchema, ContactListQuery, ContactListSchema, ContactPatchSchema, ContactSchema } from "./schemas";

const contacts = collectionRoutes({
  path: "/contacts",
  member: { param: "contact", description: "Contact id (`con_…`).", example: "con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" },
  tags: ["Contacts"],
  operationIds: { one: "Contact", many: "Contacts" },
  noun: { one: "contact", many: "contacts" },
  schema: ContactSchema,
  example: CONTACT_EXAMPLE,
  readOnly: CONTACT_READ_ONLY,
});

export const listContacts = contacts.list({
  access: { scope: "read" },
  description: "Contacts in creation order, keyset-paginated. Filters combine with AND.",
  query: ContactListQuery,
  page: ContactListSchema,
});

export const listRepositoryContacts = contacts.listWithin(InRepository, {
  access: { scope: "read" },
  description: "Contacts used (in any role) by a domain of the repository; same filters, order and pagination as `GET /contacts`.",
  query: ContactListQuery,
  page: ContactListSchema,
});

export const getContact = contacts.getWithRdap({
  access: { scope: "read" },
  description:
    "One contact by id. With `Accept: application/rdap+json` it answers the RDAP view instead (RFC 9083): an entity object, redacted when the contact asked for `privacy`.",
  rdap: { schema: RdapEntityResponseSchema, example: RDAP_ENTITY_EXAMPLE },
});

export const createContact = contacts.create({
  access: { scope: "write" },
  description:
    "Required: `name` and `email`. A contact that will be a domain's registrant, admin or tech contact also needs `address.city` and `address.country_code`.",
  body: ContactCreateSchema,
  example: CONTACT_CREATE_EXAMPLE,
  errors: [400, 413, 415, 422],
});

export const updateContact = contacts.update({
  access: { scope: "write" },
  description: `Fields to change. ${IF_MATCH_HEADER_DOC} Removing the city or country of a contact that is a registrant, admin or tech contact answers 422 \`policy_violation\`.`,
  body: ContactPatchSchema,
  example: CONTACT_PATCH_EXAMPLE,
});

export const deleteContact = contacts.delete({
  access: { scope: "write" },
  description: `A contact used by any domain cannot be deleted (409 \`object_linked\`, naming the domains). ${IF_MATCH_HEADER_DOC}`,
});
