// POST /v1/zones/{zone}/changes: up to 1 000 changes to the zone's RRsets (add, replace,
// remove, delete), all or nothing. One read batch (the zone and its records), the rules
// every record write obeys checked on the zone as the changes leave it, then one write
// batch: the zone's serial steps once, every record created, changed or deleted is
// written with its event (a TTL an RRset's kept records take: one `rrset` event), a few
// statements whatever the number of changes (sets travel as JSON chunks,
// src/db/json-chunks.ts).
//
// Concurrency: the batch starts with a version step of the zone from the one read, and
// every record write moves its zone's version in its own batch (touchZone). So a write
// committed between this request's read and its batch makes the batch lose its race, and
// the request reads again and decides again on the new state (src/db/write.ts): two
// clients adding contents at one name at once both keep theirs.
import type { RouteHandler } from "@hono/zod-openapi";
import { findZone, type ZoneWithLinks } from "../../db/zones";
import { applyRrsetChanges, rrsetOutcomeProblems, rrsetSizeProblems } from "../../dns/rrset-changes";
import { nextSerial } from "../../dns/serial";
import type { AppEnv } from "../../env";
import { checkIfMatch, entityTag } from "../../http/etag";
import { notFound, resourceRef } from "../../http/lookup";
import { idempotentAnswer, writeContext } from "../../http/mutate";
import { commitWrite, readTogether, retryLostRaces } from "../../db/write";
import { ApiError } from "../../http/problem";
import { presentZone } from "../zones/present";
import { recordWriteProblem, requireRoomInZone } from "./collection";
import { type RecordWithZone, zoneRecords } from "./queries";
import type * as routes from "./routes";
import { assertIntegrity, checkedChanges, conflict, requireChangeRights } from "./changes-checks";
import { answerBody, plan, planWrite } from "./changes-plan";

export const applyZoneChanges: RouteHandler<typeof routes.applyZoneChanges, AppEnv> = async (c) => {
  const input = c.req.valid("json").changes;
  const segment = c.req.valid("param").zone;
  const ref = resourceRef(segment, "zone");
  const answer = await retryLostRaces(async () => {
    const ctx = writeContext(c);
    const { db } = ctx;
    const [zoneRows, rows] = await readTogether(db, [findZone(db, ref), zoneRecords(db, ref)]);
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
    await commitWrite(ctx, { ...planWrite(ctx, zone, planned), last: recorded }, recordWriteProblem);
    return result;
  });
  c.header("ETag", answer.etag);
  return c.json(answer.body, 200);
};
