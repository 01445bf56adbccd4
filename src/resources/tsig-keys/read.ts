// GET /v1/tsig-keys and /v1/tsig-keys/{key}: never a secret. Another account's key is 404
// to a customer's token (src/access/visibility.ts); an operator's sees every account's.
import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { findResource } from "../../http/mutate";
import { pageRequest, pageResponse } from "../../http/pagination";
import { sendResource } from "../../http/respond";
import { normalizeName } from "../../dns/name";
import { tsigKeyCollection } from "./collection";
import { presentTsigKey } from "./present";
import { listTsigKeys as keysPage } from "./queries";
import type * as routes from "./routes";

export const listTsigKeys: RouteHandler<typeof routes.listTsigKeys, AppEnv> = async (c) => {
  const query = c.req.valid("query");
  const page = await pageRequest(c, query);
  const zone = query.zone === undefined ? undefined : normalizeName(query.zone, { underscore: true });
  const rows = await keysPage(c.get("db"), { account: query.account, zone: zone === undefined ? undefined : zone.ok ? zone.name : query.zone }, page);
  return c.json(await pageResponse(c, page, rows, (r) => ({ key: null, id: r.id }), presentTsigKey), 200);
};

export const getTsigKey: RouteHandler<typeof routes.getTsigKey, AppEnv> = async (c) => {
  const row = await findResource(c, tsigKeyCollection, c.req.valid("param").key);
  return sendResource(c, presentTsigKey(row), row.version);
};
