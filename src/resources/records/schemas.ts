import { z } from "@hono/zod-openapi";
import { isWithin, normalizeName } from "../../dns/name";
import { canonicalRdata, RECORD_TYPES } from "../../dns/rdata";
import { recordType } from "../../dns/record";
import { MAX_TTL } from "../../dns/ttl";
import { paginationQuery } from "../../http/pagination";
import { searchParam } from "../../http/query";
import { TimestampSchema, listSchema } from "../../http/openapi";
import { readOnlyFields } from "../../http/patch";

const ttl = z
  .number()
  .int({ error: "must be a whole number of seconds" })
  .min(0)
  .max(MAX_TTL)
  .openapi({ example: 3600, description: "Seconds (RFC 2181 §8). Belongs to the RRset: writing it sets it for every record of the same name and type." });

const typeField = z
  .string()
  .max(16)
  .superRefine((input, ctx) => {
    const type = recordType(input);
    if (!type.ok) ctx.addIssue({ code: "custom", message: type.error });
  })
  .openapi({
    example: "A",
    description:
      `One of ${RECORD_TYPES.join(", ")} (case-insensitive), or a type BIND does not know either as TYPEnnn with RDATA in RFC 3597's generic form ` +
      "(`\\# 4 0A000001`), kept octet for octet; `TYPE1` is A. SOA is the zone's own and cannot be created; RRSIG, NSEC, NSEC3 and NSEC3PARAM are a signer's, not zone data.",
  });

const content = z.string().max(65535).openapi({
  example: "192.0.2.10",
  description: "RDATA in master-file presentation form; names inside are absolute, with or without the trailing dot. Returned canonical.",
});

// Owner names: `@`, relative or absolute; their syntax is checked here, their place in
// the zone by the handler (it needs the zone).
const ownerName = z
  .string()
  .max(1024)
  .superRefine((input, ctx) => {
    if (input === "@" || input === "") return;
    const name = normalizeName(input, { underscore: true, wildcard: true });
    if (!name.ok) ctx.addIssue({ code: "custom", message: `"${input}" ${name.error}` });
  });

/**
 * The checks that need two fields — RDATA against its type, an absolute owner against a
 * zone given by name — run beside the single-field ones, so one 422 lists everything.
 */
function checkRecordFields(value: { zone?: string; name?: string; type?: string; content?: string }, ctx: z.RefinementCtx): void {
  const type = value.type === undefined ? undefined : recordType(value.type);
  if (type?.ok && value.content !== undefined) {
    const rdata = canonicalRdata(type.type, value.content, null);
    if (!rdata.ok) ctx.addIssue({ code: "custom", path: ["content"], message: rdata.error });
  }
  if (value.zone?.includes(".") && value.name?.endsWith(".")) {
    const zone = normalizeName(value.zone, { underscore: true });
    const owner = normalizeName(value.name, { underscore: true, wildcard: true });
    if (zone.ok && owner.ok && !isWithin(owner.name, zone.name)) {
      ctx.addIssue({ code: "custom", path: ["name"], message: `"${value.name}" ${owner.name} is outside the zone ${zone.name}` });
    }
  }
}

const whenFieldsAreStrings = {
  when: (payload: { value: unknown }) => {
    const v = payload.value as Record<string, unknown> | null;
    return v !== null && typeof v === "object" && ["zone", "name", "type", "content"].every((k) => v[k] === undefined || typeof v[k] === "string");
  },
};

const comment = z.string().max(255).openapi({ example: "web front end" });

export const RecordSchema = z
  .object({
    id: z.string().openapi({ example: "rec_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" }),
    zone: z.string().openapi({ example: "zon_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" }),
    name: z.string().openapi({ example: "www", description: "Owner relative to the zone, `@` for the apex." }),
    fqdn: z.string().openapi({ example: "www.example.com" }),
    type: z.string().openapi({ example: "A" }),
    content: z.string().openapi({ example: "192.0.2.10" }),
    ttl: z.number().int().openapi({ example: 3600 }),
    comment: z.string().nullable(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .openapi("Record");

/** A record as a create or an update answers it: with what deserves a look, when something does. */
export const RecordWrittenSchema = RecordSchema.extend({
  warnings: z
    .array(z.object({ field: z.string().openapi({ example: "content" }), message: z.string() }))
    .optional()
    .openapi({
      description:
        "Present when the record was written but deserves a look, as BIND loads such records with a warning: a DS, CDS, DNSKEY or CDNSKEY with an algorithm or digest RFC 8624 deprecates (RSASHA1, SHA-1, …).",
    }),
}).openapi("RecordWritten");

export const RecordCreateSchema = z
  .object({
    zone: z.string().max(1024).openapi({ example: "example.com", description: "Zone id or name." }),
    name: ownerName
      .optional()
      .openapi({ example: "www", description: "`@` (default), relative (`www`), or absolute inside the zone (`www.example.com` / `www.example.com.`)." }),
    type: typeField,
    content,
    ttl: ttl.optional(),
    comment: comment.nullable().optional(),
  })
  .superRefine(checkRecordFields, whenFieldsAreStrings)
  .openapi("RecordCreate");

export const RecordPatchSchema = z
  .object({
    name: ownerName.optional(),
    type: typeField.optional(),
    content: content.optional(),
    ttl: ttl.optional(),
    comment: comment.nullable().optional(),
  })
  .superRefine(checkRecordFields, whenFieldsAreStrings)
  .openapi("RecordPatch");

export const RECORD_READ_ONLY = readOnlyFields(RecordSchema, RecordPatchSchema);

const filters = {
  name: z.string().max(1024).optional().openapi({ description: "Owner name: relative, `@`, or absolute (with a zone)." }),
  type: z.string().max(16).optional().openapi({ description: "Record type (case-insensitive)." }),
  content: z.string().max(65535).optional().openapi({ description: "Exact RDATA; canonicalised when `type` is given." }),
  q: searchParam("Case-insensitive substring of the owner name, typed as A-labels or in Unicode (each Unicode label is also searched as its A-label)."),
};

export const RecordListQuery = z.object({
  ...paginationQuery,
  zone: z.string().max(1024).optional().openapi({ description: "Zone id or name." }),
  ...filters,
});

export const ZoneRecordListQuery = z.object({ ...paginationQuery, ...filters });

export const RecordListSchema = listSchema(RecordSchema, "RecordList");

export type DnsRecord = z.infer<typeof RecordSchema>;
export type RecordCreate = z.infer<typeof RecordCreateSchema>;
export type RecordPatch = z.infer<typeof RecordPatchSchema>;
