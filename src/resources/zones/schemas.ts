import { z } from "@hono/zod-openapi";
import { MAX_TTL } from "../../dns/ttl";
import { dnsNameField, hostNameField, hostNameListField } from "../../http/name-fields";
import { paginationQuery } from "../../http/pagination";
import { searchParam } from "../../http/query";
import { AccountFilterSchema, AccountRefSchema, listSchema, SponsorInputSchema, TimestampSchema } from "../../http/openapi";
import { readOnlyFields } from "../../http/patch";
import { SecondariesInputSchema, SecondarySchema } from "./secondaries";

const ttl = (description: string) => z.number().int({ error: "must be a whole number of seconds" }).min(0).max(MAX_TTL).openapi({ description });
// RFC 1035 §3.3.13: SOA timers are 32-bit unsigned seconds.
// The SOA timers are bounded as TTLs are (RFC 2181 §8: 0–2147483647), as an import reads
// them: every zone the API holds exports to a file that imports back.
const timer = (description: string) => z.number().int({ error: "must be a whole number of seconds" }).min(0).max(MAX_TTL).openapi({ description });

export const SoaSchema = z
  .object({
    mname: z.string().openapi({ example: "ns1.example.net", description: "Primary name server." }),
    rname: z.string().openapi({ example: "hostmaster.example.com", description: "Responsible mailbox as a name (first label is the local part)." }),
    serial: z.number().int().openapi({ example: 2026112201, description: "YYYYMMDDnn, raised (RFC 1982) with every change to the zone or its records." }),
    refresh: z.number().int().openapi({ example: 7200 }),
    retry: z.number().int().openapi({ example: 900 }),
    expire: z.number().int().openapi({ example: 1209600 }),
    minimum: z.number().int().openapi({ example: 300, description: "Negative-caching TTL (RFC 2308)." }),
  })
  .openapi("Soa");

export const SoaInputSchema = z
  .strictObject({
    mname: hostNameField().optional().openapi({ description: "Default: the first name server." }),
    // RFC 1035 §8: the mailbox as a name. `hostmaster@example.com` is accepted and converted;
    // a dot in the local part would need an escape no client expects, so it is refused.
    rname: z
      .string()
      .max(1024)
      .transform((input, ctx) => {
        const at = input.indexOf("@");
        if (at !== -1 && input.slice(0, at).includes(".")) {
          ctx.addIssue({ code: "custom", message: `"${input}": a mailbox whose local part has a dot cannot be written as an SOA RNAME here` });
          return z.NEVER;
        }
        return at === -1 ? input : `${input.slice(0, at)}.${input.slice(at + 1)}`;
      })
      .pipe(dnsNameField({ underscore: true, minLabels: 2 }))
      .optional()
      .openapi({ description: "`hostmaster.example.com` or `hostmaster@example.com`; default `hostmaster.<zone>`." }),
    refresh: timer("Default 7200.").optional(),
    retry: timer("Default 900.").optional(),
    expire: timer("Default 1209600.").optional(),
    minimum: timer("Default 300.").optional(),
    serial: z.unknown().optional().openapi({ description: "Read-only: the service manages the serial; sending it answers 422 `read_only_field`." }),
  })
  .openapi("SoaInput");

export const ZoneDnssecSchema = z
  .object({
    enabled: z.boolean().openapi({ description: "Whether the zone is signed (`POST /v1/zones/{zone}/dnssec`; its keys and DS: `GET` there)." }),
    records: z
      .array(
        z.object({
          name: z.literal("@").openapi({ description: "The apex." }),
          type: z.enum(["DNSKEY", "CDS", "CDNSKEY"]),
          ttl: z.number().int().openapi({ description: "The SOA minimum, as PowerDNS serves these records.", example: 300 }),
          content: z.string().openapi({ example: "257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==" }),
        }),
      )
      .openapi({
        description:
          "Read-only records signing adds at the apex, served by PowerDNS and written in the master-file export, never stored as records: each key's DNSKEY, and the CDS (SHA-256) and CDNSKEY that tell a parent which DS to publish (RFC 7344). Empty when unsigned.",
      }),
  })
  .openapi("ZoneDnssec");

