import { and, asc, eq, getTableColumns, gt, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import type { ResourceRef } from "../../db/ref";
import { accounts, apiTokens } from "../../db/schema";
import type { PageRequest } from "../../http/pagination";
import type { TokenListFilters } from "./schemas";

/**
 * Tokens have no version column: a token changes once, when it is revoked, so its
 * version is 1 while active and 2 once revoked (what ETag and If-Match compare).
 */
const columns = { ...getTableColumns(apiTokens), version: sql<number>`case when ${apiTokens.revokedAt} is null then 1 else 2 end` };

export type TokenRow = typeof apiTokens.$inferSelect & { version: number };

export function findToken(db: Database, ref: ResourceRef) {
  // Tokens have no name to be found by in a path (names are per account): a segment is an id.
  return db
    .select(columns)
    .from(apiTokens)
    .where(eq(apiTokens.id, ref.kind === "id" ? ref.id : ""));
}

export function listTokens(db: Database, filters: Pick<TokenListFilters, "account" | "scope" | "revoked">, page: PageRequest) {
  const conditions: (SQL | undefined)[] = [];
  if (filters.account !== undefined) conditions.push(eq(apiTokens.accountId, filters.account));
  if (filters.scope !== undefined) conditions.push(eq(apiTokens.scope, filters.scope));
  if (filters.revoked !== undefined) conditions.push(filters.revoked ? isNotNull(apiTokens.revokedAt) : isNull(apiTokens.revokedAt));
  if (page.after) conditions.push(gt(apiTokens.id, page.after.id));
  return db
    .select(columns)
    .from(apiTokens)
    .where(and(...conditions))
    .orderBy(asc(apiTokens.id))
    .limit(page.limit + 1);
}

/** The ids of every token minted from `tokenId`, transitively (not the token itself). */
function descendantIds(tokenId: string): SQL {
  return sql`with recursive descendants(id) as (
      select id from ${apiTokens} where parent_id = ${tokenId}
      union select t.id from ${apiTokens} t join descendants d on t.parent_id = d.id
    ) select id from descendants`;
}

/** The active tokens minted from `tokenId`, transitively, in creation order. */
export function activeDescendants(db: Database, tokenId: string) {
  return db
    .select(columns)
    .from(apiTokens)
    .where(and(sql`${apiTokens.id} in (${descendantIds(tokenId)})`, isNull(apiTokens.revokedAt)))
    .orderBy(asc(apiTokens.id));
}

/** Revokes every still-active token minted from `tokenId`, transitively, at `at`. */
export function revokeDescendants(db: Database, tokenId: string, at: string) {
  return db
    .update(apiTokens)
    .set({ revokedAt: at })
    .where(and(sql`${apiTokens.id} in (${descendantIds(tokenId)})`, isNull(apiTokens.revokedAt)));
}

/** The account a new token is for: its role, or nothing when there is no such account. */
export function accountRole(db: Database, accountId: string) {
  return db.select({ role: accounts.role }).from(accounts).where(eq(accounts.id, accountId));
}
