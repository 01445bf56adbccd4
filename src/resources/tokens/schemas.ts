import { z } from "@hono/zod-openapi";
import { paginationQuery } from "../../http/pagination";
import { booleanParam, dateTimeParam } from "../../http/query";
import { TimestampSchema, listSchema } from "../../http/openapi";
import { cidr, domainName, normalizedEach, normalizedOne, ownerPattern, recordType, zoneName } from "../../access/restrictions";

export const TOKEN_SCOPES = ["read", "write", "dns"] as const;
/** The most entries a restriction list takes: a token names its job, not a catalog. */
export const MAX_RESTRICTION_ENTRIES = 100;

/**
 * `records` rules, as tokens and TSIG keys take them: owner-name patterns relative to the
 * zone and the types allowed there, one rule per name (src/access/token-rights.ts matches them).
 */
export function recordRulesSchema() {
  return z
    .array(
      z.strictObject({
        name: z.string().max(1024).transform(normalizedOne(ownerPattern)),
        types: z.array(z.string().max(16)).min(1, { error: "must name at least one type" }).max(64).transform(normalizedEach(recordType)),
      }),
    )
    .max(MAX_RESTRICTION_ENTRIES, { error: `has at most ${MAX_RESTRICTION_ENTRIES} entries` })
    .superRefine((rules, ctx) => {
      const seen = new Map<string, number>();
      rules.forEach((rule, i) => {
        if (seen.has(rule.name)) {
          ctx.addIssue({
            code: "custom",
            path: [i, "name"],
            message: `repeats records[${seen.get(rule.name)}].name (${rule.name}); list its types in one rule`,
          });
        } else seen.set(rule.name, i);
      });
    });
}

const scope = z.enum(TOKEN_SCOPES, { error: `must be one of: ${TOKEN_SCOPES.join(", ")}` }).openapi({
  description: "`read`: GET and HEAD; `write`: everything; `dns`: the DNS backend under /v1/pdns only (minted by an unrestricted operator token).",
});

const RecordRuleSchema = z
  .object({
    name: z.string().openapi({
      example: "_acme-challenge",
      description: "Owner name relative to the zone: `@` (the apex), labels, or `*.` then labels (any number of labels in front).",
    }),
    types: z.array(z.string()).openapi({ example: ["TXT"], description: "Record types (upper case)." }),
  })
  .openapi("TokenRecordRule");

const list = (of: z.ZodType, description: string, example: unknown) =>
  z
    .array(of)
    .nullable()
    .openapi({ description: `${description} \`null\`: no such restriction.`, example });

export const TokenSchema = z
  .object({
    id: z.string().openapi({ example: "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" }),
    name: z.string().openapi({ example: "acme-dns01", description: "Unique within the account, never reused (revoked tokens keep theirs)." }),
    account: z.string().openapi({ example: "acc_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B", description: "The account the token acts for." }),
    scope,
    parent: z.string().nullable().openapi({
      example: "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9C",
      description:
        "The token that minted this one; null for a token minted by `npm run token` (or with authentication off). Revoking a token revokes its descendants.",
    }),
    zones: list(z.string(), "Zones (A-label names) the token sees and changes, with their records; others are 404 to it.", ["example.com"]),
    domains: list(z.string(), "Domains (A-label names) the token sees and changes; others are 404 to it.", null),
    records: list(RecordRuleSchema, "Record writes only at these owner names and types (reads are not narrowed).", [
      { name: "_acme-challenge", types: ["TXT"] },
    ]),
    allowed_ips: list(z.string(), "CIDRs (canonical) the requests must come from.", ["192.0.2.0/24", "2001:db8::/32"]),
    expires_at: TimestampSchema.nullable().openapi({ description: "After this time the token is unknown (401); null: never." }),
    last_used_at: TimestampSchema.nullable().openapi({ description: "When the token was last accepted (written at most once a minute)." }),
    revoked_at: TimestampSchema.nullable().openapi({ description: "When the token (or an ancestor) was revoked; null while active.", example: null }),
    created_at: TimestampSchema,
  })
  .openapi("Token");

export const TokenCreatedSchema = z
  .object({
    ...TokenSchema.shape,
    secret: z.string().optional().openapi({
      example: "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B.9yJ0m2mWc8n6bJ3kqQx1Zr4Lh7VtP5sD0aEfGiKoUwY",
      description:
        "The bearer token (`Authorization: Bearer <secret>`), shown in this answer only: the service keeps only its SHA-256. Absent from an idempotent replay (`Idempotent-Replayed: true`), which repeats the rest.",
    }),
  })
  .openapi("TokenCreated");

const entries = () => z.array(z.string().max(1024)).max(MAX_RESTRICTION_ENTRIES, { error: `has at most ${MAX_RESTRICTION_ENTRIES} entries` });

export const TokenCreateSchema = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/, { error: "must be 1-64 letters, digits, dots, dashes or underscores" })
      .openapi({ example: "acme-dns01", description: "1–64 letters, digits, dots, dashes or underscores; unique within the account." }),
    scope,
    account: z
      .string()
      .max(64)
      .optional()
      .openapi({ description: "Operators only: the account the token is for (default: the caller's). From a customer's token: 422 `read_only_field`." }),
    zones: entries().transform(normalizedEach(zoneName)).nullable().optional().openapi({
      description:
        "Zone names (U-labels accepted; stored as A-labels). A token with `zones` or `domains` cannot reach contacts, hosts, accounts or other tokens.",
    }),
    domains: entries()
      .transform(normalizedEach(domainName))
      .nullable()
      .optional()
      .openapi({ description: "Domain names (U-labels accepted; stored as A-labels)." }),
    records: recordRulesSchema().nullable().optional().openapi({
      description: "Owner-name patterns (relative to the zone: `@`, labels, optionally starting `*.`) and the record types the token may write there.",
    }),
    allowed_ips: entries()
      .transform(normalizedEach(cidr))
      .nullable()
      .optional()
      .openapi({ description: "CIDRs (IPv4 or IPv6; one address is a /32 or /128); host bits must be zero." }),
    expires_at: dateTimeParam
      .refine((time) => time > new Date().toISOString(), { error: "must be in the future" })
      .nullable()
      .optional()
      .openapi({ type: "string", format: "date-time", description: "RFC 3339, in the future; stored in UTC with milliseconds." }),
  })
  .openapi("TokenCreate");

/** What a POST may not set: the token's history, and the secret the service makes. */
export const TOKEN_READ_ONLY = ["id", "parent", "last_used_at", "revoked_at", "created_at", "secret"] as const;

export const TokenListQuery = z.object({
  ...paginationQuery,
  account: z.string().min(1).max(64).optional().openapi({ description: "Only the tokens of this account (`acc_…`); a customer sees its own account's only." }),
  scope: z
    .enum(TOKEN_SCOPES, { error: `must be one of: ${TOKEN_SCOPES.join(", ")}` })
    .optional()
    .openapi({ description: "Only tokens of this scope." }),
  revoked: booleanParam.optional().openapi({ type: "boolean", description: "`false`: only tokens not revoked; `true`: only revoked ones." }),
});

export const TokenListSchema = listSchema(TokenSchema, "TokenList");

export type Token = z.infer<typeof TokenSchema>;
export type TokenCreated = z.infer<typeof TokenCreatedSchema>;
export type TokenCreate = z.output<typeof TokenCreateSchema>;
export type TokenListFilters = z.infer<typeof TokenListQuery>;
