// PATCH /v1/records/{record}. A new type reads the old content afresh, so it must make
// sense for that type; a record that moves to another RRset takes that RRset's TTL.
import type { RouteHandler } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { records } from "../../db/schema";
import { touchZone } from "../../db/zones";
import { ownerOrder } from "../../dns/name-order";
import { apexNsRemovalProblem } from "../../dns/rrset-rules";
import type { AppEnv } from "../../env";
import { updateResource } from "../../http/mutate";
import { ApiError } from "../../http/problem";
import { checkNeighbours, recordCollection, recordWriteProblem, validRecord } from "./collection";
import { assertZoneIntegrity, integrityGuards } from "./integrity";
import { apexNsCount, recordsAtName } from "./queries";
import { requireRecordWrite } from "../../http/caller";
import type * as routes from "./routes";
import { recordWarnings } from "./warnings";
import { rrsetTtlWrites } from "./rrset";

export const updateRecord: RouteHandler<typeof routes.updateRecord, AppEnv> = (c) => {
  const patch = c.req.valid("json");
  return updateResource(c, recordCollection, c.req.valid("param").record, {
    async update(ctx, current) {
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
      const others = (await recordsAtName(db, current.zoneId, record.name)).filter((o) => o.id !== current.id);
      const rrset = others.filter((o) => o.type === record.type);
      const ttl = patch.ttl ?? (movedRrset ? (rrset[0]?.ttl ?? current.ttl) : current.ttl);
      if (!typeChanged && record.name === current.name && record.content === current.content && ttl === current.ttl && comment === current.comment) return null;

      checkNeighbours(record, others, current.zoneName);
      const integrityReads = await assertZoneIntegrity(db, { id: current.zoneId, name: current.zoneName }, current, record);
      if (movedRrset && current.name === "@" && current.type === "NS") {
        const [{ count } = { count: 0 }] = await apexNsCount(db, current.zoneId);
        const lastApexNs = apexNsRemovalProblem(current, count);
        if (lastApexNs) throw new ApiError("rrset_conflict", lastApexNs);
      }
      const next = { ...current, ...record, ownerOrder: ownerOrder(record.name), ttl, comment, version: current.version + 1, updatedAt: at };
      return {
        next,
        beforeWrite: integrityGuards(db, current.zoneId, integrityReads),
        write: db
          .update(records)
          .set({ ...record, ownerOrder: next.ownerOrder, ttl, comment, version: next.version, updatedAt: at })
          .where(eq(records.id, current.id)),
        // Only when the record was written (its event row is the previous statement's change).
        alongside: [touchZone(db, current.zoneId, now, { ifPreviousChanged: true }), ...rrsetTtlWrites(ctx, next, ttl, rrset)],
        answerExtras: recordWarnings(record),
      };
    },
    failure: recordWriteProblem,
  });
};
