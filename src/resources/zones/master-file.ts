// The zone's master-file face (RFC 1035 §5, media type text/dns per RFC 4027): its media
// type, the limits of an import, and content negotiation of the export. Parsing and
// rendering are src/dns/master-file's.

import { qualityOf } from "../../http/accept";

export const MASTER_FILE_MEDIA_TYPE = "text/dns";
// An import is one D1 batch (all or nothing), so the whole file passes through one
// isolate, which may use 128 MB. What an import holds grows with its bytes (the body, its
// text, the records' content) and with its records (one parsed record, then its share of
// the JSON sent to D1), so both are bounded; `npm run bench` measures the cost per record
// (bench/memory.mjs) and the README states the figures these limits rest on.
export const MAX_MASTER_FILE_BYTES = 2 * 1024 * 1024;
export const MAX_MASTER_FILE_RECORDS = 25_000;
/**
 * The most a zone's records may take as its export writes them (their lines, in bytes:
 * zones.record_bytes, kept and enforced by drizzle/0028). With the $ORIGIN, $TTL and SOA
 * lines (under 600 bytes) and a signed zone's DNSKEY, CDS and CDNSKEY (the room its keys
 * keep: signingRoom, src/db/zone-keys.ts), the export stays within MAX_MASTER_FILE_BYTES, so every zone the API accepts
 * exports and imports back, however long its names. An import is checked against it too:
 * a file can be shorter than its export (owners left blank, TTLs and classes left out).
 */
export const MAX_ZONE_RECORD_BYTES = 2_000_000;

/** What a write that would take a zone past MAX_ZONE_RECORD_BYTES is told (422 policy_violation). */
export function zoneTooLargeMessage(bytes?: number): string {
  const would = bytes === undefined ? "this write would take the zone past it" : `this one would take ${bytes}`;
  return `a zone's records may take at most ${MAX_ZONE_RECORD_BYTES} bytes as its master file writes them, a signed zone's that less the lines of the DNSKEY, CDS and CDNSKEY its keys add (limit zone_record_bytes, so that every zone exports within the ${MAX_MASTER_FILE_BYTES / 1024 / 1024} MiB an import takes); ${would}: delete records, or split the zone`;
}

/** True when the client asks for the master file rather than JSON (RFC 9110 §12.5.1). */
export function wantsMasterFile(accept: string | undefined): boolean {
  if (!accept) return false;
  const dns = qualityOf(accept, MASTER_FILE_MEDIA_TYPE);
  return dns > 0.0001 && dns > qualityOf(accept, "application/json");
}
