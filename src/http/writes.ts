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

export async function withVersionRetry<T>(c: Context, attempt: () => Promise<T>): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (writeFailure(error) !== "version_conflict") throw error;
      if (i >= ATTEMPTS) {
        throw new ApiError("precondition_failed", "The resource changed while this request was writing it; read it again and retry.");
      }
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
