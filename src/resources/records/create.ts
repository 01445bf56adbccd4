// POST /v1/records: a record in a zone (docs/dns.md#records), its RRset's TTL aligned with it
// (RFC 2181 §5.2), the zone's serial raised in the same batch.
import { quotaGuards } from "../../http/quotas";
import type { RouteHandler } from "@hono/zod-openapi";
import { failUnless } from "../../db/guards";
import { newId } from "../../db/ids";
import { records } from "../../db/schema";
import { ownerOrder } from "../../dns/name-order";
import { touchZone } from "../../db/zones";
import type { AppEnv } from "../../env";
import { createResource } from "../../http/mutate";
import { checkNeighbours, recordCollection, recordWriteProblem, requireRoomInZone, validRecord, zoneHoldsRoom, zoneOfReference } from "./collection";
import { assertZoneIntegrity, integrityGuards } from "./integrity";
import { type RecordWithZone, recordsAtName } from "./queries";
import { requireRecordWrite } from "../../http/caller";
import type * as routes from "./routes";
import { recordWarnings } from "./warnings";
import { rrsetTtlWrites } from "./rrset";

export const createRecord: RouteHandler<typeof routes.createRecord, AppEnv> = (c) => {
  const input = c.req.valid("json");
  return createResource(c, recordCollection, {
    async create(ctx) {
      const { db, now, at } = ctx;
      const zone = await zoneOfReference(db, input.zone);
      const record = validRecord(zone.name, input);
      requireRecordWrite(c, record.name, record.type);
      requireRoomInZone(zone);
      const others = await recordsAtName(db, zone.id, record.name);
      checkNeighbours(record, others, zone.name);
      const integrityReads = await assertZoneIntegrity(db, zone, null, record);
      const rrset = others.filter((o) => o.type === record.type);

      const next: RecordWithZone = {
        id: newId("record", now),
        zoneId: zone.id,
        ...record,
        ownerOrder: ownerOrder(record.name),
        ttl: input.ttl ?? rrset[0]?.ttl ?? zone.defaultTtl,
        comment: input.comment ?? null,
        version: 1,
        createdAt: at,
        updatedAt: at,
        zoneName: zone.name,
      };
      const { zoneName: _zoneName, ...row } = next;
      return {
        next,
        beforeWrite: integrityGuards(db, zone.id, integrityReads),
        write: db.insert(records).values(row),
        // The zone's serial rises with every record write; the record's event implies it.
        alongside: [
          ...rrsetTtlWrites(ctx, next, next.ttl, rrset),
          touchZone(db, zone.id, now),
          failUnless(db, { type: "record", id: next.id }, zoneHoldsRoom(zone.id)),
          ...quotaGuards(c, db, zone.accountId, "records"),
        ],
        answerExtras: recordWarnings(record),
      };
    },
    failure: recordWriteProblem,
  });
};
