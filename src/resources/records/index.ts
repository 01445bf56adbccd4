import { and, eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../../db/client";
import { writeFailure } from "../../db/errors";
import { eventInsert, previousStatementChanged, rowExists } from "../../db/events";
import { newId } from "../../db/ids";
import { records } from "../../db/schema";
import { findZone, touchZone, type ZoneWithLinks } from "../../db/zones";
import { absoluteOwnerName, normalizeName, resolveOwnerName } from "../../dns/name";
import { canonicalRdata, isRecordType, RECORD_TYPES, type RecordType } from "../../dns/rdata";
import { apexProblem, coexistenceProblem, ownerNameProblem } from "../../dns/rrset-rules";
import { actorOf } from "../../http/actor";
import { checkIfMatch } from "../../http/etag";
import { newFindings, throwFindings, type Findings } from "../../http/findings";
import { notFound, refParam, resourceRef, type ResourceRef } from "../../http/lookup";
import { pageRequest, pageResponse } from "../../http/pagination";
import { queryError } from "../../http/query";
import { ApiError, type FieldError } from "../../http/problem";
import { sendResource, sendWritten } from "../../http/respond";
import { createRouter } from "../../http/router";
import { VersionConflict, withVersionRetry } from "../../http/writes";
import { alignRrsetTtl, apexNsCount, findRecord, listRecords, recordsAtName, type RecordFilters, type RecordWithZone } from "./queries";
import * as routes from "./routes";
import type { DnsRecord } from "./schemas";

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

interface ValidRecord {
  /** Owner relative to the zone, `@` for the apex. */
  name: string;
  type: RecordType;
  content: string;
}

function checkType(input: string, findings: Findings): RecordType | null {
  const type = input.toUpperCase();
  if (type === "SOA") {
    findings.invalid.push({ field: "type", message: "SOA records cannot be created: the zone owns its SOA (PATCH /v1/zones/{zone} to change it)" });
    return null;
  }
  if (!isRecordType(type)) {
    findings.invalid.push({ field: "type", message: `"${input}" is not a supported record type; supported: ${RECORD_TYPES.join(", ")}` });
    return null;
  }
  return type;
}

/** Owner, type and RDATA checked and made canonical, as a new record of `zone` (contract §8). */
function validateRecord(zone: string, draft: { name?: string | undefined; type: string; content: string }): ValidRecord {
  const findings = newFindings();
  const owner = resolveOwnerName(draft.name, zone);
  if (!owner.ok) findings.invalid.push({ field: "name", message: `"${draft.name}" ${owner.error}` });
  const type = checkType(draft.type, findings);
  let content = draft.content;
  if (type) {
    // In JSON, names inside the RDATA are absolute with or without the trailing dot.
    const rdata = canonicalRdata(type, draft.content, null);
    if (rdata.ok) content = rdata.content;
    else findings.invalid.push({ field: "content", message: rdata.error });
    if (owner.ok && owner.relative === "@") {
      const apex = apexProblem(type);
      if (apex) findings.invalid.push({ field: "type", message: apex });
    }
    const ownerProblem = owner.ok ? ownerNameProblem(type, owner.fqdn) : null;
    if (ownerProblem) findings.invalid.push({ field: "name", message: ownerProblem });
  }
  throwFindings(findings);
  return { name: owner.ok ? owner.relative : "@", type: type!, content };
}

type AtName = RecordWithZone[];

/**
 * RFC 2181 §5.2: writing a record's TTL sets it on the rest of its RRset. Those records
 * change too, so each gets an `update` event, written only if the batch changed it.
 */
function rrsetTtlEvents(db: Database, rrset: AtName, ttl: number, at: string, actor: string): BatchItem<"sqlite">[] {
  return rrset
    .filter((other) => other.ttl !== ttl)
    .map((other) => {
      const next = { ...other, ttl, version: other.version + 1, updatedAt: at };
      return eventInsert(
        db,
        { at, actor, type: "record", id: other.id, operation: "update", before: presentRecord(other), after: presentRecord(next) },
        { onlyIf: rowExists(records, and(eq(records.id, other.id), eq(records.ttl, ttl), eq(records.updatedAt, at))!) },
      );
    });
}

/** The rules between a record and the others at its name (RFC 2181 §5, RFC 1034 §3.6.2). */
function checkNeighbours(record: ValidRecord, others: AtName): void {
  if (others.some((o) => o.type === record.type && o.content === record.content)) {
    throw new ApiError("already_exists", `An identical ${record.type} record (${record.name} ${record.content}) already exists.`);
  }
  const problem = coexistenceProblem(
    record.type,
    others.map((o) => o.type),
  );
  if (problem) throw new ApiError("rrset_conflict", `${record.name}: ${problem}.`);
}

function recordWriteFailure(error: unknown): never {
  switch (writeFailure(error)) {
    case "unique":
      throw new ApiError("already_exists", "An identical record (name, type, content) already exists.");
    case "rrset_conflict":
      throw new ApiError("rrset_conflict", "A CNAME must be alone at its name (RFC 1034 §3.6.2), and a record written at the same time conflicts.");
    case "apex_ns_required":
      throw new ApiError("rrset_conflict", "The zone apex must keep at least one NS record (RFC 1034 §4.2.1).");
    default:
      throw error;
  }
}

async function zoneOfReference(db: Database, reference: string): Promise<ZoneWithLinks> {
  let ref: ResourceRef;
  try {
    ref = resourceRef(reference, "zone");
  } catch {
    throw new ApiError("validation_failed", `zone: "${reference}" is neither a zone id nor a valid zone name.`, {
      errors: [{ field: "zone", message: `"${reference}" is neither a zone id nor a valid zone name` }],
    });
  }
  const zone = await findZone(db, ref).get();
  if (!zone) {
    throw new ApiError("validation_failed", `zone: no zone ${reference} exists.`, { errors: [{ field: "zone", message: `zone ${reference} does not exist` }] });
  }
  return zone;
}

/** List filters, normalised like bodies; `zoneName` resolves absolute owner names. */
function recordFilters(
  query: { name?: string | undefined; type?: string | undefined; content?: string | undefined; q?: string | undefined },
  zoneName: string | null,
): RecordFilters {
  const errors: FieldError[] = [];
  const filters: RecordFilters = { q: query.q };
  if (query.type !== undefined) {
    const type = query.type.toUpperCase();
    if (isRecordType(type)) filters.type = type;
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
    const canonical = filters.type ? canonicalRdata(filters.type as RecordType, query.content, null) : null;
    filters.content = canonical?.ok ? canonical.content : query.content;
  }
  if (errors.length > 0) throw queryError(errors);
  return filters;
}

export const recordsRouter = createRouter()
  .openapi(routes.listRecords, async (c) => {
    const query = c.req.valid("query");
    const errors: FieldError[] = [];
    const zone = refParam(query.zone, "zone", "zone", errors);
    if (errors.length > 0) throw queryError(errors);
    const filters = { ...recordFilters(query, zone?.kind === "name" ? zone.name : null), zone };
    const page = await pageRequest(c, query);
    const rows = await listRecords(c.get("db"), filters, page);
    return c.json(await pageResponse(c, page, rows, (r) => ({ key: null, id: r.id }), presentRecord), 200);
  })
  .openapi(routes.listZoneRecords, async (c) => {
    const segment = c.req.valid("param").zone;
    const query = c.req.valid("query");
    const db = c.get("db");
    const zone = await findZone(db, resourceRef(segment, "zone")).get();
    if (!zone) throw notFound("zone", segment);
    const filters = { ...recordFilters(query, zone.name), zone: { kind: "id" as const, id: zone.id } };
    const page = await pageRequest(c, query);
    const rows = await listRecords(db, filters, page);
    return c.json(await pageResponse(c, page, rows, (r) => ({ key: null, id: r.id }), presentRecord), 200);
  })
  .openapi(routes.getRecord, async (c) => {
    const { record: id } = c.req.valid("param");
    const row = await findRecord(c.get("db"), id).get();
    if (!row) throw notFound("record", id);
    return sendResource(c, presentRecord(row), row.version);
  })
  .openapi(routes.createRecord, async (c) => {
    const input = c.req.valid("json");
    const db = c.get("db");
    const zone = await zoneOfReference(db, input.zone);
    const record = validateRecord(zone.name, input);
    const others = await recordsAtName(db, zone.id, record.name);
    checkNeighbours(record, others);
    const rrset = others.filter((o) => o.type === record.type);
    const ttl = input.ttl ?? rrset[0]?.ttl ?? zone.defaultTtl;
    const now = new Date();
    const at = now.toISOString();
    const row: RecordWithZone = {
      id: newId("record", now),
      zoneId: zone.id,
      ...record,
      ttl,
      comment: input.comment ?? null,
      version: 1,
      createdAt: at,
      updatedAt: at,
      zoneName: zone.name,
    };
    const { zoneName: _zoneName, ...recordRow } = row;
    const actor = actorOf(c);
    // RFC 2181 §5.2: the RRset keeps one TTL. The batch always imposes this record's TTL on
    // its siblings (a no-op when they agree), so a TTL change committed by another request
    // since our read cannot leave the RRset with two TTLs: the later write wins whole.
    const alignsTtl = rrset.length > 0;
    try {
      await db.batch([
        db.insert(records).values(recordRow),
        eventInsert(db, { at, actor, type: "record", id: row.id, operation: "create", before: null, after: presentRecord(row) }),
        ...(alignsTtl ? [alignRrsetTtl(db, zone.id, record.name, record.type, ttl, at, row.id), ...rrsetTtlEvents(db, rrset, ttl, at, actor)] : []),
        // The zone's serial rises with every record write; the record's event implies it.
        touchZone(db, zone.id, now),
      ] as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    } catch (error) {
      recordWriteFailure(error);
    }
    return sendWritten(c, presentRecord(row), row.version, 201, `/v1/records/${row.id}`);
  })
  .openapi(routes.updateRecord, async (c) => {
    const { record: id } = c.req.valid("param");
    const patch = c.req.valid("json");
    const db = c.get("db");
    const updated = await withVersionRetry(c, async () => {
      const current = await findRecord(db, id).get();
      if (!current) throw notFound("record", id);
      checkIfMatch(c, current.version, presentRecord(current));
      const typeChanged = patch.type !== undefined && patch.type.toUpperCase() !== current.type;
      const record = validateRecord(current.zoneName, {
        name: patch.name ?? current.name,
        type: patch.type ?? current.type,
        // A new type reads the old content afresh, so it must make sense for that type.
        content: patch.content ?? current.content,
      });
      const comment = patch.comment === undefined ? current.comment : patch.comment;
      const movedRrset = record.name !== current.name || record.type !== current.type;
      const others = (await recordsAtName(db, current.zoneId, record.name)).filter((o) => o.id !== current.id);
      const rrset = others.filter((o) => o.type === record.type);
      const ttl = patch.ttl ?? (movedRrset ? (rrset[0]?.ttl ?? current.ttl) : current.ttl);
      if (!typeChanged && record.name === current.name && record.content === current.content && ttl === current.ttl && comment === current.comment) {
        return current;
      }
      checkNeighbours(record, others);
      if (current.name === "@" && current.type === "NS" && movedRrset) {
        const [{ count } = { count: 0 }] = await apexNsCount(db, current.zoneId);
        if (count <= 1) throw new ApiError("rrset_conflict", "This is the zone's last NS record at the apex, which must keep at least one (RFC 1034 §4.2.1).");
      }
      const now = new Date();
      const at = now.toISOString();
      const next = { ...current, ...record, ttl, comment, version: current.version + 1, updatedAt: at };
      const actor = actorOf(c);
      const alignsTtl = rrset.length > 0;
      let results: unknown[] = [];
      try {
        results = await db.batch([
          db
            .update(records)
            .set({ ...record, ttl, comment, version: current.version + 1, updatedAt: at })
            .where(eq(records.id, current.id)),
          eventInsert(
            db,
            { at, actor, type: "record", id: current.id, operation: "update", before: presentRecord(current), after: presentRecord(next) },
            { onlyIf: previousStatementChanged },
          ),
          // Only when the record was written (its event row is the previous statement's change).
          touchZone(db, current.zoneId, now, { ifPreviousChanged: true }),
          ...(alignsTtl
            ? [alignRrsetTtl(db, current.zoneId, record.name, record.type, ttl, at, current.id), ...rrsetTtlEvents(db, rrset, ttl, at, actor)]
            : []),
        ] as unknown as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
      } catch (error) {
        recordWriteFailure(error);
      }
      const write = results[0] as D1Result;
      if (write.meta.changes === 0) throw new VersionConflict();
      return next;
    });
    return sendWritten(c, presentRecord(updated), updated.version, 200);
  })
  .openapi(routes.deleteRecord, async (c) => {
    const { record: id } = c.req.valid("param");
    const db = c.get("db");
    await withVersionRetry(c, async () => {
      const current = await findRecord(db, id).get();
      if (!current) throw notFound("record", id);
      checkIfMatch(c, current.version, presentRecord(current));
      if (current.name === "@" && current.type === "NS") {
        const [{ count } = { count: 0 }] = await apexNsCount(db, current.zoneId);
        if (count <= 1) throw new ApiError("rrset_conflict", "This is the zone's last NS record at the apex, which must keep at least one (RFC 1034 §4.2.1).");
      }
      let results: unknown[] = [];
      try {
        const now = new Date();
        results = await db.batch([
          db.delete(records).where(and(eq(records.id, current.id), eq(records.version, current.version))),
          eventInsert(
            db,
            { at: now.toISOString(), actor: actorOf(c), type: "record", id: current.id, operation: "delete", before: presentRecord(current), after: null },
            { onlyIf: previousStatementChanged },
          ),
          // Only when the record was deleted (its event row is the previous statement's change).
          touchZone(db, current.zoneId, now, { ifPreviousChanged: true }),
        ] as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
      } catch (error) {
        recordWriteFailure(error);
      }
      if ((results[0] as D1Result).meta.changes === 0) throw new VersionConflict();
    });
    return c.body(null, 204);
  });
