// The remote backend's TSIG and DNS UPDATE methods (docs/dns-update.md), as PowerDNS 4.7's
// HTTP connector calls them: getTSIGKey is a GET; startTransaction, commitTransaction and
// abortTransaction POSTs; replaceRRSet and feedRecord PATCHes with a form body
// (application/x-www-form-urlencoded, `rrset[i][field]=…` / `rr[field]=…`), read by the
// handler itself. The transaction id also travels in `X-RemoteBackend-trxid`.
import { z } from "@hono/zod-openapi";
import { JSON_MEDIA_TYPE } from "../../http/json-body";
import { errorResponses } from "../../http/openapi";
import { defineRoute } from "../../http/route";

const tags = ["DNS backend"];
const security: Record<string, string[]>[] = [];
const token = z.string().openapi({
  param: { name: "token", in: "path" },
  description: "A token of scope `dns` (`tok_<id>.<secret>`). Any other token, or none, is 401.",
  example: "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9E.dns-secret-0123456789abcdef",
});
const param = (name: string, description: string, example: string) => z.string().openapi({ param: { name, in: "path" }, description, example });
const trxid = param("trxid", "PowerDNS's transaction id (its clock, in seconds, when the update started).", "1764063000");

const ABOUT = " Part of the PowerDNS remote backend under `/v1/pdns/{token}`; only the `dns` token's business.";

const BoolResult = z.object({ result: z.boolean(), log: z.array(z.string()).optional() }).openapi("PdnsBoolResult", {
  description: "`true`: done. `false`: refused or not applicable, with the reason in `log` (PowerDNS writes it to its log).",
});

const ok = (description: string, example: z.output<typeof BoolResult>) =>
  ({ 200: { description, content: { [JSON_MEDIA_TYPE]: { schema: BoolResult, example } } } }) as const;

export const TsigKeyResult = z
  .object({
    result: z.union([
      z.literal(false),
      z.object({
        algorithm: z.string().openapi({ example: "hmac-sha256" }),
        content: z.string().openapi({ description: "The secret, base64.", example: "q2VbYg8mX3YQKZq0yUQ6xq8m1tRk8Z0cJ2u0Q7w9bVs=" }),
      }),
    ]),
  })
  .openapi("PdnsTsigKey");

export const getTSIGKey = defineRoute({
  operationId: "pdnsGetTSIGKey",
  access: { scope: "dns" },
  method: "get",
  path: "/pdns/{token}/getTSIGKey/{name}",
  tags,
  security,
  summary: "PowerDNS: a TSIG key's secret",
  description:
    "The algorithm and secret of a live TSIG key (not expired, not deleted), by its name, read from D1 on every call (no cache), so that a deleted or expired key verifies nothing from the next message on. The only place a key's secret leaves the service after its creation. No such key: `false`." +
    ABOUT,
  request: { params: z.object({ token, name: param("name", "The key's name, absolute, percent-encoded.", "acme-writer.example.com.") }) },
  responses: {
    200: {
      description: "The key, or `false`.",
      content: {
        [JSON_MEDIA_TYPE]: {
          schema: TsigKeyResult,
          example: { result: { algorithm: "hmac-sha256", content: "q2VbYg8mX3YQKZq0yUQ6xq8m1tRk8Z0cJ2u0Q7w9bVs=" } },
        },
      },
    },
    ...errorResponses(400, 422, 503),
  },
});

export const startTransaction = defineRoute({
  operationId: "pdnsStartTransaction",
  access: { scope: "dns" },
  method: "post",
  path: "/pdns/{token}/startTransaction/{domain_id}/{domain}/{trxid}",
  tags,
  security,
  summary: "PowerDNS: a DNS UPDATE begins",
  description:
    "Opens a staging area for an update of the zone: what PowerDNS writes until commitTransaction is kept aside, and its lookups meanwhile see it. An older open update of the zone, or one left for 10 minutes, is dropped. No such zone: `false`." +
    ABOUT,
  request: {
    params: z.object({
      token,
      domain_id: param("domain_id", "`-1` (PowerDNS gives no zone number for an update).", "-1"),
      domain: param("domain", "The zone, absolute.", "example.com."),
      trxid,
    }),
  },
  responses: { ...ok("Whether the staging area opened.", { result: true }), ...errorResponses(400, 422) },
});

export const replaceRRSet = defineRoute({
  operationId: "pdnsReplaceRRSet",
  access: { scope: "dns" },
  method: "patch",
  path: "/pdns/{token}/replaceRRSet/{domain_id}/{qname}/{qtype}",
  tags,
  security,
  summary: "PowerDNS: an RRset replaced in an update",
  description:
    "Stages the RRset `qname`/`qtype` as the form body lists it (`rrset[i][content]`, `rrset[i][ttl]`, …; none: the RRset goes) in the open update of `X-RemoteBackend-trxid`. The SOA is ignored: the serial takes one step at commit. No open update: `false`." +
    ABOUT,
  request: {
    params: z.object({
      token,
      domain_id: param("domain_id", "The zone's number.", "1"),
      qname: param("qname", "The owner, absolute.", "www.example.com."),
      qtype: param("qtype", "The type.", "A"),
    }),
  },
  responses: { ...ok("Whether it was staged.", { result: true }), ...errorResponses(400, 413, 422) },
});

export const feedRecord = defineRoute({
  operationId: "pdnsFeedRecord",
  access: { scope: "dns" },
  method: "patch",
  path: "/pdns/{token}/feedRecord/{trxid}",
  tags,
  security,
  summary: "PowerDNS: a record added in an update",
  description:
    "Stages one record (form body `rr[qname]`, `rr[qtype]`, `rr[content]`, `rr[ttl]`) joining its RRset in the open update. No open update: `false`." + ABOUT,
  request: { params: z.object({ token, trxid }) },
  responses: { ...ok("Whether it was staged.", { result: true }), ...errorResponses(400, 413, 422) },
});

export const commitTransaction = defineRoute({
  operationId: "pdnsCommitTransaction",
  access: { scope: "dns" },
  method: "post",
  path: "/pdns/{token}/commitTransaction/{trxid}",
  tags,
  security,
  summary: "PowerDNS: a DNS UPDATE is decided",
  description:
    "Applies the staged update to the zone as it is now, all or nothing, in one D1 batch: the records, one serial step, an event per record created, changed or deleted (`token`: the zone's update key). Refused (`false`, the reason in `log`; the client gets SERVFAIL) when a record's RDATA or owner is invalid, a CNAME would share its name, the apex would lose its last NS, the zone would break an integrity rule or exceed the record limit, or the key's `records` rules do not cover a changed name and type. No open update: `false`." +
    ABOUT,
  request: { params: z.object({ token, trxid }) },
  responses: {
    ...ok("Whether the update was applied.", { result: false, log: ["refused: a CNAME cannot share its name with other records (here A)"] }),
    ...errorResponses(400, 422),
  },
});

export const abortTransaction = defineRoute({
  operationId: "pdnsAbortTransaction",
  access: { scope: "dns" },
  method: "post",
  path: "/pdns/{token}/abortTransaction/{trxid}",
  tags,
  security,
  summary: "PowerDNS: a DNS UPDATE is dropped",
  description: "Drops what the update staged (its prerequisites failed, or it changed nothing); the zone is as it was." + ABOUT,
  request: { params: z.object({ token, trxid }) },
  responses: { ...ok("Done.", { result: true }), ...errorResponses(400, 422) },
});
