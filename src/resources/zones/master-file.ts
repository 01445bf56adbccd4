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

/** True when the client asks for the master file rather than JSON (RFC 9110 §12.5.1). */
export function wantsMasterFile(accept: string | undefined): boolean {
  if (!accept) return false;
  const dns = qualityOf(accept, MASTER_FILE_MEDIA_TYPE);
  return dns > 0.0001 && dns > qualityOf(accept, "application/json");
}
