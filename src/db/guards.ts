// Guards: a rule a write checked on what it read, checked again by the database at the
// write's turn in its batch. Between a writer's reads and its batch another request may
// commit (delete a host the domain names, clear the city of a contact it makes its
// registrant); a guard makes the batch fail then, instead of committing what the check
// would have refused. A failed guard is a lost race (src/db/write.ts): the whole batch
// rolls back, and the writer reads again and decides again, as when the row itself
// changed meanwhile: the second attempt sees the new state and answers from it (a 422, or
// a write that fits).
import type { SQL } from "drizzle-orm";
import type { Database } from "./client";
import { assertion, type Statement } from "./write";

/** The statement that fails its batch unless `holds` is true at its turn; `rule` says what it checks. */
export function guard(db: Database, rule: string, holds: SQL): Statement {
  return assertion(db, rule, holds);
}
