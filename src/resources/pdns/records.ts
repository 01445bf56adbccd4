// lookup and list: the records PowerDNS reads, for one name and type (every cache miss)
// and for a whole zone (AXFR, and the catalog zone's members).
import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { ApiError } from "../../http/problem";
import { belowCatalog, catalogZoneName, listCatalog, lookupCatalog } from "../../serving/catalog";
import { absolute, enclosingNames, parseQueryName } from "../../serving/names";
import { SIGNING_APEX_TYPES, servedCdsRecords } from "../../serving/dnssec";
import { listZone, lookup as lookupRecords } from "../../serving/queries";
import { badName, type DnsRecord, NOTHING, powerDnsContent, soaRecord, zoneKey } from "./remote-backend";
import type * as routes from "./routes";

/** A record type mnemonic as PowerDNS writes it (`A`, `TYPE65534`, `ANY`). */
const QTYPE = /^[A-Z][A-Z0-9-]{0,19}$/;

export const lookup: RouteHandler<typeof routes.lookup, AppEnv> = async (c) => {
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
  const rows = await lookupRecords(c.get("db"), enclosingNames(name), name.key, type);
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
  // A signed zone's apex: its CDS and CDNSKEY are its keys' (src/serving/dnssec.ts), never stored ones.
  const signingRecords = zone.owner === "@" ? servedCdsRecords(zone.zone, zone.signing) : null;
  for (const row of rows) {
    if (row.type === null) continue;
    if (signingRecords && SIGNING_APEX_TYPES.has(row.type)) continue;
    const record: DnsRecord = { qtype: row.type, qname, content: powerDnsContent(row.type, row.content!), ttl: row.ttl!, domain_id: zone.domain_id };
    if (zone.below_delegation === 1 || (delegation && row.type !== "DS")) record.auth = 0;
    result.push(record);
  }
  for (const record of signingRecords ?? []) {
    if (type === "ANY" || type === record.type)
      result.push({ qtype: record.type, qname, content: record.content, ttl: zone.soa_minimum, domain_id: zone.domain_id });
  }
  // An empty non-terminal exists (RFC 8020): a record of no type (PowerDNS's ENT, type 0)
  // says so, so that PowerDNS answers NODATA and applies no wildcard (RFC 4592 §2.2.2).
  if (result.length === 0 && zone.has_descendants === 1) result.push({ qtype: "", qname, content: "", ttl: zone.default_ttl, domain_id: zone.domain_id });
  return c.json(result.length > 0 ? { result } : NOTHING, 200);
};

export const list: RouteHandler<typeof routes.list, AppEnv> = async (c) => {
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
  // A signed zone's apex: its CDS and CDNSKEY are its keys' (src/serving/dnssec.ts), never stored ones.
  const signingRecords = servedCdsRecords(zone.zone, rows.find((row) => row.signing !== null)?.signing ?? null);
  for (const record of signingRecords ?? [])
    result.push({ qtype: record.type, qname: apex, content: record.content, ttl: zone.soa_minimum, domain_id: zone.domain_id });
  for (const row of rows) {
    if (row.owner === null) continue;
    if (signingRecords && row.owner === "@" && SIGNING_APEX_TYPES.has(row.type!)) continue;
    result.push({
      qtype: row.type!,
      qname: row.owner === "@" ? apex : `${row.owner}.${apex}`,
      content: powerDnsContent(row.type!, row.content!),
      ttl: row.ttl!,
      domain_id: zone.domain_id,
    });
  }
  return c.json({ result }, 200);
};
