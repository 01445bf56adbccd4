// The RDAP response shapes (RFC 9083) this service answers, as zod schemas: they type the
// views in ./views.ts and document the `application/rdap+json` variants in the OpenAPI.
import { z } from "@hono/zod-openapi";

export const RDAP_MEDIA_TYPE = "application/rdap+json";

const RdapConformance = z
  .array(z.string())
  .openapi({ example: ["rdap_level_0", "redacted"], description: "RFC 9083 §4.1; `redacted` when RFC 9537 redaction applies." });

const Link = z.object({
  value: z.string().openapi({ example: "https://api.example/v1/domains/example.com" }),
  rel: z.string().openapi({ example: "self" }),
  href: z.string().openapi({ example: "https://api.example/v1/domains/example.com" }),
  type: z.string().openapi({ example: RDAP_MEDIA_TYPE }),
});

const Event = z.object({
  eventAction: z.string().openapi({
    example: "registration",
    description: "RFC 9083 §10.2.3: `registration`, `expiration`, `last changed`, and for a domain once transferred `transfer`.",
  }),
  eventDate: z.string().openapi({ format: "date-time", example: "2026-11-22T09:30:00.000Z" }),
});

const Notice = z.object({ title: z.string(), description: z.array(z.string()) });

const Status = z
  .array(z.string())
  .openapi({ example: ["client transfer prohibited"], description: "RFC 9083 §10.2.2 values (EPP statuses mapped per RFC 8056)." });

/** A jCard property (RFC 7095 §3.3): name, parameters, value type, value. */
const JCardProperty = z
  .tuple([
    z.string(),
    z.record(z.string(), z.union([z.string(), z.array(z.string())])),
    z.string(),
    z.union([z.string(), z.array(z.union([z.string(), z.array(z.string())]))]),
  ])
  .openapi({ example: ["fn", {}, "text", "Ada Lovelace"] });

export const JCardSchema = z.tuple([z.literal("vcard"), z.array(JCardProperty)]).openapi({ description: "jCard (RFC 7095)." });

/** RFC 9537 §4.2: one redacted field. */
export const RedactedSchema = z
  .object({
    name: z.object({ type: z.string().optional(), description: z.string().optional() }),
    prePath: z.string().optional(),
    postPath: z.string().optional(),
    pathLang: z.literal("jsonpath"),
    method: z.enum(["removal", "emptyValue", "partialValue", "replacementValue"]),
    reason: z.object({ type: z.string().optional(), description: z.string().optional() }),
  })
  .openapi("RdapRedacted");

export const RdapEntitySchema = z
  .object({
    objectClassName: z.literal("entity"),
    handle: z.string().openapi({ example: "con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" }),
    vcardArray: JCardSchema,
    roles: z
      .array(z.string())
      .optional()
      .openapi({ example: ["registrant"], description: "In a domain: registrant, administrative, technical, billing." }),
    status: Status,
    events: z.array(Event),
    links: z.array(Link),
    remarks: z.array(Notice).optional(),
  })
  .openapi("RdapEntity");

export const RdapNameserverSchema = z
  .object({
    objectClassName: z.literal("nameserver"),
    handle: z.string().openapi({ example: "hst_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" }),
    ldhName: z.string().openapi({ example: "ns1.example.com" }),
    unicodeName: z.string().openapi({ example: "ns1.example.com" }),
    ipAddresses: z.object({ v4: z.array(z.string()), v6: z.array(z.string()) }),
    status: Status,
    events: z.array(Event),
    links: z.array(Link),
  })
  .openapi("RdapNameserver");

export const RdapNameserverNameSchema = z
  .object({
    objectClassName: z.literal("nameserver"),
    ldhName: z.string().openapi({ example: "ns1.example.net" }),
    unicodeName: z.string().openapi({ example: "ns1.example.net" }),
  })
  .openapi("RdapNameserverName", {
    description: "A name server of the domain whose host object belongs to another account: its name only, as the domain's JSON shows it.",
  });

const topLevel = {
  rdapConformance: RdapConformance,
  notices: z.array(Notice).optional(),
  redacted: z.array(RedactedSchema).optional(),
};

export const RdapDomainResponseSchema = z
  .object({
    objectClassName: z.literal("domain"),
    handle: z.string().openapi({ example: "dom_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B-VRSN", description: "Domain id and the repository's ROID suffix." }),
    ldhName: z.string().openapi({ example: "example.com" }),
    unicodeName: z.string().openapi({ example: "example.com" }),
    status: Status,
    events: z.array(Event),
    nameservers: z.array(z.union([RdapNameserverSchema, RdapNameserverNameSchema])).openapi({
      description: "Every name server of the domain, in order: the host's nameserver object, or only its name when the host belongs to another account.",
    }),
    secureDNS: z
      .object({
        delegationSigned: z.boolean(),
        dsData: z.array(z.object({ keyTag: z.number().int(), algorithm: z.number().int(), digestType: z.number().int(), digest: z.string() })),
      })
      .openapi({ description: "RFC 9083 §5.3: DS data the parent holds (RFC 5910)." }),
    entities: z.array(RdapEntitySchema),
    links: z.array(Link),
    remarks: z.array(Notice).optional().openapi({
      description: "Present when the domain is on hold (`server hold`, `client hold`): its delegation is not published, so no name servers or DS are shown.",
    }),
    ...topLevel,
  })
  .openapi("RdapDomain", { description: "RFC 9083 §5.3 domain object." });

export const RdapNameserverResponseSchema = RdapNameserverSchema.extend(topLevel).openapi("RdapNameserverResponse", {
  description: "RFC 9083 §5.2 nameserver object.",
});

export const RdapEntityResponseSchema = RdapEntitySchema.extend(topLevel).openapi("RdapEntityResponse", { description: "RFC 9083 §5.1 entity object." });

export const RdapErrorSchema = z
  .object({
    rdapConformance: RdapConformance,
    errorCode: z.number().int().openapi({ example: 404 }),
    title: z.string().openapi({ example: "Not found" }),
    description: z.array(z.string()).openapi({ example: ['No domain has the name "example.com".'] }),
  })
  .openapi("RdapError", { description: "RFC 9083 §6 error response." });

export type RdapLink = z.infer<typeof Link>;
export type RdapEvent = z.infer<typeof Event>;
export type JCardPropertyValue = z.infer<typeof JCardProperty>;
export type RdapRedacted = z.infer<typeof RedactedSchema>;
export type RdapEntity = z.infer<typeof RdapEntitySchema>;
export type RdapNameserver = z.infer<typeof RdapNameserverSchema>;
export type RdapDomainResponse = z.infer<typeof RdapDomainResponseSchema>;
export type RdapNameserverResponse = z.infer<typeof RdapNameserverResponseSchema>;
export type RdapEntityResponse = z.infer<typeof RdapEntityResponseSchema>;
export type RdapError = z.infer<typeof RdapErrorSchema>;
