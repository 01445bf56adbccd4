// GET /v1/tokens and /v1/tokens/{token}: never a secret or its hash. A customer's token
// sees its own account's tokens only (src/access/visibility.ts: another account's is 404);
// an operator's sees every account's, and may filter by `account`.
import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { findResource } from "../../http/mutate";
import { pageRequest, pageResponse } from "../../http/pagination";
import { sendResource } from "../../http/respond";
import { tokenCollection } from "./collection";
import { presentToken } from "./present";
import { listTokens as tokensPage } from "./queries";
import type * as routes from "./routes";

export const listTokens: RouteHandler<typeof routes.listTokens, AppEnv> = async (c) => {
  const query = c.req.valid("query");
  const page = await pageRequest(c, query);
  const rows = await tokensPage(c.get("db"), query, page);
  return c.json(await pageResponse(c, page, rows, (r) => ({ key: null, id: r.id }), presentToken), 200);
};

export const getToken: RouteHandler<typeof routes.getToken, AppEnv> = async (c) => {
  const segment = c.req.valid("param").token;
  const row = await findResource(c, tokenCollection, segment);
  return sendResource(c, presentToken(row), row.version);
};
