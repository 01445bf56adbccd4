import type { ChunkedEvent } from "../../db/events";
import { chunkedEventInserts } from "../../db/events";
import { guard } from "../../db/guards";
import { newId } from "../../db/ids";
import { jsonChunks } from "../../db/json-chunks";
import { touchZone, type ZoneWithLinks } from "../../db/zones";
import { absoluteOwnerName } from "../../dns/name";
import { ownerOrder } from "../../dns/name-order";
import { groupBy, type RrsetOutcome, rrsetKey } from "../../dns/rrset-changes";
import type { WriteContext } from "../../db/write";
import type { Write } from "../../db/write";
import { recordChunks, recordInserts } from "../zones/new-zone";
import { zoneHoldsRoom } from "./collection";
import { presentRecord } from "./present";
import { deleteRecordsListed, type RecordWithZone, setRecordTtls } from "./queries";
import type { Rrset, ZoneChangesResult } from "./schemas";

/** What the changes write: the records created, changed (a new TTL) and deleted. */
export interface Plan {
  created: { row: RecordWithZone; change: number; content: number }[];
  changed: { before: RecordWithZone; after: RecordWithZone }[];
  deleted: RecordWithZone[];
  /** Every touched RRset's records afterwards, by rrsetKey. */
  after: Map<string, RecordWithZone[]>;
}

export function plan(ctx: WriteContext, zone: ZoneWithLinks, current: readonly RecordWithZone[], outcomes: readonly RrsetOutcome[]): Plan {
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

export function answerBody(zone: ZoneWithLinks, serial: number, outcomes: readonly RrsetOutcome[], planned: Plan): ZoneChangesResult {
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
 * The write: the zone first (a version step from the one read: the guard against any
 * write committed since; its serial one step), then the records — deletions before
 * insertions (a CNAME may replace what was at its name), the apex NS last of all (the
 * apex keeps one throughout, drizzle/0003_dns_rules.sql) — then their events.
 */
export function planWrite(ctx: WriteContext, zone: ZoneWithLinks, planned: Plan): Write {
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
  return {
    rows: [{ statement: touchZone(db, zone.id, ctx.now, { expectedVersion: zone.version }) }],
    alongside: [
      ...ids(planned.deleted.filter((r) => !apexNs(r))).map((chunk) => deleteRecordsListed(db, chunk)),
      ...jsonChunks(planned.changed, ({ after }) => JSON.stringify([after.id, after.ttl])).map((chunk) => setRecordTtls(db, chunk, at)),
      ...recordInserts(db, zone.id, recordChunks(planned.created.map(({ row }) => row)), ctx.now),
      ...ids(planned.deleted.filter(apexNs)).map((chunk) => deleteRecordsListed(db, chunk)),
      ...chunkedEventInserts(db, events),
    ],
    guards: growing ? [guard(db, "the zone has room for the records", zoneHoldsRoom(zone.id))] : [],
  };
}
