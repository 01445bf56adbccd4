// Optimistic concurrency for read-modify-write handlers (RFC 9110 §13.1.1). A write that
// lost a race (the row's version moved on, see drizzle/0002_version_guards.sql, or a
// guard of its batch found the world changed, src/db/guards.ts) reads again and decides
// again: with If-Match, that new read answers 412 if the resource itself changed (and
// only then: a guard may fail while the resource is as the client saw it); without it,
// the client asked for its change on whatever is current.
import type { Context } from "hono";
import { writeFailure } from "../db/errors";
import { ApiError } from "./problem";

const ATTEMPTS = 8;
/** Contention that outlasts 8 attempts is a burst; a second is plenty for it to pass. */
const WRITE_CONFLICT_RETRY_AFTER_SECONDS = "1";

export async function withVersionRetry<T>(_c: Context, attempt: () => Promise<T>): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (writeFailure(error) !== "version_conflict") throw error;
      // 412 belongs to conditional requests (RFC 9110 §13.1.1), and those get it from the
      // If-Match check of the next attempt; contention that outlasts the retries is 409.
      if (i >= ATTEMPTS) throw writeConflict();
      // A short random pause spreads out writers that keep colliding.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * i));
    }
  }
}

/** Thrown by a handler whose conditional write matched no row because the version moved on. */
export class VersionConflict extends Error {
  constructor() {
    super("version_conflict");
    this.name = "VersionConflict";
  }
}

/** Other writes to the same resources kept committing first, through every retry. */
export function writeConflict(): ApiError {
  return new ApiError("write_conflict", "Other writes to this resource kept committing first while this one retried; try again shortly.", {
    headers: { "Retry-After": WRITE_CONFLICT_RETRY_AFTER_SECONDS },
  });
}
