// A zone's metadata as PowerDNS reads it: the signed zone's settings, and who may transfer
// and update it (src/serving/zone-access.ts); the catalog zone's are its own.
import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { allCatalogMetadata, belowCatalog, catalogMetadata, catalogZoneName } from "../../serving/catalog";
import { SIGNED_ZONE_METADATA, zoneKeysByName } from "../../serving/dnssec";
import { tierSecondaries } from "../../serving/tier";
import { allZoneAccessMetadata, isZoneAccessKind, zoneAccessMetadata } from "../../serving/zone-access";
import { zoneKey } from "./remote-backend";
import type * as routes from "./routes";

export const getAllDomainMetadata: RouteHandler<typeof routes.getAllDomainMetadata, AppEnv> = async (c) => {
  const zone = zoneKey("name", c.req.valid("param").name);
  const tier = tierSecondaries(c.env);
  // The catalog's metadata is the catalog's own, whatever zone row of its name D1 may hold.
  const labels = belowCatalog(zone, catalogZoneName(c.env));
  if (labels) return c.json({ result: allCatalogMetadata(labels, tier) }, 200);
  // Who may transfer the zone (zone-access.ts), and whether it is signed, in one statement:
  // PowerDNS fills its metadata cache from this.
  const { signed, access } = await allZoneAccessMetadata(c.get("db"), zone, tier);
  return c.json({ result: { ...(signed ? SIGNED_ZONE_METADATA : {}), ...access } }, 200);
};

export const getDomainMetadata: RouteHandler<typeof routes.getDomainMetadata, AppEnv> = async (c) => {
  const { name, kind } = c.req.valid("param");
  // ALSO-NOTIFY, which PowerDNS reads for each zone it NOTIFYs: the tier's secondaries, and the zone's own.
  const tier = tierSecondaries(c.env);
  const labels = belowCatalog(zoneKey("name", name), catalogZoneName(c.env));
  if (labels) return c.json({ result: catalogMetadata(labels, kind, tier) }, 200);
  if (isZoneAccessKind(kind)) return c.json({ result: await zoneAccessMetadata(c.get("db"), zoneKey("name", name), kind, tier) }, 200);
  const values = SIGNED_ZONE_METADATA[kind];
  if (!values) {
    zoneKey("name", name);
    return c.json({ result: [] as string[] }, 200);
  }
  const signed = (await zoneKeysByName(c.get("db"), zoneKey("name", name))).length > 0;
  return c.json({ result: signed ? values : [] }, 200);
};
