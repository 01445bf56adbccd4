// PATCH /v1/records/{record}. A new type reads the old content afresh, so it must make
// sense for that type; a record that moves to another RRset takes that RRset's TTL. Two
// round trips: the record is read with the records at its owner (and at its new owner,
// when it moves) and what the integrity check looks at, in one batch (integrity-reads.ts);
// then the write batch.
import type { RouteHandler } from "@hono/zod-openapi";
import { type SQL, sql } from "drizzle-orm";
import { records } from "../../db/schema";
import { versionStep } from "../../db/write";
import { touchZone } from "../../db/zones";
import { ownerOrder } from "../../dns/name-order";
import type { AppEnv } from "../../env";
import { updateResource } from "../../http/mutate";
import { checkNeighbours, recordCollection, recordWriteProblem, requireApexNsLeft, validRecord } from "./collection";
import { assertZoneIntegrity, integrityGuards } from "./integrity";
import {
  currentOwner,
  currentTarget,
  type IntegrityReadPlan,
  integrityReads,
  isAlias,
  isTargeted,
  ownerSeed,
  prefetchedSource,
  removalReadsWhole,
  targetSeeds,
  zoneOfRecord,
} from "./integrity-reads";
import { requireRecordWrite } from "../../http/caller";
import type * as routes from "./routes";
import { recordWarnings } from "./warnings";
import { rrsetTtlWrites } from "./rrset";

export const updateRecord: RouteHandler<typeof routes.updateRecord, AppEnv> = (c) => {
  const patch = c.req.valid("json");
  const id = c.req.valid("param").record;
  const plan = updatePlan(id, patch);
  return updateResource(c, recordCollection, id, {
    reads: (db) => integrityReads(db, plan),
    async update(ctx, current, read) {
      const { db, now, at } = ctx;
      requireRecordWrite(c, current.name, current.type);
      const typeChanged = patch.type !== undefined && patch.type.toUpperCase() !== current.type;
      const record = validRecord(current.zoneName, {
        name: patch.name ?? current.name,
        type: patch.type ?? current.type,
        content: patch.content ?? current.content,
      });
      requireRecordWrite(c, record.name, record.type);
      const comment = patch.comment === undefined ? current.comment : patch.comment;
      const movedRrset = record.name !== current.name || record.type !== current.type;
      const source = prefetchedSource(db, current.zoneId, read);
      const others = (await source.recordsAt([record.name])).filter((o) => o.id !== current.id);
      const rrset = others.filter((o) => o.type === record.type);
      const ttl = patch.ttl ?? (movedRrset ? (rrset[0]?.ttl ?? current.ttl) : current.ttl);
      if (!typeChanged && record.name === current.name && record.content === current.content && ttl === current.ttl && comment === current.comment) return null;

      checkNeighbours(record, others, current.zoneName);
      const integrity = await assertZoneIntegrity(source, { id: current.zoneId, name: current.zoneName }, current, record);
      if (movedRrset) await requireApexNsLeft(source, current);
      const next = { ...current, ...record, ownerOrder: ownerOrder(record.name), ttl, comment, version: current.version + 1, updatedAt: at };
      return {
        next,
        beforeWrite: integrityGuards(db, current.zoneId, integrity),
        write: versionStep(db, records, current, next),
        alongside: [touchZone(db, current.zoneId, now), ...rrsetTtlWrites(ctx, next)],
        answerExtras: recordWarnings(record),
      };
    },
    failure: recordWriteProblem,
  });
};

/**
 * What the PATCH reads with the record: the names the record leaves and the names it goes
 * to (both neighbourhoods), the targets it then points at, and the zone whole when the
 * change may need it. What the patch leaves as it is comes from the record, in SQL.
 */
function updatePlan(id: string, patch: { name?: string | undefined; type?: string | undefined; content?: string | undefined }): IntegrityReadPlan {
  const seeds: SQL[] = [currentOwner];
  if (patch.name !== undefined) seeds.push(ownerSeed(patch.name));
  if (patch.content !== undefined) seeds.push(...targetSeeds(patch.type === undefined ? ["NS", "MX", "SRV"] : [patch.type], patch.content));
  else if (patch.type === undefined) seeds.push(sql`case when c.type in ('NS', 'MX', 'SRV') then ${currentTarget} end`);
  else if (isTargeted(patch.type)) seeds.push(currentTarget);
  const addsAlias = patch.type !== undefined && isAlias(patch.type);
  return {
    zone: zoneOfRecord,
    record: id,
    seeds,
    whole: addsAlias || removalReadsWhole(id, { addsAlias: patch.type === undefined, leavesName: patch.name !== undefined }),
  };
}
