import { z } from "@hono/zod-openapi";
import { booleanParam } from "../../http/query";
import { paginationQuery } from "../../http/pagination";
import { TimestampSchema, listSchema } from "../../http/openapi";

const amount = (example: string) => z.string().openapi({ example, description: "A decimal amount in `currency`." });

/** What each operation costs, for every period the extension allows (src/registry/prices.ts). */
export const PriceTableSchema = z
  .object({
    currency: z.string().openapi({ example: "USD", description: "ISO 4217 currency code." }),
    register: z.record(z.string(), z.string()).openapi({ description: "Registering for n years, keyed by n.", example: { "1": "12.00", "2": "24.00" } }),
    renew: z.record(z.string(), z.string()).openapi({ description: "Renewing for n years, keyed by n.", example: { "1": "12.00", "2": "24.00" } }),
    transfer: z
      .record(z.string(), z.string())
      .openapi({ description: "Transferring in with n years added, keyed by n.", example: { "1": "12.00", "2": "24.00" } }),
    restore: amount("40.00").openapi({ description: "Restoring a deleted domain in its redemption period (RFC 3915)." }),
  })
  .openapi("PriceTable");

/** What one operation cost, in the answers of register, renew, transfer and restore. */
export const PriceSchema = z
  .object({ currency: z.string().openapi({ example: "USD" }), amount: amount("12.00") })
  .openapi("Price", { description: "What the operation costs (charged to the sponsoring account)." });

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
    prices: PriceTableSchema.openapi({
      description:
        "What registering, renewing and transferring cost for each period `periods` allows, and the restore fee. Premium names have their own prices (`GET /repositories/{repository}`).",
    }),
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

export const ConnectorSchema = z
  .object({
    kind: z.enum(["epp", "builtin"]).openapi({
      description:
        "`epp`: the service is a registrar of this registry and speaks EPP to it, and the registry decides; `builtin`: the service acts as the registry itself.",
    }),
    state: z.enum(["up", "connecting", "down"]).openapi({
      description:
        "`up`: EPP sessions are open; `connecting`: none yet, the gateway is logging in; `down`: the registry or the gateway cannot be reached (writes answer 503 `registry_unavailable`; reads go on). A builtin connector is always `up`.",
    }),
    since: z
      .string()
      .nullable()
      .openapi({ example: "2026-01-01T00:00:00.000Z", description: "When the state began, as the gateway saw it (null when the gateway cannot be reached)." }),
    last_error: z
      .string()
      .nullable()
      .openapi({ example: null, description: "The last failure the gateway met: the registry's message, a refused connection, a gateway out of reach." }),
    objects: z
      .array(z.string())
      .optional()
      .openapi({ example: ["urn:ietf:params:xml:ns:domain-1.0"], description: "Operators only: the object namespaces the registry's greeting offers." }),
    extensions: z
      .array(z.string())
      .optional()
      .openapi({ example: ["urn:ietf:params:xml:ns:secDNS-1.1"], description: "Operators only: the extension namespaces the registry's greeting offers." }),
    sessions: z
      .object({ open: z.number().int(), configured: z.number().int() })
      .optional()
      .openapi({ description: "Operators only: EPP sessions open now, and how many the connector keeps." }),
    set_aside_messages: z.number().int().optional().openapi({
      example: 0,
      description:
        "Operators only, when the gateway answered: poll messages the API did not take after the gateway's attempts, which it set aside in its state directory (with their raw XML) and acked, and hands over again until the API takes them (docs/registries.md, \"Poll messages the API does not take\"). Not 0: read the gateway's log and state directory.",
    }),
  })
  .openapi("Connector", { description: "How the service reaches this repository's registry (docs/registries.md)." });

export const RepositoryDetailSchema = RepositorySchema.extend({
  premium_names: z
    .array(
      z.object({
        name: z.string().openapi({ example: "vacation.com" }),
        unicode_name: z.string().openapi({ example: "vacation.com" }),
        extension: z.string().openapi({ example: "com" }),
        prices: PriceTableSchema,
      }),
    )
    .openapi({
      description:
        "Names the registry prices on its own. Registering, renewing or transferring one needs its price confirmed in the body (`price`, as the EPP fee extension RFC 8748 does).",
    }),
  reserved_names: z
    .array(z.string())
    .openapi({ example: ["example.com", "nic.com"], description: "Names the registry keeps from registration (422 `policy_violation`)." }),
  connector: ConnectorSchema,
}).openapi("RepositoryDetail");

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
export type RepositoryDetail = z.infer<typeof RepositoryDetailSchema>;
export type Connector = z.infer<typeof ConnectorSchema>;
export type PriceTable = z.infer<typeof PriceTableSchema>;
