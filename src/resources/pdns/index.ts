// The DNS serving backend (docs/serving.md): PowerDNS Authoritative Server's remote backend,
// HTTP connector, answered from the zones and records tables. PowerDNS speaks DNS (UDP,
// TCP, EDNS, AXFR) and calls this on every cache miss, so every call is read-only and one
// D1 round trip. Authentication (a `dns` token in the path) is src/http/auth.ts's.
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { certWithNumbers } from "../../dns/rdata/cert";
import { ApiError } from "../../http/problem";
import { createRouter } from "../../http/router";
import { beforeAndAfter, domainKeys, SIGNED_ZONE_METADATA, zoneKeysByName } from "../../serving/dnssec";
import { absolute, enclosingNames, parseQueryName } from "../../serving/names";
import {
  ALL_CATALOG_METADATA,
  belowCatalog,
  type CatalogState,
  catalogMetadata,
  catalogStateQuery,
  catalogZoneName,
  listCatalog,
  lookupCatalog,
} from "../../serving/catalog";
import { domainInfo, listZone, lookup, type ZoneSoaRow } from "../../serving/queries";
import * as routes from "./routes";
import * as updateHandlers from "./update-handlers";
import * as updateRoutes from "./update-routes";
import { allZoneAccessMetadata, isZoneAccessKind, zoneAccessMetadata } from "../../serving/zone-access";
import type { DnsRecordSchema } from "./schemas";
import { allDomainsWithCatalogQuery, catalogDomainInfo, domainInfos, presentDomainInfo, setNotified, updatedMastersQuery } from "../../serving/tier";
import type { z } from "@hono/zod-openapi";

type DnsRecord = z.output<typeof DnsRecordSchema>;

/** The SOA as PowerDNS reads it (RFC 1035 §3.3.13 order); its TTL is the zone's default TTL, as the export writes it. */
function soaRecord(zone: ZoneSoaRow, qname: string): DnsRecord {
  return {
    qtype: "SOA",
    qname,
    content: `${absolute(zone.soa_mname)} ${absolute(zone.soa_rname)} ${zone.soa_serial} ${zone.soa_refresh} ${zone.soa_retry} ${zone.soa_expire} ${zone.soa_minimum}`,
    ttl: zone.default_ttl,
    domain_id: zone.domain_id,
  };
}

/** A stored content as PowerDNS 4.7 parses it: the canonical form, but CERT with numbers (its parser knows no mnemonics there). */
function powerDnsContent(type: string, content: string): string {
  return type === "CERT" ? certWithNumbers(content) : content;
}

/** A record type mnemonic as PowerDNS writes it (`A`, `TYPE65534`, `ANY`). */
const QTYPE = /^[A-Z][A-Z0-9-]{0,19}$/;

function badName(field: string, value: string): ApiError {
  return new ApiError("validation_failed", `${field} is not a domain name in presentation form.`, {
    errors: [{ field, message: `"${value.slice(0, 80)}" is not a domain name (labels of 1-63 octets, at most 255 octets)` }],
  });
}

/** A zone name as PowerDNS sends it, as stored names are written. */
function zoneKey(field: string, value: string): string {
  const name = parseQueryName(value);
  if (!name) throw badName(field, value);
  return name.key;
}

const NOTHING = { result: false } as const;

/** getBeforeAndAfterNamesAbsolute: the NSEC neighbours of a name relative to zone number `id`. */
async function nsecNeighbours(c: Context<AppEnv>, id: string, qname: string) {
  const name = parseQueryName(qname);
  if (!name) throw badName("qname", qname);
  if (!/^[0-9]{1,15}$/.test(id)) {
    throw new ApiError("validation_failed", "id is not a zone number.", { errors: [{ field: "id", message: `"${id.slice(0, 20)}" is not a whole number` }] });
  }
  const neighbours = await beforeAndAfter(c.get("db"), Number(id), name.labels);
  return neighbours ? { result: { ...neighbours, unhashed: qname } } : NOTHING;
}

/**
 * What PowerDNS reads as "not applicable": a method this backend does not implement, or
 * arguments it cannot take. OPTIONS answers as on every path (docs/conventions.md): the connector
 * is read with GET.
 */
