// The catalog's representations: an extension, a repository in a list, and a repository
// with its premium and reserved names and its connector.
import type { ExtensionRow, RepositoryNameRow, RepositoryRow } from "../../db/catalog";
import { toUnicodeName } from "../../dns/name";
import { priceTable } from "../../registry/prices";
import type { Connector, Extension, Repository, RepositoryDetail } from "./schemas";

export function presentExtension(row: ExtensionRow): Extension {
  return {
    id: row.id,
    name: row.id,
    unicode_name: row.unicodeName,
    type: row.type,
    repository: row.repositoryId,
    periods: { min: row.periodMin, max: row.periodMax },
    grace_periods: {
      add: row.graceAdd,
      renew: row.graceRenew,
      auto_renew: row.graceAutoRenew,
      transfer: row.graceTransfer,
      redemption: row.graceRedemption,
      pending_delete: row.gracePendingDelete,
    },
    nameservers: { min: row.nameserversMin, max: row.nameserversMax },
    idn: row.idn,
    dnssec: row.dnssec,
    transfer_lock_days: row.transferLockDays,
    pending_transfer_days: row.pendingTransferDays,
    prices: priceTable(row.prices, { min: row.periodMin, max: row.periodMax }),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export function presentRepository(row: RepositoryRow, extensionIds: string[]): Repository {
  return { id: row.id, name: row.name, roid_suffix: row.roidSuffix, extensions: extensionIds, created_at: row.createdAt, updated_at: row.updatedAt };
}

/** The repository with its premium names (their prices over their extension's periods) and its reserved names. */
export function presentRepositoryDetail(
  row: RepositoryRow,
  extensionIds: string[],
  names: readonly RepositoryNameRow[],
  extensions: ReadonlyMap<string, ExtensionRow>,
  connector: Connector,
): RepositoryDetail {
  const premium_names = names.flatMap((n) => {
    const extension = extensions.get(n.extensionId);
    if (n.kind !== "premium" || !n.prices || !extension) return [];
    const prices = priceTable(n.prices, { min: extension.periodMin, max: extension.periodMax });
    return [{ name: n.name, unicode_name: toUnicodeName(n.name), extension: n.extensionId, prices }];
  });
  const reserved_names = names.filter((n) => n.kind === "reserved").map((n) => n.name);
  const { created_at, updated_at, ...rest } = presentRepository(row, extensionIds);
  return { ...rest, premium_names, reserved_names, connector, created_at, updated_at };
}
