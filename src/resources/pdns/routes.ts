// The PowerDNS remote-backend HTTP connector (`launch=remote`,
// `remote-connection-string=http:url=https://…/v1/pdns/<token>`), as PowerDNS 4.7 calls it:
// GET `<url>/<method>/<arguments…>`, each argument percent-encoded (dots as `%2e`).
import { z } from "@hono/zod-openapi";
import { JSON_MEDIA_TYPE } from "../../http/json-body";
import { errorResponses } from "../../http/openapi";
import { defineRoute } from "../../http/route";
import { DOMAIN_INFO_EXAMPLE, DOMAIN_KEYS_EXAMPLE, LOOKUP_EXAMPLE, NSEC_NEIGHBOURS_EXAMPLE, ZONE_TRANSFER_EXAMPLE } from "./examples";
import {
  AllDomainsQuery,
  AllDomainsResultSchema,
  AllMetadataResultSchema,
  DomainInfoResultSchema,
  DomainKeysResultSchema,
  LookupResultSchema,
  MetadataResultSchema,
  NsecNeighboursResultSchema,
  SetNotifiedResultSchema,
  UpdatedMastersResultSchema,
} from "./schemas";

const tags = ["DNS backend"];
// The token is in the path (PowerDNS's HTTP connector sends no Authorization header).
const security: Record<string, string[]>[] = [];

const TOKEN_EXAMPLE = "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9E.dns-secret-0123456789abcdef";
const token = z.string().openapi({
  param: { name: "token", in: "path" },
  description: "A token of scope `dns` (`tok_<id>.<secret>`): the connector URL carries it. Any other token, or none, is 401.",
  example: TOKEN_EXAMPLE,
});
function nameParam(name: string, description: string, example: string) {
  return z.string().openapi({ param: { name, in: "path" }, description, example });
}
const zoneName = (name: string) => nameParam(name, "Zone name, absolute, percent-encoded as PowerDNS sends it (`example%2ecom%2e`).", "example.com.");

const ABOUT =
  ' Part of the PowerDNS remote backend (HTTP connector) under `/v1/pdns/{token}`: read-only, one D1 round trip, answered from indexes. Every other method PowerDNS may call there answers `{"result": false}` (not applicable).';

function ok<S extends z.ZodType>(schema: S, description: string, example: z.output<S>) {
  return { 200: { description, content: { [JSON_MEDIA_TYPE]: { schema, example } } } } as const;
}

export const lookup = defineRoute({
  operationId: "pdnsLookup",
  access: { scope: "dns" },
  method: "get",
  path: "/pdns/{token}/lookup/{qname}/{qtype}",
  tags,
  security,
  summary: "PowerDNS: records of a name",
  description:
    "The records at `qname` of type `qtype` (`ANY`: every type) in the deepest zone that holds the name; the zone's SOA (built from the zone) at its apex. A name that holds no records but has names below it (an empty non-terminal) answers ANY with one record of empty type, which PowerDNS reads as “exists, no data”. No zone, or no record: `false`." +
    ABOUT,
  request: {
    params: z.object({
      token,
      qname: nameParam("qname", "The name asked, absolute, any letter case, percent-encoded (`www%2eexample%2ecom%2e`).", "www.example.com."),
      qtype: nameParam("qtype", "Record type mnemonic, or `ANY`.", "A"),
    }),
  },
  responses: {
    ...ok(LookupResultSchema, "The records, or `false`.", LOOKUP_EXAMPLE),
    ...errorResponses(400, 422),
  },
});

export const list = defineRoute({
  operationId: "pdnsList",
  access: { scope: "dns" },
  method: "get",
  path: "/pdns/{token}/list/{domain_id}/{zonename}",
  tags,
  security,
  summary: "PowerDNS: every record of a zone (AXFR)",
  description: "The zone's SOA and every record, for a zone transfer. No such zone: `false`." + ABOUT,
  request: {
    params: z.object({
      token,
      domain_id: nameParam("domain_id", "The zone's number as PowerDNS knows it (not needed: the zone is found by name).", "1"),
      zonename: zoneName("zonename"),
    }),
  },
  responses: {
    ...ok(LookupResultSchema, "The records, or `false`.", ZONE_TRANSFER_EXAMPLE),
    ...errorResponses(400, 422),
  },
});

