// DELETE /v1/records/{record}: the zone's serial rises with it; the apex keeps at least one
// NS record (RFC 1034 §4.2.1), checked here for a clear answer and by a trigger at commit.
import type { RouteHandler } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { records } from "../../db/schema";
import { touchZone } from "../../db/zones";
import { apexNsRemovalProblem } from "../../dns/rrset-rules";
import type { AppEnv } from "../../env";
import { deleteResource } from "../../http/mutate";
import { ApiError } from "../../http/problem";
import { recordCollection, recordWriteProblem } from "./collection";
import { assertZoneIntegrity, integrityGuards } from "./integrity";
import { apexNsCount } from "./queries";
import { requireRecordWrite } from "../../http/caller";
import type * as routes from "./routes";

export const deleteRecord: RouteHandler<typeof routes.deleteRecord, AppEnv> = (c) =>
  deleteResource(c, recordCollection, c.req.valid("param").record, {
    async remove({ db, now }, current) {
      requireRecordWrite(c, current.name, current.type);
      if (current.name === "@" && current.type === "NS") {
        const [{ count } = { count: 0 }] = await apexNsCount(db, current.zoneId);
        const lastApexNs = apexNsRemovalProblem(current, count);
        if (lastApexNs) throw new ApiError("rrset_conflict", lastApexNs);
      }
      const integrityReads = await assertZoneIntegrity(db, { id: current.zoneId, name: current.zoneName }, current, null);
      return {
        beforeWrite: integrityGuards(db, current.zoneId, integrityReads),
        write: db.delete(records).where(and(eq(records.id, current.id), eq(records.version, current.version))),
        // Only when the record was deleted (its event row is the previous statement's change).
        alongside: [touchZone(db, current.zoneId, now, { ifPreviousChanged: true })],
      };
    },
    failure: recordWriteProblem,
  });
