// GET /zones/{zone}/dnssec: the zone's DNSSEC state (contract §14).
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { activeKeys, presentState } from "./state";
import { zoneOf } from "./zone";

export async function readDnssec(c: Context<AppEnv>, segment: string) {
  const zone = await zoneOf(c, segment);
  return presentState(zone.name, await activeKeys(c.get("db"), zone.id));
}
