// The caller of a request, as its handler asks for it: its account, whether it is the
// operator, the sponsor of what it creates, whether its token may write a record. The
// rules are src/access/'s (ownership.ts, token-rights.ts); here each refusal becomes the
// problem that answers it. Visibility of existing objects is the D1 session's
// (src/access/visibility.ts).
import type { Context } from "hono";
import { accountOf, isOperatorRights, sponsorChoiceRefusal } from "../access/ownership";
import { recordWriteRefusal } from "../access/token-rights";
import type { AppEnv } from "../env";
import { ApiError } from "./problem";

/** The caller's account: the sponsor of what it creates unless an operator says otherwise. */
export function callerAccount(c: Context<AppEnv>): string {
  const account = accountOf(c.get("principal").rights);
  if (account === null) throw new ApiError("unauthorized", "Send `Authorization: Bearer <token>`.");
  return account;
}

export function isOperator(c: Context<AppEnv>): boolean {
  return isOperatorRights(c.get("principal").rights);
}

/** The account a new object belongs to; `requested` is the body's `account`, if any. */
export async function sponsorFor(c: Context<AppEnv>, requested: string | undefined): Promise<string> {
  if (requested === undefined) return callerAccount(c);
  const refusal = sponsorChoiceRefusal(c.get("principal").rights, requested);
  if (refusal)
    throw new ApiError("read_only_field", "Read-only fields cannot be written: account. A customer's objects belong to its own account.", {
      errors: [refusal],
    });
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
