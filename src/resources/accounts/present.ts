import type { AccountRow } from "./queries";
import type { Account } from "./schemas";

/** An account's API representation (docs/accounts.md). */
export function presentAccount(row: AccountRow): Account {
  return { id: row.id, name: row.name, role: row.role, status: row.status, created_at: row.createdAt, updated_at: row.updatedAt };
}
