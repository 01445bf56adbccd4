// The zone a DNSSEC request names, as the caller sees it.
import type { Context } from "hono";
import { eq, getTableColumns, sql } from "drizzle-orm";
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

/** The same-named domain of the zone's account as far as its DNSSEC needs it: whether it is the managed parent, and at which repository. */
export interface ParentDomain {
  repository: string;
  statuses: string[];
  /** Whether its extension takes DS data. */
  dnssec: boolean;
}

/**
 * The zone's parent domain, read beside the zone row (a correlated subquery: no statement
 * more). Through `main.` because the parent's timing is the zone's, whoever asks: a token
 * narrowed to the zone does not see the same-named domain, and learns nothing of it here but
 * what the zone's `awaiting_parent` shows.
 */
const parentDomain =
  sql<ParentDomain | null>`(select json_object('repository', d.repository_id, 'statuses', json(d.server_statuses), 'dnssec', json(case when e.dnssec = 1 then 'true' else 'false' end)) from main."domains" d join main."extensions" e on e.id = d.extension_id where d.name = "zones"."name" and d.account_id = "zones"."account_id")`.mapWith(
    (v: string | null) => (v === null ? null : (JSON.parse(v) as ParentDomain)),
  );

/** The zone row with its parent domain (`ParentDomain`), for the DNSSEC state's `awaiting_parent`. */
export function findZoneWithParent(db: Database, ref: ResourceRef) {
  return db
    .select({ ...getTableColumns(zones), parentDomain })
    .from(zones)
    .where(ref.kind === "id" ? eq(zones.id, ref.id) : eq(zones.name, ref.name));
}

export async function zoneOf(c: Context<AppEnv>, segment: string) {
  const [zone] = await findZoneRow(c.get("db"), resourceRef(segment, "zone"));
  if (!zone) throw notFound("zone", segment);
  return zone;
}
