// Writing a zone as an RFC 1035 master file that BIND's named-checkzone accepts and
// `parseMasterFile` reads back to the same records: $ORIGIN, $TTL, the SOA on one line,
// then every record with its owner relative to the zone, explicit TTL and class IN.
import { compareReversedLabels, reversedLabels } from "../name-order";
import { isRecordType, RECORD_TYPE_CODES } from "../rdata";
import type { ZoneToRender } from "./types";

type RecordToRender = ZoneToRender["records"][number];

interface SortKey {
  labels: string[];
  typeRank: number;
  record: RecordToRender;
}

/** NS first (the delegation reads first), then by type code as RFC 4034 §6.3 orders RRsets. */
function typeRank(type: string): number {
  const upper = type.toUpperCase();
  if (upper === "NS") return -1;
  return isRecordType(upper) ? RECORD_TYPE_CODES[upper] : 65536;
}

/** Owner in canonical name order (RFC 4034 §6.1, the apex first), then type, then content. */
function compareKeys(a: SortKey, b: SortKey): number {
  return (
    compareReversedLabels(a.labels, b.labels) ||
    a.typeRank - b.typeRank ||
    (a.record.type < b.record.type ? -1 : a.record.type > b.record.type ? 1 : 0) ||
    (a.record.content < b.record.content ? -1 : a.record.content > b.record.content ? 1 : 0)
  );
}

function ownerText(name: string): string {
  return name === "" ? "@" : name;
}

export function renderMasterFile(zone: ZoneToRender): string {
  const { soa } = zone;
  const lines = [
    `$ORIGIN ${zone.name}.`,
    `$TTL ${zone.defaultTtl}`,
    `@ ${zone.soaTtl ?? zone.defaultTtl} IN SOA ${soa.mname}. ${soa.rname}. ${soa.serial} ${soa.refresh} ${soa.retry} ${soa.expire} ${soa.minimum}`,
  ];
  const keys: SortKey[] = zone.records.map((record) => ({
    labels: reversedLabels(record.name),
    typeRank: typeRank(record.type),
    record,
  }));
  keys.sort(compareKeys);
  for (const { record } of keys) {
    lines.push(`${ownerText(record.name)} ${record.ttl} IN ${record.type.toUpperCase()} ${record.content}`);
  }
  return `${lines.join("\n")}\n`;
}
