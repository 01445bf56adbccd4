// DELETE /v1/accounts/{account}: only an account that holds nothing (no contact, domain,
// host, zone or webhook, no active token) goes (EPP 2305, as for a linked object). Its revoked
// tokens and its events stay: they are the history of what it did. An account that took
// part in a transfer stays (409 object_linked): the transfer is the domain's history.
import type { RouteHandler } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { accounts } from "../../db/schema";
import type { AppEnv } from "../../env";
import { deleteResource } from "../../http/mutate";
import { ApiError } from "../../http/problem";
import { accountCollection, isBuiltInOperator } from "./collection";
import { accountHoldings, type Holdings, holdsNothing } from "./queries";
import type * as routes from "./routes";

function counted({ kind, count }: Holdings[number]): string {
  return `${count} ${kind}${count === 1 ? "" : "s"}`;
}

function holdingsText(holdings: Holdings): string {
  const parts = holdings.map(counted);
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

export const deleteAccount: RouteHandler<typeof routes.deleteAccount, AppEnv> = async (c) => {
  const segment = c.req.valid("param").account;
  return deleteResource(c, accountCollection, segment, {
    async remove({ db }, current) {
      if (isBuiltInOperator(current.id)) {
        throw new ApiError(
          "policy_violation",
          "The operator account made by the first migration cannot be deleted: it owns the data made before accounts, and local development acts as it.",
        );
      }
      const { holdings, transfers } = await accountHoldings(db, current.id);
      if (holdings.length > 0) {
        throw new ApiError(
          "object_linked",
          `The account ${current.id} ("${current.name}") still holds ${holdingsText(holdings)}; delete those objects and revoke those tokens first.`,
        );
      }
      // A transfer names both accounts for good (the domain's history, the other account's
      // too): such an account is kept, and can be suspended instead. Not a race to retry.
      if (transfers > 0) {
        throw new ApiError(
          "object_linked",
          `The account ${current.id} ("${current.name}") took part in ${transfers} domain transfer${transfers === 1 ? "" : "s"}, which the domains' history keeps (the other account's too), so it cannot be deleted; suspend it instead (PATCH /v1/accounts/${current.id} {"status": "suspended"}).`,
        );
      }
      // The delete holds to what was read: if an object or a token was made for the
      // account since, it deletes nothing and the routine reads again (then 409 above).
      return { write: db.delete(accounts).where(and(eq(accounts.id, current.id), eq(accounts.version, current.version), holdsNothing(current.id))) };
    },
  });
};
