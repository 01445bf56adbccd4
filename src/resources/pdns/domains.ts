// The zones as PowerDNS's domains: one zone's info, all of them (the catalog zone
// included), the primaries' NOTIFY bookkeeping (getUpdatedMasters, setNotified).
import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { belowCatalog, type CatalogState, catalogStateQuery, catalogZoneName } from "../../serving/catalog";
import { domainInfo } from "../../serving/queries";
import {
  allDomainsWithCatalogQuery,
  catalogDomainInfo,
  domainInfos,
  presentDomainInfo,
  setNotified as noteNotified,
  updatedMastersQuery,
} from "../../serving/tier";
import { NOTHING, zoneKey } from "./remote-backend";
import type * as routes from "./routes";

export const getDomainInfo: RouteHandler<typeof routes.getDomainInfo, AppEnv> = async (c) => {
  const { name } = c.req.valid("param");
  const key = zoneKey("name", name);
  const catalog = catalogZoneName(c.env);
  if (key === catalog) {
    const [state] = await c.get("db").all<CatalogState>(catalogStateQuery());
    return c.json(state ? { result: catalogDomainInfo(catalog, state) } : NOTHING, 200);
  }
  if (belowCatalog(key, catalog)) return c.json(NOTHING, 200);
  const [row] = await domainInfo(c.get("db"), key);
  return c.json(row ? { result: presentDomainInfo(row) } : NOTHING, 200);
};

export const getAllDomains: RouteHandler<typeof routes.getAllDomains, AppEnv> = async (c) => {
  // The zones and the catalog zone, in one statement.
  return c.json({ result: await domainInfos(c.get("db"), allDomainsWithCatalogQuery(), catalogZoneName(c.env)) }, 200);
};

export const getUpdatedMasters: RouteHandler<typeof routes.getUpdatedMasters, AppEnv> = async (c) =>
  c.json({ result: await domainInfos(c.get("db"), updatedMastersQuery(), catalogZoneName(c.env)) }, 200);

export const setNotified: RouteHandler<typeof routes.setNotified, AppEnv> = async (c) =>
  c.json({ result: await noteNotified(c, c.req.valid("param").id) }, 200);
