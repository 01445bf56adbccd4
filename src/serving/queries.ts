// What the DNS backend reads: each connector call is one statement (one D1 round trip),
// answered from the unique indexes on zones.name and records (zone_id, name, type, content),
// and records_owner_order_idx (zone_id, owner_order) for what lies below a name.
// The zone's SOA is not a record: it is built from the zone row (the zone owns its SOA).
import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { apexKeysJson } from "../db/zone-keys";
import { ownerOrder } from "../dns/name-order";
import { nameAndAncestors } from "../registry/zone-ownership";

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
  /** At the apex, for a question the apex's CDS and CDNSKEY answer: the zone's signing (`SIGNING_JSON`); null otherwise. */
  signing: string | null;
}

/**
 * Zone `z`'s signing as the apex's CDS and CDNSKEY need it: `{"rollover": …, "keys": [...]}`
 * (apexKeysJson: the live keys with their states), read by the keys' zone index.
 */
const SIGNING_JSON = sql`json_object('rollover', json(z.dnssec_rollover), 'keys', json(${apexKeysJson(sql`z.id`)}))`;

/** The question types the apex's signing records answer (ANY: PowerDNS's NSEC bitmap asks ANY). */
const SIGNING_TYPES = new Set(["ANY", "CDS", "CDNSKEY", "DNSKEY"]);

/**
 * A zone's account is suspended (docs/accounts.md: a suspended account's data stays, but is
 * not used): one primary-key probe of accounts.
 */
const SUSPENDED = sql`EXISTS (SELECT 1 FROM accounts a WHERE a.id = z.account_id AND a.status = 'suspended')`;

/** `a` was made before `b` (created_at, then the time-ordered id). */
function before(a: string, b: string): SQL {
  return sql.raw(`(${a}.created_at < ${b}.created_at OR (${a}.created_at = ${b}.created_at AND ${a}.id < ${b}.id))`);
}

/**
 * Zone `z` holds its names (src/registry/zone-ownership.ts; drizzle/0015's
 * zone_ownership_conflicts asks the same of every zone at once): it is no customer's zone
 * at or above an extension or at a top-level name, lies at or inside no domain of another
 * account, and was made inside or above no zone of another account that was there first.
 * `enclosing` is a JSON array holding z's name and the names above it (it may hold names
 * below z too: those are skipped by length). Each test is index probes: accounts by id,
 * domains and zones by name per label, one range of zones_reversed_name_idx; only a
 * customer's zone reads the catalog's extensions (a few dozen rows).
 */
function holdsItsNames(enclosing: string): SQL {
  return sql`NOT (
      ((SELECT a.role FROM accounts a WHERE a.id = z.account_id) = 'customer'
        AND (instr(z.name, '.') = 0
             OR EXISTS (SELECT 1 FROM extensions e WHERE e.id = z.name OR substr(e.id, -length(z.name) - 1) = '.' || z.name)))
      OR EXISTS (SELECT 1 FROM json_each(${enclosing}) c CROSS JOIN domains d
                  WHERE length(c.value) <= length(z.name) AND d.name = c.value AND d.account_id <> z.account_id)
      OR EXISTS (SELECT 1 FROM json_each(${enclosing}) c CROSS JOIN zones p
                  WHERE length(c.value) < length(z.name) AND p.name = c.value AND p.account_id <> z.account_id AND ${before("p", "z")})
      OR EXISTS (SELECT 1 FROM zones b
                  WHERE b.reversed_name > z.reversed_name || '.' AND b.reversed_name < z.reversed_name || '/'
                    AND b.account_id <> z.account_id AND ${before("b", "z")})
    )`;
}

/** A zone stored under this exact name is served: it holds its names and its account is active. */
function served(zone: string): SQL {
  return sql`${holdsItsNames(JSON.stringify(nameAndAncestors(zone)))} AND NOT ${SUSPENDED}`;
}

/** Zone `z`'s account is active: one primary-key probe (the NOTIFY poll's filter, src/serving/tier.ts). */
export const SERVED = sql`NOT ${SUSPENDED}`;

/**
 * Zone `z` is served: its account is active and it keeps the ownership rules (the view of
 * drizzle/0015 asks them of every zone at once). The catalog zone lists exactly these
 * (src/serving/catalog.ts), so the secondaries never serve a zone that breaks them.
 */
export const SERVED_AND_OWNED = sql`NOT ${SUSPENDED} AND z.id NOT IN (SELECT zone_id FROM zone_ownership_conflicts)`;

