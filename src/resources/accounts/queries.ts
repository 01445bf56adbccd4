import { and, asc, eq, gt, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import type { ResourceRef } from "../../db/ref";
import { accounts } from "../../db/schema";
import type { PageRequest } from "../../http/pagination";
import type { AccountListFilters } from "./schemas";

export type AccountRow = typeof accounts.$inferSelect;

export function findAccount(db: Database, ref: ResourceRef) {
  // Accounts have no name to be found by in a path: a segment is always an id.
  return db
    .select()
    .from(accounts)
    .where(eq(accounts.id, ref.kind === "id" ? ref.id : ""));
}

export function listAccounts(db: Database, filters: Pick<AccountListFilters, "role" | "status">, page: PageRequest) {
  const conditions: (SQL | undefined)[] = [];
  if (filters.role !== undefined) conditions.push(eq(accounts.role, filters.role));
  if (filters.status !== undefined) conditions.push(eq(accounts.status, filters.status));
  if (page.after) conditions.push(gt(accounts.id, page.after.id));
  return db
    .select()
    .from(accounts)
    .where(and(...conditions))
    .orderBy(asc(accounts.id))
    .limit(page.limit + 1);
}

/**
 * What an account holds, by kind, in the order a message names them. Tokens count while
 * they are not revoked: a revoked token is history (events name it), not a holding.
 * The tables are named `main."…"`: these counts are about the account, whoever asks.
 */
const HOLDINGS = [
  ["contact", sql`main."contacts"`, sql``],
  ["domain", sql`main."domains"`, sql``],
  ["host", sql`main."hosts"`, sql``],
  ["zone", sql`main."zones"`, sql``],
  ["active token", sql`main."api_tokens"`, sql` and revoked_at is null`],
  ["webhook", sql`main."webhooks"`, sql``],
] as const;

export type Holdings = { kind: string; count: number }[];

/**
 * How many objects and active tokens the account holds, each kind counted once; and how
 * many transfers it took part in, gaining or losing: they are the domain's history, the
 * other account's too, so they keep the account (docs/accounts.md). One read.
 */
export async function accountHoldings(db: Database, accountId: string): Promise<{ holdings: Holdings; transfers: number }> {
  const counts = sql.join(
    HOLDINGS.map(([, table, extra], i) => sql`(select count(*) from ${table} where account_id = ${accountId}${extra}) as ${sql.raw(`c${i}`)}`),
    sql`, `,
  );
  const transfers = sql`(select count(*) from main."transfers" where gaining_account_id = ${accountId} or losing_account_id = ${accountId}) as transfers`;
  const row = (await db.all<Record<string, number>>(sql`select ${counts}, ${transfers}`))[0] ?? {};
  return {
    holdings: HOLDINGS.map(([kind], i) => ({ kind, count: Number(row[`c${i}`] ?? 0) })).filter((h) => h.count > 0),
    transfers: Number(row.transfers ?? 0),
  };
}

/** True at its turn in a batch when the account holds nothing (the delete's own guard). */
export function holdsNothing(accountId: string): SQL {
  return sql.join(
    HOLDINGS.map(([, table, extra]) => sql`not exists (select 1 from ${table} where account_id = ${accountId}${extra})`),
    sql` and `,
  );
}
