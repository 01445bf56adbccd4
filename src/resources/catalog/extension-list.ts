// GET /v1/extensions: the extensions offered, in id order, from the per-isolate catalog.
import type { RouteHandler } from "@hono/zod-openapi";
import { catalog } from "../../db/catalog";
import type { AppEnv } from "../../env";
import { pageRequest, pageResponse } from "../../http/pagination";
import { presentExtension } from "./present";
import { pageOf } from "./queries";
import type * as routes from "./routes";

export const listExtensions: RouteHandler<typeof routes.listExtensions, AppEnv> = async (c) => {
  const query = c.req.valid("query");
  const page = await pageRequest(c, query);
  const { extensions } = await catalog(c.get("db"));
  const matching = [...extensions.values()].filter(
    (e) =>
      (query.repository === undefined || e.repositoryId === query.repository) &&
      (query.type === undefined || e.type === query.type) &&
      (query.idn === undefined || e.idn === query.idn),
  );
  const rows = pageOf(matching, page.after?.id ?? null, page.limit);
  return c.json(await pageResponse(c, page, rows, (r) => ({ key: null, id: r.id }), presentExtension), 200);
};
