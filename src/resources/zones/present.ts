import type { ZoneWithLinks } from "../../db/zones";
import { apexKeysOf } from "../../db/zone-keys";
import { apexSigningRecords } from "../../dns/dnssec/parent-ds";
import { toUnicodeName } from "../../dns/name";
import type { Zone, ZoneDnssec } from "./schemas";

/**
 * The apex records DNSSEC adds (docs/dnssec.md), as a record of the zone would read: the
 * published keys' DNSKEY, and the CDS and CDNSKEY of the DS set the parent must show (or
 * RFC 8078's delete while the zone leaves DNSSEC), as the tier serves them.
 */
export function signingRecords(row: Pick<ZoneWithLinks, "name" | "soaMinimum" | "dnssecKeys" | "dnssecRollover">) {
  const records = apexSigningRecords(row.name, apexKeysOf(row.dnssecKeys), row.dnssecRollover);
  // PowerDNS 4.7 serves DNSKEY, CDS and CDNSKEY with the SOA minimum as TTL (packethandler.cc, tcpreceiver.cc).
  return records.map((record) => ({ name: "@" as const, type: record.type, ttl: row.soaMinimum, content: record.content }));
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