export const ZoneSchema = z
  .object({
    id: z.string().openapi({ example: "zon_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" }),
    account: AccountRefSchema,
    name: z.string().openapi({ example: "example.com" }),
    unicode_name: z.string().openapi({ example: "example.com" }),
    domain: z.string().nullable().openapi({ description: "Id of the domain of the same name registered here, if any." }),
    default_ttl: z.number().int().openapi({ example: 3600 }),
    soa: SoaSchema,
    record_count: z.number().int().openapi({ example: 3 }),
    dnssec: ZoneDnssecSchema,
    secondaries: z.array(SecondarySchema).openapi({
      description: "Declared secondaries: NOTIFYed by the primary and allowed to transfer the zone (docs/serving.md).",
      example: [{ address: "198.51.100.53", port: 53, tsig_key: null }],
    }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .openapi("Zone");

export const ImportWarningSchema = z
  .object({
    line: z.number().int().openapi({ example: 12, description: "The line (1-based) of the master file." }),
    message: z
      .string()
      .openapi({ example: "3 RRSIG records left out (the first on line 12): a DNSSEC signer's output, not zone data; this service signs zones itself" }),
  })
  .openapi("ImportWarning");

/** A new zone as `POST /zones` answers: an import adds what it changed or left out of the file. */
export const ZoneCreatedSchema = ZoneSchema.extend({
  warnings: z.array(ImportWarningSchema).optional().openapi({
    description:
      "A `text/dns` import only: what the file held that the zone does not keep as written — a DNSSEC signer's records (RRSIG, NSEC, NSEC3, NSEC3PARAM) left out, a record whose TTL differed from its RRset's given the RRset's. Empty when nothing was.",
  }),
}).openapi("ZoneCreated");

export const ZoneCreateSchema = z
  .object({
    name: dnsNameField({ underscore: true }).openapi({ example: "example.com", description: "Any DNS name, reverse zones included; U-labels are converted." }),
    default_ttl: ttl("TTL of records created without one; default 3600.").optional(),
    nameservers: hostNameListField()
      .min(1, { error: "needs at least one name server" })
      .max(13)
      .optional()
      .openapi({ example: ["ns1.example.net", "ns2.example.net"], description: "Apex NS records; default from the service configuration." }),
    soa: SoaInputSchema.optional(),
    secondaries: SecondariesInputSchema.optional(),
    account: SponsorInputSchema,
  })
  .openapi("ZoneCreate");

export const ZonePatchSchema = z
  .object({
    default_ttl: ttl("TTL of records created without one.").optional(),
    soa: SoaInputSchema.optional(),
    secondaries: SecondariesInputSchema.optional(),
  })
  .openapi("ZonePatch");

export const ZONE_READ_ONLY = readOnlyFields(ZoneSchema, ZonePatchSchema);

export const ZoneListQuery = z.object({
  ...paginationQuery,
  account: AccountFilterSchema,
  name: z.string().max(1024).optional().openapi({ description: "Exact zone name." }),
  q: searchParam(
    "Case-insensitive substring of the name, typed as A-labels (`xn--mnchen-3ya`) or in Unicode (`münchen`: each Unicode label is also searched as its A-label).",
  ),
  domain: z.string().max(1024).optional().openapi({ description: "The linked domain, by id or name." }),
});

export const ImportQuery = z.object({
  name: z.string().max(1024).optional().openapi({ description: "Zone name when the file has no `$ORIGIN` before its first record." }),
});

export const ZoneDeleteQuery = z.object({
  force: z.enum(["true", "false"]).optional().openapi({
    description:
      "Operators only (a customer's `true` → 403): `true` deletes the zone even while a domain here publishes a DS of its keys, and leaves that DS to the domain.",
  }),
});

export const ZoneListSchema = listSchema(ZoneSchema, "ZoneList");

export type Zone = z.infer<typeof ZoneSchema>;
export type ZoneDnssec = z.infer<typeof ZoneDnssecSchema>;
export type ZoneCreate = z.infer<typeof ZoneCreateSchema>;
export type ZonePatch = z.infer<typeof ZonePatchSchema>;
export type SoaInput = z.infer<typeof SoaInputSchema>;
