import { z } from "@hono/zod-openapi";
import { JSON_MEDIA_TYPE } from "../../http/json-body";
import { errorResponses, noContentResponse } from "../../http/openapi";
import { ZoneParams } from "../../http/params";
import { defineRoute } from "../../http/route";
import { DNSSEC_OFF_EXAMPLE, DNSSEC_STATE_EXAMPLE } from "./examples";

const tags = ["DNSSEC"];

export const DnssecKeySchema = z
  .object({
    id: z.string().openapi({ description: "The key's id (`key_…`)." }),
    key_tag: z.number().int().openapi({ description: "Key tag (RFC 4034 appendix B)." }),
    algorithm: z.number().int().openapi({ description: "13: ECDSA P-256 with SHA-256 (RFC 6605)." }),
    flags: z.number().int().openapi({ description: "257: zone key and secure entry point, one combined signing key." }),
    active: z.boolean(),
    dnskey: z.string().openapi({ description: "The DNSKEY RDATA as the apex publishes it." }),
    ds: z.array(z.string()).openapi({ description: "The DS RDATA for the parent: SHA-256 (digest type 2), then SHA-384 (4)." }),
    created_at: z.string(),
  })
  .openapi("DnssecKey");

export const DnssecStateSchema = z
  .object({
    enabled: z.boolean(),
    denial: z.string().optional().openapi({
      description: "How non-existence is proved: `nsec` (NSEC records signed per answer, RFC 4034 §4; the zone can be transferred and its names listed).",
    }),
    keys: z.array(DnssecKeySchema),
  })
  .openapi("DnssecState");

export const DisableQuery = z.object({
  force: z.enum(["true", "false"]).optional().openapi({ description: "`true` turns signing off even while a domain here publishes a DS of the key." }),
});

const stateContent = (example: unknown) => ({ [JSON_MEDIA_TYPE]: { schema: DnssecStateSchema, example } });

export const enableDnssec = defineRoute({
  operationId: "enableDnssec",
  access: { scope: "write", narrow: "visible" },
  method: "post",
  path: "/zones/{zone}/dnssec",
  tags,
  summary: "Turn DNSSEC signing on",
  description:
    "Generates the zone's key (ECDSA P-256, algorithm 13, flags 257) and signs the zone from then on. The apex gains DNSKEY, CDS and CDNSKEY. A domain of the same name sponsored by the zone's account, under an extension with DNSSEC, gets the key's SHA-256 DS in the same step.",
  request: { params: ZoneParams },
  responses: { 201: { description: "Signing is on.", content: stateContent(DNSSEC_STATE_EXAMPLE) }, ...errorResponses(404, 409, 503) },
});

export const getDnssec = defineRoute({
  operationId: "getDnssec",
  access: { scope: "read", narrow: "visible", records: true },
  method: "get",
  path: "/zones/{zone}/dnssec",
  tags,
  summary: "Read the zone's DNSSEC state",
  description: 'The keys with their DNSKEY and DS; `{"enabled": false, "keys": []}` when signing is off. Private keys are never shown.',
  request: { params: ZoneParams },
  responses: { 200: { description: "The DNSSEC state.", content: stateContent(DNSSEC_OFF_EXAMPLE) }, ...errorResponses(404) },
});

export const disableDnssec = defineRoute({
  operationId: "disableDnssec",
  access: { scope: "write", narrow: "visible" },
  method: "delete",
  path: "/zones/{zone}/dnssec",
  tags,
  summary: "Turn DNSSEC signing off",
  description:
    "Removes the key; the domain of the same name managed here loses the DS this service set. Refused with 409 `status_prohibits` while a domain managed here publishes a DS of the key, unless `?force=true` (a DS without signatures makes the zone bogus for validating resolvers).",
  request: { params: ZoneParams, query: DisableQuery },
  responses: { 204: noContentResponse, ...errorResponses(400, 404, 409, 503) },
});
