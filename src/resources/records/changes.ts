// POST /v1/zones/{zone}/changes: up to 1 000 changes to the zone's RRsets (add, replace,
// remove, delete), all or nothing. One read batch (the zone and its records), the rules
// every record write obeys checked on the zone as the changes leave it, then one write
// batch: the zone's serial steps once, every record created, changed or deleted is
// written with its event (a TTL an RRset's kept records take: one `rrset` event), a few
// statements whatever the number of changes (sets travel as JSON chunks,
// src/db/json-chunks.ts).
//
// Concurrency: the batch starts by moving the zone's version from the one read (the
// version trigger refuses any other), and every record write moves its zone's version in
// its own batch (touchZone). So a write committed between this request's read and its
// batch fails the batch, and the request reads again and decides again on the new state
// (src/http/writes.ts): two clients adding contents at one name at once both keep theirs.
import type { RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ChunkedEvent } from "../../db/events";
import { chunkedEventInserts } from "../../db/events";
import { failUnless } from "../../db/guards";
import { newId } from "../../db/ids";
import { jsonChunks } from "../../db/json-chunks";
import { findZone, touchZone, type ZoneWithLinks } from "../../db/zones";
import { absoluteOwnerName, resolveOwnerName } from "../../dns/name";
import { ownerOrder } from "../../dns/name-order";
import { canonicalRdata, type StoredType } from "../../dns/rdata";
import { checkRecord, recordType } from "../../dns/record";
import { applyRrsetChanges, groupBy, type RrsetChange, type RrsetOutcome, rrsetKey, rrsetOutcomeProblems, rrsetSizeProblems } from "../../dns/rrset-changes";
import { nextSerial } from "../../dns/serial";
import { newIntegrityProblems, type ZoneRecordRef } from "../../dns/zone-integrity";
import { recordWriteRefusal } from "../../access/token-rights";
import type { AppEnv } from "../../env";
import { checkIfMatch, entityTag } from "../../http/etag";
import { notFound, resourceRef } from "../../http/lookup";
import { commit, idempotentAnswer, type Statement, type WriteContext, writeContext } from "../../http/mutate";
import { ApiError, type FieldError, validationError } from "../../http/problem";
import { withVersionRetry } from "../../http/writes";
import { presentZone } from "../zones/present";
import { recordChunks, recordInserts } from "../zones/new-zone";
import { recordWriteProblem, requireRoomInZone, zoneHoldsRoom } from "./collection";
import { presentRecord } from "./present";
import { deleteRecordsListed, type RecordWithZone, setRecordTtls, zoneRecords } from "./queries";
import type * as routes from "./routes";
import type { Rrset, ZoneChanges, ZoneChangesResult } from "./schemas";

type ChangeInput = ZoneChanges["changes"][number];

