import { defineRoute } from "../../http/route";
import { withRdapErrors, withRdapView } from "../../http/rdap";
import { RdapEntityResponseSchema } from "../../rdap/schemas";
import { pathParams, RepositoryParams } from "../../http/params";
import {
  CONDITIONAL_GET,
  createdResponse,
  errorResponses,
  IF_MATCH_HEADER_DOC,
  jsonBody,
  listResponse,
  mergePatchBody,
  noContentResponse,
  notModifiedResponse,
  resourceResponse,
} from "../../http/openapi";
import { CONTACT_READ_ONLY, ContactCreateSchema, ContactListQuery, ContactListSchema, ContactPatchSchema, ContactSchema } from "./schemas";
import { CONTACT_CREATE_EXAMPLE, CONTACT_EXAMPLE, CONTACT_PATCH_EXAMPLE, RDAP_ENTITY_EXAMPLE } from "../examples";

const tags = ["Contacts"];
const ContactParams = pathParams("contact", "Contact id (`con_…`).", "con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B");

export const listContacts = defineRoute({
  operationId: "listContacts",
  access: { scope: "read" },
  method: "get",
  path: "/contacts",
  tags,
  summary: "List contacts",
  description: "Contacts in creation order, keyset-paginated. Filters combine with AND.",
  request: { query: ContactListQuery },
  responses: { 200: listResponse(ContactListSchema, "A page of contacts.", [CONTACT_EXAMPLE]), ...errorResponses(400) },
});

export const listRepositoryContacts = defineRoute({
  operationId: "listRepositoryContacts",
  access: { scope: "read" },
  method: "get",
  path: "/repositories/{repository}/contacts",
  tags: ["Repositories"],
  summary: "List the contacts a repository holds",
  description: "Contacts used (in any role) by a domain of the repository; same filters, order and pagination as `GET /contacts`.",
  request: { params: RepositoryParams, query: ContactListQuery },
  responses: { 200: listResponse(ContactListSchema, "A page of contacts.", [CONTACT_EXAMPLE]), ...errorResponses(400, 404) },
});

export const getContact = defineRoute({
  operationId: "getContact",
  access: { scope: "read" },
  method: "get",
  path: "/contacts/{contact}",
  tags,
  summary: "Get a contact",
  description:
    "One contact by id. With `Accept: application/rdap+json` it answers the RDAP view instead (RFC 9083): an entity object, redacted when the contact asked for `privacy`." +
    CONDITIONAL_GET,
  request: { params: ContactParams },
  responses: {
    200: withRdapView(resourceResponse(ContactSchema, "The contact.", CONTACT_EXAMPLE), RdapEntityResponseSchema, RDAP_ENTITY_EXAMPLE),
    304: notModifiedResponse,
    ...withRdapErrors(errorResponses(404)),
  },
});

export const createContact = defineRoute({
  operationId: "createContact",
  access: { scope: "write" },
  method: "post",
  path: "/contacts",
  tags,
  summary: "Create a contact",
  description:
    "Required: `name` and `email`. A contact that will be a domain's registrant, admin or tech contact also needs `address.city` and `address.country_code`.",
  readOnly: CONTACT_READ_ONLY,
  request: { body: jsonBody(ContactCreateSchema, "The new contact.", CONTACT_CREATE_EXAMPLE) },
  responses: { 201: createdResponse(ContactSchema, "The contact was created.", CONTACT_EXAMPLE), ...errorResponses(400, 413, 415, 422) },
});

export const updateContact = defineRoute({
  operationId: "updateContact",
  access: { scope: "write" },
  method: "patch",
  path: "/contacts/{contact}",
  tags,
  summary: "Update a contact",
  description: `Fields to change. ${IF_MATCH_HEADER_DOC} Removing the city or country of a contact that is a registrant, admin or tech contact answers 422 \`policy_violation\`.`,
  readOnly: CONTACT_READ_ONLY,
  request: { params: ContactParams, body: mergePatchBody(ContactPatchSchema, "Fields to change.", CONTACT_PATCH_EXAMPLE) },
  responses: { 200: resourceResponse(ContactSchema, "The updated contact.", CONTACT_EXAMPLE), ...errorResponses(400, 404, 409, 412, 413, 415, 422) },
});

export const deleteContact = defineRoute({
  operationId: "deleteContact",
  access: { scope: "write" },
  method: "delete",
  path: "/contacts/{contact}",
  tags,
  summary: "Delete a contact",
  description: `A contact used by any domain cannot be deleted (409 \`object_linked\`, naming the domains). ${IF_MATCH_HEADER_DOC}`,
  request: { params: ContactParams },
  responses: { 204: noContentResponse, ...errorResponses(404, 409, 412) },
});
