import { z } from "@hono/zod-openapi";
import { paginationQuery } from "../../http/pagination";
import { dateTimeParam, searchParam } from "../../http/query";
import { AccountFilterSchema, AccountRefSchema, listSchema, SponsorInputSchema, TimestampSchema } from "../../http/openapi";
import { readOnlyFields } from "../../http/patch";
import { AUTH_INFO_MAX_LENGTH, AUTH_INFO_MIN_CLASSES, AUTH_INFO_MIN_LENGTH, authInfoProblem } from "../../registry/auth-info";
import { RGP_STATUSES } from "../../registry/lifecycle";
import { AMOUNT_PATTERN } from "../../registry/prices";
import { CLIENT_STATUSES, DOMAIN_STATUS_FILTERS, LOCK_STATUSES } from "../../registry/statuses";
import { PriceSchema, PriceTableSchema } from "../catalog/schemas";

/** The price the client confirms (RFC 8748's fee check): required for a premium name. */
const priceInput = z.string().max(32).regex(AMOUNT_PATTERN, { error: 'must be a decimal amount such as "2500.00"' }).optional().openapi({
  example: "2500.00",
  description:
    "The price you accept to pay, in the extension's currency: required for a premium name (422 `price_mismatch` without it or with another amount, naming the price), optional otherwise (and then checked the same way).",
});

const contactRef = z.string().max(64).openapi({ example: "con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" });

// RFC 5731 §2.6 / RFC 5733 §2.8: authorisation information is a password the registrant
// gives to a gaining registrar; RFC 5731 leaves its strength to the server
// (src/registry/auth-info.ts: printable ASCII, 12 to 32 characters, 3 character classes).
const authInfo = z
  .string()
  .superRefine((value, ctx) => {
    const problem = authInfoProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .openapi({
    example: "s3cret-Transfer-Key",
    minLength: AUTH_INFO_MIN_LENGTH,
    maxLength: AUTH_INFO_MAX_LENGTH,
    pattern: "^[\\x21-\\x7e]+$",
    description: `Transfer authorisation (RFC 5731 §2.6) set by the client: ${AUTH_INFO_MIN_LENGTH} to ${AUTH_INFO_MAX_LENGTH} printable ASCII characters without spaces, mixing at least ${AUTH_INFO_MIN_CLASSES} of upper-case letters, lower-case letters, digits and other characters (\`123456\` is refused). Generated when absent: 20 random characters that meet the same rule. A value stored before this rule keeps working until it is changed.`,
  });

export const DsSchema = z
  .object({
    key_tag: z.number().int().openapi({ example: 12345 }),
    algorithm: z.number().int().openapi({ example: 13 }),
    digest_type: z.number().int().openapi({ example: 2 }),
    digest: z.string().openapi({ example: "2BB183AF5F22588179A53B0A98631FAD1A292118F7BC1F6A6F0F8F4A6B1E7D2C" }),
  })
  .openapi("DsData");

// Checked by src/registry/ds.ts so that one 422 lists every problem; the bound here only keeps bodies small.
const DsInputSchema = z
  .array(z.object({ key_tag: z.number(), algorithm: z.number(), digest_type: z.number(), digest: z.string().max(256) }))
  .max(64)
  .openapi({ description: "DS data (RFC 5910): 0–8 entries; algorithm 8, 10, 13, 14, 15 or 16; digest type 2 (64 hex digits) or 4 (96). Replaced whole." });

const STATUS_INPUT = `Client statuses: ${CLIENT_STATUSES.join(", ")}. The registry lock (${LOCK_STATUSES.join(", ")}) is the operator's alone: a customer sending one gets 422 \`read_only_field\`. The list replaces the statuses the caller may set.`;

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
      description:
        'The client statuses set, the registry lock\'s server statuses (`serverUpdateProhibited`, `serverDeleteProhibited`, `serverTransferProhibited`, `serverRenewProhibited`, `serverHold`: set by the operator only), `pendingDelete` and `pendingTransfer`, plus `inactive` when the domain has no name servers; `["ok"]` when nothing else applies.',
    }),
    registrant: z.string().nullable().openapi({ example: "con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" }),
    contacts: z
      .object({ admin: z.string().nullable(), tech: z.string().nullable(), billing: z.string().nullable() })
      .openapi({ example: { admin: "con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B", tech: "con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B", billing: null } }),
    nameservers: z.array(z.string()).openapi({ example: ["ns1.example.net", "ns2.example.net"] }),
    auth_info: z.string().openapi({ description: "Transfer authorisation; returned only by single-domain reads and writes." }),
    auto_renew: z.boolean(),
    expires_at: TimestampSchema,
    rgp_status: z.array(z.object({ status: z.enum(RGP_STATUSES), ends_at: TimestampSchema })).openapi({
      description:
        "The running grace periods and pending states (RFC 3915), each with the instant it ends: `addPeriod`, `renewPeriod`, `autoRenewPeriod`, `transferPeriod`, `redemptionPeriod`, `pendingDelete`.",
      example: [{ status: "addPeriod", ends_at: "2026-11-27T09:09:16.511Z" }],
    }),
    transfer_locked_until: TimestampSchema.nullable().openapi({
      description: "Registration or last transfer plus the extension's `transfer_lock_days`: no transfer before then. Null where the registry has no lock.",
    }),
    ds: z.array(DsSchema).openapi({ description: "DS data for the parent zone (RFC 5910), digests in uppercase hex." }),
    registry: z
      .object({
        roid: z.string().nullable().openapi({ example: "1234-VRSN", description: "The registry's repository object id (RFC 5730 §2.8)." }),
        registrar: z.string().nullable().openapi({
          example: null,
          description: "The registrar that sponsors the domain at the registry (its EPP `clID`) when it is not this service; null while this service does.",
        }),
        missing_since: TimestampSchema.nullable().openapi({
          description:
            "Since when the registry no longer holds the domain for this service (reconciliation found it gone, or another registrar's): the domain is kept here, marked, never silently deleted.",
        }),
        reconciled_at: TimestampSchema.nullable().openapi({ description: "When reconciliation last compared the domain with the registry's `<domain:info>`." }),
      })
      .nullable()
      .openapi({
        description:
          "What the repository's registry says of the domain, when the repository is connected (docs/registries.md) and the registry has said anything of it; null otherwise.",
      }),
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
      .openapi({ example: ["clientTransferProhibited"], description: STATUS_INPUT }),
    auth_info: authInfo.optional(),
    auto_renew: z.boolean().optional().openapi({ description: "Default true." }),
    ds: DsInputSchema.optional(),
    account: SponsorInputSchema,
    price: priceInput,
  })
  .openapi("DomainCreate");

