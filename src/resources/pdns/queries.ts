// What the DNS backend reads: each connector call is one statement (one D1 round trip),
// answered from the unique indexes on zones.name and records (zone_id, name, type, content),
// and records_owner_order_idx (zone_id, owner_order) for what lies below a name.
// The zone's SOA is not a record: it is built from the zone row (the zone owns its SOA).
import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import { ownerOrder } from "../../dns/name-order";

/** The zone columns every answer needs: its number for PowerDNS and its SOA. */
const ZONE_COLUMNS = sql.raw(
  `z.rowid AS domain_id, z.name AS zone, z.default_ttl, z.soa_mname, z.soa_rname, z.soa_serial, z.soa_refresh, z.soa_retry, z.soa_expire, z.soa_minimum`,
);

export interface ZoneSoaRow {
  /** SQLite's rowid of the zone: PowerDNS needs an integer id per zone (DomainInfo.id). */
  domain_id: number;
  zone: string;
  default_ttl: number;
  soa_mname: string;
  soa_rname: string;
  soa_serial: number;
  soa_refresh: number;
  soa_retry: number;
  soa_expire: number;
  soa_minimum: number;
}

export interface LookupRow extends ZoneSoaRow {
  /** The queried name relative to its zone (`@` at the apex), as records store owners. */
  owner: string;
  /** Null on the one row of a name with no records (of the asked type). */
  type: string | null;
  content: string | null;
  ttl: number | null;
  /**
   * 1 when the name holds no records but names below it do (an empty non-terminal, RFC
   * 8020 / RFC 4592 §2.2.2), 0 when it has none below it; null when it was not asked
   * (the name has records, is the apex, or the question was not ANY).
   */
  has_descendants: number | null;
  /**
   * 1 when a name between the zone's apex and this one holds NS: the name lies below a
   * delegation (glue, or data the delegation hides), so its records are not the zone's
   * authoritative data (PowerDNS's `auth` 0, as its own backends mark them).
   */
  below_delegation: number;
}

/**
 * A zone is served while its account is not suspended (contract §11: a suspended
 * account's data stays, but is not used): one primary-key probe of accounts per zone.
 */
export const SERVED = sql`NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = z.account_id AND a.status = 'suspended')`;

/**
 * `lookup`: the deepest zone that holds `name` (among the name and its ancestors, by the
 * unique index on zones.name), then the records at the name — all of them for ANY, else
 * those of `type` — by the unique index (zone_id, name, type, …). No row: no zone here.
 *
 * A name with no records, asked with ANY, also says whether names exist below it, which
 * is how PowerDNS tells an empty non-terminal (NODATA, and no wildcard applies) from a
 * name that does not exist (NXDOMAIN). Records keep each owner's labels reversed
 * (records.owner_order, src/dns/name-order.ts), so the names below `ent` are the keys
 * from `ent ` to `ent!` of records_owner_order_idx: one seek that reads at most one
 * entry, whatever the zone's size. It is asked only then, since SQLite evaluates CASE
 * lazily. The owner's key is cut from the whole name's: reversing labels keeps the
 * length, so the zone's reversed name is the first length(zone) characters of it.
 */
export function lookupQuery(candidates: string[], name: string, type: string): SQL {
  const any = type === "ANY";
  const reversed = ownerOrder(name);
  const enclosing = JSON.stringify(candidates);
  // The names strictly between the zone's apex and `name` (its ancestors inside the zone),
  // each probed for NS by (zone_id, name, type): one index probe per label. CROSS JOIN
  // keeps the names outside: the planner would otherwise walk the zone's records.
  return sql`
    WITH zone AS (
      SELECT ${ZONE_COLUMNS},
             z.id AS zone_id,
             CASE WHEN z.name = ${name} THEN '@' ELSE substr(${name}, 1, length(${name}) - length(z.name) - 1) END AS owner,
             CASE WHEN z.name = ${name} THEN '' ELSE substr(${reversed}, length(z.name) + 2) END AS owner_order,
             EXISTS (SELECT 1 FROM json_each(${enclosing}) c CROSS JOIN records n
                      WHERE length(c.value) > length(z.name) AND length(c.value) < length(${name})
                        AND n.zone_id = z.id AND n.name = substr(c.value, 1, length(c.value) - length(z.name) - 1) AND n.type = 'NS') AS below_delegation
        FROM zones z
       WHERE z.name IN (SELECT value FROM json_each(${enclosing})) AND ${SERVED}
       ORDER BY length(z.name) DESC
       LIMIT 1
    )
    SELECT zone.domain_id, zone.zone, zone.default_ttl, zone.soa_mname, zone.soa_rname, zone.soa_serial, zone.soa_refresh,
           zone.soa_retry, zone.soa_expire, zone.soa_minimum, zone.owner, zone.below_delegation, r.type, r.content, r.ttl,
           CASE WHEN r.type IS NULL AND ${any ? 1 : 0} = 1 AND zone.owner <> '@'
                THEN EXISTS (SELECT 1 FROM records d
                              WHERE d.zone_id = zone.zone_id
                                AND d.owner_order > zone.owner_order || ' '
                                AND d.owner_order < zone.owner_order || '!')
           END AS has_descendants
      FROM zone
      LEFT JOIN records r ON r.zone_id = zone.zone_id AND r.name = zone.owner ${any ? sql`` : sql`AND r.type = ${type}`}`;
}

export function lookup(db: Database, candidates: string[], name: string, type: string): Promise<LookupRow[]> {
  return db.all<LookupRow>(lookupQuery(candidates, name, type));
}

export interface ListRow extends ZoneSoaRow {
  /** Null on the one row of a zone with no records. */
  owner: string | null;
  type: string | null;
  content: string | null;
  ttl: number | null;
}

/** `list` (AXFR): the zone and every record of it, by the zone's name and the records index. */
export function listQuery(zone: string): SQL {
  return sql`
    SELECT ${ZONE_COLUMNS}, r.name AS owner, r.type, r.content, r.ttl
      FROM zones z
      LEFT JOIN records r ON r.zone_id = z.id
     WHERE z.name = ${zone} AND ${SERVED}`;
}

export function listZone(db: Database, zone: string): Promise<ListRow[]> {
  return db.all<ListRow>(listQuery(zone));
}

export interface DomainInfoRow {
  domain_id: number;
  zone: string;
  soa_serial: number;
  /** The serial the primary last sent NOTIFY for (setNotified); null: never. */
  notified_serial: number | null;
}

/** `getDomainInfo`: one zone by name. */
export function domainInfoQuery(zone: string): SQL {
  return sql`SELECT z.rowid AS domain_id, z.name AS zone, z.soa_serial, z.notified_serial FROM zones z WHERE z.name = ${zone} AND ${SERVED}`;
}

export function domainInfo(db: Database, zone: string): Promise<DomainInfoRow[]> {
  return db.all<DomainInfoRow>(domainInfoQuery(zone));
}

/** `getAllDomains`: every zone (PowerDNS asks for the whole list at once, e.g. to fill its zone cache). */
export function allDomainsQuery(): SQL {
  return sql`SELECT z.rowid AS domain_id, z.name AS zone, z.soa_serial, z.notified_serial FROM zones z WHERE ${SERVED} ORDER BY z.name`;
}

export function allDomains(db: Database): Promise<DomainInfoRow[]> {
  return db.all<DomainInfoRow>(allDomainsQuery());
}
