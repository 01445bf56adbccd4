import type { ZoneWithLinks } from "../../db/zones";
import { toUnicodeName } from "../../dns/name";
import type { Zone } from "./schemas";

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
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
