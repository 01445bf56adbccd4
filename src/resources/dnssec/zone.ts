// The zone a DNSSEC request names, as the caller sees it, and the write context of a change.
import type { Context } from "hono";
import { findZone } from "../../db/zones";
import type { AppEnv } from "../../env";
import { actorOf } from "../../http/actor";
import { notFound, resourceRef } from "../../http/lookup";
import type { WriteContext } from "../../http/mutate";

export async function zoneOf(c: Context<AppEnv>, segment: string) {
  const [zone] = await findZone(c.get("db"), resourceRef(segment, "zone"));
  if (!zone) throw notFound("zone", segment);
  return zone;
}

export function writeContextOf(c: Context<AppEnv>): WriteContext {
  const now = new Date();
  return { db: c.get("db"), allAccounts: c.get("dbAllAccounts") ?? c.get("db"), now, at: now.toISOString(), actor: actorOf(c) };
}
