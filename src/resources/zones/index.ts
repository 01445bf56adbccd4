import { and, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import type { Database } from "../../db/client";
import { writeFailure } from "../../db/errors";
import { eventInsert, jsonBytes, MAX_EVENT_PAYLOAD_BYTES, previousStatementChanged } from "../../db/events";
import { D1_LIMITS } from "../../db/d1-limits";
import { idFromStem, newIdStem } from "../../db/id-sets";
import { newId } from "../../db/ids";
import { records, zones } from "../../db/schema";
import { findZone, touchZone, type ZoneRow, type ZoneWithLinks } from "../../db/zones";
import { parseMasterFile, renderMasterFilePieces, type MasterFileRecord, type SoaFields } from "../../dns/master-file";
import { normalizeName, relativeOwnerName, toUnicodeName } from "../../dns/name";
import { ownerNameProblem } from "../../dns/rrset-rules";
import { initialSerial } from "../../dns/serial";
import { actorOf } from "../../http/actor";
import { callerAccount, sponsorFor } from "../../http/ownership";
import { checkIfMatch, entityTag, noneMatchHits } from "../../http/etag";
import { newFindings, throwFindings } from "../../http/findings";
import { mediaTypeOf, requestText } from "../../http/body";
import { notFound, refParam, resourceRef } from "../../http/lookup";
import { pageRequest, pageResponse } from "../../http/pagination";
import { queryError } from "../../http/query";
import { ApiError, type FieldError } from "../../http/problem";
import { sendWritten } from "../../http/respond";
import { createRouter } from "../../http/router";
import { VersionConflict, withVersionRetry } from "../../http/writes";
import { normalizeHostName } from "../../registry/hosts";
import { MASTER_FILE_MEDIA_TYPE, MAX_MASTER_FILE_BYTES, MAX_MASTER_FILE_RECORDS, wantsMasterFile } from "./master-file";
import { listZones, zoneRecordLinesBytes, zoneRecords, type ZoneFilters } from "./queries";
import * as routes from "./routes";
import type { SoaInput, Zone, ZoneCreate } from "./schemas";

const DEFAULT_TTL = 3600;
// RFC 1912 §2.2 suggests these orders of magnitude; they are the contract's example too.
const DEFAULT_SOA_TIMERS = { refresh: 7200, retry: 900, expire: 1209600, minimum: 300 };

export function presentZone(row: ZoneWithLinks): Zone {
  return {
    id: row.id,
    account: row.accountId,
    name: row.name,
    unicode_name: toUnicodeName(row.name),
    domain: row.domainId,
    default_ttl: row.defaultTtl,
    soa: {
      mname: row.soaMname,
      rname: row.soaRname,
      serial: row.soaSerial,
      refresh: row.soaRefresh,
      retry: row.soaRetry,
      expire: row.soaExpire,
      minimum: row.soaMinimum,
    },
    record_count: row.recordCount,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** The zone as an RFC 1035 master file, in pieces: its export, and what its delete event keeps. */
async function zoneMasterFilePieces(db: Database, zone: ZoneWithLinks): Promise<Generator<string>> {
  const rows = await zoneRecords(db, zone.id);
  return renderMasterFilePieces({ name: zone.name, defaultTtl: zone.defaultTtl, soa: presentZone(zone).soa, records: rows });
}

/** The export's body: the pieces encoded one at a time, as the client reads them. */
function masterFileStream(pieces: Generator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    pull(controller) {
      const next = pieces.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
}

/**
 * What a zone's delete event keeps in `before`: the zone and, in `master_file`, every
 * record, so that `POST /zones` (text/dns) brings it back. A file that import could not
 * take back (over its limits) or too large for an event row (D1's 2 MB row limit) is left
 * out (`master_file: null`).
 */
async function zoneBeforeDelete(db: Database, zone: ZoneWithLinks) {
  // The file is kept when POST /zones could import it back (its limits) and it fits the
  // event row. D1 sums the size of the records' lines first, so a zone whose file cannot
  // be kept is never read into the Worker: a delete holds at most an import's worth.
  if (zone.recordCount > MAX_MASTER_FILE_RECORDS) return { ...presentZone(zone), master_file: null };
  const [{ bytes: lineBytes } = { bytes: 0 }] = await zoneRecordLinesBytes(db, zone.id);
  if (lineBytes > Math.min(MAX_EVENT_PAYLOAD_BYTES, MAX_MASTER_FILE_BYTES)) return { ...presentZone(zone), master_file: null };
  const pieces = await zoneMasterFilePieces(db, zone);
  let masterFile: string | null = "";
  let bytes = 0;
  for (const piece of pieces) {
    bytes += utf8Bytes(piece);
    if (bytes > MAX_EVENT_PAYLOAD_BYTES) {
      masterFile = null;
      break;
    }
    masterFile += piece;
  }
  const before = { ...presentZone(zone), master_file: masterFile };
  if (jsonBytes(before) > MAX_EVENT_PAYLOAD_BYTES) before.master_file = null;
  return before;
}

/** Zone names follow DNS rules, not host-name rules: `_tcp` labels and reverse zones are fine. */
function normalizeZoneName(input: string) {
  return normalizeName(input, { underscore: true });
}

/** SOA overrides merged onto `base`; `serial` is the service's, never the client's. */
function mergeSoa(base: Omit<SoaFields, "serial">, input: SoaInput | undefined): Omit<SoaFields, "serial"> {
  if (!input) return base;
  if (input.serial !== undefined) {
    throw new ApiError("read_only_field", "soa.serial is managed by the service: it rises with every change.", {
      errors: [{ field: "soa.serial", message: "is read-only" }],
    });
  }
  // Names arrive normalised by the schema (src/http/name-fields.ts).
  const soa = { ...base };
  if (input.mname !== undefined) soa.mname = input.mname;
  if (input.rname !== undefined) soa.rname = input.rname;
  for (const timer of ["refresh", "retry", "expire", "minimum"] as const) {
    if (input[timer] !== undefined) soa[timer] = input[timer];
  }
  return soa;
}

function defaultNameservers(c: Context<AppEnv>): string[] {
  return (c.env.DEFAULT_NAMESERVERS ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

interface NewRecord {
  /** Owner relative to the zone, `@` for the apex. */
  name: string;
  type: string;
  content: string;
  ttl: number;
}

/** A zone's records as one JSON array of `[name, type, content, ttl]`, and how many it holds. */
interface RecordChunk {
  json: string;
  count: number;
}

// A zone's records travel as JSON arrays, one bound string per statement (D1 binds 100
// parameters at most, and takes strings under D1_LIMITS.stringBytes), unpacked by
// SQLite's json_each: a statement per 900 kB of records, whatever their number. The ids
// are numbered in SQL (src/db/id-sets.ts), not sent.
const RECORDS_JSON_CHUNK_BYTES = D1_LIMITS.stringBytes - 100_000;

const NON_ASCII = /[^\x00-\x7f]/;
const utf8 = new TextEncoder();

function utf8Bytes(text: string): number {
  return NON_ASCII.test(text) ? utf8.encode(text).byteLength : text.length;
}

/**
 * The records as JSON chunks, built as they are read from `rows` (an import's parsed
 * records pass through once and are not copied into another array first).
 */
function recordChunks(rows: Iterable<NewRecord>): RecordChunk[] {
  const chunks: RecordChunk[] = [];
  let parts: string[] = [];
  let size = 2;
  for (const row of rows) {
    const json = JSON.stringify([row.name, row.type, row.content, row.ttl]);
    const bytes = utf8Bytes(json) + 1;
    if (size + bytes > RECORDS_JSON_CHUNK_BYTES && parts.length > 0) {
      chunks.push({ json: `[${parts.join(",")}]`, count: parts.length });
      parts = [];
      size = 2;
    }
    parts.push(json);
    size += bytes;
  }
  if (parts.length > 0) chunks.push({ json: `[${parts.join(",")}]`, count: parts.length });
  return chunks;
}

function recordInserts(db: Database, zoneId: string, chunks: RecordChunk[], at: Date): BatchItem<"sqlite">[] {
  const timestamp = at.toISOString();
  // One stem for the whole zone: its records' ids count up through every chunk, in file order.
  const stem = newIdStem("record", at);
  let numbered = 0;
  return chunks.map((chunk) => {
    const first = numbered;
    numbered += chunk.count;
    return db.insert(records).select(
      db
        .select({
          id: idFromStem(stem, sql`${sql.raw(String(first + 1))} + "key"`).as("id"),
          zoneId: sql<string>`${zoneId}`.as("zone_id"),
          name: sql<string>`json_extract(value, '$[0]')`.as("name"),
          type: sql<string>`json_extract(value, '$[1]')`.as("type"),
          content: sql<string>`json_extract(value, '$[2]')`.as("content"),
          ttl: sql<number>`json_extract(value, '$[3]')`.as("ttl"),
          comment: sql<null>`null`.as("comment"),
          version: sql<number>`1`.as("version"),
          createdAt: sql<string>`${timestamp}`.as("created_at"),
          updatedAt: sql<string>`${timestamp}`.as("updated_at"),
        })
        .from(sql`json_each(${chunk.json})`),
    );
  });
}

/**
 * Writes a new zone and its records in one batch (one transaction) and reads it back.
 * One `create` event stands for the zone and the records it starts with; its
 * `record_count` and `domain` are read as the batch wrote them.
 */
async function insertZone(db: Database, zone: ZoneRow, chunks: RecordChunk[], at: Date, actor: string): Promise<ZoneWithLinks> {
  const after = presentZone({ ...zone, domainId: null });
  try {
    const results = await db.batch([
      db.insert(zones).values(zone),
      ...recordInserts(db, zone.id, chunks, at),
      eventInsert(
        db,
        { at: zone.createdAt, actor, account: zone.accountId, type: "zone", id: zone.id, operation: "create", before: null, after },
        {
          afterFromDatabase: {
            "$.record_count": sql`select z.record_count from zones z where z.id = ${zone.id}`,
            "$.domain": sql`select d.id from domains d where d.name = ${zone.name} and d.account_id = ${zone.accountId}`,
          },
        },
      ),
      findZone(db, { kind: "id", id: zone.id }),
    ] as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    return (results[results.length - 1] as ZoneWithLinks[])[0]!;
  } catch (error) {
    if (writeFailure(error) === "unique") throw new ApiError("already_exists", `The zone ${zone.name} already exists.`);
    throw error;
  }
}

async function createFromJson(c: Context<AppEnv>, input: ZoneCreate): Promise<ZoneWithLinks> {
  const db = c.get("db");
  const findings = newFindings();
  const normalized = normalizeZoneName(input.name);
  if (!normalized.ok) findings.invalid.push({ field: "name", message: `"${input.name}" ${normalized.error}` });
  const name = normalized.ok ? normalized.name : "";
  const nameservers: string[] = [];
  (input.nameservers ?? defaultNameservers(c)).forEach((raw, index) => {
    const host = normalizeHostName(raw);
    if (!host.ok) findings.invalid.push({ field: `nameservers[${index}]`, message: `"${raw}" ${host.error}` });
    else if (nameservers.includes(host.name)) findings.invalid.push({ field: `nameservers[${index}]`, message: `${host.name} is listed twice` });
    else nameservers.push(host.name);
  });
  if (nameservers.length === 0 && findings.invalid.length === 0) {
    findings.invalid.push({ field: "nameservers", message: "a zone needs at least one name server, and none is configured (DEFAULT_NAMESERVERS)" });
  }
  const soa = mergeSoa({ mname: nameservers[0] ?? "", rname: `hostmaster.${name}`, ...DEFAULT_SOA_TIMERS }, input.soa);
  throwFindings(findings);

  const accountId = await sponsorFor(c, input.account);
  // Zone names are one namespace across accounts (contract §11).
  const existing = await findZone(c.get("dbAllAccounts") ?? db, { kind: "name", name }).get();
  if (existing) throw new ApiError("already_exists", `The zone ${name} already exists${existing.accountId === accountId ? ` (${existing.id})` : ""}.`);
  const now = new Date();
  const defaultTtl = input.default_ttl ?? DEFAULT_TTL;
  const zone = zoneRow(name, defaultTtl, { ...soa, serial: initialSerial(now) }, now, accountId);
  // The apex NS records (RFC 1034 §4.2.1: every zone has NS records at its top).
  const apexNs = nameservers.map((ns) => ({ name: "@", type: "NS", content: `${ns}.`, ttl: defaultTtl }));
  return insertZone(db, zone, recordChunks(apexNs), now, actorOf(c));
}

/** A new zone row; its record_count starts at 0 and the record triggers count the inserts. */
function zoneRow(name: string, defaultTtl: number, soa: SoaFields, now: Date, accountId: string) {
  const at = now.toISOString();
  return {
    id: newId("zone", now),
    accountId,
    name,
    defaultTtl,
    soaMname: soa.mname,
    soaRname: soa.rname,
    soaSerial: soa.serial,
    soaRefresh: soa.refresh,
    soaRetry: soa.retry,
    soaExpire: soa.expire,
    soaMinimum: soa.minimum,
    recordCount: 0,
    version: 1,
    createdAt: at,
    updatedAt: at,
  };
}

/** The master file's lines that break the zone-level rules, reported like parse errors. */
function masterFileProblems(zoneName: string, parsed: MasterFileRecord[]): FieldError[] {
  const problems: FieldError[] = [];
  const hasApexNs = parsed.some((r) => r.fqdn === zoneName && r.type === "NS");
  for (const record of parsed) {
    const problem = ownerNameProblem(record.type, record.fqdn);
    if (problem) problems.push({ field: `line ${record.line}`, line: record.line, message: problem });
  }
  if (!hasApexNs) problems.push({ field: "file", line: 0, message: `the zone has no NS record at its apex ${zoneName} (RFC 1034 §4.2.1)` });
  return problems;
}

/** A master file read and checked, ready to write: what the zone row needs and its records. */
interface ImportPlan {
  origin: string;
  soa: (SoaFields & { ttl: number }) | null;
  defaultTtl: number | null;
  /** The first NS at the apex, for a SOA MNAME when the file has no SOA. */
  firstNs: string;
  chunks: RecordChunk[];
}

/**
 * Parses and checks the file and turns its records into JSON chunks. Synchronous on
 * purpose: the text and the parsed records are garbage once it returns, so only the
 * chunks stay in memory while the batch is written.
 */
function planImport(text: string, nameParam: string | undefined): ImportPlan {
  const parsed = parseMasterFile(text, { ...(nameParam === undefined ? {} : { origin: nameParam }), maxRecords: MAX_MASTER_FILE_RECORDS });
  if (!parsed.ok && parsed.tooManyRecords) {
    // RFC 9110 §15.5.14: content larger than the server is willing to process.
    throw new ApiError(
      "payload_too_large",
      `Master files are limited to ${MAX_MASTER_FILE_RECORDS} records (and ${MAX_MASTER_FILE_BYTES / 1024 / 1024} MiB); this one has more (line ${parsed.errors[0]!.line} holds record ${MAX_MASTER_FILE_RECORDS + 1}). Nothing was written.`,
    );
  }
  if (!parsed.ok) {
    const errors = parsed.errors.map((e) => ({ field: e.line > 0 ? `line ${e.line}` : "file", line: e.line, message: e.message }));
    throw new ApiError("validation_failed", `The master file has ${errors.length} bad line${errors.length === 1 ? "" : "s"}; nothing was written.`, { errors });
  }
  const { origin, soa, defaultTtl, records: parsedRecords } = parsed.zone;
  const problems = masterFileProblems(origin, parsedRecords);
  if (problems.length > 0) {
    const detail =
      problems.length === 1 ? `${problems[0]!.message}; nothing was written.` : `The master file has ${problems.length} bad lines; nothing was written.`;
    throw new ApiError("validation_failed", detail, { errors: problems });
  }
  const firstNs = parsedRecords.find((r) => r.fqdn === origin && r.type === "NS")!.content.replace(/\.$/, "");
  const chunks = recordChunks(
    (function* () {
      for (const r of parsedRecords) yield { name: relativeOwnerName(r.fqdn, origin), type: r.type, content: r.content, ttl: r.ttl };
    })(),
  );
  return { origin, soa, defaultTtl, firstNs, chunks };
}

async function importMasterFile(c: Context<AppEnv>, nameParam: string | undefined): Promise<ZoneWithLinks> {
  // The decoded text goes straight into planImport: nothing here keeps it alive afterwards.
  const plan = planImport(
    requestText(
      c,
      () =>
        new ApiError("validation_failed", "The master file is not UTF-8 text; nothing was written.", {
          errors: [{ field: "file", line: 0, message: "is not valid UTF-8" }],
        }),
    ),
    nameParam,
  );
  const { origin, soa } = plan;
  const db = c.get("db");
  const accountId = callerAccount(c);
  // Zone names are one namespace across accounts (contract §11).
  const existing = await findZone(c.get("dbAllAccounts") ?? db, { kind: "name", name: origin }).get();
  if (existing) throw new ApiError("already_exists", `The zone ${origin} already exists${existing.accountId === accountId ? ` (${existing.id})` : ""}.`);
  const now = new Date();
  const zoneSoa: SoaFields = soa ?? { mname: plan.firstNs, rname: `hostmaster.${origin}`, serial: initialSerial(now), ...DEFAULT_SOA_TIMERS };
  const zone = zoneRow(origin, plan.defaultTtl ?? soa?.ttl ?? DEFAULT_TTL, zoneSoa, now, accountId);
  return insertZone(db, zone, plan.chunks, now, actorOf(c));
}

function zoneFilters(query: { account?: string | undefined; name?: string | undefined; q?: string | undefined; domain?: string | undefined }): ZoneFilters {
  const errors: FieldError[] = [];
  let name: string | undefined;
  if (query.name !== undefined) {
    const normalized = normalizeZoneName(query.name);
    if (normalized.ok) name = normalized.name;
    else errors.push({ field: "name", message: `"${query.name}" ${normalized.error}` });
  }
  const domain = refParam(query.domain, "domain", "domain", errors);
  if (errors.length > 0) throw queryError(errors);
  return { account: query.account, name, q: query.q, domain };
}

export const zonesRouter = createRouter()
  .openapi(routes.listZones, async (c) => {
    const query = c.req.valid("query");
    const filters = zoneFilters(query);
    const page = await pageRequest(c, query);
    const rows = await listZones(c.get("db"), filters, page);
    return c.json(await pageResponse(c, page, rows, (r) => ({ key: null, id: r.id }), presentZone), 200);
  })
  .openapi(routes.getZone, async (c) => {
    const segment = c.req.valid("param").zone;
    const db = c.get("db");
    const zone = await findZone(db, resourceRef(segment, "zone")).get();
    if (!zone) throw notFound("zone", segment);
    const body = presentZone(zone);
    const masterFile = wantsMasterFile(c.req.header("accept"));
    // Each representation has its own ETag (RFC 9110 §8.8.3). The master file changes only
    // with the zone's version (every record write bumps it), so its tag needs no rendering.
    const etag = masterFile ? `"${zone.version}-dns-${zone.soaSerial}"` : entityTag(zone.version, body);
    c.header("ETag", etag);
    c.header("Vary", "Accept");
    if (noneMatchHits(c.req.header("if-none-match"), etag)) return c.body(null, 304) as never;
    if (masterFile) {
      const pieces = await zoneMasterFilePieces(db, zone);
      return c.body(masterFileStream(pieces), 200, { "Content-Type": `${MASTER_FILE_MEDIA_TYPE}; charset=utf-8` });
    }
    return c.json(body, 200);
  })
  .openapi(routes.createZone, async (c) => {
    const isMasterFile = mediaTypeOf(c.req.header("content-type")) === MASTER_FILE_MEDIA_TYPE;
    const { name } = c.req.valid("query");
    if (!isMasterFile && name !== undefined) {
      throw new ApiError("invalid_query", "`name` is for master-file imports (Content-Type: text/dns); give the name in the JSON body.", {
        errors: [{ field: "name", message: "is only taken with a text/dns body" }],
      });
    }
    const zone = isMasterFile ? await importMasterFile(c, name) : await createFromJson(c, c.req.valid("json") as ZoneCreate);
    return sendWritten(c, presentZone(zone), zone.version, 201, `/v1/zones/${zone.id}`);
  })
  .openapi(routes.updateZone, async (c) => {
    const segment = c.req.valid("param").zone;
    const patch = c.req.valid("json");
    const db = c.get("db");
    const ref = resourceRef(segment, "zone");
    const updated = await withVersionRetry(c, async () => {
      const current = await findZone(db, ref).get();
      if (!current) throw notFound("zone", segment);
      checkIfMatch(c, current.version, presentZone(current));
      const soa = mergeSoa(
        {
          mname: current.soaMname,
          rname: current.soaRname,
          refresh: current.soaRefresh,
          retry: current.soaRetry,
          expire: current.soaExpire,
          minimum: current.soaMinimum,
        },
        patch.soa,
      );
      const fields = {
        defaultTtl: patch.default_ttl ?? current.defaultTtl,
        soaMname: soa.mname,
        soaRname: soa.rname,
        soaRefresh: soa.refresh,
        soaRetry: soa.retry,
        soaExpire: soa.expire,
        soaMinimum: soa.minimum,
      };
      const unchanged = (Object.keys(fields) as (keyof typeof fields)[]).every((k) => fields[k] === current[k]);
      if (unchanged) return current;
      const now = new Date();
      const [[row]] = await db.batch([
        touchZone(db, current.id, now, { expectedVersion: current.version, fields }).returning(),
        eventInsert(
          db,
          {
            at: now.toISOString(),
            actor: actorOf(c),
            account: current.accountId,
            type: "zone",
            id: current.id,
            operation: "update",
            before: presentZone(current),
            after: presentZone({ ...current, ...fields, version: current.version + 1, updatedAt: now.toISOString() }),
          },
          {
            onlyIf: previousStatementChanged,
            // The serial is computed in SQL (db/zones.ts touchZone).
            afterFromDatabase: { "$.soa.serial": sql`select z.soa_serial from zones z where z.id = ${current.id}` },
          },
        ),
      ]);
      return { ...row!, domainId: current.domainId };
    });
    return sendWritten(c, presentZone(updated), updated.version, 200);
  })
  .openapi(routes.deleteZone, async (c) => {
    const segment = c.req.valid("param").zone;
    const db = c.get("db");
    const ref = resourceRef(segment, "zone");
    await withVersionRetry(c, async () => {
      const current = await findZone(db, ref).get();
      if (!current) throw notFound("zone", segment);
      checkIfMatch(c, current.version, presentZone(current));
      // Every record write raises the zone's version, so the version guard below also
      // makes sure the records read here are the ones deleted.
      const before = await zoneBeforeDelete(db, current);
      // The records go with the zone (ON DELETE CASCADE), atomically; one event stands for all.
      const [result] = await db.batch([
        db.delete(zones).where(and(eq(zones.id, current.id), eq(zones.version, current.version))),
        eventInsert(
          db,
          {
            at: new Date().toISOString(),
            actor: actorOf(c),
            account: current.accountId,
            type: "zone",
            id: current.id,
            operation: "delete",
            before,
            after: null,
          },
          { onlyIf: previousStatementChanged },
        ),
      ]);
      if (result.meta.changes === 0) throw new VersionConflict();
    });
    return c.body(null, 204);
  });
