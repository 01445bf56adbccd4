// The DNS backend's TSIG and DNS UPDATE routes (docs/dns-update.md): getTSIGKey, which
// PowerDNS calls to verify a declared secondary's signed transfer, and `update`, to which
// the update gateway (scripts/lib/update-gateway.mjs) forwards each DNS UPDATE message it
// receives, whole, and sends back the answer the service writes.
import { z } from "@hono/zod-openapi";
import { JSON_MEDIA_TYPE } from "../../http/json-body";
import { errorResponses } from "../../http/openapi";
import { defineRoute } from "../../http/route";
import { MAX_MESSAGE_OCTETS } from "../../dns/message";

const tags = ["DNS backend"];
const security: Record<string, string[]>[] = [];
const token = z.string().openapi({
  param: { name: "token", in: "path" },
  description: "A token of scope `dns` (`tok_<id>.<secret>`). Any other token, or none, is 401.",
  example: "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9E.dns-secret-0123456789abcdef",
});
const param = (name: string, description: string, example: string) => z.string().openapi({ param: { name, in: "path" }, description, example });

const ABOUT = " Part of the DNS backend under `/v1/pdns/{token}`; only the `dns` token's business.";

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
    "The algorithm and secret of a live TSIG key that allows `transfer` (not expired, not deleted), by its name, read from D1 on every call (no cache), so that a deleted or expired key verifies nothing from the next message on. The only place a key's secret leaves the service after its creation. No such key: `false`." +
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

/** The media type of a DNS message (RFC 8484 §6). */
export const DNS_MESSAGE_MEDIA_TYPE = "application/dns-message";

/** An UPDATE of `example.com` adding `_acme-challenge 60 TXT "token"`, unsigned (the octets, in hex: the example body). */
const UPDATE_EXAMPLE_HEX =
  "123428000001000000010000076578616d706c6503636f6d00000600010f5f61636d652d6368616c6c656e6765076578616d706c6503636f6d00001000010000003c000605746f6b656e";
/** Its answer, NOERROR (a signed one carries a TSIG after the zone section). */
const ANSWER_EXAMPLE_HEX = "1234a8000001000000000000076578616d706c6503636f6d0000060001";

export const dnsUpdate = defineRoute({
  operationId: "pdnsDnsUpdate",
  access: { scope: "dns" },
  method: "post",
  path: "/pdns/{token}/update",
  tags,
  security,
  summary: "DNS UPDATE: one message, decided and answered",
  bodyLimits: { default: MAX_MESSAGE_OCTETS },
  description:
    "The update gateway of the serving tier forwards each DNS UPDATE (RFC 2136) message it receives here, whole, as sent, with the client's address in `DNS-Client`; the answer is the DNS message to send back. The service verifies the TSIG (RFC 8945: hmac-sha256 or hmac-sha512; BADKEY, BADSIG, BADTIME answered as §5.2 says), refuses a message it has seen before (a replay: BADSIG), finds the zone (NOTAUTH), checks that the key may update it (REFUSED), that the message holds at most `DNS_UPDATE_MAX_RECORDS` records (REFUSED), the prerequisites (§3.2: NXDOMAIN, YXDOMAIN, NXRRSET, YXRRSET), the update section (§3.4.1: NOTZONE, FORMERR), the key's `records` rules and the API's own record rules on the zone as the update leaves it (REFUSED), then applies it all in one D1 batch with one serial step and an event per record (`token`: the key's id). Answers are signed with the request's key unless the key or the signature is at fault. A question for an SOA (clients find the zone to update so: RFC 2136 §4) is answered as the zone's authoritative server would (the SOA at its apex, in the authority section below it; REFUSED outside every zone or for another type), signed when it is. A body that is not a DNS request (shorter than a header, or a response) is 422; the gateway then answers nothing." +
    ABOUT,
  request: {
    params: z.object({ token }),
    headers: z.object({
      "dns-client": z.string().optional().openapi({
        description:
          "The client's address and port as the gateway received the message (`192.0.2.1#53001`, `2001:db8::1#53001`): the Worker's log line of the message names it.",
        example: "127.0.0.1#53001",
      }),
    }),
    body: {
      required: true,
      description: "The DNS message as the client sent it (at most 65 535 octets: one TCP message).",
      content: { [DNS_MESSAGE_MEDIA_TYPE]: { schema: { type: "string", format: "binary" }, example: UPDATE_EXAMPLE_HEX } },
    },
  },
  responses: {
    200: {
      description:
        "The DNS message that answers it (RFC 2136 §3.8: the header and zone section, and the TSIG). `DNS-Update-Outcome` gives its rcode and, for a refusal, the reason, for the gateway's log.",
      headers: { "DNS-Update-Outcome": { description: "`NOERROR`, or the rcode (and TSIG error) and why.", schema: { type: "string" as const } } },
      content: {
        [DNS_MESSAGE_MEDIA_TYPE]: {
          schema: { type: "string", format: "binary" },
          example: ANSWER_EXAMPLE_HEX,
        },
      },
    },
    ...errorResponses(400, 413, 422),
  },
});
