// GET /v1/zones and /v1/zones/{zone}: JSON, or the master file (Accept: text/dns), each
// representation with its own ETag (RFC 9110 §8.8.3).
import type { RouteHandler } from "@hono/zod-openapi";
import { normalizeName } from "../../dns/name";
import type { AppEnv } from "../../env";
import { entityTag, noneMatchHits } from "../../http/etag";
import { refParam } from "../../http/lookup";
import { findResource } from "../../http/mutate";
import { pageRequest, pageResponse } from "../../http/pagination";
import type { FieldError } from "../../http/problem";
import { queryError } from "../../http/query";
import { zoneCollection } from "./collection";
import { cachedMasterFile } from "./export-cache";
import { MASTER_FILE_MEDIA_TYPE, wantsMasterFile } from "./master-file";
import { masterFileStream, zoneMasterFilePieces } from "./master-file-export";
import { presentZone } from "./present";
import { type ZoneFilters, listZones as zonesPage } from "./queries";
import type * as routes from "./routes";

function zoneFilters(query: { account?: string | undefined; name?: string | undefined; q?: string | undefined; domain?: string | undefined }): ZoneFilters {
  const errors: FieldError[] = [];
  let name: string | undefined;
  if (query.name !== undefined) {
    // Zone names follow DNS rules, not host-name rules: `_tcp` labels and reverse zones are fine.
    const normalized = normalizeName(query.name, { underscore: true });
    if (normalized.ok) name = normalized.name;
    else errors.push({ field: "name", message: `"${query.name}" ${normalized.error}` });
  }
  const domain = refParam(query.domain, "domain", "domain", errors);
  if (errors.length > 0) throw queryError(errors);
  return { account: query.account, name, q: query.q, domain };
}

export const listZones: RouteHandler<typeof routes.listZones, AppEnv> = async (c) => {
  const query = c.req.valid("query");
  const filters = zoneFilters(query);
  const page = await pageRequest(c, query);
  const rows = await zonesPage(c.get("db"), filters, page);
  return c.json(await pageResponse(c, page, rows, (r) => ({ key: null, id: r.id }), presentZone), 200);
};

export const getZone: RouteHandler<typeof routes.getZone, AppEnv> = async (c) => {
  const zone = await findResource(c, zoneCollection, c.req.valid("param").zone);
  const body = presentZone(zone);
  const masterFile = wantsMasterFile(c.req.header("accept"));
  // The master file changes only with the zone's version (every record write bumps it),
  // so its tag needs no rendering.
  const etag = masterFile ? `"${zone.version}-dns-${zone.soaSerial}"` : entityTag(zone.version, body);
  c.header("ETag", etag);
  c.header("Vary", "Accept");
  if (noneMatchHits(c.req.header("if-none-match"), etag)) return c.body(null, 304) as never;
  if (masterFile) {
    // The zone's row was read above (its visibility, its version); the body may come from the cache.
    const body = await cachedMasterFile(c, zone, async () => masterFileStream(await zoneMasterFilePieces(c.get("db"), zone, { signing: true })));
    return c.body(body, 200, { "Content-Type": `${MASTER_FILE_MEDIA_TYPE}; charset=utf-8` });
  }
  return c.json(body, 200);
};
