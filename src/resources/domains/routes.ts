import { collectionRoutes } from "../../http/collection-routes";
import { defineRoute } from "../../http/route";
import { RdapDomainResponseSchema } from "../../rdap/schemas";
import { errorResponses, IF_MATCH_HEADER_DOC, jsonBody, noContentResponse, resourceResponse } from "../../http/openapi";
import { InRepository } from "../../http/params";
import {
  DOMAIN_READ_ONLY,
  DomainCheckQuery,
  DomainCheckSchema,
  DomainCreateSchema,
  DomainRenewSchema,
  DomainListQuery,
  DomainListSchema,
  DomainPatchSchema,
  DomainSchema,
  PricedDomainSchema,
  TransferRequestSchema,
  TransferSchema,
} from "./schemas";
import {
  DOMAIN_CHECK_EXAMPLE,
  DOMAIN_CREATE_EXAMPLE,
  PRICED_DOMAIN_EXAMPLE,
  RENEWED_DOMAIN_EXAMPLE,
  RESTORED_DOMAIN_EXAMPLE,
  DOMAIN_DELETED_EXAMPLE,
  DOMAIN_EXAMPLE,
  DOMAIN_RENEW_EXAMPLE,
  DOMAIN_LIST_ITEM_EXAMPLE,
  DOMAIN_PATCH_EXAMPLE,
  RDAP_DOMAIN_EXAMPLE,
  TRANSFER_EXAMPLE,
  TRANSFER_REQUEST_EXAMPLE,
} from "./examples";

const tags = ["Domains"];
const domains = collectionRoutes({
  path: "/domains",
  member: { param: "domain", description: "Domain id (`dom_…`) or name (`example.com`, U-labels accepted).", example: "example.com" },
  tags,
  operationIds: { one: "Domain", many: "Domains" },
  noun: { one: "domain", many: "domains" },
  schema: DomainSchema,
  example: DOMAIN_EXAMPLE,
  readOnly: DOMAIN_READ_ONLY,
});
const DomainParams = domains.params;

const LIST_DESCRIPTION =
  "Keyset-paginated; filters combine with AND. `sort` orders by `created_at` (default), `name` or `expires_at`, `-` for descending. List items omit `auth_info`.";

export const listDomains = domains.list({
  access: { scope: "read", narrow: "visible" },
  description: LIST_DESCRIPTION,
  query: DomainListQuery,
  page: DomainListSchema,
  items: [DOMAIN_LIST_ITEM_EXAMPLE],
});

export const listRepositoryDomains = domains.listWithin(InRepository, {
  access: { scope: "read", narrow: "visible" },
  description: `Domains registered under the repository's extensions. ${LIST_DESCRIPTION}`,
  query: DomainListQuery,
  page: DomainListSchema,
  items: [DOMAIN_LIST_ITEM_EXAMPLE],
});

// Declared before GET /domains/{domain}: `check` (no dot) would otherwise be taken for a domain id.
export const checkDomains = defineRoute({
  operationId: "checkDomains",
  access: { scope: "read", narrow: "visible" },
  method: "get",
  path: "/domains/check",
  tags,
  summary: "Check whether names can be registered, and their prices",
  description:
    "For 1 to 50 names (`?name=a.com&name=b.net`, U-labels or A-labels), in the order given: whether each can be registered (`available`), why not (`reason`: `registered` by any account, in redemption too, and nothing more is said; `reserved` by its registry; `invalid`; `unsupported_extension`), whether the registry prices it on its own (`premium`: its register, renew and transfer need the price confirmed in the body), and, when available, its prices for every period its extension allows. Answers the same to every caller; costs one D1 round trip whatever the number of names (RFC 5731 §3.1.1 `<check>`, with the prices of the fee extension, RFC 8748). Names under a repository with a connector (`GET /v1/repositories/{id}`: `connector.kind` `epp`) are answered by that registry: one EPP `<domain:check>` with the fee extension, its `available` and reason, `premium` and `prices` from its fees (503 `registry_unavailable` with `Retry-After` when it cannot be reached).",
  request: { query: DomainCheckQuery },
  responses: {
    200: {
      description: "One answer per name, in the order asked.",
      content: { "application/json": { schema: DomainCheckSchema, example: DOMAIN_CHECK_EXAMPLE } },
    },
    ...errorResponses(400),
  },
});

