import { z } from "@hono/zod-openapi";
import { paginationQuery } from "../../http/pagination";
import { dateTimeParam, searchParam } from "../../http/query";
import { AccountFilterSchema, AccountRefSchema, listSchema, SponsorInputSchema, TimestampSchema } from "../../http/openapi";
import { readOnlyFields } from "../../http/patch";
import { CLIENT_STATUSES, DOMAIN_STATUS_FILTERS } from "../../registry/statuses";

const contactRef = z.string().max(64).openapi({ example: "con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" });

// RFC 5731 §2.6 / RFC 5733 §2.8: authorisation information is a password the registrant
// gives to a gaining registrar; printable ASCII keeps it copyable.
const authInfo = z
  .string()
  .min(6, { error: "must be 6 to 32 characters" })
  .max(32, { error: "must be 6 to 32 characters" })
  .regex(/^[\x21-\x7e]+$/, { error: "may contain only printable ASCII characters without spaces" })
  .openapi({ example: "s3cret-Transfer-Key" });

const hostName = z.string().max(1024).openapi({ example: "ns1.example.net" });

const ContactRolesInput = z
  .strictObject({
    admin: contactRef.nullable().optional(),
    tech: contactRef.nullable().optional(),
    billing: contactRef.nullable().optional(),
  })
  .openapi("DomainContactsInput");

export const DomainSchema = z
  .object({
    id: z.string().openapi({ example: "dom_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" }),
    account: AccountRefSchema,
    name: z.string().openapi({ example: "example.com", description: "A-labels, lowercase, no trailing dot." }),
    unicode_name: z.string().openapi({ example: "example.com" }),
    extension: z.string().openapi({ example: "com" }),
    repository: z.string().openapi({ example: "verisign" }),
    status: z.array(z.string()).openapi({
      example: ["clientTransferProhibited"],
      description: 'The client statuses set, plus `inactive` when the domain has no name servers; `["ok"]` when nothing else applies.',
    }),
    registrant: z.string().nullable().openapi({ example: "con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" }),
    contacts: z
      .object({ admin: z.string().nullable(), tech: z.string().nullable(), billing: z.string().nullable() })
      .openapi({ example: { admin: "con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B", tech: "con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B", billing: null } }),
    nameservers: z.array(z.string()).openapi({ example: ["ns1.example.net", "ns2.example.net"] }),
    auth_info: z.string().openapi({ description: "Transfer authorisation; returned only by single-domain reads and writes." }),
    auto_renew: z.boolean(),
    expires_at: TimestampSchema,
    zone: z.string().nullable().openapi({ description: "Id of the zone of the same name served here, if any." }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .openapi("Domain");

export const DomainListItemSchema = DomainSchema.omit({ auth_info: true }).openapi("DomainListItem");

export const DomainCreateSchema = z
  .object({
    name: z.string().max(1024).openapi({ example: "example.com", description: "One label under an extension of the catalog; U-labels are converted." }),
    // Whole years; checked with the registry rules so that one 422 lists them together.
    period: z.number().optional().openapi({ type: "integer", example: 1, description: "Whole years; default the extension's minimum." }),
    registrant: contactRef.nullable().optional(),
    contacts: ContactRolesInput.optional(),
    nameservers: z.array(hostName).max(64).optional(),
    status: z
      .array(z.string().max(64))
      .max(16)
      .optional()
      .openapi({ example: ["clientTransferProhibited"], description: `Client statuses only: ${CLIENT_STATUSES.join(", ")}.` }),
    auth_info: authInfo.optional(),
    auto_renew: z.boolean().optional().openapi({ description: "Default true." }),
    account: SponsorInputSchema,
  })
  .openapi("DomainCreate");

export const DomainPatchSchema = z
  .object({
    registrant: contactRef.nullable().optional(),
    contacts: ContactRolesInput.nullable().optional(),
    nameservers: z.array(hostName).max(64).nullable().optional(),
    status: z.array(z.string().max(64)).max(16).nullable().optional(),
    auth_info: authInfo.optional(),
    auto_renew: z.boolean().optional(),
  })
  .openapi("DomainPatch");

export const DOMAIN_READ_ONLY = readOnlyFields(DomainSchema, DomainPatchSchema);

export const DOMAIN_SORTS = ["created_at", "-created_at", "name", "-name", "expires_at", "-expires_at"] as const;
export type DomainSort = (typeof DOMAIN_SORTS)[number];

export const DomainListQuery = z.object({
  ...paginationQuery,
  account: AccountFilterSchema,
  name: z.string().max(1024).optional().openapi({ description: "Exact domain name (normalised like a body name)." }),
  q: searchParam(
    "Case-insensitive substring of the name, typed as A-labels (`xn--mnchen-3ya`) or in Unicode (`münchen`: each Unicode label is also searched as its A-label).",
  ),
  extension: z.string().max(64).optional().openapi({ description: "Extension id, e.g. `co.uk`." }),
  repository: z.string().max(64).optional().openapi({ description: "Repository id." }),
  status: z.enum(DOMAIN_STATUS_FILTERS).optional().openapi({ description: "Domains showing this status." }),
  registrant: z.string().max(64).optional().openapi({ description: "Registrant contact id." }),
  contact: z.string().max(64).optional().openapi({ description: "Contact id in any role (registrant, admin, tech, billing)." }),
  nameserver: z.string().max(1024).optional().openapi({ description: "Host name of a name server." }),
  expires_before: dateTimeParam.optional().openapi({ type: "string", format: "date-time", description: "Expiring strictly before (RFC 3339)." }),
  expires_after: dateTimeParam.optional().openapi({ type: "string", format: "date-time", description: "Expiring strictly after (RFC 3339)." }),
  sort: z.enum(DOMAIN_SORTS).optional().openapi({ description: "Order, `-` for descending; default `created_at`. Still keyset-paginated." }),
});

export const DomainListSchema = listSchema(DomainListItemSchema, "DomainList");

export type Domain = z.infer<typeof DomainSchema>;
export type DomainListItem = z.infer<typeof DomainListItemSchema>;
export type DomainCreate = z.infer<typeof DomainCreateSchema>;
export type DomainPatch = z.infer<typeof DomainPatchSchema>;
export type DomainListQueryInput = z.infer<typeof DomainListQuery>;
