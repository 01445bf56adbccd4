// DNSSEC as PowerDNS reads it from a signed zone: its keys, and the NSEC neighbours of a
// name (src/serving/dnssec.ts).
import type { RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { ApiError } from "../../http/problem";
import { belowCatalog, catalogZoneName } from "../../serving/catalog";
import { beforeAndAfter, domainKeys } from "../../serving/dnssec";
import { parseQueryName } from "../../serving/names";
import { badName, NOTHING, zoneKey } from "./remote-backend";
import type * as routes from "./routes";

export const getDomainKeys: RouteHandler<typeof routes.getDomainKeys, AppEnv> = async (c) => {
  const { name } = c.req.valid("param");
  const zone = zoneKey("name", name);
  // The catalog is unsigned: no zone row of its name lends it keys.
  if (belowCatalog(zone, catalogZoneName(c.env))) return c.json(NOTHING, 200);
  // An unsigned zone: "not applicable", as PowerDNS reads a zone without keys.
  const keys = await domainKeys(c, zone);
  return c.json(keys.length > 0 ? { result: keys } : NOTHING, 200);
};

/** getBeforeAndAfterNamesAbsolute: the NSEC neighbours of a name relative to zone number `id`. */
async function nsecNeighbours(c: Context<AppEnv>, id: string, qname: string) {
  const name = parseQueryName(qname);
  if (!name) throw badName("qname", qname);
  if (!/^[0-9]{1,15}$/.test(id)) {
    throw new ApiError("validation_failed", "id is not a zone number.", { errors: [{ field: "id", message: `"${id.slice(0, 20)}" is not a whole number` }] });
  }
  const neighbours = await beforeAndAfter(c.get("db"), Number(id), name.labels);
  return neighbours ? { result: { ...neighbours, unhashed: qname } } : NOTHING;
}

export const getBeforeAndAfterNamesAbsolute: RouteHandler<typeof routes.getBeforeAndAfterNamesAbsolute, AppEnv> = async (c) => {
  const { id, qname } = c.req.valid("param");
  return c.json(await nsecNeighbours(c, id, qname), 200);
};

/**
 * The apex's NSEC neighbours: PowerDNS sends the relative name "." as `%2e`, a segment URL
 * parsing removes (WHATWG URL: a single-dot segment), leaving `…/{id}/` (index.ts routes
 * both spellings here).
 */
export async function getApexNeighbours(c: Context<AppEnv, "/pdns/:token/getBeforeAndAfterNamesAbsolute/:id">) {
  return c.json(await nsecNeighbours(c, c.req.param("id"), "."), 200);
}
