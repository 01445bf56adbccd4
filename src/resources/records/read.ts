// GET /v1/records, /v1/zones/{zone}/records and /v1/records/{record}.
import type { RouteHandler } from "@hono/zod-openapi";
import { findZone } from "../../db/zones";
import { normalizeName, resolveOwnerName } from "../../dns/name";
import { canonicalRdata, recordTypeOf, type StoredType } from "../../dns/rdata";
import type { AppEnv } from "../../env";
import { notFound, refParam, resourceRef } from "../../http/lookup";
import { findResource } from "../../http/mutate";
import { pageRequest, pageResponse } from "../../http/pagination";
import type { FieldError } from "../../http/problem";
import { queryError } from "../../http/query";
import { sendResource } from "../../http/respond";
import { recordCollection } from "./collection";
import { presentRecord } from "./present";
import { listRecords as recordsPage, type RecordFilters } from "./queries";
import type * as routes from "./routes";
import { readTogether } from "../../db/write";

/** List filters, normalised like bodies; `zoneName` resolves absolute owner names. */
function recordFilters(
  query: { name?: string | undefined; type?: string | undefined; content?: string | undefined; q?: string | undefined },
  zoneName: string | null,
): RecordFilters {
  const errors: FieldError[] = [];
  const filters: RecordFilters = { q: query.q };
  if (query.type !== undefined) {
    // As a record stores it: TYPE1 is A; a type known only by number stays TYPEnnn (RFC 3597).
    const type = recordTypeOf(query.type);
    if (type.ok) filters.type = type.type;
    else errors.push({ field: "type", message: `"${query.type}" is not a supported record type` });
  }
  if (query.name !== undefined) {
    if (zoneName !== null) {
      const owner = resolveOwnerName(query.name, zoneName);
      if (owner.ok) filters.name = owner.relative;
      else errors.push({ field: "name", message: `"${query.name}" ${owner.error}` });
    } else if (query.name === "@") {
      filters.name = "@";
    } else {
      const name = normalizeName(query.name, { underscore: true, wildcard: true });
      if (name.ok) filters.name = name.name;
      else errors.push({ field: "name", message: `"${query.name}" ${name.error}` });
    }
  }
  if (query.content !== undefined) {
    const canonical = filters.type ? canonicalRdata(filters.type as StoredType, query.content, null) : null;
    filters.content = canonical?.ok ? canonical.content : query.content;
  }
  if (errors.length > 0) throw queryError(errors);
  return filters;
}

export const listRecords: RouteHandler<typeof routes.listRecords, AppEnv> = async (c) => {
  const query = c.req.valid("query");
  const errors: FieldError[] = [];
  const zone = refParam(query.zone, "zone", "zone", errors);
  if (errors.length > 0) throw queryError(errors);
  const filters = { ...recordFilters(query, zone?.kind === "name" ? zone.name : null), zone };
  const page = await pageRequest(c, query);
  const rows = await recordsPage(c.get("db"), filters, page);
  return c.json(await pageResponse(c, page, rows, (r) => ({ key: null, id: r.id }), presentRecord), 200);
};

export const listZoneRecords: RouteHandler<typeof routes.listZoneRecords, AppEnv> = async (c) => {
  const segment = c.req.valid("param").zone;
  const query = c.req.valid("query");
  const db = c.get("db");
  const ref = resourceRef(segment, "zone");
  const page = await pageRequest(c, query);
  let rows: Awaited<ReturnType<typeof recordsPage>>;
  if (ref.kind === "name" || query.name === undefined) {
    // One round trip (issue 18): the zone (its 404) and the page in one batch; the page
    // finds its zone by the same reference. Only a `name` filter on a zone given by id
    // needs the zone's name first, to resolve the owner name.
    const filters = { ...recordFilters(query, ref.kind === "name" ? ref.name : null), zone: ref };
    const [zoneRows, pageRows] = await readTogether(db, [findZone(db, ref), recordsPage(db, filters, page)]);
    if (!zoneRows[0]) throw notFound("zone", segment);
    rows = pageRows;
  } else {
    const zone = await findZone(db, ref).get();
    if (!zone) throw notFound("zone", segment);
    rows = await recordsPage(db, { ...recordFilters(query, zone.name), zone: { kind: "id" as const, id: zone.id } }, page);
  }
  return c.json(await pageResponse(c, page, rows, (r) => ({ key: null, id: r.id }), presentRecord), 200);
};

export const getRecord: RouteHandler<typeof routes.getRecord, AppEnv> = async (c) => {
  const row = await findResource(c, recordCollection, c.req.valid("param").record);
  return sendResource(c, presentRecord(row), row.version);
};
