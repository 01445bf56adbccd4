import type { ZoneWithLinks } from "../../db/zones";
import { combinedSigningKey, signingApexRecords } from "../../dns/dnssec/keys";
import { toUnicodeName } from "../../dns/name";
import { base64Octets } from "../../crypto/base64";
import type { Zone, ZoneDnssec } from "./schemas";

/** The apex records DNSSEC adds (docs/dnssec.md), as a record of the zone would read. */
export function signingRecords(row: Pick<ZoneWithLinks, "name" | "soaMinimum" | "dnssecKeys">) {
  const keys = (JSON.parse(row.dnssecKeys) as [number, number, string][]).map(([flags, algorithm, publicKey]) => ({
    ...combinedSigningKey(base64Octets(publicKey)),
    flags,
    algorithm,
  }));
  // PowerDNS 4.7 serves DNSKEY, CDS and CDNSKEY with the SOA minimum as TTL (packethandler.cc).
  return signingApexRecords(row.name, keys).map((record) => ({ name: "@" as const, type: record.type, ttl: row.soaMinimum, content: record.content }));
}

/** A zone's DNSSEC as its JSON shows it: whether it is signed, and the read-only apex records that adds. */
export function presentZoneDnssec(row: ZoneWithLinks): ZoneDnssec {
  const records = signingRecords(row);
  return { enabled: records.length > 0, records };
}

/** A zone's API representation: its SOA as one object, its record count and its domain link. */
export function presentZone(row: ZoneWithLinks): Zone {
  return {
    id: row.id,
    account: row.accountId,
    name: row.name,
    unicode_name: toUnicodeName(row.name),
    domain: row.domainId,
    default_ttl: row.defaultTtl,
    soa: {
      mname: row.soaMname,
      rname: row.soaRname,
      serial: row.soaSerial,
      refresh: row.soaRefresh,
      retry: row.soaRetry,
      expire: row.soaExpire,
      minimum: row.soaMinimum,
    },
    record_count: row.recordCount,
    dnssec: presentZoneDnssec(row),
    secondaries: row.secondaries,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