export const getDomainInfo = defineRoute({
  operationId: "pdnsGetDomainInfo",
  access: { scope: "dns" },
  method: "get",
  path: "/pdns/{token}/getDomainInfo/{name}",
  tags,
  security,
  summary: "PowerDNS: one zone",
  description:
    "The zone's number, kind (`master`: this service is its primary), serial and the serial last NOTIFYed. The catalog zone (`DNS_CATALOG_ZONE`, default `catalog.invalid`) answers too. No such zone: `false`." +
    ABOUT,
  request: { params: z.object({ token, name: zoneName("name") }) },
  responses: { ...ok(DomainInfoResultSchema, "The zone, or `false`.", { result: DOMAIN_INFO_EXAMPLE }), ...errorResponses(400, 422) },
});

export const getAllDomains = defineRoute({
  operationId: "pdnsGetAllDomains",
  access: { scope: "dns" },
  method: "get",
  path: "/pdns/{token}/getAllDomains",
  tags,
  security,
  summary: "PowerDNS: every zone",
  description:
    "Every zone served, as `getDomainInfo` gives each, and the catalog zone (PowerDNS asks for the whole list at once, e.g. to fill its zone cache)." + ABOUT,
  request: { params: z.object({ token }), query: AllDomainsQuery },
  responses: { ...ok(AllDomainsResultSchema, "Every zone.", { result: [DOMAIN_INFO_EXAMPLE] }), ...errorResponses(400) },
});

export const getAllDomainMetadata = defineRoute({
  operationId: "pdnsGetAllDomainMetadata",
  access: { scope: "dns" },
  method: "get",
  path: "/pdns/{token}/getAllDomainMetadata/{name}",
  tags,
  security,
  summary: "PowerDNS: a zone's metadata",
  description:
    "PowerDNS's per-zone settings: who may transfer the zone. No PUBLISH-CDS or PUBLISH-CDNSKEY: a signed zone's CDS and CDNSKEY are its keys' roll's (the DS set the parent must show, or RFC 8078's delete), served by lookup and list (`direct-dnskey=yes`). No NSEC3PARAM: signed zones deny existence with NSEC (see getBeforeAndAfterNamesAbsolute)." +
    ABOUT,
  request: { params: z.object({ token, name: zoneName("name") }) },
  responses: { ...ok(AllMetadataResultSchema, "No metadata.", { result: {} }), ...errorResponses(400, 422) },
});

export const getDomainMetadata = defineRoute({
  operationId: "pdnsGetDomainMetadata",
  access: { scope: "dns" },
  method: "get",
  path: "/pdns/{token}/getDomainMetadata/{name}/{kind}",
  tags,
  security,
  summary: "PowerDNS: one kind of a zone's metadata",
  description: "The values of one metadata kind: `[]` but for the transfer and update kinds (see getAllDomainMetadata)." + ABOUT,
  request: { params: z.object({ token, name: zoneName("name"), kind: nameParam("kind", "Metadata kind, e.g. `SOA-EDIT`.", "SOA-EDIT") }) },
  responses: { ...ok(MetadataResultSchema, "No values.", { result: [] }), ...errorResponses(400, 422) },
});

export const getDomainKeys = defineRoute({
  operationId: "pdnsGetDomainKeys",
  access: { scope: "dns" },
  method: "get",
  path: "/pdns/{token}/getDomainKeys/{name}",
  tags,
  security,
  summary: "PowerDNS: a zone's DNSSEC keys",
  description:
    "The signing keys of a signed zone (`false` otherwise), each with its private key in BIND's `Private-key-format: v1.2` text, for PowerDNS to sign online (`remote-dnssec=yes`). The only place a private key leaves the service: a `dns` token's business." +
    ABOUT,
  request: { params: z.object({ token, name: zoneName("name") }) },
  responses: {
    ...ok(DomainKeysResultSchema, "The keys (the example is RFC 6605 §6.1's published key), or `false`.", DOMAIN_KEYS_EXAMPLE),
    ...errorResponses(400, 422, 503),
  },
});

