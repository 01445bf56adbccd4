// GET /zones/{zone}/dnssec: the zone's DNSSEC state (docs/dnssec.md).
import type * as routes from "./routes";
import type { RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { notFound, resourceRef } from "../../http/lookup";
import { activeKeys, presentLifecycle, presentState } from "./state";
import { findZoneRow } from "./zone";
import { readTogether } from "../../db/write";

export async function readDnssec(c: Context<AppEnv>, segment: string) {
  // One round trip (issue 18): the zone (its 404, its visibility) and its keys in one batch.
  const db = c.get("db");
  const ref = resourceRef(segment, "zone");
  const [[zone], keys] = await readTogether(db, [findZoneRow(db, ref), activeKeys(db, ref)]);
  if (!zone) throw notFound("zone", segment);
  return { ...(await presentState(zone.name, keys)), ...presentLifecycle(zone) };
}

export const readDnssecHandler: RouteHandler<typeof routes.getDnssec, AppEnv> = async (c) => c.json(await readDnssec(c, c.req.valid("param").zone), 200);
