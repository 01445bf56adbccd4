// GET /zones/{zone}/dnssec: the zone's DNSSEC state (docs/dnssec.md, docs/dnssec-rollovers.md).
import type * as routes from "./routes";
import type { RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { notFound, resourceRef } from "../../http/lookup";
import { listedKeys, presentDnssec } from "./state";
import { findZoneWithParent } from "./zone";
import { readTogether } from "../../db/write";
import { registryLink } from "./rollover";

export async function readDnssec(c: Context<AppEnv>, segment: string) {
  // One round trip (issue 18): the zone (its 404, its visibility, its parent domain) and its keys in one batch.
  const db = c.get("db");
  const ref = resourceRef(segment, "zone");
  const [[zone], keys] = await readTogether(db, [findZoneWithParent(db, ref), listedKeys(db, ref)]);
  if (!zone) throw notFound("zone", segment);
  return presentDnssec(zone, keys, registryLink(c), new Date());
}

export const readDnssecHandler: RouteHandler<typeof routes.getDnssec, AppEnv> = async (c) => c.json(await readDnssec(c, c.req.valid("param").zone), 200);
