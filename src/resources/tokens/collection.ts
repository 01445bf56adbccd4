// Tokens as the write routine sees them (src/http/mutate.ts), and what their operations
// share. A token narrowed to zones or domains reaches no token but itself: the
// authentication middleware refuses the rest (src/access/token-rights.ts routeRefusal).
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import type { Collection } from "../../http/mutate";
import { ApiError } from "../../http/problem";
import type { TokenRights } from "../../access/token-rights";
import { presentToken } from "./present";
import { findToken, type TokenRow } from "./queries";
import type { Token } from "./schemas";

export const tokenCollection: Collection<TokenRow, Token> = {
  type: "token",
  path: "/v1/tokens",
  byName: false,
  find: findToken,
  present: presentToken,
  accountOf: (row) => row.accountId,
};

/** The caller's rights: a token's, or the operator's with authentication off (src/http/auth.ts). */
export function callerRights(c: Context<AppEnv>): TokenRights {
  return c.get("principal").rights!;
}

/** A stored token's rights, to compare with the caller's (attenuation, src/access/token-rights.ts). */
export function rightsOf(row: TokenRow): TokenRights {
  return {
    scope: row.scope,
    accountId: row.accountId,
    // Only the minter's role matters to `widening`.
    role: "customer",
    zones: row.zones,
    domains: row.domains,
    records: row.records,
    allowedIps: row.allowedIps,
    expiresAt: row.expiresAt,
  };
}

/** Token names are unique within an account and never reused (a revoked token keeps its name). */
export function tokenNameTaken(name: string, accountId: string): ApiError {
  return new ApiError(
    "already_exists",
    `The account ${accountId} already has a token named "${name}" (names are never reused, even those of revoked tokens); choose another name.`,
  );
}
