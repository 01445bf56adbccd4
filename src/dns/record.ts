// A record as a zone takes it (RFC 1035 §3.2, RFC 2181): an owner name inside the zone,
// a supported type other than SOA (the zone owns its SOA), RDATA in canonical form, and
// the owner rules of its type. Pure: the caller gives the zone's name and the draft.
import { resolveOwnerName } from "./name";
import { canonicalRdata, isRecordType, RECORD_TYPES, type RecordType } from "./rdata";
import { apexProblem, ownerNameProblem } from "./rrset-rules";

/** One field of a record draft and what is wrong with it (the API's `errors[]` shape). */
export interface RecordFieldError {
  field: "name" | "type" | "content";
  message: string;
}

/** A record checked and made canonical: its owner relative to the zone (`@` for the apex). */
export interface CheckedRecord {
  name: string;
  type: RecordType;
  content: string;
}

/** Why `input` cannot be the type of a record created here, or null. */
export function recordTypeProblem(input: string): string | null {
  const type = input.toUpperCase();
  if (type === "SOA") return "SOA records cannot be created: the zone owns its SOA (PATCH /v1/zones/{zone} to change it)";
  if (!isRecordType(type)) return `"${input}" is not a supported record type; supported: ${RECORD_TYPES.join(", ")}`;
  return null;
}

/**
 * The draft as a record of `zone`: owner, type and RDATA checked and canonical, or every
 * field error found. In JSON, names inside the RDATA are absolute with or without the
 * trailing dot (no origin applies).
 */
export function checkRecord(
  zone: string,
  draft: { name?: string | undefined; type: string; content: string },
): { record: CheckedRecord; errors: RecordFieldError[] } {
  const errors: RecordFieldError[] = [];
  const owner = resolveOwnerName(draft.name, zone);
  if (!owner.ok) errors.push({ field: "name", message: `"${draft.name}" ${owner.error}` });
  const typeProblem = recordTypeProblem(draft.type);
  if (typeProblem) errors.push({ field: "type", message: typeProblem });
  const type = draft.type.toUpperCase() as RecordType;
  let content = draft.content;
  if (!typeProblem) {
    const rdata = canonicalRdata(type, draft.content, null);
    if (rdata.ok) content = rdata.content;
    else errors.push({ field: "content", message: rdata.error });
    if (owner.ok && owner.relative === "@") {
      const apex = apexProblem(type);
      if (apex) errors.push({ field: "type", message: apex });
    }
    const ownerProblem = owner.ok ? ownerNameProblem(type, owner.fqdn) : null;
    if (ownerProblem) errors.push({ field: "name", message: ownerProblem });
  }
  return { record: { name: owner.ok ? owner.relative : "@", type, content }, errors };
}
