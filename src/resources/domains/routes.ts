import { defineRoute } from "../../http/route";
import { withRdapErrors, withRdapView } from "../../http/rdap";
import { RdapDomainResponseSchema } from "../../rdap/schemas";
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
import { pathParams, RepositoryParams } from "../../http/params";
import { DOMAIN_READ_ONLY, DomainCreateSchema, DomainListQuery, DomainListSchema, DomainPatchSchema, DomainSchema } from "./schemas";
import { DOMAIN_CREATE_EXAMPLE, DOMAIN_EXAMPLE, DOMAIN_LIST_ITEM_EXAMPLE, DOMAIN_PATCH_EXAMPLE, RDAP_DOMAIN_EXAMPLE } from "../examples";

const tags = ["Domains"];
const DomainParams = pathParams("domain", "Domain id (`dom_…`) or name (`example.com`, U-labels accepted).", "example.com");

const LIST_DESCRIPTION =
  "Keyset-paginated; filters combine with AND. `sort` orders by `created_at` (default), `name` or `expires_at`, `-` for descending. List items omit `auth_info`.";

export const listDomains = defineRoute({
  operationId: "listDomains",
  method: "get",
  path: "/domains",
  tags,
  summary: "List domains",
  description: LIST_DESCRIPTION,
  request: { query: DomainListQuery },
  responses: { 200: listResponse(DomainListSchema, "A page of domains.", [DOMAIN_LIST_ITEM_EXAMPLE]), ...errorResponses(400) },
});

export const listRepositoryDomains = defineRoute({
  operationId: "listRepositoryDomains",
  method: "get",
  path: "/repositories/{repository}/domains",
  tags: ["Repositories"],
  summary: "List the domains a repository holds",
  description: `Domains registered under the repository's extensions. ${LIST_DESCRIPTION}`,
  request: { params: RepositoryParams, query: DomainListQuery },
  responses: { 200: listResponse(DomainListSchema, "A page of domains.", [DOMAIN_LIST_ITEM_EXAMPLE]), ...errorResponses(400, 404) },
});

export const getDomain = defineRoute({
  operationId: "getDomain",
  method: "get",
  path: "/domains/{domain}",
  tags,
  summary: "Get a domain",
  description:
    "One domain by id (`dom_…`) or name (A-label or U-label), with its `auth_info`. With `Accept: application/rdap+json` it answers the RDAP view instead (RFC 9083): a domain object, without `auth_info`." +
    CONDITIONAL_GET,
  request: { params: DomainParams },
  responses: {
    200: withRdapView(resourceResponse(DomainSchema, "The domain, with `auth_info`.", DOMAIN_EXAMPLE), RdapDomainResponseSchema, RDAP_DOMAIN_EXAMPLE),
    304: notModifiedResponse,
    ...withRdapErrors(errorResponses(404)),
  },
});

export const createDomain = defineRoute({
  operationId: "createDomain",
  method: "post",
  path: "/domains",
  tags,
  summary: "Register a domain",
  description:
    "The name must be one label under an extension of the catalog (longest match: `example.co.uk` → `co.uk`). `period` (years) must lie in the extension's range; `expires_at` is registration time plus the period. Contacts must exist; a registrant, admin or tech contact needs `address.city` and `address.country_code`. Name servers are host names: an unknown external name becomes a host object, an unknown name under a domain managed here must be created as a host (with addresses) first. `status` takes client statuses only. `auth_info` is generated when absent. A zone of the same name is linked.",
  readOnly: DOMAIN_READ_ONLY,
  request: { body: jsonBody(DomainCreateSchema, "The registration.", DOMAIN_CREATE_EXAMPLE) },
  responses: { 201: createdResponse(DomainSchema, "The domain was registered.", DOMAIN_EXAMPLE), ...errorResponses(400, 409, 413, 415, 422) },
});

export const updateDomain = defineRoute({
  operationId: "updateDomain",
  method: "patch",
  path: "/domains/{domain}",
  tags,
  summary: "Update a domain",
  description: `Change contacts, name servers (replaced whole), client statuses (replaced whole), \`auth_info\` or \`auto_renew\`. While \`clientUpdateProhibited\` is set, only a patch whose \`status\` removes it is accepted (409 \`status_prohibits\`). ${IF_MATCH_HEADER_DOC}`,
  readOnly: DOMAIN_READ_ONLY,
  request: { params: DomainParams, body: mergePatchBody(DomainPatchSchema, "Fields to change.", DOMAIN_PATCH_EXAMPLE) },
  responses: { 200: resourceResponse(DomainSchema, "The updated domain.", DOMAIN_EXAMPLE), ...errorResponses(400, 404, 409, 412, 413, 415, 422) },
});

export const deleteDomain = defineRoute({
  operationId: "deleteDomain",
  method: "delete",
  path: "/domains/{domain}",
  tags,
  summary: "Delete a domain",
  description: `Refused with 409 \`status_prohibits\` under \`clientDeleteProhibited\`, and with 409 \`object_linked\` while hosts subordinate to the domain exist. A zone of the same name survives and loses its link. ${IF_MATCH_HEADER_DOC}`,
  request: { params: DomainParams },
  responses: { 204: noContentResponse, ...errorResponses(404, 409, 412) },
});
