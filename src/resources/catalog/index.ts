// Extensions and repositories: the read-only catalog, served from the per-isolate copy
// (src/db/catalog.ts), so these reads cost no D1 round trip once an isolate is warm.
import type { AppEnv } from "../../env";
import { defineRoute } from "../../http/route";
import { connectedRepositories } from "../../connector/config";
import { connectorStatus } from "../../connector/gateway";
import { isOperator } from "../../http/caller";
import { catalog, type ExtensionRow, type RepositoryNameRow, type RepositoryRow } from "../../db/catalog";
import { normalizeName, toUnicodeName } from "../../dns/name";
import { priceTable } from "../../registry/prices";
import { notFound } from "../../http/lookup";
import { CONDITIONAL_GET, errorResponses, listResponse, notModifiedResponse, resourceResponse } from "../../http/openapi";
import { pageRequest, pageResponse } from "../../http/pagination";
import { sendResource } from "../../http/respond";
import { createRouter } from "../../http/router";
import { pathParams, RepositoryParams } from "../../http/params";
import {
  ExtensionListQuery,
  ExtensionListSchema,
  ExtensionSchema,
  RepositoryListQuery,
  RepositoryListSchema,
  RepositoryDetailSchema,
  type Extension,
  type Repository,
  type RepositoryDetail,
  type Connector,
} from "./schemas";
import { EXTENSION_EXAMPLE, REPOSITORY_DETAIL_EXAMPLE, REPOSITORY_EXAMPLE } from "./examples";

const ExtensionParams = pathParams("extension", "Extension id or name, with or without the leading dot (`co.uk`, `.de`, `рф`).", "com");

const listExtensionsRoute = defineRoute({
  operationId: "listExtensions",
  access: { scope: "read", narrow: "visible" },
  method: "get",
  path: "/extensions",
  tags: ["Extensions"],
  summary: "List extensions",
  description: "The extensions (TLDs) offered, in id order. Read-only: the catalog changes only by migration.",
  request: { query: ExtensionListQuery },
  responses: { 200: listResponse(ExtensionListSchema, "A page of extensions.", [EXTENSION_EXAMPLE]), ...errorResponses(400) },
});

const getExtensionRoute = defineRoute({
  operationId: "getExtension",
  access: { scope: "read", narrow: "visible" },
  method: "get",
  path: "/extensions/{extension}",
  tags: ["Extensions"],
  summary: "Get an extension",
  description:
    "One extension (TLD) with its registration periods, grace periods, name server limits and features, by id or name; IDN extensions answer to either form." +
    CONDITIONAL_GET,
  request: { params: ExtensionParams },
  responses: { 200: resourceResponse(ExtensionSchema, "The extension.", EXTENSION_EXAMPLE), 304: notModifiedResponse, ...errorResponses(404) },
});

const listRepositoriesRoute = defineRoute({
  operationId: "listRepositories",
  access: { scope: "read", narrow: "visible" },
  method: "get",
  path: "/repositories",
  tags: ["Repositories"],
  summary: "List repositories",
  description: "The registries whose object stores domains live in, in id order. Read-only.",
  request: { query: RepositoryListQuery },
  responses: { 200: listResponse(RepositoryListSchema, "A page of repositories.", [REPOSITORY_EXAMPLE]), ...errorResponses(400) },
});

const getRepositoryRoute = defineRoute({
  operationId: "getRepository",
  access: { scope: "read", narrow: "visible" },
  method: "get",
  path: "/repositories/{repository}",
  tags: ["Repositories"],
  summary: "Get a repository",
  description:
    "One repository (the registry that holds the extensions' objects) by id, with the names it prices on its own (`premium_names`, each with its prices), the names it keeps from registration (`reserved_names`) and its `connector`: `builtin` (the service is the registry) or `epp` (the service is a registrar of the registry and speaks EPP to it; operators also see the greeting's objects and extensions and the sessions). A gateway out of reach is a connector `down`, never an error." +
    CONDITIONAL_GET,
  request: { params: RepositoryParams },
  responses: { 200: resourceResponse(RepositoryDetailSchema, "The repository.", REPOSITORY_DETAIL_EXAMPLE), 304: notModifiedResponse, ...errorResponses(404) },
});

