// A record as a zone takes it (RFC 1035 §3.2, RFC 2181): an owner name inside the zone,
// a supported type other than SOA (the zone owns its SOA), RDATA in canonical form, and
// the owner rules of its type. Pure: the caller gives the zone's name and the draft.
import { resolveOwnerName } from "./name";
import { canonicalRdata, rdataNames, recordTypeOf, type StoredType } from "./rdata";
import { apexProblem, ownerNameProblem, targetNameProblem } from "./rrset-rules";

/** One field of a record draft and what is wrong with it (the API's `errors[]` shape). */
export interface RecordFieldError {
  field: "name" | "type" | "content";
  message: string;
}

/** A record checked and made canonical: its owner relative to the zone (`@` for the apex). */
export interface CheckedRecord {
  name: string;
  type: StoredType;
  content: string;
}

/** The type a record created here stores (`TYPE1` is A, RFC 3597 §5), or why `input` cannot be one. */
export function recordType(input: string): { ok: true; type: StoredType } | { ok: false; error: string } {
  const type = recordTypeOf(input);
  if (type.ok) return type;
  if (type.kind === "soa") return { ok: false, error: "SOA records cannot be created: the zone owns its SOA (PATCH /v1/zones/{zone} to change it)" };
  return { ok: false, error: type.error };
}

/** Why `input` cannot be the type of a record created here, or null. */
export function recordTypeProblem(input: string): string | null {
  const type = recordType(input);
  return type.ok ? null : type.error;
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
  const checkedType = recordType(draft.type);
  if (!checkedType.ok) errors.push({ field: "type", message: checkedType.error });
  const type = checkedType.ok ? checkedType.type : (draft.type.toUpperCase() as StoredType);
  let content = draft.content;
  if (checkedType.ok) {
    const rdata = canonicalRdata(type, draft.content, null);
    if (rdata.ok) content = rdata.content;
    else errors.push({ field: "content", message: rdata.error });
    const targetProblem = rdata.ok && owner.ok ? targetNameProblem(type, owner.fqdn, rdataNames(type, content)) : null;
    if (targetProblem) errors.push({ field: "content", message: targetProblem });
    if (owner.ok && owner.relative === "@") {
      const apex = apexProblem(type);
      if (apex) errors.push({ field: "type", message: apex });
    }
    const ownerProblem = owner.ok ? ownerNameProblem(type, owner.fqdn) : null;
    if (ownerProblem) errors.push({ field: "name", message: ownerProblem });
  }
  return { record: { name: owner.ok ? owner.relative : "@", type, content }, errors };
}
