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
 * How a locked database reaches the Worker. D1 names it (SQLITE_BUSY, "database is
 * locked"); the local D1 of `npm start` does not: workerd logs "database is locked:
 * SQLITE_BUSY" under a reference and hands the Worker only "internal error; reference =
 * …", which miniflare's D1 object answers for its storage's failed commit (the object is
 * reset, nothing of the batch kept). That local wording is taken as busy too: a deployed
 * D1 never answers it.
 */
const BUSY = /SQLITE_BUSY|database is locked|Failed to parse body as JSON, got: Error: internal error; reference = /i;

/**
 * The database was locked by another writer: the statement, or the whole batch, did
 * nothing and may be run again (src/db/client.ts waits and retries; what stays busy is 503).
 */
export function databaseBusy(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; depth++, e = (e as { cause?: unknown }).cause) {
    // Drizzle's wrapper quotes the statement and its values, which a client wrote: only D1's own words count.
    if (!e.message.startsWith("Failed query:") && BUSY.test(e.message)) return true;
  }
  return false;
}

/**
 * A write the zone size limit refused (drizzle/0028: a zone's record lines may take at most
 * MAX_ZONE_RECORD_BYTES): not a conflict to retry, a 422 (src/app.ts).
 */
export function zoneTooLarge(error: unknown): boolean {
  return messages(error).includes("zone_too_large");
}
