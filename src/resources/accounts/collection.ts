// Accounts as the write routine sees them (src/http/mutate.ts), and the answers their
// operations share.
import type { Context } from "hono";
import { OPERATOR_ACCOUNT_ID } from "../../db/schema";
import type { AppEnv } from "../../env";
import { type Collection, findResource } from "../../http/mutate";
import { ApiError } from "../../http/problem";
import { presentAccount } from "./present";
import { type AccountRow, findAccount } from "./queries";
import type { Account } from "./schemas";

export const accountCollection: Collection<AccountRow, Account> = {
  type: "account",
  path: "/v1/accounts",
  byName: false,
  find: findAccount,
  present: presentAccount,
  // An account's events are its own: its customer's token sees how its account changed.
  accountOf: (row) => row.id,
};

/** Account names are unique: an operator tells accounts apart by them. */
export function accountNameTaken(name: string): ApiError {
  return new ApiError("already_exists", `An account named "${name}" already exists; account names are unique.`);
}

/**
 * The account migration 0009 made: it owns every object made before accounts existed and
 * is the one `npm start` (authentication off) acts as, so it is never suspended or deleted:
 * the service always keeps an operator that can act.
 */
export function isBuiltInOperator(id: string): boolean {
  return id === OPERATOR_ACCOUNT_ID;
}

/** Only an operator's token lists, creates, changes and deletes accounts (contract §11). */
// (A token narrowed to zones or domains never gets here: it has no access to accounts at
// all, src/http/token-rights.ts routeRefusal.)
export function requireOperator(c: Context<AppEnv>, action: string): void {
  if (c.get("principal").rights?.role === "operator") return;
  throw new ApiError("forbidden", `Only an operator's token may ${action}; this token belongs to a customer account.`);
}

/**
 * Before a write to one account: an operator's token passes; a customer's gets 404 for
 * another account's (existence is not disclosed, contract §11) and 403 for its own.
 */
export async function requireOperatorFor(c: Context<AppEnv>, segment: string, action: string): Promise<void> {
  if (c.get("principal").rights?.role !== "operator") await findResource(c, accountCollection, segment);
  requireOperator(c, action);
}
