import { collectionRoutes } from "../../http/collection-routes";
import { errorResponses, IF_MATCH_HEADER_DOC, jsonBody, resourceResponse } from "../../http/openapi";
import { ZoneParams } from "../../http/params";
import { defineRoute } from "../../http/route";
import { RECORD_CREATE_EXAMPLE, RECORD_EXAMPLE, RECORD_PATCH_EXAMPLE, ZONE_CHANGES_EXAMPLE, ZONE_CHANGES_RESULT_EXAMPLE } from "./examples";
import {
  MAX_CHANGES,
  RECORD_READ_ONLY,
  RecordCreateSchema,
  RecordListQuery,
  RecordListSchema,
  RecordPatchSchema,
  RecordSchema,
  ZoneChangesResultSchema,
  ZoneChangesSchema,
  ZoneRecordListQuery,
  RecordWrittenSchema,
} from "./schemas";

const records = collectionRoutes({
  path: "/records",
  member: { param: "record", description: "Record id (`rec_…`).", example: "rec_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" },
  tags: ["Records"],
  operationIds: { one: "Record", many: "Records" },
  noun: { one: "record", many: "records" },
  schema: RecordSchema,
  example: RECORD_EXAMPLE,
  readOnly: RECORD_READ_ONLY,
});

const RULES =
  "DNS rules: a CNAME is alone at its name and never at the apex (409 `rrset_conflict` / 422); the apex keeps at least one NS record (409); an identical record (name, type, content) is 409 `already_exists`; `*` only as the leftmost label; names outside the zone are 422; SOA cannot be created (the zone owns it). The zone's SOA serial rises in the same transaction as the change.";

export const listRecords = records.list({
  access: { scope: "read", narrow: "visible", records: true },
  description: "Records of every zone in creation order, keyset-paginated. Filters combine with AND.",
  query: RecordListQuery,
  page: RecordListSchema,
});

export const listZoneRecords = records.listWithin(
  { path: "/zones/{zone}", params: ZoneParams, operationId: "Zone", noun: "zone", tags: ["Zones", "Records"] },
  {
    access: { scope: "read", narrow: "visible", records: true },
    summary: "List a zone's records",
    description: "Same filters, order and pagination as `GET /records`, within one zone.",
    query: ZoneRecordListQuery,
    page: RecordListSchema,
  },
);

export const getRecord = records.get({
  access: { scope: "read", narrow: "visible", records: true },
  description: "One DNS record by id (`rec_…`).",
});

export const createRecord = records.create({
  access: { scope: "write", narrow: "visible", records: true },
  description: `\`zone\` (id or name), \`type\` and \`content\` are required; \`name\` defaults to \`@\`; \`ttl\` defaults to the RRset's TTL if it exists, else the zone's \`default_ttl\`. A zone holds at most 25 000 records and 2 000 000 bytes of records as its export writes them (\`zone_record_bytes\`), so that every zone imports back: past either, 422 \`policy_violation\` naming \`zone\` and the limit. ${RULES}`,
  readOnly: RECORD_READ_ONLY.filter((f) => f !== "zone"),
  body: RecordCreateSchema,
  example: RECORD_CREATE_EXAMPLE,
  response: { schema: RecordWrittenSchema, description: "The record was created (with `warnings` when it deserves a look).", example: RECORD_EXAMPLE },
});

export const updateRecord = records.update({
  access: { scope: "write", narrow: "visible", records: true },
  description: `\`name\`, \`type\`, \`content\`, \`ttl\`, \`comment\`; the result is validated as a new record would be. ${RULES} ${IF_MATCH_HEADER_DOC}`,
  body: RecordPatchSchema,
  example: RECORD_PATCH_EXAMPLE,
  response: { schema: RecordWrittenSchema, description: "The updated record (with `warnings` when it deserves a look).", example: RECORD_EXAMPLE },
});

export const deleteRecord = records.delete({
  access: { scope: "write", narrow: "visible", records: true },
  description: `Deleting the last NS record at the apex answers 409 \`rrset_conflict\`. ${IF_MATCH_HEADER_DOC}`,
});

export const applyZoneChanges = defineRoute({
  operationId: "applyZoneChanges",
  access: { scope: "write", narrow: "visible", records: true },
  method: "post",
  path: "/zones/{zone}/changes",
  tags: ["Zones", "Records"],
  summary: "Change several RRsets at once, all or nothing",
  description:
    `Up to ${MAX_CHANGES} changes to the zone's RRsets (the records of one name and type), applied in order and atomically: all of them or none, in one transaction, with one step of the SOA serial, an event for every record created or deleted and one \`rrset\` event for each RRset whose kept records took a new TTL. ` +
    "`add` puts contents into an RRset (contents already there stay, once); `replace` makes the RRset exactly the given contents (`[]` deletes it); `remove` takes contents out (absent ones are ignored); `delete` removes the RRset. `ttl` (`add`, `replace`) sets the TTL of the whole RRset (RFC 2181 §5.2); without it an RRset keeps its TTL and a new one takes the zone's `default_ttl`. " +
    "The answer lists every RRset a change touched as it now stands, and the zone's new serial; changes that change nothing write nothing (the serial and the zone's ETag stay). " +
    "Every rule of a record write holds for the zone as the changes leave it: contents are validated per type, each named `changes[i].contents[j]` (422, every problem listed); names lie inside the zone; a CNAME is alone at its name, never at the apex (409 `rrset_conflict` naming the change); the apex keeps an NS record (409); the zone stays loadable by BIND (name servers, MX and SRV targets); an RRset fits one DNS message and a zone holds at most 25 000 records and 2 000 000 bytes of records as its export writes them (422 `policy_violation` naming `zone_record_bytes`). " +
    "A token with `records` rules may make only changes its rules allow, every one of them (403 naming the refused changes). " +
    "Two clients adding contents to one RRset at the same moment both keep theirs: a change committed by someone else between this request's read and its write makes it read again and decide again. " +
    `${IF_MATCH_HEADER_DOC.replace("the resource", "the zone")} \`Idempotency-Key\` replays the first answer.`,
  request: { params: ZoneParams, body: jsonBody(ZoneChangesSchema, "The changes, applied in order.", ZONE_CHANGES_EXAMPLE) },
  responses: {
    200: resourceResponse(ZoneChangesResultSchema, "The changes were applied (or changed nothing); `ETag` is the zone's.", ZONE_CHANGES_RESULT_EXAMPLE),
    ...errorResponses(400, 404, 409, 412, 413, 415, 422),
  },
});
