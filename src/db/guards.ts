// Guards: a rule a write checked on what it read, checked again by the database at the
// write's turn in its batch. Between a handler's reads and its batch another request may
// commit (delete a host the domain names, clear the city of a contact it makes its
// registrant); a guard makes the batch fail then, instead of committing what the check
// would have refused.
//
// SQLite raises only inside triggers (RAISE), so a guard borrows the version triggers
// (drizzle/0002_version_guards.sql): when its condition does not hold, it moves the
// version of a row that the same batch wrote by two, which the trigger refuses with
// `version_conflict`. The whole batch rolls back, and the write routine reads again and
// decides again (src/http/writes.ts), exactly as when the row itself changed meanwhile:
// the second attempt sees the new state and answers from it (a 422, or a write that fits).
import { and, eq, not, sql, type SQL } from "drizzle-orm";
import type { Database } from "./client";
import { contacts, domains, hosts, records, zones } from "./schema";

/** Tables whose rows a guard can hold to (each has a version trigger). */
const GUARDED = { contact: contacts, domain: domains, host: hosts, record: records, zone: zones } as const;

/**
 * The statement that fails its batch unless `holds` is true at its turn. `row` must be a
 * row this batch writes before the guard, so that it exists when the guard runs.
 */
export function failUnless(db: Database, row: { type: keyof typeof GUARDED; id: string }, holds: SQL) {
  const table = GUARDED[row.type] as typeof domains;
  return db
    .update(table)
    .set({ version: sql`${table.version} + 2` })
    .where(and(eq(table.id, row.id), not(sql`coalesce((${holds}), 0)`)));
}
