import { collectionRoutes } from "../../http/collection-routes";
import { IF_MATCH_HEADER_DOC } from "../../http/openapi";
import { InRepository } from "../../http/params";
import { RdapNameserverResponseSchema } from "../../rdap/schemas";
import { HOST_CREATE_EXAMPLE, HOST_EXAMPLE, HOST_PATCH_EXAMPLE, RDAP_NAMESERVER_EXAMPLE } from "./examples";
import { HOST_READ_ONLY, HostCreateSchema, HostListQuery, HostListSchema, HostPatchSchema, HostSchema } from "./schemas";

const hosts = collectionRoutes({
  path: "/hosts",
  member: { param: "host", description: "Host id (`hst_…`) or name (`ns1.example.com`).", example: "ns1.example.com" },
  tags: ["Hosts"],
  operationIds: { one: "Host", many: "Hosts" },
  noun: { one: "host", many: "hosts" },
  schema: HostSchema,
  example: HOST_EXAMPLE,
  readOnly: HOST_READ_ONLY,
});

export const listHosts = hosts.list({
  access: { scope: "read" },
  description: "Name server host objects in creation order, keyset-paginated. Filters combine with AND.",
  query: HostListQuery,
  page: HostListSchema,
});

export const listRepositoryHosts = hosts.listWithin(InRepository, {
  access: { scope: "read" },
  description: "Hosts used as name server by a domain of the repository, or subordinate to one; same filters, order and pagination as `GET /hosts`.",
  query: HostListQuery,
  page: HostListSchema,
});

export const getHost = hosts.getWithRdap({
  access: { scope: "read" },
  description: "One host by id (`hst_…`) or name. With `Accept: application/rdap+json` it answers the RDAP view instead (RFC 9083): a nameserver object.",
  rdap: { schema: RdapNameserverResponseSchema, example: RDAP_NAMESERVER_EXAMPLE },
});

export const createHost = hosts.create({
  access: { scope: "write" },
  description:
    "A host under a domain managed here is subordinate (`domain` set) and needs 1–13 glue `addresses`; any other host is external and takes none. Addresses are returned canonical; unspecified, loopback, multicast and link-local addresses are refused.",
  body: HostCreateSchema,
  example: HOST_CREATE_EXAMPLE,
});

export const updateHost = hosts.update({
  access: { scope: "write" },
  summary: "Update (rename, re-address) a host",
  description: `Renaming re-evaluates the subordinate/external rules; domains that use the host follow the new name. \`addresses\` replaces the list. ${IF_MATCH_HEADER_DOC}`,
  body: HostPatchSchema,
  example: HOST_PATCH_EXAMPLE,
});

export const deleteHost = hosts.delete({
  access: { scope: "write" },
  description: `A host used as a name server cannot be deleted (409 \`object_linked\`, naming the domains). ${IF_MATCH_HEADER_DOC}`,
});
