import { z } from "@hono/zod-openapi";
import { paginationQuery } from "../../http/pagination";
import { TimestampSchema, listSchema } from "../../http/openapi";
import { readOnlyFields } from "../../http/patch";
import { LIMIT_NAMES, MAX_LIMIT, QUOTA_KINDS } from "../../registry/limits";
import { TokenSchema } from "../tokens/schemas";

export const ACCOUNT_ROLES = ["operator", "customer"] as const;
export const ACCOUNT_STATUSES = ["active", "suspended"] as const;

const name = z
  .string()
  .max(100)
  .superRefine((s, ctx) => {
    const problem =
      s.trim().length === 0
        ? "must not be blank"
        : s.trim() !== s
          ? "must not begin or end with white space"
          : /[\u0000-\u001f\u007f]/.test(s)
            ? "must not contain control characters"
            : null;
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .openapi({ example: "Example Reseller", description: "1–100 characters, unique among accounts." });

const role = z
  .enum(ACCOUNT_ROLES, { error: `must be one of: ${ACCOUNT_ROLES.join(", ")}` })
  .openapi({ description: "`operator` accounts see and change every account's objects; `customer` accounts only their own." });

const status = z
  .enum(ACCOUNT_STATUSES, { error: `must be one of: ${ACCOUNT_STATUSES.join(", ")}` })
  .openapi({ description: "Every token of a `suspended` account is refused (403); its objects are kept." });

const count = z
  .number()
  .int()
  .min(0)
  .max(MAX_LIMIT, { error: `must be a whole number from 0 to ${MAX_LIMIT}` });

/** An operator's overrides of the configured limits (JSON Merge Patch: null removes one). */
export const LimitsPatchSchema = z
  .strictObject(
    Object.fromEntries(LIMIT_NAMES.map((name) => [name, count.nullable().optional()])) as Record<
      (typeof LIMIT_NAMES)[number],
      z.ZodOptional<z.ZodNullable<typeof count>>
    >,
  )
  .openapi("AccountLimitsPatch", {
    description: "Limits to set for this account (`null` returns one to the configured default); the others are kept.",
    example: { zones: 50, records: 20000 },
  });

export const LimitsSchema = z
  .object(Object.fromEntries(LIMIT_NAMES.map((name) => [name, z.number().int()])) as Record<(typeof LIMIT_NAMES)[number], z.ZodNumber>)
  .openapi("AccountLimits", {
    description:
      "What the account may hold, and how many requests a minute its tokens may make together: the configured defaults (wrangler.toml LIMIT_*) with the operator's overrides.",
  });

export const UsageSchema = z
  .object(Object.fromEntries(QUOTA_KINDS.map((name) => [name, z.number().int()])) as Record<(typeof QUOTA_KINDS)[number], z.ZodNumber>)
  .openapi("AccountUsage", { description: "What the account holds now (records: over all its zones; tokens: not revoked)." });

export const AccountSchema = z
  .object({
    id: z.string().openapi({ example: "acc_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" }),
    name: z.string().openapi({ example: "Example Reseller" }),
    role,
    status,
    limits: LimitsSchema.optional().openapi({ description: "On single reads (`GET /accounts/{account}`, `GET /me`): the account's limits." }),
    usage: UsageSchema.optional().openapi({ description: "On single reads: what the account holds, against `limits`." }),
    over_quota: z.array(z.enum(QUOTA_KINDS)).optional().openapi({
      description:
        'On single reads: the quotas the account holds more than its limit of (empty when none): a limit the operator lowered below what it holds, or a domain a connected registry gave it without room (a transfer in it approved: docs/safety.md, "Quotas"). Its writes that would raise such a count are refused until it is under again.',
      example: [],
    }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .openapi("Account");

export const AccountCreateSchema = z
  .object({
    name,
    role: role.optional().openapi({ description: "Set once, at creation; `customer` when absent." }),
    status: status.optional().openapi({ description: "`active` when absent." }),
    limits: LimitsPatchSchema.optional(),
  })
  .openapi("AccountCreate");

export const AccountPatchSchema = z
  .object({
    name: name.optional(),
    status: status.optional(),
    limits: LimitsPatchSchema.optional(),
  })
  .openapi("AccountPatch");

export const ACCOUNT_CREATE_READ_ONLY = readOnlyFields(AccountSchema, AccountCreateSchema);
/** `role` is set at creation and read-only afterwards. */
export const ACCOUNT_PATCH_READ_ONLY = readOnlyFields(AccountSchema, AccountPatchSchema);

export const AccountListQuery = z.object({
  ...paginationQuery,
  role: z
    .enum(ACCOUNT_ROLES, { error: `must be one of: ${ACCOUNT_ROLES.join(", ")}` })
    .optional()
    .openapi({ description: "Only accounts of this role." }),
  status: z
    .enum(ACCOUNT_STATUSES, { error: `must be one of: ${ACCOUNT_STATUSES.join(", ")}` })
    .optional()
    .openapi({ description: "Only accounts in this status." }),
});

export const AccountListSchema = listSchema(AccountSchema, "AccountList");

export const MeSchema = z
  .object({
    account: AccountSchema,
    token: TokenSchema.nullable().openapi({ description: "The calling token (never its secret); null with authentication off (local development)." }),
  })
  .openapi("Me");

export type Account = z.infer<typeof AccountSchema>;
export type AccountCreate = z.infer<typeof AccountCreateSchema>;
export type AccountPatch = z.infer<typeof AccountPatchSchema>;
export type AccountListFilters = z.infer<typeof AccountListQuery>;
