// GET /v1/extensions/{extension}: one extension by id or name, with or without the leading
// dot; an IDN extension answers to either form.
import type { RouteHandler } from "@hono/zod-openapi";
import { catalog } from "../../db/catalog";
import { normalizeName } from "../../dns/name";
import type { AppEnv } from "../../env";
import { notFound } from "../../http/lookup";
import { sendResource } from "../../http/respond";
import { presentExtension } from "./present";
import type * as routes from "./routes";

export const getExtension: RouteHandler<typeof routes.getExtension, AppEnv> = async (c) => {
  const segment = c.req.valid("param").extension;
  const normalized = normalizeName(segment.startsWith(".") ? segment.slice(1) : segment);
  const { extensions } = await catalog(c.get("db"));
  const row = normalized.ok ? extensions.get(normalized.name) : undefined;
  if (!row) throw notFound("extension", segment);
  return sendResource(c, presentExtension(row), 1);
};
