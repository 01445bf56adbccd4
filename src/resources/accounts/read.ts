// GET /v1/accounts and /v1/accounts/{account}. A customer's token reads its own account
// only: the request's database shows it no other (src/access/visibility.ts), so another
// account's id is 404, like an unknown one.
import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { findResource } from "../../http/mutate";
import { pageRequest, pageResponse } from "../../http/pagination";
import { limitsAndUsage } from "../../http/quotas";
import { entityTag } from "../../http/etag";
import { accountCollection } from "./collection";
import { presentAccount } from "./present";
import { listAccounts as accountsPage } from "./queries";
import type * as routes from "./routes";

export const listAccounts: RouteHandler<typeof routes.listAccounts, AppEnv> = async (c) => {
  const query = c.req.valid("query");
  const page = await pageRequest(c, query);
  const rows = await accountsPage(c.get("db"), query, page);
  return c.json(await pageResponse(c, page, rows, (r) => ({ key: null, id: r.id }), presentAccount), 200);
};

export const getAccount: RouteHandler<typeof routes.getAccount, AppEnv> = async (c) => {
  const row = await findResource(c, accountCollection, c.req.valid("param").account);
  // The ETag is the account's own (what If-Match on PATCH compares); limits and usage are
  // live beside it, so this read answers 200 whatever If-None-Match says: a 304 would hide
  // a change of usage.
  const account = presentAccount(row);
  c.header("ETag", entityTag(row.version, account));
  return c.json({ ...account, ...(await limitsAndUsage(c, c.get("dbAllAccounts") ?? c.get("db"), row)) }, 200);
};
