// The catalog zone (RFC 9432, version 2) the DNS primary serves, so that secondaries learn
// which zones to serve from DNS itself: created zones appear on them and deleted ones (or
// those of a suspended account) disappear, with no configuration step (docs/serving.md).
// It is no stored zone: its records are made here from the zones table, its serial is the
// one row of dns_catalog, which triggers move whenever a member may have come or gone
// (drizzle/0017).
//
//   catalog.invalid.                       0 SOA invalid. invalid. <serial> 300 60 2419200 0
//   catalog.invalid.                       0 NS  invalid.
//   version.catalog.invalid.               0 TXT "2"
//   <unique id>.zones.catalog.invalid.     0 PTR example.com.      (one per member)
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { catalogZoneFrom } from "../dns/catalog-zone";
import type { AppEnv } from "../env";
import { ApiError } from "../http/problem";
import { SERVED_AND_OWNED } from "./queries";
import { NO_UPDATE_KEY } from "./zone-access";

/**
 * The catalog's number for PowerDNS (DomainInfo.id): zones use their rowid, which starts at
 * 1 and counts up; the catalog takes the top of the 31-bit range, which no rowid reaches.
 */
export const CATALOG_DOMAIN_ID = 2_147_483_647;

/**
 * The catalog's SOA timers: NOTIFY drives the secondaries, the refresh (300 s, BIND's
 * lowest by default) is the fallback when a NOTIFY is lost; a secondary that cannot reach
 * the primary keeps its copy (and so its member zones) for 28 days.
 */
const CATALOG_SOA = { refresh: 300, retry: 60, expire: 2_419_200, minimum: 0 };

/** Catalog records carry TTL 0: nobody but the secondaries should keep them (RFC 9432 §5). */
const CATALOG_TTL = 0;

/** The configured catalog name as stored names are written (lowercase, no trailing dot). */
export function catalogZoneName(env: AppEnv["Bindings"]): string {
  const name = catalogZoneFrom(env.DNS_CATALOG_ZONE);
  if (name === null) throw new ApiError("not_configured", "DNS_CATALOG_ZONE is not a domain name: the DNS backend cannot serve its catalog zone.");
  return name;
}

/**
 * Zone `z` lies outside the catalog's names: no stored zone is at or under the catalog's
 * name, even one a database kept from before zone creation refused those names — the
 * catalog would list itself, or a name under it, as a member its secondaries retry forever.
 */
function outsideCatalog(catalog: string): SQL {
  return sql`(z.name <> ${catalog} AND substr(z.name, ${-(catalog.length + 1)}) <> ${`.${catalog}`})`;
}

/**
 * The catalog's zone metadata, whatever the zones table holds (a zone row of its name,
 * kept from before creation refused it, must not lend it a customer's secondaries or
 * keys): ALSO-NOTIFY the tier's secondaries alone (`tier`: DNS_TIER_SECONDARIES, as every
 * zone's), no other transfer kind (PowerDNS's `allow-axfr-ips` decides who transfers it);
 * no update key, so no DNS UPDATE. A name under the catalog's is no zone: nothing.
 */
export function catalogMetadata(labels: readonly string[], kind: string, tier: readonly string[]): string[] {
  if (kind === "TSIG-ALLOW-DNSUPDATE") return [NO_UPDATE_KEY];
  return kind === "ALSO-NOTIFY" && labels.length === 0 ? [...tier] : [];
}

/** getAllDomainMetadata of the catalog (`labels` empty) or of a name under it: the transfer kinds of catalogMetadata. */
export function allCatalogMetadata(labels: readonly string[], tier: readonly string[]): Record<string, string[]> {
  return labels.length === 0 && tier.length > 0 ? { "ALSO-NOTIFY": [...tier] } : {};
}

/** Where a name lies relative to the catalog: null outside it, else its labels below the apex (leftmost first). */
export function belowCatalog(nameKey: string, catalog: string): string[] | null {
  if (nameKey === catalog) return [];
  if (!nameKey.endsWith(`.${catalog}`)) return null;
  return nameKey.slice(0, -catalog.length - 1).split(".");
}

/**
 * A member's unique id (RFC 9432 §4.4.1): the zone's own id without its prefix, lowercased
 * (`zon_01JD…` → `01jd…`). Stable for the zone's life, and new for a zone deleted and
 * created again under the same name, which tells secondaries to start that zone afresh.
 */
