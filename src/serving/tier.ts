// The hidden primary's bookkeeping (docs/serving.md, "The tier"): PowerDNS, with
// `primary=yes`, polls getUpdatedMasters (every `xfr-cycle-interval` seconds), sends NOTIFY
// for each zone it returns to the addresses of the zone's ALSO-NOTIFY metadata — the
// tier's secondaries (DNS_TIER_SECONDARIES) and the zone's declared ones — and then calls
// setNotified with the serial it notified. The notified serial is kept per zone
// (zones.notified_serial) and for the catalog zone (dns_catalog.notified_serial), so a
// restarted PowerDNS, or another one, carries on where the last stopped.
import { type SQL, sql } from "drizzle-orm";
import type { Context } from "hono";
import type { Database } from "../db/client";
import type { AppEnv } from "../env";
import { requestText } from "../http/body";
import { ApiError } from "../http/problem";
import { parseIPv4, parseIPv6 } from "../dns/ip";
import { belowCatalog, CATALOG_DOMAIN_ID, type CatalogState } from "./catalog";
import { allDomainsQuery, type DomainInfoRow, SERVED } from "./queries";

/**
 * One of the tier's secondaries as PowerDNS reads an ALSO-NOTIFY value (`192.0.2.1:53`,
 * `[2001:db8::1]:53`): an address, IPv6 in brackets when a port follows, and the port
 * (53 when none is given). Null when the text is none of these.
 */
function notifyTarget(text: string): string | null {
  const v6 = /^\[([^\]]+)\](?::([0-9]{1,5}))?$/.exec(text);
  const v4 = /^([0-9.]+)(?::([0-9]{1,5}))?$/.exec(text);
  const address = v6 ? parseIPv6(v6[1]!) : v4 ? parseIPv4(v4[1]!) : parseIPv6(text);
  const port = Number((v6 ?? v4)?.[2] ?? 53);
  if (!address || !Number.isInteger(port) || port < 1 || port > 65535) return null;
  return address.version === 6 ? `[${address.text}]:${port}` : `${address.text}:${port}`;
}

/**
 * The tier's secondaries (DNS_TIER_SECONDARIES, comma-separated `address[:port]`), which
 * the primary NOTIFYs for every zone and for the catalog: the backend gives them in each
 * zone's ALSO-NOTIFY metadata, which PowerDNS reads from the backend for each zone it
 * notifies. Not PowerDNS's own `also-notify`: PowerDNS 4.7 starts its NOTIFY loop before it
 * reads that setting (CommunicatorClass::go), so its first pass after a start could find a
 * zone changed meanwhile with nobody to NOTIFY, record it as notified all the same, and the
 * change reached the secondaries only at the zone's SOA refresh (docs/serving.md, "Restarts").
 */
