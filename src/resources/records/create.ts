// POST /v1/records: a record in a zone (docs/dns.md#records), its RRset's TTL aligned with it
// (RFC 2181 §5.2), the zone's serial raised in the same batch. Two round trips: one read
// batch (the zone, the records at the owner and what the integrity check looks at:
// integrity-reads.ts) and the write batch (the record, its events, the integrity and room
// guards, the idempotency record; the account's records quota is the write routine's).
import type { RouteHandler } from "@hono/zod-openapi";
import { guard } from "../../db/guards";
import { newId } from "../../db/ids";
import { records } from "../../db/schema";
import { readTogether } from "../../db/write";
import { ownerOrder } from "../../dns/name-order";
import { findZone, touchZone, type ZoneWithLinks } from "../../db/zones";
import type { AppEnv } from "../../env";
import { createResource } from "../../http/mutate";
import {
  checkNeighbours,
  recordCollection,
  recordWriteProblem,
  requireRoomInZone,
  validRecord,
  zoneHoldsRoom,
  requireBodyZone,
  zoneReference,
} from "./collection";
import { assertZoneIntegrity, integrityGuards } from "./integrity";
import { type IntegrityReadPlan, integrityReads, isAlias, ownerSeed, prefetchedSource, targetSeeds, zoneOfBody } from "./integrity-reads";
import type { RecordWithZone } from "./queries";
import { requireRecordWrite } from "../../http/caller";
import type * as routes from "./routes";
import { recordWarnings } from "./warnings";
import { rrsetTtlWrites } from "./rrset";

export const createRecord: RouteHandler<typeof routes.createRecord, AppEnv> = (c) => {
  const input = c.req.valid("json");
  return createResource(c, recordCollection, {
    async create(ctx) {
      const { db, now, at } = ctx;
      const ref = zoneReference(input.zone);
      const plan: IntegrityReadPlan = {
        zone: zoneOfBody(ref),
        seeds: [ownerSeed(input.name), ...targetSeeds([input.type], input.content)],
        // An alias or a DNAME added can break records anywhere in the zone (changesStructure).
        whole: isAlias(input.type),
      };
      const [zones, ...read] = await readTogether(db, [findZone(db, ref), ...integrityReads(db, plan)]);
      const zone = requireBodyZone((zones as ZoneWithLinks[])[0], input.zone);
      const record = validRecord(zone.name, input);
      requireRecordWrite(c, record.name, record.type);
      requireRoomInZone(zone);
      const source = prefetchedSource(db, zone.id, read);
      const others = await source.recordsAt([record.name]);
      checkNeighbours(record, others, zone.name);
      const integrity = await assertZoneIntegrity(source, zone, null, record);
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
        beforeWrite: integrityGuards(db, zone.id, integrity),
        write: db.insert(records).values(row),
        // The zone's serial rises with every record write; the record's event implies it.
        alongside: [...rrsetTtlWrites(ctx, next), touchZone(db, zone.id, now), guard(db, "the zone has room for the record", zoneHoldsRoom(zone.id))],
        answerExtras: recordWarnings(record),
      };
    },
    failure: recordWriteProblem,
  });
};
