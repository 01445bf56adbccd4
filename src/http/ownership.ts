// Who sponsors a new object (docs/accounts.md): the caller's account; an operator may name
// another one with `account` in the body, which from a customer's token is a read-only
// field (422). Visibility of existing objects is not decided here but in the D1 session
// the request reads through (src/db/visibility.ts).
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "./problem";
import { recordWriteRefusal } from "../access/token-rights";

/** The caller's account: the sponsor of what it creates unless an operator says otherwise. */
export function callerAccount(c: Context<AppEnv>): string {
  const rights = c.get("principal").rights;
  if (!rights) throw new ApiError("unauthorized", "Send `Authorization: Bearer <token>`.");
  return rights.accountId;
}

export function isOperator(c: Context<AppEnv>): boolean {
  return c.get("principal").rights?.role === "operator";
}

/** The account a new object belongs to; `requested` is the body's `account`, if any. */
export async function sponsorFor(c: Context<AppEnv>, requested: string | undefined): Promise<string> {
  if (requested === undefined) return callerAccount(c);
  if (!isOperator(c)) {
    throw new ApiError("read_only_field", "Read-only fields cannot be written: account. A customer's objects belong to its own account.", {
      errors: [{ field: "account", message: "is read-only: the server sets it to the token's account" }],
    });
  }
  const row = await c.env.DB.prepare("select id from accounts where id = ?1").bind(requested).first<{ id: string }>();
  if (!row) {
    throw new ApiError("validation_failed", `account: no account has the id "${requested}".`, {
      errors: [{ field: "account", message: `no account has the id "${requested}"` }],
    });
  }
  return row.id;
}

/**
 * A record write the token's `records` rules allow (docs/accounts.md: create, and PATCH and
 * DELETE before and after), or 403 naming the rules. `owner` is relative to the zone.
 */
export function requireRecordWrite(c: Context<AppEnv>, owner: string, type: string): void {
  const rights = c.get("principal").rights;
  const refusal = rights ? recordWriteRefusal(rights, owner, type) : null;
  if (refusal) throw new ApiError("forbidden", refusal);
}
