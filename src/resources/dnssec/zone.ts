// The zone a DNSSEC request names, as the caller sees it.
import type { Context } from "hono";
import { eq, getTableColumns } from "drizzle-orm";
import type { Database } from "../../db/client";
import type { ResourceRef } from "../../db/ref";
import { zones } from "../../db/schema";
import type { AppEnv } from "../../env";
import { notFound, resourceRef } from "../../http/lookup";

/**
 * The zone row alone: these handlers read the keys themselves (findZone's columns would
 * read them a second time, for the zone's JSON).
 */
export function findZoneRow(db: Database, ref: ResourceRef) {
  return db
    .select(getTableColumns(zones))
    .from(zones)
    .where(ref.kind === "id" ? eq(zones.id, ref.id) : eq(zones.name, ref.name));
}

export async function zoneOf(c: Context<AppEnv>, segment: string) {
  const [zone] = await findZoneRow(c.get("db"), resourceRef(segment, "zone"));
  if (!zone) throw notFound("zone", segment);
  return zone;
}
