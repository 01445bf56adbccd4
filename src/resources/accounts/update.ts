// PATCH /v1/accounts/{account}: rename, suspend or reactivate. Suspension takes effect
// for every token of the account within the token cache time (src/db/api-tokens.ts reads the
// account's status with the token): its objects are kept, untouched, and its webhooks
// pause until it is active again (docs/webhooks.md).
import type { RouteHandler } from "@hono/zod-openapi";
import { and, eq, isNotNull } from "drizzle-orm";
import { accounts, webhooks } from "../../db/schema";
import type { AppEnv } from "../../env";
import { updateResource } from "../../http/mutate";
import { ApiError } from "../../http/problem";
import { accountCollection, accountNameTaken, isBuiltInOperator } from "./collection";
import { mergeLimits } from "./limits";
import type * as routes from "./routes";
import { versionStep } from "../../db/write";

export const updateAccount: RouteHandler<typeof routes.updateAccount, AppEnv> = async (c) => {
  const segment = c.req.valid("param").account;
  const patch = c.req.valid("json");
  return updateResource(c, accountCollection, segment, {
    async update({ db, at }, current) {
      const name = patch.name ?? current.name;
      const status = patch.status ?? current.status;
      if (status === "suspended" && isBuiltInOperator(current.id)) {
        throw new ApiError(
          "policy_violation",
          "The operator account made by the first migration cannot be suspended: it owns the data made before accounts, and local development acts as it.",
          { errors: [{ field: "status", message: "cannot be suspended: this is the built-in operator account" }] },
        );
      }
      const limits = patch.limits === undefined ? current.limits : mergeLimits(current.limits, patch.limits);
      if (name === current.name && status === current.status && JSON.stringify(limits) === JSON.stringify(current.limits)) return null;
      const next = { ...current, name, status, limits, version: current.version + 1, updatedAt: at };
      return {
        next,
        write: versionStep(db, accounts, current, next),
        // Its webhooks paused while it was suspended (docs/webhooks.md): resumed, a failing
        // one counts its 5 days to disabling from now, not across the pause.
        alongside:
          current.status === "suspended" && status === "active"
            ? [
                db
                  .update(webhooks)
                  .set({ failingSince: at })
                  .where(and(eq(webhooks.accountId, current.id), isNotNull(webhooks.failingSince))),
              ]
            : undefined,
      };
    },
    failure: (kind, next) => (kind === "unique" ? accountNameTaken(next.name) : undefined),
  });
};
