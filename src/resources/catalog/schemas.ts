import { z } from "@hono/zod-openapi";
import { booleanParam } from "../../http/query";
import { paginationQuery } from "../../http/pagination";
import { TimestampSchema, listSchema } from "../../http/openapi";

export const ExtensionSchema = z
  .object({
    id: z.string().openapi({ example: "co.uk", description: "The ASCII name without the leading dot." }),
    name: z.string().openapi({ example: "co.uk" }),
    unicode_name: z.string().openapi({ example: "co.uk" }),
    type: z.enum(["generic", "country-code", "sponsored"]),
    repository: z.string().openapi({ example: "nominet" }),
    periods: z
      .object({ min: z.number().int(), max: z.number().int() })
      .openapi({ description: "Registration periods in whole years.", example: { min: 1, max: 10 } }),
    grace_periods: z
      .object({
        add: z.number().int(),
        renew: z.number().int(),
        auto_renew: z.number().int(),
        transfer: z.number().int(),
        redemption: z.number().int(),
        pending_delete: z.number().int(),
      })
      .openapi({
        description: "Grace periods in days (RFC 3915).",
        example: { add: 5, renew: 5, auto_renew: 45, transfer: 5, redemption: 30, pending_delete: 5 },
      }),
    nameservers: z
      .object({ min: z.number().int(), max: z.number().int() })
      .openapi({ description: "How many name servers a domain may have.", example: { min: 0, max: 13 } }),
    idn: z.boolean().openapi({ description: "Whether internationalised (xn--) names can be registered.", example: true }),
    dnssec: z.boolean().openapi({ description: "Whether the registry accepts DS records for its domains.", example: true }),
    transfer_lock_days: z
      .number()
      .int()
      .openapi({ description: "Days after a registration or a transfer during which the domain cannot be transferred (0: no lock).", example: 60 }),
    pending_transfer_days: z
      .number()
      .int()
      .openapi({ description: "Days a transfer waits for the losing account before it is approved automatically.", example: 5 }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .openapi("Extension");

export const RepositorySchema = z
  .object({
    id: z.string().openapi({ example: "verisign" }),
    name: z.string().openapi({ example: "Verisign" }),
    roid_suffix: z.string().openapi({ example: "VRSN", description: "Suffix of the registry's repository object ids (RFC 5730 §2.8)." }),
    extensions: z.array(z.string()).openapi({ example: ["com", "net"] }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .openapi("Repository");

export const ExtensionListQuery = z.object({
  ...paginationQuery,
  repository: z.string().max(64).optional().openapi({ description: "Repository id." }),
  type: z.enum(["generic", "country-code", "sponsored"]).optional().openapi({ description: "Kind of extension." }),
  idn: booleanParam.optional().openapi({ type: "boolean", description: "`true` or `false`." }),
});

export const RepositoryListQuery = z.object({ ...paginationQuery });

export const ExtensionListSchema = listSchema(ExtensionSchema, "ExtensionList");
export const RepositoryListSchema = listSchema(RepositorySchema, "RepositoryList");

export type Extension = z.infer<typeof ExtensionSchema>;
export type Repository = z.infer<typeof RepositorySchema>;