export const getDomain = domains.getWithRdap({
  access: { scope: "read", narrow: "visible" },
  description:
    "One domain by id (`dom_…`) or name (A-label or U-label), with its `auth_info`. With `Accept: application/rdap+json` it answers the RDAP view instead (RFC 9083): a domain object, without `auth_info`.",
  rdap: { schema: RdapDomainResponseSchema, example: RDAP_DOMAIN_EXAMPLE },
  response: { description: "The domain, with `auth_info`." },
});

export const createDomain = domains.create({
  access: { scope: "write" },
  summary: "Register a domain",
  description:
    "The name must be one label under an extension of the catalog (longest match: `example.co.uk` → `co.uk`). `period` (years) must lie in the extension's range; `expires_at` is registration time plus the period. Contacts must exist; a registrant, admin or tech contact needs `address.city` and `address.country_code`. Name servers are host names: an unknown external name becomes a host object, an unknown name under a domain managed here must be created as a host (with addresses) first. `status` takes client statuses (the registry lock only from the operator: a customer gets 422 `read_only_field`). `auth_info` is generated when absent. A zone of the same name is linked. A name its registry reserves → 422 `policy_violation`. A premium name needs its price confirmed in `price` (422 `price_mismatch` otherwise, naming the price: RFC 8748). The answer says what the registration cost (`price`). Under a repository with a connector the registry decides (docs/registries.md): the contacts and name servers are created there first, then the domain; a name it holds is 409 `unavailable`, its refusals the matching problem with its words in `detail`, a registry out of reach 503 `registry_unavailable` with `Retry-After`, and a registration it leaves pending is 202 with `pendingCreate` in `status`.",
  body: DomainCreateSchema,
  bodyDescription: "The registration.",
  example: DOMAIN_CREATE_EXAMPLE,
  response: { schema: PricedDomainSchema, description: "The domain was registered, with what it cost.", example: PRICED_DOMAIN_EXAMPLE },
  accepted: {
    description:
      "A connected repository's registry left the registration pending (1001): the domain shows `pendingCreate` and is its account's, what it cost in `price`, until the registry settles it (docs/registries.md): approved, it stays with the registry's dates; refused, it leaves the account.",
    example: { ...PRICED_DOMAIN_EXAMPLE, status: [...PRICED_DOMAIN_EXAMPLE.status, "pendingCreate"], registry: null },
  },
});

export const updateDomain = domains.update({
  access: { scope: "write", narrow: "visible" },
  description: `Change contacts, name servers (replaced whole), client statuses (replaced whole), \`auth_info\` or \`auto_renew\`. While \`clientUpdateProhibited\` is set, only a patch whose \`status\` removes it is accepted (409 \`status_prohibits\`). The registry lock (\`serverUpdateProhibited\`, \`serverDeleteProhibited\`, \`serverTransferProhibited\`, \`serverRenewProhibited\`, \`serverHold\`) is set and cleared by operator tokens only, in \`status\` (which then replaces client and lock statuses together): a customer sending one gets 422 \`read_only_field\`; a patch that changes only the lock is accepted whatever the domain's state, and under \`serverUpdateProhibited\` nothing else is, for any account, until the operator clears it. Under a connected repository the registry changes first; an update it leaves pending (1001) is 202 with \`pendingUpdate\`, what the registry holds unchanged until it settles, and another update meanwhile is 409 (docs/registries.md). ${IF_MATCH_HEADER_DOC}`,
  body: DomainPatchSchema,
  example: DOMAIN_PATCH_EXAMPLE,
  accepted: {
    description:
      "A connected repository's registry left the update pending (1001): the domain shows `pendingUpdate`, what the registry holds (name servers, DS, contacts, statuses, `auth_info`) unchanged until the registry settles it (docs/registries.md); `auto_renew` and the operator's lock are changed.",
    example: { ...DOMAIN_EXAMPLE, status: ["pendingUpdate"] },
  },
});

export const deleteDomain = defineRoute({
  operationId: "deleteDomain",
  access: { scope: "write", narrow: "visible" },
  method: "delete",
  path: "/domains/{domain}",
  tags,
  summary: "Delete a domain",
  description: `Inside \`addPeriod\` the domain is removed at once (204) and a zone of the same name survives and loses its link. Afterwards it enters \`redemptionPeriod\` with \`pendingDelete\` (202 with the domain, RFC 3915): \`POST …/restore\` brings it back until the period ends, then the sweep purges it. Refused with 409 \`status_prohibits\` under \`clientDeleteProhibited\`, \`serverDeleteProhibited\`, \`pendingDelete\` or \`pendingTransfer\`, and with 409 \`object_linked\` while hosts subordinate to the domain exist. ${IF_MATCH_HEADER_DOC}`,
  request: { params: DomainParams },
  responses: {
    202: resourceResponse(DomainSchema, "The domain entered `redemptionPeriod` (`pendingDelete`); `POST …/restore` brings it back.", DOMAIN_DELETED_EXAMPLE),
    204: noContentResponse,
    ...errorResponses(404, 409, 412),
  },
});

