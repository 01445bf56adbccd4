// DELETE /v1/records/{record}: the zone's serial rises with it; the apex keeps at least one
// NS record (RFC 1034 §4.2.1), checked here for a clear answer and by a trigger at commit.
// Two round trips: the record with what the integrity check looks at (integrity-reads.ts),
// then the write batch.
import type { RouteHandler } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { records } from "../../db/schema";
import { touchZone } from "../../db/zones";
import type { AppEnv } from "../../env";
import { deleteResource } from "../../http/mutate";
import { recordCollection, recordWriteProblem, requireApexNsLeft } from "./collection";
import { assertZoneIntegrity, integrityGuards } from "./integrity";
import { currentOwner, type IntegrityReadPlan, integrityReads, prefetchedSource, removalReadsWhole, zoneOfRecord } from "./integrity-reads";
import { requireRecordWrite } from "../../http/caller";
import type * as routes from "./routes";

export const deleteRecord: RouteHandler<typeof routes.deleteRecord, AppEnv> = (c) => {
  const id = c.req.valid("param").record;
  const plan: IntegrityReadPlan = {
    zone: zoneOfRecord,
    record: id,
    seeds: [currentOwner],
    whole: removalReadsWhole(id, { addsAlias: false, leavesName: true }),
  };
  return deleteResource(c, recordCollection, id, {
    reads: (db) => integrityReads(db, plan),
    async remove({ db, now }, current, read) {
      requireRecordWrite(c, current.name, current.type);
      const source = prefetchedSource(db, current.zoneId, read);
      await requireApexNsLeft(source, current);
      const integrity = await assertZoneIntegrity(source, { id: current.zoneId, name: current.zoneName }, current, null);
      return {
        beforeWrite: integrityGuards(db, current.zoneId, integrity),
        write: db.delete(records).where(and(eq(records.id, current.id), eq(records.version, current.version))),
        alongside: [touchZone(db, current.zoneId, now)],
      };
    },
    failure: recordWriteProblem,
  });
};
