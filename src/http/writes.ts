// Optimistic concurrency for requests (RFC 9110 §13.1.1). A write that lost a race (the
// row's version moved on, or a guard of its batch found the world changed: src/db/write.ts)
// reads again and decides again: with If-Match, that new read answers 412 if the resource
// itself changed (and only then: a guard may fail while the resource is as the client saw
// it); without it, the client asked for its change on whatever is current.
import { retryLostRaces } from "../db/write";
import { ApiError } from "./problem";

/** Contention that outlasts 8 attempts is a burst; a second is plenty for it to pass. */
const WRITE_CONFLICT_RETRY_AFTER_SECONDS = "1";

/**
 * Runs a request's read-decide-commit again while it loses races; contention that
 * outlasts the attempts is the routine's `WriteContention`, which the app answers as 409
 * write_conflict (`writeConflict`): 412 belongs to conditional requests, and those get it
 * from the If-Match check of the next attempt.
 */
export function withVersionRetry<T>(attempt: () => Promise<T>): Promise<T> {
  return retryLostRaces(attempt);
}

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