export const renewDomain = defineRoute({
  operationId: "renewDomain",
  access: { scope: "write", narrow: "visible" },
  method: "post",
  path: "/domains/{domain}/renew",
  tags,
  summary: "Renew a domain",
  description:
    "Adds `period` years to `expires_at` (RFC 5731 §3.2.3) and starts `renewPeriod`. `current_expires_at` must name the stored expiry date (422 `policy_violation` otherwise), so a retried renew cannot renew twice. The period must lie in the extension's range and the new expiry at most `periods.max` years from now (422). A premium name needs its renewal price confirmed in `price` (422 `price_mismatch`). Refused with 409 `status_prohibits` under `clientRenewProhibited`, `serverRenewProhibited`, `pendingDelete` or `pendingTransfer`. The answer says what the renewal cost (`price`). Under a connected repository the registry renews first, and its `exDate` is the expiry; a renewal it leaves pending is 202 with `pendingRenew` (docs/registries.md).",
  request: { params: DomainParams, body: jsonBody(DomainRenewSchema, "The renewal.", DOMAIN_RENEW_EXAMPLE) },
  responses: {
    200: resourceResponse(PricedDomainSchema, "The renewed domain, with what the renewal cost.", RENEWED_DOMAIN_EXAMPLE),
    202: resourceResponse(
      PricedDomainSchema,
      "A connected repository's registry left the renewal pending (1001): the domain shows `pendingRenew`, its expiry unchanged until the registry settles it (docs/registries.md).",
      { ...RENEWED_DOMAIN_EXAMPLE, expires_at: "2028-11-22T09:09:16.659Z", status: ["clientTransferProhibited", "pendingRenew"] },
    ),
    ...errorResponses(400, 404, 409, 412, 413, 415, 422, 503),
  },
});

export const restoreDomain = defineRoute({
  operationId: "restoreDomain",
  access: { scope: "write", narrow: "visible" },
  method: "post",
  path: "/domains/{domain}/restore",
  tags,
  summary: "Restore a deleted domain",
  description:
    "Inside `redemptionPeriod` the deleted domain comes back as it was (RFC 3915; the restore report is implied); a domain that had expired is renewed for one year. Otherwise, or under `serverUpdateProhibited`, 409 `status_prohibits`. The answer says what the restore cost (`price`: the extension's restore fee). Under a connected repository the registry restores first (RGP's request, then its report); a restore it leaves pending (1001: it reviews the report) is 202 with `pendingRestore`, the domain still deleted until the registry settles it, and another restore meanwhile is 409 (docs/registries.md).",
  request: { params: DomainParams },
  responses: {
    200: resourceResponse(PricedDomainSchema, "The restored domain, with what the restore cost.", RESTORED_DOMAIN_EXAMPLE),
    202: resourceResponse(
      PricedDomainSchema,
      "A connected repository's registry left the restore pending (1001): the domain shows `pendingRestore` and is still deleted (`pendingDelete`, `redemptionPeriod`) until the registry settles it (docs/registries.md).",
      {
        ...RESTORED_DOMAIN_EXAMPLE,
        status: ["pendingRestore", "pendingDelete"],
        rgp_status: [{ status: "redemptionPeriod", ends_at: "2026-12-22T09:09:16.659Z" }],
      },
    ),
    ...errorResponses(404, 409, 412, 422),
  },
});

