import type { Context } from "hono";
import type { ZoneWithLinks } from "../../db/zones";
import { absoluteOwnerName, resolveOwnerName } from "../../dns/name";
import { canonicalRdata, type StoredType } from "../../dns/rdata";
import { checkRecord, recordType } from "../../dns/record";
import type { RrsetChange } from "../../dns/rrset-changes";
import { newIntegrityProblems, type ZoneRecordRef } from "../../dns/zone-integrity";
import { recordWriteRefusal } from "../../access/token-rights";
import type { AppEnv } from "../../env";
import { ApiError, type FieldError, validationError } from "../../http/problem";
import type { RecordWithZone } from "./queries";
import type { ZoneChanges } from "./schemas";
import type { Plan } from "./changes-plan";

export type ChangeInput = ZoneChanges["changes"][number];

/** The changes with owner names relative to the zone and contents canonical, or the 422 that lists every bad field. */
export function checkedChanges(zone: string, input: readonly ChangeInput[]): RrsetChange[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  const problem = (field: string, message: string) => {
    const key = `${field}\n${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    errors.push({ field, message });
  };
  const changes = input.map((change, i): RrsetChange => {
    const at = `changes[${i}]`;
    const owner = resolveOwnerName(change.name, zone);
    if (!owner.ok) problem(`${at}.name`, `"${change.name}" ${owner.error}`);
    // The schema checked the type already; a record stores TYPE1 as A (RFC 3597 §5).
    const checkedType = recordType(change.type);
    const type = (checkedType.ok ? checkedType.type : change.type.toUpperCase()) as StoredType;
    const contents: string[] = [];
    for (const [j, content] of (change.contents ?? []).entries()) {
      if (change.action === "remove") {
        // What is taken out only has to be readable: it is compared with what is stored.
        const rdata = canonicalRdata(type, content, null);
        if (rdata.ok) contents.push(rdata.content);
        else problem(`${at}.contents[${j}]`, rdata.error);
        continue;
      }
      // What is put in is a record of the zone, checked as a created record is.
      const { record, errors: found } = checkRecord(zone, { name: change.name, type: change.type, content });
      for (const e of found) problem(e.field === "content" ? `${at}.contents[${j}]` : `${at}.${e.field}`, e.message);
      contents.push(record.content);
    }
    return { action: change.action, name: owner.ok ? owner.relative : "@", type, contents, ttl: change.ttl };
  });
  if (errors.length > 0) throw validationError(errors);
  return changes;
}

/** A token's `records` rules hold for every name and type a change touches (403 naming each change refused). */
export function requireChangeRights(c: Context<AppEnv>, changes: readonly RrsetChange[]): void {
  const rights = c.get("principal").rights;
  if (!rights) return;
  const refused = changes.flatMap((change, i) => {
    const refusal = recordWriteRefusal(rights, change.name, change.type);
    return refusal ? [{ field: `changes[${i}]`, message: refusal }] : [];
  });
  if (refused.length === 0) return;
  const [first] = refused;
  const more = refused.length > 1 ? ` (${refused.length} changes are refused; errors lists them)` : "";
  throw new ApiError("forbidden", `${first!.field}: ${first!.message}${more}`, { errors: refused });
}

/** 409 rrset_conflict naming each change whose outcome breaks the rules at a name. */
export function conflict(problems: readonly { field: string; message: string }[]): ApiError {
  const [first] = problems;
  const detail = problems.length === 1 ? `${first!.field}: ${first!.message}.` : `${problems.length} changes break DNS rules; errors lists them.`;
  return new ApiError("rrset_conflict", detail, { errors: [...problems] });
}

/**
 * The zone as the changes leave it must load in BIND (src/dns/zone-integrity.ts), checked
 * on the whole zone: a record a change puts in that breaks is that change's 422; another
 * record that would break is a 409 naming it. Faults the zone already had are not these.
 */
export function assertIntegrity(zone: ZoneWithLinks, current: readonly RecordWithZone[], planned: Plan): void {
  const ref = (r: RecordWithZone): ZoneRecordRef => ({ fqdn: absoluteOwnerName(r.name, zone.name), type: r.type, content: r.content });
  const deleted = new Set(planned.deleted.map((r) => r.id));
  const createdRefs = new Map(planned.created.map((created) => [ref(created.row), created] as const));
  const before = current.map(ref);
  const after = [...current.filter((r) => !deleted.has(r.id)).map(ref), ...createdRefs.keys()];
  const problems = newIntegrityProblems(zone.name, before, after);
  if (problems.length === 0) return;
  const errors: FieldError[] = problems.map(({ record, message }) => {
    const created = createdRefs.get(record);
    if (created) return { field: `changes[${created.change}].contents[${created.content}]`, message };
    return { field: "changes", message: `the ${record.type} record at ${record.fqdn} (${record.content}) would break: ${message}` };
  });
  if (problems.some(({ record }) => createdRefs.has(record))) throw validationError(errors);
  throw conflict(errors);
}
