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
    // Relative unless it ends in a dot: its last label is then no top-level label (`1.2` in a reverse zone).
    const name = normalizeName(input, { underscore: true, wildcard: true, relative: !input.endsWith(".") });
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

// ---------------------------------------------------------------- changes to RRsets

/** The most changes one request applies (one all-or-nothing batch). */
export const MAX_CHANGES = 1000;

const ACTIONS_WITH_TTL = new Set(["add", "replace"]);

/** Which fields each action takes, checked beside the single-field rules so one 422 lists everything. */
function checkChangeFields(value: { action?: string; contents?: unknown; ttl?: unknown }, ctx: z.RefinementCtx): void {
  const { action } = value;
  if (action === "delete" && value.contents !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["contents"],
      message: "is not taken by delete, which removes the whole RRset (use remove to take out some contents)",
    });
  }
  if ((action === "add" || action === "replace" || action === "remove") && value.contents === undefined) {
    ctx.addIssue({ code: "custom", path: ["contents"], message: `is required for ${action}` });
  }
  if ((action === "add" || action === "remove") && Array.isArray(value.contents) && value.contents.length === 0) {
    ctx.addIssue({ code: "custom", path: ["contents"], message: `must hold at least one content for ${action}` });
  }
  if (action !== undefined && !ACTIONS_WITH_TTL.has(action) && value.ttl !== undefined) {
    ctx.addIssue({ code: "custom", path: ["ttl"], message: `is not taken by ${action}: only add and replace set an RRset's TTL` });
  }
}

export const RrsetChangeSchema = z
  .strictObject({
    action: z.enum(["add", "replace", "remove", "delete"]).openapi({
      example: "add",
      description:
        "`add`: contents join the RRset (those already there stay, once); `replace`: the RRset becomes exactly these contents (`[]` deletes it); `remove`: contents leave it (absent ones are ignored); `delete`: the whole RRset goes.",
    }),
    name: ownerName.openapi({ example: "_acme-challenge", description: "Owner: `@`, relative (`www`), or absolute inside the zone." }),
    type: typeField,
    ttl: ttl.optional().openapi({
      description: "`add` and `replace` only: the RRset's TTL (RFC 2181 §5.2). Absent: the RRset keeps its own; a new one takes the zone's `default_ttl`.",
    }),
    contents: z
      .array(content)
      .optional()
      .openapi({ example: ['"token-1"'], description: "RDATA in master-file presentation form, as a record's `content`. Not taken by `delete`." }),
  })
  .superRefine(checkChangeFields, {
    when: (payload: { value: unknown }) => {
      const v = payload.value as Record<string, unknown> | null;
      return v !== null && typeof v === "object" && (v.action === undefined || typeof v.action === "string");
    },
  })
  .openapi("RrsetChange");

export const ZoneChangesSchema = z
  .object({
    changes: z
      .array(RrsetChangeSchema)
      .min(1, { error: "must hold at least one change" })
      .max(MAX_CHANGES, { error: `must hold at most ${MAX_CHANGES} changes: send more in further requests` }),
  })
  .openapi("ZoneChanges");

export const RrsetSchema = z
  .object({
    name: z.string().openapi({ example: "www", description: "Owner relative to the zone, `@` for the apex." }),
    fqdn: z.string().openapi({ example: "www.example.com" }),
    type: z.string().openapi({ example: "A" }),
    ttl: z.number().int().nullable().openapi({ example: 300, description: "Null when the RRset is now empty." }),
    records: z.array(RecordSchema).openapi({ description: "The RRset's records as they now stand; empty when it was deleted." }),
  })
  .openapi("Rrset");

export const ZoneChangesResultSchema = z
  .object({
    serial: z.number().int().openapi({ example: 2026112203, description: "The zone's SOA serial after the changes (unchanged when they changed nothing)." }),
    rrsets: z.array(RrsetSchema).openapi({ description: "Every RRset a change touched, as it now stands, in the order the changes first touch them." }),
  })
  .openapi("ZoneChangesResult");

export type ZoneChanges = z.infer<typeof ZoneChangesSchema>;
export type Rrset = z.infer<typeof RrsetSchema>;
export type ZoneChangesResult = z.infer<typeof ZoneChangesResultSchema>;