function notApplicable(c: Context<AppEnv>) {
  if (c.req.method === "OPTIONS") return c.body(null, 204, { Allow: "GET, HEAD, OPTIONS" });
  return c.json(NOTHING, 200);
}

export const pdnsRouter = createRouter()
  .openapi(routes.lookup, async (c) => {
    const { qname, qtype } = c.req.valid("param");
    const name = parseQueryName(qname);
    if (!name) throw badName("qname", qname);
    const type = qtype.toUpperCase();
    if (!QTYPE.test(type)) {
      throw new ApiError("validation_failed", "qtype is not a record type.", {
        errors: [{ field: "qtype", message: `"${qtype.slice(0, 20)}" is not a record type mnemonic` }],
      });
    }
    if (name.labels.length === 0) return c.json(NOTHING, 200); // the root is no zone of ours
    const inCatalog = belowCatalog(name.key, catalogZoneName(c.env));
    if (inCatalog) {
      const records = await lookupCatalog(c.get("db"), catalogZoneName(c.env), inCatalog, qname, type);
      return c.json(records && records.length > 0 ? { result: records } : NOTHING, 200);
    }
    const rows = await lookup(c.get("db"), enclosingNames(name), name.key, type);
    const zone = rows[0];
    if (!zone) return c.json(NOTHING, 200);
    // Owners are echoed as PowerDNS asked them (any letter case): answers then carry the
    // question's case, as BIND's do.
    const result: DnsRecord[] = [];
    if (zone.owner === "@" && (type === "SOA" || type === "ANY")) result.push(soaRecord(zone, qname));
    // NS below the apex is a delegation: its records but DS are the child's, not
    // authoritative here, and a signed zone must not sign them (RFC 4035 §2.2).
    // Below a delegation (glue, or data it hides) nothing is authoritative, DS included,
    // as PowerDNS's own backends mark it (RFC 1034 §4.2.1); PowerDNS then refers there.
    const delegation = zone.owner !== "@" && rows.some((row) => row.type === "NS");
    for (const row of rows) {
      if (row.type === null) continue;
      const record: DnsRecord = { qtype: row.type, qname, content: powerDnsContent(row.type, row.content!), ttl: row.ttl!, domain_id: zone.domain_id };
      if (zone.below_delegation === 1 || (delegation && row.type !== "DS")) record.auth = 0;
      result.push(record);
    }
    // An empty non-terminal exists (RFC 8020): a record of no type (PowerDNS's ENT, type 0)
    // says so, so that PowerDNS answers NODATA and applies no wildcard (RFC 4592 §2.2.2).
    if (result.length === 0 && zone.has_descendants === 1) result.push({ qtype: "", qname, content: "", ttl: zone.default_ttl, domain_id: zone.domain_id });
    return c.json(result.length > 0 ? { result } : NOTHING, 200);
  })
  .openapi(routes.list, async (c) => {
    const { zonename } = c.req.valid("param");
    const key = zoneKey("zonename", zonename);
    const catalog = catalogZoneName(c.env);
    if (key === catalog) return c.json({ result: await listCatalog(c.get("db"), key) }, 200);
    // A name under the catalog is the catalog's, never a stored zone (catalog.ts, outsideCatalog).
    if (belowCatalog(key, catalog)) return c.json(NOTHING, 200);
    const rows = await listZone(c.get("db"), key);
    const zone = rows[0];
    if (!zone) return c.json(NOTHING, 200);
    const apex = absolute(zone.zone);
    const result: DnsRecord[] = [soaRecord(zone, apex)];
    for (const row of rows) {
      if (row.owner === null) continue;
      result.push({
        qtype: row.type!,
        qname: row.owner === "@" ? apex : `${row.owner}.${apex}`,
        content: powerDnsContent(row.type!, row.content!),
        ttl: row.ttl!,
        domain_id: zone.domain_id,
      });
    }
    return c.json({ result }, 200);
  })
  .openapi(routes.getDomainInfo, async (c) => {
    const { name } = c.req.valid("param");
    const key = zoneKey("name", name);
    const catalog = catalogZoneName(c.env);
    if (key === catalog) {
      const [state] = await c.get("db").all<CatalogState>(catalogStateQuery());
      return c.json(state ? { result: catalogDomainInfo(catalog, state) } : NOTHING, 200);
    }
    if (belowCatalog(key, catalog)) return c.json(NOTHING, 200);
    const [row] = await domainInfo(c.get("db"), key);
    return c.json(row ? { result: presentDomainInfo(row) } : NOTHING, 200);
  })
  .openapi(routes.getAllDomains, async (c) => {
    // The zones and the catalog zone, in one statement.
    return c.json({ result: await domainInfos(c.get("db"), allDomainsWithCatalogQuery(), catalogZoneName(c.env)) }, 200);
  })
  .openapi(routes.getUpdatedMasters, async (c) => c.json({ result: await domainInfos(c.get("db"), updatedMastersQuery(), catalogZoneName(c.env)) }, 200))
  .openapi(routes.setNotified, async (c) => c.json({ result: await setNotified(c, c.req.valid("param").id) }, 200))
  .openapi(routes.getAllDomainMetadata, async (c) => {
    const zone = zoneKey("name", c.req.valid("param").name);
    // The catalog's metadata is the catalog's own, whatever zone row of its name D1 may hold.
    if (belowCatalog(zone, catalogZoneName(c.env))) return c.json({ result: ALL_CATALOG_METADATA }, 200);
    const signed = (await zoneKeysByName(c.get("db"), zone)).length > 0;
    // Who may transfer and update the zone (zone-access.ts): PowerDNS fills its metadata cache from this.
    const access = await allZoneAccessMetadata(c.get("db"), zone);
    return c.json({ result: { ...(signed ? SIGNED_ZONE_METADATA : {}), ...access } }, 200);
  })
  .openapi(routes.getDomainMetadata, async (c) => {
    const { name, kind } = c.req.valid("param");
    if (belowCatalog(zoneKey("name", name), catalogZoneName(c.env))) return c.json({ result: catalogMetadata(kind) }, 200);
    if (isZoneAccessKind(kind)) return c.json({ result: await zoneAccessMetadata(c.get("db"), zoneKey("name", name), kind) }, 200);
    const values = SIGNED_ZONE_METADATA[kind];
    if (!values) {
      zoneKey("name", name);
      return c.json({ result: [] as string[] }, 200);
    }
    const signed = (await zoneKeysByName(c.get("db"), zoneKey("name", name))).length > 0;
    return c.json({ result: signed ? values : [] }, 200);
  })
  .openapi(routes.getBeforeAndAfterNamesAbsolute, async (c) => {
    const { id, qname } = c.req.valid("param");
    return c.json(await nsecNeighbours(c, id, qname), 200);
  })
  .openapi(routes.getDomainKeys, async (c) => {
    const { name } = c.req.valid("param");
    const zone = zoneKey("name", name);
    // The catalog is unsigned: no zone row of its name lends it keys.
    if (belowCatalog(zone, catalogZoneName(c.env))) return c.json(NOTHING, 200);
    // An unsigned zone: "not applicable", as PowerDNS reads a zone without keys.
    const keys = await domainKeys(c, zone);
    return c.json(keys.length > 0 ? { result: keys } : NOTHING, 200);
  })
  .openapi(updateRoutes.getTSIGKey, updateHandlers.getTSIGKey)
  .openapi(updateRoutes.dnsUpdate, updateHandlers.dnsUpdate);

// The apex's NSEC neighbours: PowerDNS sends the relative name "." as `%2e`, a segment
// URL parsing removes (WHATWG URL: a single-dot segment), leaving `…/{id}/`.
pdnsRouter.get("/pdns/:token/getBeforeAndAfterNamesAbsolute/:id/", async (c) => c.json(await nsecNeighbours(c, c.req.param("id"), "."), 200));
pdnsRouter.get("/pdns/:token/getBeforeAndAfterNamesAbsolute/:id", async (c) => c.json(await nsecNeighbours(c, c.req.param("id"), "."), 200));

// Every other method, verb or argument count PowerDNS may send (writes, DNSSEC and TSIG
// keys, secondaries' and primaries' bookkeeping, the root name `%2e` that URL parsing
// folds away): this backend is read-only and holds none of it.
pdnsRouter.all("/pdns/:token/*", notApplicable);
