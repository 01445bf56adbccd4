// POST /v1/zones with a master file (text/dns): the file read and checked, all or nothing,
// into what a zone creation writes (src/resources/zones/create.ts).
import { type MasterFileError, parseMasterFile, type MasterFileRecord, recordLineBytes, type SoaFields } from "../../dns/master-file";
import { relativeOwnerName } from "../../dns/name";
import { ownerNameProblem } from "../../dns/rrset-rules";
import { ApiError, type FieldError } from "../../http/problem";
import { MAX_MASTER_FILE_BYTES, MAX_MASTER_FILE_RECORDS, MAX_ZONE_RECORD_BYTES, zoneTooLargeMessage } from "./master-file";
import { type RecordChunk, recordChunks } from "./new-zone";

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
export interface ImportPlan {
  origin: string;
  soa: (SoaFields & { ttl: number }) | null;
  defaultTtl: number | null;
  /** The first NS at the apex, for a SOA MNAME when the file has no SOA. */
  firstNs: string;
  chunks: RecordChunk[];
  /** The records' lines as the export will write them (zones.record_bytes, drizzle/0028). */
  recordBytes: number;
  /** What the file held that was changed or left out (RRset TTLs aligned, a signer's records). */
  warnings: MasterFileError[];
}

/**
 * Parses and checks the file and turns its records into JSON chunks. Synchronous on
 * purpose: the text and the parsed records are garbage once it returns, so only the
 * chunks stay in memory while the batch is written.
 */
export function planImport(text: string, nameParam: string | undefined): ImportPlan {
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
  const { origin, soa, defaultTtl, records: parsedRecords, warnings } = parsed.zone;
  const problems = masterFileProblems(origin, parsedRecords);
  if (problems.length > 0) {
    const detail =
      problems.length === 1 ? `${problems[0]!.message}; nothing was written.` : `The master file has ${problems.length} bad lines; nothing was written.`;
    throw new ApiError("validation_failed", detail, { errors: problems });
  }
  const firstNs = parsedRecords.find((r) => r.fqdn === origin && r.type === "NS")!.content.replace(/\.$/, "");
  // The zone's size as its export will write it (drizzle/0028 keeps the same sum): a file
  // may be shorter than its export, and the zone must export within what import takes.
  let recordBytes = 0;
  const chunks = recordChunks(
    (function* () {
      for (const r of parsedRecords) {
        const record = { name: relativeOwnerName(r.fqdn, origin), type: r.type, content: r.content, ttl: r.ttl };
        recordBytes += recordLineBytes(record);
        yield record;
      }
    })(),
  );
  if (recordBytes > MAX_ZONE_RECORD_BYTES) {
    const message = zoneTooLargeMessage(recordBytes);
    throw new ApiError("policy_violation", `${message}; nothing was written.`, { errors: [{ field: "file", message }] });
  }
  return { origin, soa, defaultTtl, firstNs, chunks, recordBytes, warnings };
}
