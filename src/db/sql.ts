import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { normalizeName } from "../dns/name";

/**
 * `column` contains one of `needles` (lowercase text against a lowercase column). `instr`
 * rather than LIKE: it has no wildcards to escape and no pattern length limit (D1 refuses
 * LIKE patterns over 50 bytes); neither can use an index for a substring.
 */
export function containsAny(column: SQLiteColumn, needles: readonly string[]): SQL {
  return sql`(${sql.join(
    needles.map((needle) => sql`instr(${column}, ${needle}) > 0`),
    sql` or `,
  )})`;
}

/** A person's name (stored lowercased in `*_key`) contains `q`, case-insensitively. */
export function textContaining(column: SQLiteColumn, q: string): SQL {
  return containsAny(column, [q.toLowerCase()]);
}

/**
 * A DNS name (stored as lowercase A-labels) contains `q`, typed either way: as A-labels
 * (`xn--mnchen-3ya`, or any part of one) or in Unicode (`München`). Each dot-separated
 * part of `q` that has non-ASCII characters is converted as a label (UTS #46, as names in
 * bodies are) and the converted text is searched too. A part of a Unicode label (`ünch`)
 * has no A-label of its own inside the whole label's, so Unicode parts match whole labels
 * (`münchen`, `münchen.de`, `ns1.münchen`).
 */
export function nameContaining(column: SQLiteColumn, q: string): SQL {
  const lower = q.toLowerCase();
  const needles = [lower];
  if (/[^\x00-\x7f]/.test(lower)) {
    const parts = lower.split(".").map((part) => {
      if (!/[^\x00-\x7f]/.test(part)) return part;
      const label = normalizeName(part, { underscore: true });
      return label.ok ? label.name : null;
    });
    if (parts.every((part) => part !== null)) {
      const aLabels = parts.join(".");
      if (aLabels !== lower) needles.push(aLabels);
    }
  }
  return containsAny(column, needles);
}
