// The local registry's catalog: the service's own (drizzle/0001_catalog.sql, 0021 and any
// later migration that adds an extension, a price or a name), so that the registry's
// availability and prices are what the builtin registry answered before a connector.
// Read from catalog.json beside this file (main.ts), which `npm run registry -- --write-catalog`
// makes from the migrations (Miniflare's D1, every migration applied: slow, so not at
// every start); test/local-registry-catalog.test.ts fails when the file and the
// migrations disagree.
import type { YearlyPrices } from "../../src/registry/prices";

export interface CatalogExtension {
  id: string;
  repository: string;
  periodMin: number;
  periodMax: number;
  graceAdd: number;
  graceRenew: number;
  graceAutoRenew: number;
  graceTransfer: number;
  graceRedemption: number;
  gracePendingDelete: number;
  nameserversMin: number;
  nameserversMax: number;
  dnssec: boolean;
  prices: YearlyPrices;
}

export interface CatalogName {
  name: string;
  repository: string;
  extension: string;
  kind: "premium" | "reserved";
  prices: YearlyPrices | null;
}

export interface RegistryCatalog {
  repositories: { id: string; roidSuffix: string }[];
  extensions: CatalogExtension[];
  names: CatalogName[];
}

/** The catalog as the migrations leave it, read from a D1 they were applied to (rows as SQLite gives them). */
export function catalogFromRows(rows: {
  repositories: Record<string, unknown>[];
  extensions: Record<string, unknown>[];
  names: Record<string, unknown>[];
}): RegistryCatalog {
  const json = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v) as YearlyPrices;
  return {
    repositories: rows.repositories.map((r) => ({ id: String(r.id), roidSuffix: String(r.roid_suffix) })).sort((a, b) => a.id.localeCompare(b.id)),
    extensions: rows.extensions
      .map((e) => ({
        id: String(e.id),
        repository: String(e.repository_id),
        periodMin: Number(e.period_min),
        periodMax: Number(e.period_max),
        graceAdd: Number(e.grace_add),
        graceRenew: Number(e.grace_renew),
        graceAutoRenew: Number(e.grace_auto_renew),
        graceTransfer: Number(e.grace_transfer),
        graceRedemption: Number(e.grace_redemption),
        gracePendingDelete: Number(e.grace_pending_delete),
        nameserversMin: Number(e.nameservers_min),
        nameserversMax: Number(e.nameservers_max),
        dnssec: Boolean(e.dnssec),
        prices: json(e.prices),
      }))
      .sort((a, b) => a.id.localeCompare(b.id)),
    names: rows.names
      .map((n) => ({
        name: String(n.name),
        repository: String(n.repository_id),
        extension: String(n.extension_id),
        kind: n.kind === "premium" ? ("premium" as const) : ("reserved" as const),
        prices: n.prices == null ? null : json(n.prices),
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

/** The SQL that reads the catalog's rows, the same in Miniflare and in the tests' D1. */
export const CATALOG_QUERIES = {
  repositories: "SELECT id, roid_suffix FROM repositories",
  extensions:
    "SELECT id, repository_id, period_min, period_max, grace_add, grace_renew, grace_auto_renew, grace_transfer, grace_redemption, grace_pending_delete, nameservers_min, nameservers_max, dnssec, prices FROM extensions",
  names: "SELECT name, repository_id, extension_id, kind, prices FROM repository_names",
} as const;