export function presentExtension(row: ExtensionRow): Extension {
  return {
    id: row.id,
    name: row.id,
    unicode_name: row.unicodeName,
    type: row.type,
    repository: row.repositoryId,
    periods: { min: row.periodMin, max: row.periodMax },
    grace_periods: {
      add: row.graceAdd,
      renew: row.graceRenew,
      auto_renew: row.graceAutoRenew,
      transfer: row.graceTransfer,
      redemption: row.graceRedemption,
      pending_delete: row.gracePendingDelete,
    },
    nameservers: { min: row.nameserversMin, max: row.nameserversMax },
    idn: row.idn,
    dnssec: row.dnssec,
    transfer_lock_days: row.transferLockDays,
    pending_transfer_days: row.pendingTransferDays,
    prices: priceTable(row.prices, { min: row.periodMin, max: row.periodMax }),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

function presentRepository(row: RepositoryRow, extensionIds: string[]): Repository {
  return { id: row.id, name: row.name, roid_suffix: row.roidSuffix, extensions: extensionIds, created_at: row.createdAt, updated_at: row.updatedAt };
}

/** The repository with its premium names (their prices over their extension's periods) and its reserved names. */
function presentRepositoryDetail(
  row: RepositoryRow,
  extensionIds: string[],
  names: readonly RepositoryNameRow[],
  extensions: ReadonlyMap<string, ExtensionRow>,
  connector: Connector,
): RepositoryDetail {
  const premium_names = names.flatMap((n) => {
    const extension = extensions.get(n.extensionId);
    if (n.kind !== "premium" || !n.prices || !extension) return [];
    const prices = priceTable(n.prices, { min: extension.periodMin, max: extension.periodMax });
    return [{ name: n.name, unicode_name: toUnicodeName(n.name), extension: n.extensionId, prices }];
  });
  const reserved_names = names.filter((n) => n.kind === "reserved").map((n) => n.name);
  const { created_at, updated_at, ...rest } = presentRepository(row, extensionIds);
  return { ...rest, premium_names, reserved_names, connector, created_at, updated_at };
}

/**
 * How the service reaches the repository's registry: `builtin` (always up, since the
 * repository exists), or `epp` with the gateway's state; operators also see the greeting's
 * objects and extensions and the sessions (docs/registries.md).
 */
async function connectorOf(env: AppEnv["Bindings"], row: RepositoryRow, operator: boolean): Promise<Connector> {
  if (!connectedRepositories(env).has(row.id)) return { kind: "builtin", state: "up", since: row.createdAt, last_error: null };
  const status = await connectorStatus(env, row.id);
  const shown: Connector = { kind: "epp", state: status.state, since: status.since, last_error: status.last_error };
  return operator ? { ...shown, objects: status.objects, extensions: status.extensions, sessions: status.sessions } : shown;
}

/** Rows after the cursor's id, in id order, at most limit + 1 (see pageResponse). */
function pageOf<T extends { id: string }>(rows: Iterable<T>, after: string | null, limit: number): T[] {
  const out: T[] = [];
  for (const row of rows) {
    if (after !== null && row.id <= after) continue;
    out.push(row);
    if (out.length > limit) break;
  }
  return out;
}

export const catalogRouter = createRouter()
  .openapi(listExtensionsRoute, async (c) => {
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
  })
  .openapi(getExtensionRoute, async (c) => {
    const segment = c.req.valid("param").extension;
    const normalized = normalizeName(segment.startsWith(".") ? segment.slice(1) : segment);
    const { extensions } = await catalog(c.get("db"));
    const row = normalized.ok ? extensions.get(normalized.name) : undefined;
    if (!row) throw notFound("extension", segment);
    return sendResource(c, presentExtension(row), 1);
  })
  .openapi(listRepositoriesRoute, async (c) => {
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
  })
  .openapi(getRepositoryRoute, async (c) => {
    const { repository } = c.req.valid("param");
    const { repositories, extensions, extensionsOf, namesOf } = await catalog(c.get("db"));
    const row = repositories.get(repository);
    if (!row) throw notFound("repository", repository);
    const connector = await connectorOf(c.env, row, isOperator(c));
    return sendResource(c, presentRepositoryDetail(row, extensionsOf.get(row.id) ?? [], namesOf.get(row.id) ?? [], extensions, connector), 1);
  });
