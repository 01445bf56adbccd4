// Who sponsors a new object (docs/accounts.md): the caller's account; an operator may name
// another one with `account` in the body, which from a customer's token is a read-only
// field. Which existing objects a caller sees is not decided here but in the D1 session the
// request reads through (visibility.ts). Pure rules over the caller's rights; the handlers
// ask them through src/http/caller.ts, which answers a refusal with its problem.
import type { FieldError } from "../registry/field-error";
import type { TokenRights } from "./token-rights";

/** The caller's account, the sponsor of what it creates; null without a token (no account). */
export function accountOf(rights: TokenRights | null): string | null {
  return rights?.accountId ?? null;
}

/** Whether the caller acts for the registry's operator (docs/accounts.md: roles). */
export function isOperatorRights(rights: TokenRights | null): boolean {
  return rights?.role === "operator";
}

/**
 * Why the caller may not name `requested` as the sponsor of a new object, or null when it
 * may: a customer's objects belong to its own account, so only an operator writes `account`.
 */
export function sponsorChoiceRefusal(rights: TokenRights | null, requested: string | undefined): FieldError | null {
  if (requested === undefined || isOperatorRights(rights)) return null;
  return { field: "account", message: "is read-only: the server sets it to the token's account" };
}
