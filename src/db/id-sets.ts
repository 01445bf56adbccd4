// Ids for a set of rows that one SQL statement writes (the records of an import, the
// events of an RRset's TTL change): the statement cannot call `newId` once per row, and
// sending one id per row from the Worker would grow the statement with the set. So the
// Worker mints a stem and the statement appends a row counter. The ids keep the shape of
// src/db/ids.ts: the prefix, 10 characters of time, then 16 that are 10 fresh random
// characters (50 bits: no other id of that millisecond shares them) and 6 of the counter,
// so the set's ids are distinct and sort in the order the statement numbers its rows.
import { sql, type SQL } from "drizzle-orm";
import { newId, ID_PREFIXES, type IdKind } from "./ids";
import { CROCKFORD } from "./ulid.js";

/** Rows one stem can number: six base-32 digits. */
export const MAX_IDS_PER_STEM = 32 ** 6;

/** The prefix, time (as `newId` would give it) and 10 fresh random characters. */
export function newIdStem(kind: IdKind, at: Date): string {
  const prefixAndTime = newId(kind, at).slice(0, ID_PREFIXES[kind].length + 10);
  const random = Array.from(crypto.getRandomValues(new Uint8Array(10)), (byte) => CROCKFORD[byte % 32]).join("");
  return prefixAndTime + random;
}

/** SQL for the id of row `n` (1-based, under MAX_IDS_PER_STEM) of the set `stem` numbers. */
export function idFromStem(stem: string, n: SQL): SQL {
  const alphabet = sql.raw(`'${CROCKFORD}'`);
  const digits = [25, 20, 15, 10, 5, 0].map((shift) => sql`substr(${alphabet}, ((${n}) >> ${sql.raw(String(shift))} & 31) + 1, 1)`);
  return sql`(${stem} || ${sql.join(digits, sql` || `)})`;
}