export const requestTransfer = defineRoute({
  operationId: "requestTransfer",
  access: { scope: "write", narrow: "visible" },
  method: "post",
  path: "/domains/{domain}/transfer",
  tags,
  summary: "Request the transfer of a domain to your account",
  description:
    "By the gaining account, naming the domain by name (RFC 5731 §3.2.4). A premium name needs its transfer price confirmed in `price` (422 `price_mismatch`); the transfer says what it costs (`price`). Between two accounts here under a connected repository (docs/registries.md) the `auth_info` is the registry's, the approval adds no year, and the transfer costs `0.00` (no confirmation asked, a premium name's included). The checks run in this order, so that the password tells nothing but itself: (1) what forbids the transfer **whatever the password**, before it is compared (the same answer for a right and a wrong one, and nothing counted): 422 `policy_violation` from the sponsoring account itself; 409 `status_prohibits` under `clientTransferProhibited`, `serverTransferProhibited`, `pendingDelete` or `pendingTransfer`; 422 inside the transfer lock (`transfer_locked_until`); 422 for a period the extension refuses. (2) The failed-request counts: after 5 wrong `auth_info` for the domain (from any accounts), or 10 from the requesting account (any tokens, any domains), every request is 429 `rate_limited` with `Retry-After`, whatever the password, for 60 s, doubling with each further failure (at most 1 hour for a domain, 24 hours for an account); a count is forgotten a day after its last lock ends, and the sponsor setting a new `auth_info` starts the domain's count again. (3) The password: a wrong one → 422 `policy_violation` (field `auth_info`) and nothing more, counted, and recorded for the sponsor as a `transfer_auth_failed` event on the domain. The domain shows `pendingTransfer` until the losing account approves or rejects, the gaining one cancels, or `act_by` passes (automatic approval). A name of a connected repository that no account here holds is another registrar's (docs/registries.md): the registry is asked (`<domain:transfer op=\"request\">` with `auth_info`; a wrong one is its 2202, 422 `invalid_auth_info`, counted as above), the transfer is 202 pending with `registrar` naming the losing registrar, and the domain joins the account with the registry's dates once the registry says it was approved (or 201 when it approves at once).",
  request: { params: DomainParams, body: jsonBody(TransferRequestSchema, "The request.", TRANSFER_REQUEST_EXAMPLE) },
  responses: {
    201: { description: "The transfer, pending.", content: { "application/json": { schema: TransferSchema, example: TRANSFER_EXAMPLE } } },
    202: {
      description: "A transfer from another registrar, pending at the registry.",
      content: {
        "application/json": {
          schema: TransferSchema,
          example: { ...TRANSFER_EXAMPLE, domain: null, losing_account: null, registrar: "other-registrar", price: null },
        },
      },
    },
    ...errorResponses(400, 404, 409, 413, 415, 422, 503),
  },
});

export const getTransfer = defineRoute({
  operationId: "getTransfer",
  access: { scope: "read", narrow: "visible" },
  method: "get",
  path: "/domains/{domain}/transfer",
  tags,
  summary: "The domain's latest transfer",
  description: "Readable by the gaining and the losing account (and operators); anyone else gets 404.",
  request: { params: DomainParams },
  responses: { 200: resourceResponse(TransferSchema, "The latest transfer.", TRANSFER_EXAMPLE), ...errorResponses(404) },
});

function transferAction(action: "approve" | "reject" | "cancel", who: string, summary: string) {
  return defineRoute({
    operationId: `${action}Transfer`,
    access: { scope: "write", narrow: "visible" },
    method: "post",
    path: `/domains/{domain}/transfer/${action}`,
    tags,
    summary,
    description: `By the ${who} account (RFC 5731 §3.2.4); anyone else gets 404, a transfer no longer pending 409 \`status_prohibits\`.${action === "approve" ? " Refused (409) while the domain has `serverTransferProhibited`, which holds the transfer pending (the sweep does not approve it either); it can still be rejected or cancelled. The sponsor becomes the gaining account, `expires_at` grows by the period (capped at `periods.max` years from now), `auth_info` is regenerated, the contacts the domain uses are copied into the gaining account, subordinate hosts move with it, `transferPeriod` starts and the transfer lock restarts." : ""} A transfer with another registrar at a connected repository (\`registrar\` set, docs/registries.md) is acted on at the registry first (\`<domain:transfer op="${action}">\`): approved, the domain leaves the account; the other registrar's own request is cancelled only by it (409).`,
    request: { params: DomainParams },
    responses: { 200: resourceResponse(TransferSchema, "The transfer as it ended.", TRANSFER_EXAMPLE), ...errorResponses(404, 409, 422, 503) },
  });
}

export const approveTransfer = transferAction("approve", "losing", "Approve a transfer");
export const rejectTransfer = transferAction("reject", "losing", "Reject a transfer");
export const cancelTransfer = transferAction("cancel", "gaining", "Cancel a transfer");
