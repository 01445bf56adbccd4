import { absoluteOwnerName } from "../../dns/name";
import type { RecordWithZone } from "./queries";
import type { DnsRecord } from "./schemas";

/** A record's API representation: its owner relative to the zone and absolute. */
export function presentRecord(row: RecordWithZone): DnsRecord {
  return {
    id: row.id,
    zone: row.zoneId,
    name: row.name,
    fqdn: absoluteOwnerName(row.name, row.zoneName),
    type: row.type,
    content: row.content,
    ttl: row.ttl,
    comment: row.comment,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
