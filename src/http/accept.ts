// Content negotiation on Accept (RFC 9110 §12.5.1), for the operations that have more
// than one representation (a zone's master file, the RDAP views).

/**
 * The quality `accept` gives `mediaType`, or -1 when nothing in it matches. An exact type
 * outranks a wildcard of the same quality by a hair (0.0001).
 */
export function qualityOf(accept: string, mediaType: string, options: { exactOnly?: boolean } = {}): number {
  let best = -1;
  for (const part of accept.split(",")) {
    const [type, ...params] = part
      .trim()
      .toLowerCase()
      .split(";")
      .map((p) => p.trim());
    const wildcard = type === `${mediaType.split("/")[0]}/*` || type === "*/*";
    const matches = type === mediaType || (wildcard && !options.exactOnly);
    if (!matches) continue;
    const q = params.find((p) => p.startsWith("q="));
    const quality = q ? Number(q.slice(2)) : 1;
    const rank = (Number.isFinite(quality) ? quality : 0) + (type === mediaType ? 0.0001 : 0);
    best = Math.max(best, rank);
  }
  return best;
}

/**
 * True when `accept` asks for `mediaType` by name (not through a wildcard), with a quality
 * above zero, and ranks it at least as high as plain JSON: JSON stays the default for
 * `*\/*` and for clients that say nothing.
 */
export function prefersOverJson(accept: string | undefined, mediaType: string): boolean {
  if (!accept) return false;
  const wanted = qualityOf(accept, mediaType);
  return wanted > 0.0001 && qualityOf(accept, mediaType, { exactOnly: true }) === wanted && wanted >= qualityOf(accept, "application/json");
}