export function tierSecondaries(env: AppEnv["Bindings"]): string[] {
  const entries = (env.DNS_TIER_SECONDARIES ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  const targets = entries.map(notifyTarget);
  const bad = entries.find((_, i) => targets[i] === null);
  if (bad !== undefined) {
    throw new ApiError(
      "not_configured",
      `DNS_TIER_SECONDARIES holds "${bad.slice(0, 60)}", not an address[:port]: the DNS backend cannot name the tier's secondaries.`,
    );
  }
  return [...new Set(targets as string[])];
}

/** Zones handed to one poll at most; the rest come in the next polls (a second apart). */
export const UPDATED_MASTERS_PAGE = 500;

/** What a DomainInfo carries: every served zone is kind `master` here (this service is their primary). */
export interface DomainInfo {
  id: number;
  zone: string;
  kind: "master";
  serial: number;
  notified_serial: number;
  last_check: number;
  masters: string[];
}

export function presentDomainInfo(row: DomainInfoRow): DomainInfo {
  return {
    id: row.domain_id,
    zone: `${row.zone}.`,
    kind: "master",
    serial: row.soa_serial,
    notified_serial: row.notified_serial ?? 0,
    last_check: 0,
    masters: [],
  };
}

export function catalogDomainInfo(catalog: string, state: CatalogState): DomainInfo {
  return presentDomainInfo({ domain_id: CATALOG_DOMAIN_ID, zone: catalog, soa_serial: state.serial, notified_serial: state.notified_serial });
}

/**
 * The catalog zone as a row of the zones' DomainInfo queries (`zone` null: its name is
 * configuration, not data), so that one statement answers for both.
 */
function catalogRow(onlyWhenDue: boolean): SQL {
  return sql`SELECT ${CATALOG_DOMAIN_ID} AS domain_id, NULL AS zone, c.serial AS soa_serial, c.notified_serial
               FROM dns_catalog c WHERE c.id = 1 ${onlyWhenDue ? sql`AND c.notified_serial IS NOT c.serial` : sql``}`;
}

/**
 * getUpdatedMasters: the served zones due a NOTIFY (their serial is not the one last
 * notified), read from zones_unnotified_idx, which holds only those, so that a poll costs
 * what changed, not the number of zones; and the catalog zone when its serial moved.
 */
export function updatedMastersQuery(): SQL {
  return sql`SELECT * FROM (SELECT z.rowid AS domain_id, z.name AS zone, z.soa_serial, z.notified_serial
                              FROM zones z INDEXED BY zones_unnotified_idx
                             WHERE z.notified_serial IS NOT z.soa_serial AND ${SERVED}
                             LIMIT ${UPDATED_MASTERS_PAGE})
             UNION ALL ${catalogRow(true)}`;
}

/** getAllDomains: every served zone (allDomainsQuery) and the catalog zone. */
export function allDomainsWithCatalogQuery(): SQL {
  return sql`SELECT * FROM (${allDomainsQuery()}) UNION ALL ${catalogRow(false)}`;
}

/**
 * Runs one of the two queries above: each row as PowerDNS reads it, the catalog under its
 * configured name. A stored zone at or under the catalog's name (kept from before zone
 * creation refused those names) is left out: those names are the catalog's alone.
 */
export async function domainInfos(db: Database, query: SQL, catalog: string): Promise<DomainInfo[]> {
  const rows = await db.all<DomainInfoRow & { zone: string | null }>(query);
  return rows.flatMap((row) => (row.zone !== null && belowCatalog(row.zone, catalog) ? [] : [presentDomainInfo({ ...row, zone: row.zone ?? catalog })]));
}

/** A zone number as PowerDNS sends it in the path. */
function domainId(id: string): number {
  if (!/^[0-9]{1,10}$/.test(id) || Number(id) > 0xffffffff) {
    throw new ApiError("validation_failed", "id is not a zone number.", { errors: [{ field: "id", message: `"${id.slice(0, 20)}" is not a whole number` }] });
  }
  return Number(id);
}

/**
 * The serial of setNotified's form body: PowerDNS 4.7's HTTP connector writes it as C++'s
 * std::to_string of a double (`serial=2026112501.000000`).
 */
function notifiedSerial(c: Context<AppEnv>): number {
  const body = requestText(
    c,
    () => new ApiError("validation_failed", "The body is not UTF-8.", { errors: [{ field: "serial", message: "the body is not UTF-8 text" }] }),
  );
  const value = new URLSearchParams(body).get("serial") ?? "";
  const serial = /^[0-9]{1,10}(\.0*)?$/.test(value.trim()) ? Math.trunc(Number(value)) : Number.NaN;
  if (!Number.isInteger(serial) || serial > 0xffffffff) {
    throw new ApiError("validation_failed", "serial is not a SOA serial.", {
      errors: [{ field: "serial", message: `"${value.slice(0, 30)}" is not a whole number from 0 to 4294967295` }],
    });
  }
  return serial;
}

/** setNotified: PowerDNS sent NOTIFY for zone number `id` at `serial`. One write; no event (bookkeeping, not a change of the zone). */
export async function setNotified(c: Context<AppEnv>, id: string): Promise<boolean> {
  const zone = domainId(id);
  const serial = notifiedSerial(c);
  const db = c.get("db");
  const result =
    zone === CATALOG_DOMAIN_ID
      ? await db.run(sql`UPDATE dns_catalog SET notified_serial = ${serial} WHERE id = 1`)
      : await db.run(sql`UPDATE zones SET notified_serial = ${serial} WHERE rowid = ${zone}`);
  return (result.meta.changes ?? 0) > 0;
}