export const getBeforeAndAfterNamesAbsolute = defineRoute({
  operationId: "pdnsGetBeforeAndAfterNamesAbsolute",
  access: { scope: "dns" },
  method: "get",
  path: "/pdns/{token}/getBeforeAndAfterNamesAbsolute/{id}/{qname}",
  tags,
  security,
  summary: "PowerDNS: a name's NSEC neighbours",
  description:
    "For an NSEC record of a signed zone (RFC 4034 §4): the zone's last name at or before `qname` in canonical order (`before`) and the first after it (`after`, the apex after the last name), both relative to the zone (`.` is the apex). Names below a delegation are not in the chain (RFC 4035 §2.3). The apex itself arrives as `%2e`, which URL parsing folds away: `…/{id}/` and `…/{id}` ask for the apex. No zone of that number: `false`." +
    ABOUT,
  request: {
    params: z.object({
      token,
      id: nameParam("id", "The zone's number (`getDomainInfo`'s `id`).", "1"),
      qname: nameParam("qname", "The name asked, relative to the zone, lower-case, percent-encoded (`www%2e`).", "www."),
    }),
  },
  responses: {
    ...ok(NsecNeighboursResultSchema, "The neighbours, or `false`.", NSEC_NEIGHBOURS_EXAMPLE),
    ...errorResponses(400, 422),
  },
});

export const getUpdatedMasters = defineRoute({
  operationId: "pdnsGetUpdatedMasters",
  access: { scope: "dns" },
  method: "get",
  path: "/pdns/{token}/getUpdatedMasters",
  tags,
  security,
  summary: "PowerDNS: zones due a NOTIFY",
  description:
    "The served zones whose SOA serial is not the one PowerDNS last sent NOTIFY for (at most 500 per call, the rest at the next), and the catalog zone when its serial moved (a member came or went). PowerDNS with `primary=yes` asks every `xfr-cycle-interval` seconds, NOTIFYs the secondaries of each, then calls setNotified. One D1 round trip, reading only the zones due (a partial index): its cost follows the changes, not the number of zones." +
    ABOUT,
  request: { params: z.object({ token }) },
  responses: { ...ok(UpdatedMastersResultSchema, "The zones due a NOTIFY (`[]`: none).", { result: [DOMAIN_INFO_EXAMPLE] }), ...errorResponses(400) },
});

export const setNotified = defineRoute({
  operationId: "pdnsSetNotified",
  access: { scope: "dns" },
  method: "patch",
  path: "/pdns/{token}/setNotified/{id}",
  tags,
  security,
  summary: "PowerDNS: NOTIFY sent for a zone",
  description:
    "PowerDNS sent NOTIFY for zone number `id` (getDomainInfo's `id`) at `serial`: the serial is kept as the zone's notified serial, so getUpdatedMasters leaves the zone out until its serial moves again. The only write a `dns` token makes: bookkeeping of the zone's serving, no event, the zone's version and ETag unchanged." +
    ABOUT,
  request: {
    params: z.object({ token, id: nameParam("id", "The zone's number (`getDomainInfo`'s `id`).", "1") }),
    body: {
      required: true,
      description: "The serial notified, as PowerDNS 4.7's HTTP connector writes it (a decimal with a fraction of zeros).",
      content: {
        "application/x-www-form-urlencoded": {
          schema: { type: "object", required: ["serial"], properties: { serial: { type: "string", example: "2026112201.000000" } } },
          example: { serial: "2026112201.000000" },
        },
      },
    },
  },
  responses: { ...ok(SetNotifiedResultSchema, "Whether the zone exists (and its notified serial was kept).", { result: true }), ...errorResponses(400, 422) },
});
