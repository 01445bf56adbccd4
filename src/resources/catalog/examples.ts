// The catalog's examples in the OpenAPI document: .com of Verisign's repository, as
// drizzle/0001_catalog.sql and 0021 seed it.
import type { z } from "@hono/zod-openapi";
import { priceTable } from "../../registry/prices";
import type { ExtensionSchema, RepositoryDetailSchema, RepositorySchema } from "./schemas";

const CATALOG_DATE = "2026-01-01T00:00:00.000Z";

export const EXTENSION_EXAMPLE = {
  id: "com",
  name: "com",
  unicode_name: "com",
  type: "generic",
  repository: "verisign",
  periods: { min: 1, max: 10 },
  grace_periods: { add: 5, renew: 5, auto_renew: 45, transfer: 5, redemption: 30, pending_delete: 5 },
  nameservers: { min: 0, max: 13 },
  idn: true,
  dnssec: true,
  transfer_lock_days: 60,
  pending_transfer_days: 5,
  prices: priceTable({ currency: "USD", register: "12.00", renew: "12.00", transfer: "12.00", restore: "40.00" }, { min: 1, max: 10 }),
  created_at: CATALOG_DATE,
  updated_at: CATALOG_DATE,
} satisfies z.output<typeof ExtensionSchema>;

export const REPOSITORY_EXAMPLE = {
  id: "verisign",
  name: "Verisign",
  roid_suffix: "VRSN",
  extensions: ["com", "net"],
  created_at: CATALOG_DATE,
  updated_at: CATALOG_DATE,
} satisfies z.output<typeof RepositorySchema>;

/** One repository with its premium and reserved names (drizzle/0021). */
export const REPOSITORY_DETAIL_EXAMPLE = {
  ...REPOSITORY_EXAMPLE,
  premium_names: [
    {
      name: "vacation.com",
      unicode_name: "vacation.com",
      extension: "com",
      prices: priceTable({ currency: "USD", register: "2500.00", renew: "2500.00", transfer: "2500.00", restore: "40.00" }, { min: 1, max: 10 }),
    },
  ],
  reserved_names: ["nic.com", "nic.net", "whois.com", "whois.net"],
  connector: { kind: "builtin", state: "up", since: REPOSITORY_EXAMPLE.created_at, last_error: null },
} satisfies z.output<typeof RepositoryDetailSchema>;
