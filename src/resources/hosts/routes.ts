import { defineRoute } from "../../http/route";
import { withRdapErrors, withRdapView } from "../../http/rdap";
import { RdapNameserverResponseSchema } from "../../rdap/schemas";
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
import { HOST_READ_ONLY, HostCreateSchema, HostListQuery, HostListSchema, HostPatchSchema, HostSchema } from "./schemas";
import { HOST_CREATE_EXAMPLE, HOST_EXAMPLE, HOST_PATCH_EXAMPLE, RDAP_NAMESERVER_EXAMPLE } from "../examples";

const tags = ["Hosts"];
const HostParams = pathParams("host", "Host id (`hst_…`) or name (`ns1.example.com`).", "ns1.example.com");

export const listHosts = defineRoute({
  operationId: "listHosts",
  access: { scope: "read" },
  method: "get",
  path: "/hosts",
  tags,
  summary: "List hosts",
  description: "Name server host objects in creation order, keyset-paginated. Filters combine with AND.",
  request: { query: HostListQuery },
  responses: { 200: listResponse(HostListSchema, "A page of hosts.", [HOST_EXAMPLE]), ...errorResponses(400) },
});

export const listRepositoryHosts = defineRoute({
  operationId: "listRepositoryHosts",
  access: { scope: "read" },
  method: "get",
  path: "/repositories/{repository}/hosts",
  tags: ["Repositories"],
  summary: "List the hosts a repository holds",
  description: "Hosts used as name server by a domain of the repository, or subordinate to one; same filters, order and pagination as `GET /hosts`.",
  request: { params: RepositoryParams, query: HostListQuery },
  responses: { 200: listResponse(HostListSchema, "A page of hosts.", [HOST_EXAMPLE]), ...errorResponses(400, 404) },
});

export const getHost = defineRoute({
  operationId: "getHost",
  access: { scope: "read" },
  method: "get",
  path: "/hosts/{host}",
  tags,
  summary: "Get a host",
  description:
    "One host by id (`hst_…`) or name. With `Accept: application/rdap+json` it answers the RDAP view instead (RFC 9083): a nameserver object." +
    CONDITIONAL_GET,
  request: { params: HostParams },
  responses: {
    200: withRdapView(resourceResponse(HostSchema, "The host.", HOST_EXAMPLE), RdapNameserverResponseSchema, RDAP_NAMESERVER_EXAMPLE),
    304: notModifiedResponse,
    ...withRdapErrors(errorResponses(404)),
  },
});

export const createHost = defineRoute({
  operationId: "createHost",
  access: { scope: "write" },
  method: "post",
  path: "/hosts",
  tags,
  summary: "Create a host",
  description:
    "A host under a domain managed here is subordinate (`domain` set) and needs 1–13 glue `addresses`; any other host is external and takes none. Addresses are returned canonical; unspecified, loopback, multicast and link-local addresses are refused.",
  readOnly: HOST_READ_ONLY,
  request: { body: jsonBody(HostCreateSchema, "The new host.", HOST_CREATE_EXAMPLE) },
  responses: { 201: createdResponse(HostSchema, "The host was created.", HOST_EXAMPLE), ...errorResponses(400, 409, 413, 415, 422) },
});

export const updateHost = defineRoute({
  operationId: "updateHost",
  access: { scope: "write" },
  method: "patch",
  path: "/hosts/{host}",
  tags,
  summary: "Update (rename, re-address) a host",
  description: `Renaming re-evaluates the subordinate/external rules; domains that use the host follow the new name. \`addresses\` replaces the list. ${IF_MATCH_HEADER_DOC}`,
  readOnly: HOST_READ_ONLY,
  request: { params: HostParams, body: mergePatchBody(HostPatchSchema, "Fields to change.", HOST_PATCH_EXAMPLE) },
  responses: { 200: resourceResponse(HostSchema, "The updated host.", HOST_EXAMPLE), ...errorResponses(400, 404, 409, 412, 413, 415, 422) },
});

export const deleteHost = defineRoute({
  operationId: "deleteHost",
  access: { scope: "write" },
  method: "delete",
  path: "/hosts/{host}",
  tags,
  summary: "Delete a host",
  description: `A host used as a name server cannot be deleted (409 \`object_linked\`, naming the domains). ${IF_MATCH_HEADER_DOC}`,
  request: { params: HostParams },
  responses: { 204: noContentResponse, ...errorResponses(404, 409, 412) },
});
