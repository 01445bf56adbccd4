// GET /v1/repositories/{repository}: one repository with its premium and reserved names and
// its connector (the gateway's state for a connected registry: docs/registries.md).
import type { RouteHandler } from "@hono/zod-openapi";
import { connectedRepositories } from "../../connector/config";
import { connectorStatus } from "../../connector/gateway";
import { catalog, type RepositoryRow } from "../../db/catalog";
import type { AppEnv } from "../../env";
import { isOperator } from "../../http/caller";
import { notFound } from "../../http/lookup";
import { sendResource } from "../../http/respond";
import { presentRepositoryDetail } from "./present";
import type * as routes from "./routes";
import type { Connector } from "./schemas";

/**
 * How the service reaches the repository's registry: `builtin` (always up, since the
 * repository exists), or `epp` with the gateway's state; operators also see the greeting's
 * objects and extensions, the sessions and the poll messages the gateway set aside (docs/registries.md).
 */
async function connectorOf(env: AppEnv["Bindings"], row: RepositoryRow, operator: boolean): Promise<Connector> {
  if (!connectedRepositories(env).has(row.id)) return { kind: "builtin", state: "up", since: row.createdAt, last_error: null };
  const status = await connectorStatus(env, row.id);
  const shown: Connector = { kind: "epp", state: status.state, since: status.since, last_error: status.last_error };
  if (!operator) return shown;
  const setAside = status.set_aside_messages === undefined ? {} : { set_aside_messages: status.set_aside_messages };
  return { ...shown, objects: status.objects, extensions: status.extensions, sessions: status.sessions, ...setAside };
}

export const getRepository: RouteHandler<typeof routes.getRepository, AppEnv> = async (c) => {
  const { repository } = c.req.valid("param");
  const { repositories, extensions, extensionsOf, namesOf } = await catalog(c.get("db"));
  const row = repositories.get(repository);
  if (!row) throw notFound("repository", repository);
  const connector = await connectorOf(c.env, row, isOperator(c));
  return sendResource(c, presentRepositoryDetail(row, extensionsOf.get(row.id) ?? [], namesOf.get(row.id) ?? [], extensions, connector), 1);
};