export const DomainPatchSchema = z
  .object({
    registrant: contactRef.nullable().optional(),
    contacts: ContactRolesInput.nullable().optional(),
    nameservers: z.array(hostName).max(64).nullable().optional(),
    status: z.array(z.string().max(64)).max(16).nullable().optional().openapi({ description: STATUS_INPUT }),
    auth_info: authInfo.optional(),
    auto_renew: z.boolean().optional(),
    ds: DsInputSchema.nullable().optional(),
  })
  .openapi("DomainPatch");

export const DomainRenewSchema = z
  .object({
    period: z.number().optional().openapi({ type: "integer", example: 1, description: "Whole years; default the extension's minimum." }),
    current_expires_at: z.string().max(64).openapi({
      example: "2027-11-22T09:30:00.000Z",
      description: "The domain's `expires_at` as the client knows it; only its date counts (EPP curExpDate). A retried renew no longer matches and is refused.",
    }),
    price: priceInput,
  })
  .openapi("DomainRenew");

/** The domain as register, renew and restore answer it: with what the operation cost. */
export const PricedDomainSchema = DomainSchema.extend({
  price: PriceSchema.openapi({ description: "What this operation cost (not part of the domain: absent from reads and from its ETag)." }),
}).openapi("PricedDomain");

export const TransferSchema = z
  .object({
    domain: z.string().nullable().openapi({
      example: "dom_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B",
      description: "The domain; null for a transfer in from another registrar until the domain joins the gaining account.",
    }),
    name: z.string().openapi({ example: "example.com" }),
    status: z.enum(["pending", "approved", "rejected", "cancelled", "auto_approved"]),
    gaining_account: z.string().nullable().openapi({ example: "acc_01JD3Q6Y4T8N0V4W5X6Y7Z8A9C", description: "Null when another registrar gains the domain." }),
    losing_account: z.string().nullable().openapi({ example: "acc_00000000000000000000000000", description: "Null when another registrar loses the domain." }),
    registrar: z.string().nullable().openapi({
      example: null,
      description:
        "The other registrar (its EPP `clID` at the registry) of a transfer between registrars at a connected repository (docs/registries.md); null for a transfer between two accounts here.",
    }),
    period: z.number().int().openapi({ example: 1, description: "Years the expiry grows by on approval (capped at periods.max from then)." }),
    requested_at: TimestampSchema,
    act_by: TimestampSchema.nullable().openapi({ description: "When the transfer is approved automatically unless the losing side acts first." }),
    acted_at: TimestampSchema.nullable(),
    price: z
      .union([PriceSchema, z.null()])
      .openapi({ description: "What the transfer costs the gaining account (null for a transfer asked before prices existed)." }),
  })
  .openapi("Transfer");

export const TransferRequestSchema = z
  .object({
    auth_info: z.string().max(64).openapi({ example: "s3cret-Transfer-Key", description: "The domain's authorisation information, from its registrant." }),
    period: z.number().optional().openapi({ type: "integer", example: 1, description: "Whole years added on approval; default 1." }),
    price: priceInput,
  })
  .openapi("TransferRequest");

const nameParam = z.string().max(1024);

export const MAX_CHECKED_NAMES = 50;

export const DomainCheckQuery = z.object({
  name: z
    .union([nameParam, z.array(nameParam)])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .openapi({
      type: "array",
      items: { type: "string" },
      minItems: 1,
      maxItems: MAX_CHECKED_NAMES,
      description: `A name to check, U-labels or A-labels; repeat the parameter for more (1 to ${MAX_CHECKED_NAMES}: \`?name=a.com&name=b.net\`).`,
      example: ["example-shop.com", "vacation.com"],
    }),
});

export const DomainCheckSchema = z
  .object({
    data: z.array(
      z.object({
        name: z.string().openapi({ example: "vacation.com", description: "The name as A-labels, lowercase; as given when it is `invalid`." }),
        unicode_name: z.string().openapi({ example: "vacation.com" }),
        available: z.boolean(),
        reason: z.enum(["registered", "reserved", "invalid", "unsupported_extension"]).nullable().openapi({
          description:
            "Why the name is not available: `registered` (held by an account, in redemption included: nothing more is said), `reserved` by its registry, `invalid` (not a registrable name: a bad label, a name deeper or shallower than one label under an extension, an IDN where the extension takes none), `unsupported_extension` (under no extension offered here). Null when available.",
        }),
        premium: z.boolean().openapi({ description: "The registry prices this name on its own: its operations need the price confirmed (`price`)." }),
        prices: z
          .union([PriceTableSchema, z.null()])
          .openapi({ description: "What the name costs, for every period its extension allows; null unless available." }),
      }),
    ),
  })
  .openapi("DomainCheck");

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
