// The zone's master-file face (RFC 1035 §5, media type text/dns per RFC 4027): content
// negotiation, and turning stored rows into what src/dns renders and back.

export const MASTER_FILE_MEDIA_TYPE = "text/dns";
export const MAX_MASTER_FILE_BYTES = 10 * 1024 * 1024;

function qualityOf(accept: string, mediaType: string): number {
  let best = -1;
  for (const part of accept.split(",")) {
    const [type, ...params] = part.trim().toLowerCase().split(";");
    const matches = type === mediaType || type === `${mediaType.split("/")[0]}/*` || type === "*/*";
    if (!matches) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const quality = q ? Number(q.slice(2)) : 1;
    // An exact type outranks a wildcard of the same quality.
    const rank = (Number.isFinite(quality) ? quality : 0) + (type === mediaType ? 0.0001 : 0);
    best = Math.max(best, rank);
  }
  return best;
}

/** True when the client asks for the master file rather than JSON (RFC 9110 §12.5.1). */
export function wantsMasterFile(accept: string | undefined): boolean {
  if (!accept) return false;
  const dns = qualityOf(accept, MASTER_FILE_MEDIA_TYPE);
  return dns > 0.0001 && dns > qualityOf(accept, "application/json");
}
