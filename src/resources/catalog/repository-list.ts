// GET /v1/repositories: the registries whose object stores domains live in, in id order.
import type { RouteHandler } from "@hono/zod-openapi";
import { catalog } from "../../db/catalog";
import type { AppEnv } from "../../env";
import { pageRequest, pageResponse } from "../../http/pagination";
import { presentRepository } from "./present";
import { pageOf } from "./queries";
import type * as routes from "./routes";

export const listRepositories: RouteHandler<typeof routes.listRepositories, AppEnv> = async (c) => {
  const query = c.req.valid("query");
  const page = await pageRequest(c, query);
  const { repositories, extensionsOf } = await catalog(c.get("db"));
  const rows = pageOf(repositories.values(), page.after?.id ?? null, page.limit);
  return c.json(
    await pageResponse(
      c,
      page,
      rows,
      (r) => ({ key: null, id: r.id }),
      (r) => presentRepository(r, extensionsOf.get(r.id) ?? []),
    ),
    200,
  );
};