/** The changes with owner names relative to the zone and contents canonical, or the 422 that lists every bad field. */
function checkedChanges(zone: string, input: readonly ChangeInput[]): RrsetChange[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  const problem = (field: string, message: string) => {
    const key = `${field}\n${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    errors.push({ field, message });
  };
  const changes = input.map((change, i): RrsetChange => {
    const at = `changes[${i}]`;
    const owner = resolveOwnerName(change.name, zone);
    if (!owner.ok) problem(`${at}.name`, `"${change.name}" ${owner.error}`);
    // The schema checked the type already; a record stores TYPE1 as A (RFC 3597 §5).
    const checkedType = recordType(change.type);
    const type = (checkedType.ok ? checkedType.type : change.type.toUpperCase()) as StoredType;
    const contents: string[] = [];
    for (const [j, content] of (change.contents ?? []).entries()) {
      if (change.action === "remove") {
        // What is taken out only has to be readable: it is compared with what is stored.
        const rdata = canonicalRdata(type, content, null);
        if (rdata.ok) contents.push(rdata.content);
        else problem(`${at}.contents[${j}]`, rdata.error);
        continue;
      }
      // What is put in is a record of the zone, checked as a created record is.
      const { record, errors: found } = checkRecord(zone, { name: change.name, type: change.type, content });
      for (const e of found) problem(e.field === "content" ? `${at}.contents[${j}]` : `${at}.${e.field}`, e.message);
      contents.push(record.content);
    }
    return { action: change.action, name: owner.ok ? owner.relative : "@", type, contents, ttl: change.ttl };
  });
  if (errors.length > 0) throw validationError(errors);
  return changes;
}

/** A token's `records` rules hold for every name and type a change touches (403 naming each change refused). */
function requireChangeRights(c: Context<AppEnv>, changes: readonly RrsetChange[]): void {
  const rights = c.get("principal").rights;
  if (!rights) return;
  const refused = changes.flatMap((change, i) => {
    const refusal = recordWriteRefusal(rights, change.name, change.type);
    return refusal ? [{ field: `changes[${i}]`, message: refusal }] : [];
  });
  if (refused.length === 0) return;
  const [first] = refused;
  const more = refused.length > 1 ? ` (${refused.length} changes are refused; errors lists them)` : "";
  throw new ApiError("forbidden", `${first!.field}: ${first!.message}${more}`, { errors: refused });
}

/** 409 rrset_conflict naming each change whose outcome breaks the rules at a name. */
function conflict(problems: readonly { field: string; message: string }[]): ApiError {
  const [first] = problems;
  const detail = problems.length === 1 ? `${first!.field}: ${first!.message}.` : `${problems.length} changes break DNS rules; errors lists them.`;
  return new ApiError("rrset_conflict", detail, { errors: [...problems] });
}

/** What the changes write: the records created, changed (a new TTL) and deleted. */
interface Plan {
  created: { row: RecordWithZone; change: number; content: number }[];
  changed: { before: RecordWithZone; after: RecordWithZone }[];
  deleted: RecordWithZone[];
  /** Every touched RRset's records afterwards, by rrsetKey. */
  after: Map<string, RecordWithZone[]>;
}

function plan(ctx: WriteContext, zone: ZoneWithLinks, current: readonly RecordWithZone[], outcomes: readonly RrsetOutcome[]): Plan {
  const result: Plan = { created: [], changed: [], deleted: [], after: new Map() };
  const rrsets = groupBy(current, (r) => rrsetKey(r.name, r.type));
  for (const outcome of outcomes) {
    const members = rrsets.get(rrsetKey(outcome.name, outcome.type)) ?? [];
    const records: RecordWithZone[] = [];
    const place = new Map(outcome.contents.map((content, i) => [content, i] as const));
    for (const row of members) {
      if (!place.has(row.content)) result.deleted.push(row);
      else if (row.ttl !== outcome.ttl) {
        const after = { ...row, ttl: outcome.ttl!, version: row.version + 1, updatedAt: ctx.at };
        result.changed.push({ before: row, after });
        records.push(after);
      } else records.push(row);
    }
    const kept = new Set(members.map((r) => r.content));
    for (const content of outcome.contents) {
      if (kept.has(content)) continue;
      const row: RecordWithZone = {
        id: newId("record", ctx.now),
        zoneId: zone.id,
        name: outcome.name,
        type: outcome.type,
        content,
        ttl: outcome.ttl!,
        comment: null,
        version: 1,
        ownerOrder: ownerOrder(outcome.name),
        createdAt: ctx.at,
        updatedAt: ctx.at,
        zoneName: zone.name,
      };
      const origin = outcome.addedBy.get(content)!;
      result.created.push({ row, change: origin.change, content: origin.content });
      records.push(row);
    }
    // Contents in the order the changes leave them (those kept first, then those added).
    records.sort((a, b) => place.get(a.content)! - place.get(b.content)!);
    result.after.set(rrsetKey(outcome.name, outcome.type), records);
  }
  return result;
}

/**
 * The zone as the changes leave it must load in BIND (src/dns/zone-integrity.ts), checked
 * on the whole zone: a record a change puts in that breaks is that change's 422; another
 * record that would break is a 409 naming it. Faults the zone already had are not these.
 */
function assertIntegrity(zone: ZoneWithLinks, current: readonly RecordWithZone[], planned: Plan): void {
  const ref = (r: RecordWithZone): ZoneRecordRef => ({ fqdn: absoluteOwnerName(r.name, zone.name), type: r.type, content: r.content });
  const deleted = new Set(planned.deleted.map((r) => r.id));
  const createdRefs = new Map(planned.created.map((created) => [ref(created.row), created] as const));
  const before = current.map(ref);
  const after = [...current.filter((r) => !deleted.has(r.id)).map(ref), ...createdRefs.keys()];
  const problems = newIntegrityProblems(zone.name, before, after);
  if (problems.length === 0) return;
  const errors: FieldError[] = problems.map(({ record, message }) => {
    const created = createdRefs.get(record);
    if (created) return { field: `changes[${created.change}].contents[${created.content}]`, message };
    return { field: "changes", message: `the ${record.type} record at ${record.fqdn} (${record.content}) would break: ${message}` };
  });
  if (problems.some(({ record }) => createdRefs.has(record))) throw validationError(errors);
  throw conflict(errors);
}

function answerBody(zone: ZoneWithLinks, serial: number, outcomes: readonly RrsetOutcome[], planned: Plan): ZoneChangesResult {
  const rrsets: Rrset[] = outcomes.map((o) => ({
    name: o.name,
    fqdn: absoluteOwnerName(o.name, zone.name),
    type: o.type,
    ttl: o.ttl,
    records: (planned.after.get(rrsetKey(o.name, o.type)) ?? []).map(presentRecord),
  }));
  return { serial, rrsets };
}

/**
 * The records an RRset keeps whose TTL the changes set (RFC 2181 §5.2) took one change:
 * one `rrset` event for each such RRset, as a record write that sets its RRset's TTL
 * records it (src/resources/records/rrset-events.ts): resource the zone, `before` and
 * `after` the RRset's name, type, TTL and how many of its records took the new TTL.
 */
function rrsetTtlEvents(ctx: WriteContext, zone: ZoneWithLinks, planned: Plan): ChunkedEvent[] {
  return [...groupBy(planned.changed, ({ after }) => rrsetKey(after.name, after.type)).values()].map((changed) => {
    const { before, after } = changed[0]!;
    const shown = (ttl: number) => ({
      zone: zone.id,
      name: after.name,
      fqdn: absoluteOwnerName(after.name, zone.name),
      type: after.type,
      ttl,
      records: changed.length,
    });
    return {
      at: ctx.at,
      actor: ctx.actor,
      account: zone.accountId,
      type: "rrset",
      id: zone.id,
      operation: "update",
      before: shown(before.ttl),
      after: shown(after.ttl),
    };
  });
}

/**
 * The write batch: the zone first (its version from the one read: the guard against any
 * write committed since; its serial one step), then the records — deletions before
 * insertions (a CNAME may replace what was at its name), the apex NS last of all (the
 * apex keeps one throughout, drizzle/0003_dns_rules.sql) — then their events.
 */
function statements(ctx: WriteContext, zone: ZoneWithLinks, planned: Plan): Statement[] {
  const { db, at } = ctx;
  const apexNs = (r: RecordWithZone) => r.name === "@" && r.type === "NS";
  const ids = (rows: RecordWithZone[]) => jsonChunks(rows, (r) => JSON.stringify(r.id));
  const event = (operation: ChunkedEvent["operation"], id: string, before: RecordWithZone | null, after: RecordWithZone | null): ChunkedEvent => ({
    at,
    actor: ctx.actor,
    account: zone.accountId,
    type: "record",
    id,
    operation,
    before: before && presentRecord(before),
    after: after && presentRecord(after),
  });
  const events = [
    ...planned.deleted.map((r) => event("delete", r.id, r, null)),
    ...rrsetTtlEvents(ctx, zone, planned),
    ...planned.created.map(({ row }) => event("create", row.id, null, row)),
  ];
  const growing = planned.created.length > planned.deleted.length;
  return [
    touchZone(db, zone.id, ctx.now, { expectedVersion: zone.version }),
    ...ids(planned.deleted.filter((r) => !apexNs(r))).map((chunk) => deleteRecordsListed(db, chunk)),
    ...jsonChunks(planned.changed, ({ after }) => JSON.stringify([after.id, after.ttl])).map((chunk) => setRecordTtls(db, chunk, at)),
    ...recordInserts(db, zone.id, recordChunks(planned.created.map(({ row }) => row)), ctx.now),
    ...ids(planned.deleted.filter(apexNs)).map((chunk) => deleteRecordsListed(db, chunk)),
    ...chunkedEventInserts(db, events),
    ...(growing ? [failUnless(db, { type: "zone", id: zone.id }, zoneHoldsRoom(zone.id))] : []),
  ];
}

export const applyZoneChanges: RouteHandler<typeof routes.applyZoneChanges, AppEnv> = async (c) => {
  const input = c.req.valid("json").changes;
  const segment = c.req.valid("param").zone;
  const ref = resourceRef(segment, "zone");
  const answer = await withVersionRetry(c, async () => {
    const ctx = writeContext(c);
    const { db } = ctx;
    const [zoneRows, rows] = await db.batch([findZone(db, ref), zoneRecords(db, ref)]);
    const zone = zoneRows[0];
    if (!zone) throw notFound("zone", segment);
    checkIfMatch(c, zone.version, presentZone(zone));
    const changes = checkedChanges(zone.name, input);
    requireChangeRights(c, changes);
    const current: RecordWithZone[] = rows.map((row) => ({ ...row, zoneName: zone.name }));
    const outcomes = applyRrsetChanges(current, changes, zone.defaultTtl);
    const problems = rrsetOutcomeProblems(current, outcomes);
    if (problems.length > 0) throw conflict(problems.map((p) => ({ field: `changes[${p.change}]`, message: p.message })));
    const tooLarge = rrsetSizeProblems(zone.name, outcomes);
    if (tooLarge.length > 0) {
      const errors = tooLarge.map((p) => ({ field: `changes[${p.change}].contents`, message: p.message }));
      throw new ApiError(
        "policy_violation",
        errors.length === 1 ? `${errors[0]!.field}: ${errors[0]!.message}.` : `${errors.length} RRsets would not fit one DNS message; errors lists them.`,
        { errors },
      );
    }
    const planned = plan(ctx, zone, current, outcomes);
    if (planned.created.length + planned.changed.length + planned.deleted.length === 0) {
      // Nothing to write: no serial step, no event, the ETag stays.
      return { body: answerBody(zone, zone.soaSerial, outcomes, planned), etag: entityTag(zone.version, presentZone(zone)) };
    }
    const added = planned.created.length - planned.deleted.length;
    requireRoomInZone(zone, added, "changes");
    assertIntegrity(zone, current, planned);
    // The zone as the batch leaves it (its version guards the batch, so this is exact).
    const serial = nextSerial(zone.soaSerial, ctx.now);
    const next: ZoneWithLinks = { ...zone, soaSerial: serial, recordCount: zone.recordCount + added, version: zone.version + 1, updatedAt: ctx.at };
    const result = { body: answerBody(zone, serial, outcomes, planned), etag: entityTag(next.version, presentZone(next)) };
    const recorded = idempotentAnswer(c, ctx, { status: 200, headers: { "Content-Type": "application/json", ETag: result.etag }, body: result.body });
    await commit(ctx, [...statements(ctx, zone, planned), ...recorded], zone, (kind) => recordWriteProblem(kind));
    return result;
  });
  c.header("ETag", answer.etag);
  return c.json(answer.body, 200);
};
