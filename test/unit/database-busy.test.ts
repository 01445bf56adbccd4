// What counts as a locked database (src/db/errors.ts databaseBusy), and how a call that
// meets one is tried again (src/db/client.ts retryWhileBusy). Through the Worker:
// test/database-busy.test.ts; with a real lock: scripts/safety-e2e.mjs.
import { DrizzleQueryError } from "drizzle-orm/errors";
import { describe, expect, it } from "vitest";
import { BUSY_RETRY_PAUSES_MS, retryWhileBusy } from "../../src/db/client";
import { databaseBusy } from "../../src/db/errors";

const LOCAL_LOCKED = "Failed to parse body as JSON, got: Error: internal error; reference = dcvr401qe1cfq0p0vrnlcu1q";

describe("a locked database is recognised by D1's words, or by the local D1's internal error, never by what a client wrote", () => {
  it("D1's words: SQLITE_BUSY, database is locked", () => {
    expect(databaseBusy(new Error("D1_ERROR: database is locked: SQLITE_BUSY"))).toBe(true);
    expect(databaseBusy(new Error("SQLITE_BUSY"))).toBe(true);
  });

  it("the local D1's internal error with a reference (workerd logs the SQLITE_BUSY under it)", () => {
    expect(databaseBusy(new Error(LOCAL_LOCKED))).toBe(true);
  });

  it("inside drizzle's wrapper, as the handlers see it", () => {
    expect(databaseBusy(new DrizzleQueryError("insert into zones …", [], new Error(LOCAL_LOCKED)))).toBe(true);
  });

  it("not a failed query whose statement or values quote those words", () => {
    const quoting = new DrizzleQueryError(
      "insert into records (content) values (?)",
      ['"database is locked: SQLITE_BUSY"'],
      new Error("D1_ERROR: UNIQUE constraint failed"),
    );
    expect(databaseBusy(quoting)).toBe(false);
  });

  it("not any other error", () => {
    expect(databaseBusy(new Error("D1_ERROR: UNIQUE constraint failed: zones.name: SQLITE_CONSTRAINT"))).toBe(false);
    expect(databaseBusy(new Error("D1_ERROR: internal error"))).toBe(false);
    expect(databaseBusy("database is locked")).toBe(false);
  });
});

describe("a call that meets a locked database is tried again after each pause, then fails as it did", () => {
  it("the pauses are short and bounded: five, under a second in all", () => {
    expect(BUSY_RETRY_PAUSES_MS).toHaveLength(5);
    expect(BUSY_RETRY_PAUSES_MS.reduce((sum, pause) => sum + pause, 0)).toBeLessThan(1_000);
  });

  it("a lock that goes before the last pause: the call's result, after as many tries as it took", async () => {
    let calls = 0;
    const result = await retryWhileBusy(async () => {
      calls++;
      if (calls < 3) throw new Error(LOCAL_LOCKED);
      return "rows";
    }, [0, 0, 0]);
    expect(result).toBe("rows");
    expect(calls).toBe(3);
  });

  it("a lock that outlasts every pause: the last error, after one try more than there are pauses", async () => {
    let calls = 0;
    const failing = retryWhileBusy(async () => {
      calls++;
      throw new Error("D1_ERROR: database is locked: SQLITE_BUSY");
    }, [0, 0]);
    await expect(failing).rejects.toThrow("database is locked");
    expect(calls).toBe(3);
  });

  it("any other error at once, not tried again", async () => {
    let calls = 0;
    const failing = retryWhileBusy(async () => {
      calls++;
      throw new Error("D1_ERROR: UNIQUE constraint failed: zones.name");
    }, [0, 0]);
    await expect(failing).rejects.toThrow("UNIQUE constraint failed");
    expect(calls).toBe(1);
  });
});