export function memberLabel(zoneId: string): string {
  return zoneId.replace(/^zon_/, "").toLowerCase();
}

function zoneIdOfMember(label: string): string | null {
  return /^[0-9a-z]{26}$/.test(label) ? `zon_${label.toUpperCase()}` : null;
}

interface CatalogRecord {
  qtype: string;
  qname: string;
  content: string;
  ttl: number;
  domain_id: number;
}

function record(qtype: string, qname: string, content: string): CatalogRecord {
  return { qtype, qname, content, ttl: CATALOG_TTL, domain_id: CATALOG_DOMAIN_ID };
}

function soa(qname: string, serial: number): CatalogRecord {
  return record("SOA", qname, `invalid. invalid. ${serial} ${CATALOG_SOA.refresh} ${CATALOG_SOA.retry} ${CATALOG_SOA.expire} ${CATALOG_SOA.minimum}`);
}

/** The catalog's serial and the serial last NOTIFYed. */
export interface CatalogState {
  serial: number;
  notified_serial: number | null;
}

export function catalogStateQuery() {
  return sql`SELECT c.serial, c.notified_serial FROM dns_catalog c WHERE c.id = 1`;
}

/** `list` (AXFR) of the catalog: its SOA, NS and version, and one PTR per served zone; one statement. */
export async function listCatalog(db: Database, catalog: string): Promise<CatalogRecord[]> {
  const rows = await db.all<{ serial: number; zone_id: string | null; zone: string | null }>(sql`
    SELECT c.serial, z.id AS zone_id, z.name AS zone
      FROM dns_catalog c
      LEFT JOIN zones z ON ${SERVED_AND_OWNED} AND ${outsideCatalog(catalog)}
     WHERE c.id = 1
     ORDER BY z.name`);
  const first = rows[0];
  if (!first) return [];
  const apex = `${catalog}.`;
  const result = [soa(apex, first.serial), record("NS", apex, "invalid."), record("TXT", `version.${apex}`, '"2"')];
  for (const row of rows) {
    if (row.zone_id !== null && row.zone !== null) result.push(record("PTR", `${memberLabel(row.zone_id)}.zones.${apex}`, `${row.zone}.`));
  }
  return result;
}

/**
 * `lookup` of a name in the catalog (`labels`: below its apex, as belowCatalog gives
 * them), echoed as asked. The apex holds SOA and NS, `version` TXT, `zones` is an empty
 * non-terminal while there is a member, `<id>.zones` a member's PTR. Null: no such name.
 */
export async function lookupCatalog(db: Database, catalog: string, labels: string[], qname: string, type: string): Promise<CatalogRecord[] | null> {
  const wants = (t: string) => type === "ANY" || type === t;
  if (labels.length === 0) {
    const [state] = await db.all<CatalogState>(catalogStateQuery());
    if (!state) return null;
    const result: CatalogRecord[] = [];
    if (wants("SOA")) result.push(soa(qname, state.serial));
    if (wants("NS")) result.push(record("NS", qname, "invalid."));
    return result;
  }
  if (labels.length === 1 && labels[0] === "version") return wants("TXT") ? [record("TXT", qname, '"2"')] : [];
  if (labels.length === 1 && labels[0] === "zones") {
    const [member] = await db.all<{ id: string }>(sql`SELECT z.id FROM zones z WHERE ${SERVED_AND_OWNED} AND ${outsideCatalog(catalog)} LIMIT 1`);
    // An empty non-terminal (PowerDNS's record of no type) while the catalog has members.
    return member ? (type === "ANY" ? [{ ...record("", qname, ""), qtype: "" }] : []) : null;
  }
  const zoneId = labels.length === 2 && labels[1] === "zones" ? zoneIdOfMember(labels[0]!) : null;
  if (!zoneId) return null;
  const [member] = await db.all<{ name: string }>(
    sql`SELECT z.name FROM zones z WHERE z.id = ${zoneId} AND ${SERVED_AND_OWNED} AND ${outsideCatalog(catalog)}`,
  );
  if (!member) return null;
  return wants("PTR") ? [record("PTR", qname, `${member.name}.`)] : [];
}
