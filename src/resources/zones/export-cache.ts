// An unchanged zone's master file comes from the Workers Cache API (caches.default), not
// from D1 and the renderer (issue 18). The key is everything the export depends on, as
// the request's own D1 read found it: the zone's id and version — every write that
// changes what the export holds (a record, the zone's SOA or TTL, DNSSEC turned on or off:
// src/db/zones.ts touchZone) raises the version — and a digest of its active DNSSEC keys
// (the apex DNSKEY, CDS and CDNSKEY the export adds), so even a key change that did not
// raise the version could not serve a stale key. An older entry is never asked for again
// and expires on its own.
// The read that finds the zone is the one that decides visibility (a zone another account
// holds is a 404 before the cache is asked), and a zone id belongs to one zone only, so an
// entry can only ever be served to whoever may read that zone.
import type { Context } from "hono";
import type { ZoneWithLinks } from "../../db/zones";
import type { AppEnv } from "../../env";

/** Raise when the rendering of a master file changes, so a deploy never serves the old form. */
const EXPORT_FORMAT = 2;
/** How long an entry may stay: any later version has a key of its own, so this only frees space. */
const MAX_AGE_SECONDS = 7 * 24 * 3600;

type ExportedZone = Pick<ZoneWithLinks, "id" | "version" | "dnssecKeys">;

async function cacheKey(zone: ExportedZone): Promise<Request> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(zone.dnssecKeys)));
  const keys = [...digest.subarray(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
  // The Cache API keys on a URL; this host is never fetched (RFC 6761 reserves .invalid).
  return new Request(`https://zone-export.invalid/${zone.id}/v${zone.version}/k${keys}/f${EXPORT_FORMAT}`);
}

function exportCache(): Cache | null {
  // Absent outside the Workers runtime; on Cloudflare it is a no-op on *.workers.dev.
  return typeof caches === "undefined" ? null : ((caches as unknown as { default?: Cache }).default ?? null);
}

/**
 * The isolate's own copy of the exports it served last (least recently used first out,
 * 16 MB at most, well inside the isolate's 128 MB): a zone asked again in the same isolate
 * costs no trip to the Cache API. Keyed as the Cache API is, so it is never stale either.
 */
const MEMORY_BYTES = 16 * 1024 * 1024;
const memory = new Map<string, Uint8Array<ArrayBuffer>>();
let memoryBytes = 0;

function recall(key: string): Uint8Array<ArrayBuffer> | undefined {
  const body = memory.get(key);
  if (body) {
    memory.delete(key);
    memory.set(key, body);
  }
  return body;
}

function remember(key: string, body: Uint8Array<ArrayBuffer>): void {
  if (body.byteLength > MEMORY_BYTES / 4 || memory.has(key)) return;
  for (const [oldest, old] of memory) {
    if (memoryBytes + body.byteLength <= MEMORY_BYTES) break;
    memory.delete(oldest);
    memoryBytes -= old.byteLength;
  }
  memory.set(key, body);
  memoryBytes += body.byteLength;
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * The zone's master file: from the isolate's memory or the cache when this version was
 * exported before, else rendered by `render`, streamed to the client, and stored (after
 * the answer, through waitUntil).
 */
export async function cachedMasterFile(
  c: Context<AppEnv>,
  zone: ExportedZone,
  render: () => Promise<ReadableStream<Uint8Array>>,
): Promise<ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer>> {
  const cache = exportCache();
  if (!cache) return render();
  const key = await cacheKey(zone);
  const remembered = recall(key.url);
  if (remembered) return remembered;
  const hit = await cache.match(key).catch(() => undefined);
  if (hit?.body) {
    const body = await collect(hit.body);
    remember(key.url, body);
    return body;
  }
  const [answer, stored] = (await render()).tee();
  const put = collect(stored)
    .then((body) => {
      remember(key.url, body);
      return cache.put(key, new Response(body, { headers: { "Cache-Control": `max-age=${MAX_AGE_SECONDS}`, "Content-Type": "text/dns" } }));
    })
    .catch(() => undefined);
  try {
    c.executionCtx.waitUntil(put);
  } catch {
    // No execution context (a direct call in a test): the put runs on its own.
  }
  return answer;
}
