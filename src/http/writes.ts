// The problems of a write that could not commit. Optimistic concurrency for requests (RFC
// 9110 §13.1.1): a write that lost a race (the row's version moved on, or a guard of its
// batch found the world changed) reads again and decides again (`retryLostRaces`,
// src/db/write.ts): with If-Match, that new read answers 412 if the resource itself
// changed (and only then: a guard may fail while the resource is as the client saw it);
// without it, the client asked for its change on whatever is current. Contention that
// outlasts the attempts is the routine's `WriteContention`, which the app answers as 409
// write_conflict (below): 412 belongs to conditional requests.
import { ApiError } from "./problem";

/** Contention that outlasts 8 attempts is a burst; a second is plenty for it to pass. */
const WRITE_CONFLICT_RETRY_AFTER_SECONDS = "1";

/** Other writes to the same resources kept committing first, through every retry. */
export function writeConflict(): ApiError {
  return new ApiError("write_conflict", "Other writes to this resource kept committing first while this one retried; try again shortly.", {
    headers: { "Retry-After": WRITE_CONFLICT_RETRY_AFTER_SECONDS },
  });
}

/** Seconds before a request refused 503 database_busy is tried again: the other program's write is done by then, as a rule. */
const DATABASE_BUSY_RETRY_AFTER_SECONDS = "1";

/** Another program kept the database locked through every retry; nothing was written. */
export function databaseBusyProblem(): ApiError {
  return new ApiError(
    "database_busy",
    "The database was locked by another program through every retry of this request; nothing was written. Try again shortly.",
    {
      headers: { "Retry-After": DATABASE_BUSY_RETRY_AFTER_SECONDS },
    },
  );
}
