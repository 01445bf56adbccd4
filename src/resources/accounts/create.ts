// POST /v1/accounts: an operator opens an account for a customer (or another operator).
import { mergeLimits } from "./limits";
import type { RouteHandler } from "@hono/zod-openapi";
import { newId } from "../../db/ids";
import { accounts } from "../../db/schema";
import type { AppEnv } from "../../env";
import { createResource } from "../../http/mutate";
import { accountCollection, accountNameTaken } from "./collection";
import type { AccountRow } from "./queries";
import type * as routes from "./routes";

export const createAccount: RouteHandler<typeof routes.createAccount, AppEnv> = (c) => {
  const input = c.req.valid("json");
  return createResource(c, accountCollection, {
    async create({ db, now, at }) {
      const next: AccountRow = {
        id: newId("account", now),
        name: input.name,
        role: input.role ?? "customer",
        status: input.status ?? "active",
        limits: mergeLimits(null, input.limits),
        version: 1,
        createdAt: at,
        updatedAt: at,
      };
      return { next, write: db.insert(accounts).values(next) };
    },
    failure: (kind) => (kind === "unique" ? accountNameTaken(input.name) : undefined),
  });
};
