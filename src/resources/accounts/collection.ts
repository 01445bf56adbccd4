// Accounts as the write routine sees them (src/http/mutate.ts), and the answers their
// operations share. Only operators list, create, change and delete accounts: their routes
// declare it (src/access/route-access.ts).
import { OPERATOR_ACCOUNT_ID } from "../../db/schema";
import type { Collection } from "../../http/mutate";
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
