// GET /v1/accounts and /v1/accounts/{account}. A customer's token reads its own account
// only: the request's database shows it no other (src/access/visibility.ts), so another
// account's id is 404, like an unknown one.
import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { usageFromRows, usageQuery } from "../../db/quota-check";
import { readTogether } from "../../db/write";
import { notFound } from "../../http/lookup";
import { pageRequest, pageResponse } from "../../http/pagination";
import { limitsAndUsage } from "../../http/quota-problem";
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
  const id = c.req.valid("param").account;
  const db = c.get("db");
  // One round trip: the account as the caller may see it, and what it holds (read for any
  // id, shown only with an account the caller sees).
  const [rows, usageRows] = await readTogether(db, [accountCollection.find(db, { kind: "id", id }), usageQuery(c.get("dbAllAccounts") ?? db, id)]);
  const row = rows[0];
  if (!row) throw notFound(accountCollection.type, id);
  // The ETag is the account's own (what If-Match on PATCH compares); limits and usage are
  // live beside it, so this read answers 200 whatever If-None-Match says: a 304 would hide
  // a change of usage.
  const account = presentAccount(row);
  c.header("ETag", entityTag(row.version, account));
  return c.json({ ...account, ...limitsAndUsage(c, row, usageFromRows(usageRows)) }, 200);
};