/**
 * `lookup`: the deepest zone that holds `name` (among the name and its ancestors, by the
 * unique index on zones.name), then the records at the name — all of them for ANY, else
 * those of `type` — by the unique index (zone_id, name, type, …). No row: no zone here.
 *
 * A zone that breaks the ownership rules holds no names (holdsItsNames): the names are
 * the zone's above it, if that one holds them. The deepest zone that holds the name is
 * chosen whatever its account's status, and a suspended account's zone answers nothing:
 * no zone of another account is ever chosen for a name inside it, so PowerDNS, walking up
 * from the name asking for SOA, finds no zone at all and answers REFUSED. (A zone of
 * another account above it would break rule 2: either it was made later, and holds no
 * names, or it was there first, and the suspended one holds none.)
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
             ${SUSPENDED} AS suspended,
             CASE WHEN z.name = ${name} THEN '@' ELSE substr(${name}, 1, length(${name}) - length(z.name) - 1) END AS owner,
             CASE WHEN z.name = ${name} THEN '' ELSE substr(${reversed}, length(z.name) + 2) END AS owner_order,
             EXISTS (SELECT 1 FROM json_each(${enclosing}) c CROSS JOIN records n
                      WHERE length(c.value) > length(z.name) AND length(c.value) < length(${name})
                        AND n.zone_id = z.id AND n.name = substr(c.value, 1, length(c.value) - length(z.name) - 1) AND n.type = 'NS') AS below_delegation,
             ${SIGNING_TYPES.has(type) ? sql`CASE WHEN z.name = ${name} THEN ${SIGNING_JSON} END` : sql`NULL`} AS signing
        FROM zones z
       WHERE z.name IN (SELECT value FROM json_each(${enclosing})) AND ${holdsItsNames(enclosing)}
       ORDER BY length(z.name) DESC
       LIMIT 1
    )
    SELECT zone.domain_id, zone.zone, zone.default_ttl, zone.soa_mname, zone.soa_rname, zone.soa_serial, zone.soa_refresh,
           zone.soa_retry, zone.soa_expire, zone.soa_minimum, zone.owner, zone.below_delegation, zone.signing, r.type, r.content, r.ttl,
           CASE WHEN r.type IS NULL AND ${any ? 1 : 0} = 1 AND zone.owner <> '@'
                THEN EXISTS (SELECT 1 FROM records d
                              WHERE d.zone_id = zone.zone_id
                                AND d.owner_order > zone.owner_order || ' '
                                AND d.owner_order < zone.owner_order || '!')
           END AS has_descendants
      FROM zone
      LEFT JOIN records r ON r.zone_id = zone.zone_id AND r.name = zone.owner ${any ? sql`` : sql`AND r.type = ${type}`}
     WHERE zone.suspended = 0`;
}

export function lookup(db: Database, candidates: string[], name: string, type: string): Promise<LookupRow[]> {
  return db.all<LookupRow>(lookupQuery(candidates, name, type));
}

export interface ListRow extends ZoneSoaRow {
  /** Null on the one row of a zone with no records, and on the signing row. */
  owner: string | null;
  type: string | null;
  content: string | null;
  ttl: number | null;
  /** On one row more of a signed zone: its signing (`SIGNING_JSON`), for the apex's CDS and CDNSKEY. */
  signing: string | null;
}

/**
 * `list` (AXFR): the zone and every record of it, by the zone's name and the records index;
 * for a signed zone one row more, its signing, so that the transfer carries the apex's CDS
 * and CDNSKEY as queries get them (one statement: the keys are not repeated on every row).
 */
export function listQuery(zone: string): SQL {
  return sql`
    SELECT ${ZONE_COLUMNS}, r.name AS owner, r.type, r.content, r.ttl, NULL AS signing
      FROM zones z
      LEFT JOIN records r ON r.zone_id = z.id
     WHERE z.name = ${zone} AND ${served(zone)}
    UNION ALL
    SELECT ${ZONE_COLUMNS}, NULL, NULL, NULL, NULL, ${SIGNING_JSON}
      FROM zones z
     WHERE z.name = ${zone} AND EXISTS (SELECT 1 FROM zone_keys k WHERE k.zone_id = z.id AND k.active = 1) AND ${served(zone)}`;
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
  return sql`SELECT z.rowid AS domain_id, z.name AS zone, z.soa_serial, z.notified_serial FROM zones z WHERE z.name = ${zone} AND ${served(zone)}`;
}

export function domainInfo(db: Database, zone: string): Promise<DomainInfoRow[]> {
  return db.all<DomainInfoRow>(domainInfoQuery(zone));
}

/**
 * `getAllDomains`: every zone served (PowerDNS asks for the whole list at once, e.g. to
 * fill its zone cache): the ownership rules asked of every zone at once by the view of
 * drizzle/0015.
 */
export function allDomainsQuery(): SQL {
  return sql`SELECT z.rowid AS domain_id, z.name AS zone, z.soa_serial, z.notified_serial FROM zones z WHERE ${SERVED_AND_OWNED} ORDER BY z.name`;
}
