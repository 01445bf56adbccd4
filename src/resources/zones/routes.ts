import { z } from "@hono/zod-openapi";
import { JSON_MEDIA_TYPE } from "../../http/json-body";
import { collectionRoutes } from "../../http/collection-routes";
import { createdResponse, errorResponses, IF_MATCH_HEADER_DOC, mergePatchBody, notModifiedResponse } from "../../http/openapi";
import { defineRoute } from "../../http/route";
import { MASTER_FILE_MEDIA_TYPE, MAX_MASTER_FILE_BYTES, MAX_MASTER_FILE_RECORDS } from "./master-file";
import {
  ImportQuery,
  ZONE_READ_ONLY,
  ZoneDeleteQuery,
  ZoneCreatedSchema,
  ZoneCreateSchema,
  ZoneListQuery,
  ZoneListSchema,
  ZonePatchSchema,
  ZoneSchema,
} from "./schemas";
import { MASTER_FILE_EXAMPLE, ZONE_CREATE_EXAMPLE, ZONE_EXAMPLE, ZONE_PATCH_EXAMPLE } from "./examples";

const tags = ["Zones"];
const zones = collectionRoutes({
  path: "/zones",
  member: { param: "zone", description: "Zone id (`zon_…`) or name (`example.com`, a trailing dot allowed).", example: "example.com" },
  tags,
  operationIds: { one: "Zone", many: "Zones" },
  noun: { one: "zone", many: "zones" },
  schema: ZoneSchema,
  example: ZONE_EXAMPLE,
  readOnly: ZONE_READ_ONLY,
});
const ZoneParams = zones.params;

const MasterFileSchema = z.string().openapi({
  description: "An RFC 1035 master file (RFC 4027 media type `text/dns`).",
  example: MASTER_FILE_EXAMPLE,
});

export const listZones = zones.list({
  access: { scope: "read", narrow: "visible", records: true },
  description: "Zones in creation order, keyset-paginated. Filters combine with AND.",
  query: ZoneListQuery,
  page: ZoneListSchema,
});

export const getZone = defineRoute({
  operationId: "getZone",
  access: { scope: "read", narrow: "visible", records: true },
  method: "get",
  path: "/zones/{zone}",
  tags,
  summary: "Get a zone, or export it as a master file",
  description:
    "With `Accept: text/dns` the zone is exported as an RFC 1035 master file (`$ORIGIN`, `$TTL`, the SOA, then every record in canonical order) that `named-checkzone` accepts and that `POST /zones` imports back unchanged.",
  request: { params: ZoneParams },
  responses: {
    200: {
      description: "The zone (JSON), or its master file (`text/dns`).",
      headers: { ETag: { description: "Entity tag of the zone.", schema: { type: "string" as const } } },
      content: {
        [JSON_MEDIA_TYPE]: { schema: ZoneSchema, example: ZONE_EXAMPLE },
        [MASTER_FILE_MEDIA_TYPE]: { schema: MasterFileSchema, example: MASTER_FILE_EXAMPLE },
      },
    },
    304: notModifiedResponse,
    ...errorResponses(404),
  },
});

export const createZone = defineRoute({
  operationId: "createZone",
  access: { scope: "write" },
  method: "post",
  path: "/zones",
  tags,
  summary: "Create a zone, or import one from a master file",
  description:
    "JSON: `name` and optional `default_ttl`, `nameservers` (apex NS records; default from the configuration) and `soa` overrides (not `serial`). " +
    `\`text/dns\` (up to ${MAX_MASTER_FILE_BYTES / 1024 / 1024} MiB and ${MAX_MASTER_FILE_RECORDS} records, else 413 \`payload_too_large\`: an import is one all-or-nothing batch that passes through one isolate, and these limits keep it far under the isolate's 128 MB; the measured figures are in the README): ` +
    "the zone is read from the master file — `$ORIGIN` or `?name=`, `$TTL`, `@`, relative names, omitted owner/TTL/class, parentheses, comments and quoted strings are understood; the file's SOA sets `soa`. All or nothing: any bad line answers 422 listing every bad line with its number, and nothing is written. A domain of the same name is linked. " +
    "Names are owned (409 `already_exists` for a name another account holds), and some are no customer's: a zone at a public suffix (`ac.uk`, `github.io`), under `arpa` (reverse zones), or at or under a special-use name (`localhost`, `invalid`, `local`, `onion`, `home.arpa`; `test` only on a deployment made for tests) answers 422 `policy_violation` naming the reason, unless an operator creates it, for its account or a customer's (`account`: the delegation, which the customer then manages). Nobody's zone is at or under the catalog zone's name (`DNS_CATALOG_ZONE`).",
  readOnly: ZONE_READ_ONLY,
  bodyLimits: { [MASTER_FILE_MEDIA_TYPE]: MAX_MASTER_FILE_BYTES },
  request: {
    query: ImportQuery,
    body: {
      required: false,
      description: "The zone (JSON) or a master file (`text/dns`).",
      content: {
        [JSON_MEDIA_TYPE]: { schema: ZoneCreateSchema, example: ZONE_CREATE_EXAMPLE },
        [MASTER_FILE_MEDIA_TYPE]: { schema: MasterFileSchema, example: MASTER_FILE_EXAMPLE },
      },
    },
  },
  responses: { 201: createdResponse(ZoneCreatedSchema, "The zone was created.", ZONE_EXAMPLE), ...errorResponses(400, 409, 413, 415, 422) },
});

export const updateZone = defineRoute({
  operationId: "updateZone",
  access: { scope: "write", narrow: "visible" },
  method: "patch",
  path: "/zones/{zone}",
  tags,
  summary: "Update a zone",
  description: `Change \`default_ttl\`, SOA fields (not \`serial\`, which rises by itself) or \`secondaries\`: up to 10 servers of your own that the primary NOTIFYs and lets transfer the zone, by address or with a TSIG key of the zone's account that allows \`transfer\` of the zone (another account's key is 422, as an unknown one). Addresses must be global unicast (no loopback, private, link-local, CGNAT, multicast or documentation ranges; a local development deployment also takes loopback). ${IF_MATCH_HEADER_DOC}`,
  readOnly: ZONE_READ_ONLY,
  request: { params: ZoneParams, body: mergePatchBody(ZonePatchSchema, "Fields to change.", ZONE_PATCH_EXAMPLE) },
  responses: {
    200: { description: "The updated zone.", content: { [JSON_MEDIA_TYPE]: { schema: ZoneSchema, example: ZONE_EXAMPLE } } },
    ...errorResponses(400, 404, 409, 412, 413, 415, 422),
  },
});

export const deleteZone = zones.delete({
  access: { scope: "write", narrow: "visible" },
  summary: "Delete a zone and all its records",
  description: `Atomic: the zone and every record go together. A domain of the same name stays. Refused with 409 \`status_prohibits\` while a domain managed here (whatever its account) publishes a DS of one of the zone's DNSSEC keys, as turning DNSSEC off is: the DS would stay in the parent for a key that no longer exists, and validating resolvers would find the zone bogus. Remove the DS from the domain first (\`DELETE /zones/{zone}/dnssec?force=true\` turns signing off and removes the DS from a domain of the zone's account). \`?force=true\` deletes the zone anyway and leaves the DS to the domain; operators only (a customer's \`force=true\` → 403 \`forbidden\`). ${IF_MATCH_HEADER_DOC}`,
  query: ZoneDeleteQuery,
  errors: [400, 404, 409, 412],
});
