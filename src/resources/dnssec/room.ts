// The room a signed zone keeps for the apex records its keys add to its export (docs/dnssec.md
// "In the zone's JSON and its export"): signing a zone, and a roll that makes keys, are
// refused when the zone's records leave too little of what an import takes
// (MAX_MASTER_FILE_RECORDS records, MAX_ZONE_RECORD_BYTES bytes of record lines) for them.
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { guard } from "../../db/guards";
import { signingRoom, signingRoomSql } from "../../db/zone-keys";
import type { KeyWithDnskey } from "../../dns/dnssec/parent-ds";
import { ApiError } from "../../http/problem";
import { MAX_MASTER_FILE_RECORDS, MAX_ZONE_RECORD_BYTES } from "../zones/master-file";

interface ZoneSize {
  name: string;
  recordCount: number;
  recordBytes: number;
  soaMinimum: number;
}

/** 422 `policy_violation` naming `zone` unless its records leave room for what `keys` add to its export (`what`: "signing", "this roll"). */
export function requireSigningRoom(zone: ZoneSize, keys: readonly Pick<KeyWithDnskey, "dnskey">[], what: string): void {
  const room = signingRoom(keys, zone.soaMinimum);
  const problems: string[] = [];
  if (zone.recordCount + room.records > MAX_MASTER_FILE_RECORDS) {
    problems.push(`it holds ${zone.recordCount} records, and beside its keys' ${room.records} a zone holds at most ${MAX_MASTER_FILE_RECORDS - room.records}`);
  }
  if (zone.recordBytes + room.bytes > MAX_ZONE_RECORD_BYTES) {
    problems.push(
      `its records take ${zone.recordBytes} bytes as its master file writes them, and beside its keys' ${room.bytes} at most ${MAX_ZONE_RECORD_BYTES - room.bytes} (limit zone_record_bytes)`,
    );
  }
  if (problems.length === 0) return;
  const message = `${zone.name} has no room for the DNSKEY, CDS and CDNSKEY ${what} adds to its export: ${problems.join("; ")}; delete records first`;
  throw new ApiError("policy_violation", `${message}.`, { errors: [{ field: "zone", message }] });
}

/** The same rule at commit, with the keys as the batch leaves them (a record written meanwhile: read again). */
export function signingRoomGuard(db: Database, zoneId: string) {
  const room = signingRoomSql(sql`z.id`, sql`z.soa_minimum`);
  return guard(
    db,
    "the zone has room for the apex records its keys add to its export",
    sql`(select z.record_count + ${room.records} <= ${MAX_MASTER_FILE_RECORDS} and z.record_bytes + ${room.bytes} <= ${MAX_ZONE_RECORD_BYTES} from zones z where z.id = ${zoneId})`,
  );
}
