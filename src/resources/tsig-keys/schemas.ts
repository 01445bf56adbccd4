import { z } from "@hono/zod-openapi";
import { TSIG_KEY_USES } from "../../db/schema";
import { AccountFilterSchema, AccountRefSchema, listSchema, SponsorInputSchema, TimestampSchema } from "../../http/openapi";
import { paginationQuery } from "../../http/pagination";
import { dateTimeParam } from "../../http/query";
import { normalizedEach, zoneName } from "../../access/restrictions";
import { recordRulesSchema } from "../tokens/schemas";
import { dnsNameField } from "../../http/name-fields";

export const TSIG_ALGORITHMS = ["hmac-sha256", "hmac-sha512"] as const;
/** The most zones one key names: a key names its job, not a catalog. */
export const MAX_KEY_ZONES = 100;

const algorithm = z.enum(TSIG_ALGORITHMS, { error: `must be one of: ${TSIG_ALGORITHMS.join(", ")}` }).openapi({
  description:
    "The MAC algorithm (RFC 8945 §6): `hmac-sha256` (default) or `hmac-sha512`. The secret has as many random bytes as the hash's output (32 or 64).",
  example: "hmac-sha256",
});

const allow = z
  .array(z.enum(TSIG_KEY_USES, { error: `must be one of: ${TSIG_KEY_USES.join(", ")}` }))
  .min(1, { error: "must name at least one use" })
  .max(2)
  .superRefine((uses, ctx) => {
    uses.forEach((use, i) => {
      if (uses.indexOf(use) !== i) ctx.addIssue({ code: "custom", path: [i], message: `${use} is listed twice` });
    });
  })
  .openapi({
    description:
      "What the key signs: `update` (DNS UPDATE, RFC 2136, at the primary) and/or `transfer` (AXFR/IXFR of its zones, e.g. by a declared secondary).",
    example: ["update"],
  });

const RecordRuleSchema = z
  .object({
    name: z.string().openapi({ example: "_acme-challenge", description: "Owner name relative to the zone: `@`, labels, or `*.` then labels." }),
    types: z.array(z.string()).openapi({ example: ["TXT"], description: "Record types (upper case)." }),
  })
  .openapi("TsigKeyRecordRule");

export const TsigKeySchema = z
  .object({
    id: z.string().openapi({ example: "tsk_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" }),
    account: AccountRefSchema,
    name: z.string().openapi({
      example: "acme-writer.example.com.",
      description: "The key's DNS name, absolute (with the trailing dot), as clients name it (`nsupdate -y hmac-sha256:NAME:SECRET`). Unique in the service.",
    }),
    algorithm,
    allow,
    zones: z.array(z.string()).openapi({ example: ["example.com"], description: "The zones (of the key's account) the key works for." }),
    records: z
      .array(RecordRuleSchema)
      .nullable()
      .openapi({
        description: "UPDATE only at these owner names and types, as a token's `records` rules; `null`: any name and type of its zones.",
        example: [{ name: "_acme-challenge", types: ["TXT"] }],
      }),
    expires_at: TimestampSchema.nullable().openapi({ description: "After this time the key signs nothing the service accepts; null: never.", example: null }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .openapi("TsigKey");

export const TsigKeyCreatedSchema = z
  .object({
    ...TsigKeySchema.shape,
    secret: z.string().optional().openapi({
      example: "q2VbYg8mX3YQKZq0yUQ6xq8m1tRk8Z0cJ2u0Q7w9bVs=",
      description:
        "The shared secret, base64 (RFC 4648 §4), as `nsupdate -y` and `knsupdate` take it: shown in this answer only (stored encrypted, never shown again). Absent from an idempotent replay.",
    }),
  })
  .openapi("TsigKeyCreated");

const zonesField = () =>
  z
    .array(z.string().max(1024))
    .min(1, { error: "must name at least one zone" })
    .max(MAX_KEY_ZONES, { error: `has at most ${MAX_KEY_ZONES} entries` })
    .transform(normalizedEach(zoneName));

const recordsField = () => recordRulesSchema().nullable();

const expiresField = () =>
  dateTimeParam
    .refine((time) => time > new Date().toISOString(), { error: "must be in the future" })
    .nullable()
    .openapi({ type: "string", format: "date-time", description: "RFC 3339, in the future; stored in UTC with milliseconds. null: never." });

export const TsigKeyCreateSchema = z
  .object({
    name: dnsNameField({ underscore: true, minLabels: 1 }).openapi({
      example: "acme-writer.example.com",
      description: "The key's DNS name (trailing dot optional); unique in the service (409 `already_exists`).",
    }),
    algorithm: algorithm.optional(),
    allow,
    zones: zonesField().openapi({ description: "Zones of the key's account the key works for (required).", example: ["example.com"] }),
    records: recordsField().optional().openapi({ description: "Owner-name patterns and types UPDATE may touch; absent or null: any." }),
    expires_at: expiresField().optional(),
    account: SponsorInputSchema,
  })
  .openapi("TsigKeyCreate");

export const TsigKeyPatchSchema = z
  .object({
    allow: allow.optional(),
    zones: zonesField()
      .optional()
      .openapi({ description: "Replaces the key's zones.", example: ["example.com"] }),
    records: recordsField().optional().openapi({ description: "Replaces the key's rules; null: any name and type." }),
    expires_at: expiresField().optional(),
  })
  .openapi("TsigKeyPatch");

export const TSIG_KEY_READ_ONLY = ["id", "created_at", "updated_at", "secret"] as const;
export const TSIG_KEY_PATCH_READ_ONLY = ["id", "account", "name", "algorithm", "created_at", "updated_at", "secret"] as const;

export const TsigKeyListQuery = z.object({
  ...paginationQuery,
  account: AccountFilterSchema,
  zone: z.string().max(1024).optional().openapi({ description: "Only keys that name this zone." }),
});

export const TsigKeyListSchema = listSchema(TsigKeySchema, "TsigKeyList");

export type TsigKey = z.infer<typeof TsigKeySchema>;
export type TsigKeyCreate = z.output<typeof TsigKeyCreateSchema>;
export type TsigKeyPatch = z.output<typeof TsigKeyPatchSchema>;
