import type { TsigKeyRow } from "./queries";
import type { TsigKey } from "./schemas";

/** A key's API representation: never its secret. */
export function presentTsigKey(row: TsigKeyRow): TsigKey {
  return {
    id: row.id,
    account: row.accountId,
    name: `${row.name}.`,
    algorithm: row.algorithm,
    allow: row.allow,
    zones: row.zones,
    records: row.records,
    expires_at: row.expiresAt,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
