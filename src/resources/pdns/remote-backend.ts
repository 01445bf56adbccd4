// What every method of the DNS backend (PowerDNS's remote backend, HTTP connector) shares:
// its arguments as PowerDNS sends them, a record as it reads one, and its answer "not
// applicable" (`{"result": false}`).
import type { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { certWithNumbers } from "../../dns/rdata/cert";
import type { AppEnv } from "../../env";
import { ApiError } from "../../http/problem";
import { absolute, parseQueryName } from "../../serving/names";
import type { ZoneSoaRow } from "../../serving/queries";
import type { DnsRecordSchema } from "./schemas";

export type DnsRecord = z.output<typeof DnsRecordSchema>;

/** The SOA as PowerDNS reads it (RFC 1035 §3.3.13 order); its TTL is the zone's default TTL, as the export writes it. */
export function soaRecord(zone: ZoneSoaRow, qname: string): DnsRecord {
  return {
    qtype: "SOA",
    qname,
    content: `${absolute(zone.soa_mname)} ${absolute(zone.soa_rname)} ${zone.soa_serial} ${zone.soa_refresh} ${zone.soa_retry} ${zone.soa_expire} ${zone.soa_minimum}`,
    ttl: zone.default_ttl,
    domain_id: zone.domain_id,
  };
}

/** A stored content as PowerDNS 4.7 parses it: the canonical form, but CERT with numbers (its parser knows no mnemonics there). */
export function powerDnsContent(type: string, content: string): string {
  return type === "CERT" ? certWithNumbers(content) : content;
}

export function badName(field: string, value: string): ApiError {
  return new ApiError("validation_failed", `${field} is not a domain name in presentation form.`, {
    errors: [{ field, message: `"${value.slice(0, 80)}" is not a domain name (labels of 1-63 octets, at most 255 octets)` }],
  });
}

/** A zone name as PowerDNS sends it, as stored names are written. */
export function zoneKey(field: string, value: string): string {
  const name = parseQueryName(value);
  if (!name) throw badName(field, value);
  return name.key;
}

export const NOTHING = { result: false } as const;

/**
 * What PowerDNS reads as "not applicable": a method this backend does not implement, or
 * arguments it cannot take. OPTIONS answers as on every path (docs/conventions.md): the connector
 * is read with GET.
 */
export function notApplicable(c: Context<AppEnv>) {
  if (c.req.method === "OPTIONS") return c.body(null, 204, { Allow: "GET, HEAD, OPTIONS" });
  return c.json(NOTHING, 200);
}
