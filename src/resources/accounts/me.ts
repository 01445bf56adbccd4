// GET /v1/me: who the caller is — its account and its token (never the secret, which
// only the token's creation showed). Any token may ask, a narrowed one too: it is the
// token itself. Local development (authentication off) is the operator account with no
// token.
import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { notFound } from "../../http/lookup";
import { limitsAndUsage } from "../../http/quota-problem";
import { findToken } from "../tokens/queries";
import { presentToken } from "../tokens/present";
import { presentAccount } from "./present";
import { findAccount } from "./queries";
import type * as routes from "./routes";
import { usageFromRows, usageQuery } from "../../db/quota-check";
import { readTogether } from "../../db/write";

export const getMe: RouteHandler<typeof routes.getMe, AppEnv> = async (c) => {
  const { tokenId, rights } = c.get("principal");
  const accountId = rights!.accountId;
  const db = c.get("db");
  // One round trip: the account, the token and what the account holds.
  const [accountRows, tokenRows, usageRows] = await readTogether(db, [
    findAccount(db, { kind: "id", id: accountId }),
    findToken(db, { kind: "id", id: tokenId ?? "" }),
    usageQuery(c.get("dbAllAccounts") ?? db, accountId),
  ]);
  const account = accountRows[0];
  // Only an account that holds no active token can be deleted, so this is a race at most.
  if (!account) throw notFound("account", accountId);
  const token = tokenRows[0];
  const shown = { ...presentAccount(account), ...limitsAndUsage(c, account, usageFromRows(usageRows)) };
  return c.json({ account: shown, token: token ? presentToken(token) : null }, 200);
};
