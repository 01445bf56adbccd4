// What a failed D1 write means. D1 reports SQLite errors as text (wrapped by drizzle), so
// the cause chain is searched for the constraint that fired.

export type WriteFailure = "unique" | "foreign_key" | "version_conflict" | "assertion_failed" | "rrset_conflict" | "apex_ns_required";

function messages(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if (e instanceof Error) {
      parts.push(e.message);
      e = (e as { cause?: unknown }).cause;
    } else {
      parts.push(String(e));
      break;
    }
  }
  return parts.join(" | ");
}

export function writeFailure(error: unknown): WriteFailure | null {
  const text = messages(error);
  if (text.includes("version_conflict")) return "version_conflict";
  // A write's assertion (src/db/write.ts): a guard, or a row that had to change and did not.
  if (text.includes("write_assertion_holds")) return "assertion_failed";
  if (text.includes("rrset_conflict")) return "rrset_conflict";
  if (text.includes("apex_ns_required")) return "apex_ns_required";
  if (text.includes("UNIQUE constraint failed") || text.includes("PRIMARY KEY constraint failed")) return "unique";
  if (text.includes("FOREIGN KEY constraint failed")) return "foreign_key";
  return null;
}

/**
 * A write the zone size limit refused (drizzle/0028: a zone's record lines may take at most
 * MAX_ZONE_RECORD_BYTES): not a conflict to retry, a 422 (src/app.ts).
 */
export function zoneTooLarge(error: unknown): boolean {
  return messages(error).includes("zone_too_large");
}
