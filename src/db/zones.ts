// Zone queries that zones and records share: finding a zone, and the update that every
// change to a zone or its records makes to the zone row in the same batch.
import { and, eq, getTableColumns, sql } from "drizzle-orm";
import { dateSerialBase, serialSqlExpression } from "../dns/serial";
import type { Database } from "./client";
import type { ResourceRef } from "./ref";
import { zones } from "./schema";
import { apexKeysJson } from "./zone-keys";

export type ZoneRow = typeof zones.$inferSelect;
export type ZoneWithLinks = ZoneRow & {
  domainId: string | null;
  /** The live DNSSEC keys as the apex needs them (`apexKeysJson`, src/db/zone-keys.ts): "[]" when unsigned. */
  dnssecKeys: string;
};

/** The domain registered here under the zone's name (docs/dns.md#zones: linked by name). */
// Only an account's own domain links (docs/accounts.md).
const domainId = sql<string | null>`(select d.id from domains d where d.name = "zones"."name" and d.account_id = "zones"."account_id")`;

/**
 * The zone's live keys with their states (zone_keys_zone_idx): the DNSKEY RRset shows the
 * published ones, the CDS set follows their DS states (docs/dnssec-rollovers.md "Key states").
 */
const dnssecKeys = apexKeysJson(sql`"zones"."id"`);

export const zoneColumns = { ...getTableColumns(zones), domainId, dnssecKeys };

export function findZone(db: Database, ref: ResourceRef) {
  return db
    .select(zoneColumns)
    .from(zones)
    .where(ref.kind === "id" ? eq(zones.id, ref.id) : eq(zones.name, ref.name));
}

/**
 * The zone's side of any change to it or its records: the SOA serial rises (RFC 1982,
 * computed in SQL from the stored value, so concurrent writers never lose an increment),
 * and the version and `updated_at` move on. (record_count is kept by triggers.)
 *
 * `expectedVersion`: only if the zone is still at the version read (a version step,
 * src/db/write.ts), for a write that decided on the whole zone.
 */
export function touchZone(db: Database, zoneId: string, at: Date, options: { expectedVersion?: number; fields?: Partial<ZoneRow> } = {}) {
  const { expectedVersion, fields = {} } = options;
  return db
    .update(zones)
    .set({
      ...fields,
      soaSerial: sql.raw(serialSqlExpression("soa_serial", dateSerialBase(at))),
      version: expectedVersion === undefined ? sql`${zones.version} + 1` : expectedVersion + 1,
      updatedAt: at.toISOString(),
    })
    .where(and(eq(zones.id, zoneId), expectedVersion === undefined ? undefined : eq(zones.version, expectedVersion)));
}
