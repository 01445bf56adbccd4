// Writing a zone as an RFC 1035 master file that BIND's named-checkzone accepts and
// `parseMasterFile` reads back to the same records: $ORIGIN, $TTL, the SOA on one line,
// then every record with its owner relative to the zone, explicit TTL and class IN.
import { compareReversedLabels, reversedLabels } from "../name-order";
import { recordTypeOf, typeCode } from "../rdata";
import type { ZoneToRender } from "./types";

type RecordToRender = ZoneToRender["records"][number];

/** Lines per piece of `renderMasterFilePieces`: a piece is tens of kB, whatever the zone. */
const LINES_PER_PIECE = 1000;

/** NS first (the delegation reads first), then by type code as RFC 4034 §6.3 orders RRsets. */
function typeRank(type: string): number {
  if (type.toUpperCase() === "NS") return -1;
  const stored = recordTypeOf(type);
  return stored.ok ? typeCode(stored.type) : 65536;
}

/** A name in SOA RDATA, absolute: "." stays the root. */
function absolute(name: string): string {
  return name === "." ? "." : `${name}.`;
}

/**
 * Owner in canonical name order (RFC 4034 §6.1, the apex first), then type, then content.
 * The labels and rank are computed once per owner name and type, not once per record.
 */
function canonicalOrder(): (a: RecordToRender, b: RecordToRender) => number {
  const labels = new Map<string, string[]>();
  const ranks = new Map<string, number>();
  const labelsOf = (name: string) => {
    let found = labels.get(name);
    if (!found) labels.set(name, (found = reversedLabels(name)));
    return found;
  };
  const rankOf = (type: string) => {
    let found = ranks.get(type);
    if (found === undefined) ranks.set(type, (found = typeRank(type)));
    return found;
  };
  return (a, b) =>
    (a.name === b.name ? 0 : compareReversedLabels(labelsOf(a.name), labelsOf(b.name))) ||
    rankOf(a.type) - rankOf(b.type) ||
    (a.type < b.type ? -1 : a.type > b.type ? 1 : 0) ||
    (a.content < b.content ? -1 : a.content > b.content ? 1 : 0);
}

function ownerText(name: string): string {
  return name === "" ? "@" : name;
}

const encoder = new TextEncoder();

function utf8Length(text: string): number {
  // Names, types and most RDATA are ASCII: their length is their byte count.
  return /^[\x00-\x7f]*$/.test(text) ? text.length : encoder.encode(text).byteLength;
}

/**
 * The bytes of a record's line as `renderMasterFilePieces` writes it (`owner ttl IN TYPE
 * content` and a newline). A zone's total is kept by the database in the same terms
 * (zones.record_bytes, drizzle/0028), which bounds what its export can grow to.
 */
export function recordLineBytes(record: RecordToRender): number {
  return utf8Length(ownerText(record.name)) + String(record.ttl).length + record.type.length + utf8Length(record.content) + 7;
}

/**
 * The master file in pieces of LINES_PER_PIECE lines, in order: an export streams them, so
 * a zone of any size is never one string (nor one array of lines) in memory.
 */
export function* renderMasterFilePieces(zone: ZoneToRender): Generator<string> {
  const { soa } = zone;
  yield `$ORIGIN ${zone.name}.\n$TTL ${zone.defaultTtl}\n@ ${zone.soaTtl ?? zone.defaultTtl} IN SOA ${absolute(soa.mname)} ${absolute(soa.rname)} ${soa.serial} ${soa.refresh} ${soa.retry} ${soa.expire} ${soa.minimum}\n`;
  const sorted = zone.records.slice().sort(canonicalOrder());
  for (let start = 0; start < sorted.length; start += LINES_PER_PIECE) {
    let piece = "";
    for (const record of sorted.slice(start, start + LINES_PER_PIECE)) {
      piece += `${ownerText(record.name)} ${record.ttl} IN ${record.type.toUpperCase()} ${record.content}\n`;
    }
    yield piece;
  }
}

export function renderMasterFile(zone: ZoneToRender): string {
  let text = "";
  for (const piece of renderMasterFilePieces(zone)) text += piece;
  return text;
}
