import { describe, expect, it } from "vitest";
import { type MigrationRun, onceMoreIfInternal } from "../../scripts/lib/migrations-retry.mjs";

// npm start applies the local D1 migrations with wrangler (scripts/lib/wrangler.mjs); a run
// that fails in wrangler itself is tried once more, one that fails in a migration is not.

const INTERNAL = "┌ 0000_schema.sql │ ❌ ┐\n✘ [ERROR] Migration 0000_schema.sql failed with the following errors:\n✘ [ERROR] false == true\n";
const SQL_FAULT = "✘ [ERROR] Migration 0030_x.sql failed with the following errors:\nD1_ERROR: no such table: nope: SQLITE_ERROR\n";

function runs(...results: MigrationRun[]) {
  const calls: number[] = [];
  const attempt = async () => {
    calls.push(calls.length);
    return results[calls.length - 1]!;
  };
  return { attempt, calls };
}

const failed = (output: string, extra: Partial<MigrationRun> = {}): MigrationRun => ({ ok: false, code: 1, output, applied: [], ...extra });
const applied = (names: string[]): MigrationRun => ({ ok: true, code: 0, output: "ok", applied: names });

describe("the local migrations are tried once more only after a failure of wrangler's own", () => {
  it("a run that succeeds is not repeated", async () => {
    const { attempt, calls } = runs(applied(["0000_schema.sql"]));
    expect(await onceMoreIfInternal(attempt)).toEqual(applied(["0000_schema.sql"]));
    expect(calls).toHaveLength(1);
  });

  it("an internal failure (wrangler's 'false == true') is tried again: the second run's result, the first's output as retried", async () => {
    const { attempt, calls } = runs(failed(INTERNAL), applied(["0000_schema.sql", "0001_catalog.sql"]));
    expect(await onceMoreIfInternal(attempt)).toEqual({ ok: true, code: 0, output: "ok", applied: ["0000_schema.sql", "0001_catalog.sql"], retried: INTERNAL });
    expect(calls).toHaveLength(2);
  });

  it("what the first run applied before failing is counted with the second's", async () => {
    const { attempt } = runs(failed(INTERNAL, { applied: ["0000_schema.sql"] }), applied(["0001_catalog.sql"]));
    expect((await onceMoreIfInternal(attempt)).applied).toEqual(["0000_schema.sql", "0001_catalog.sql"]);
  });

  it("two internal failures: not ok, with both outputs, tried twice only", async () => {
    const { attempt, calls } = runs(failed(INTERNAL), failed("second\n"), applied([]));
    const result = await onceMoreIfInternal(attempt);
    expect(result.ok).toBe(false);
    expect(result.output).toBe(`${INTERNAL.trimEnd()}\n[migrations] tried again after that failure:\nsecond\n`);
    expect(calls).toHaveLength(2);
  });

  it("a fault in a migration's SQL (SQLITE_…) is not tried again", async () => {
    const { attempt, calls } = runs(failed(SQL_FAULT), applied([]));
    expect(await onceMoreIfInternal(attempt)).toEqual(failed(SQL_FAULT));
    expect(calls).toHaveLength(1);
  });

  it("a run ended by a signal, or a caller asked to stop, is not tried again", async () => {
    const signalled = runs(failed(INTERNAL, { signalled: true }), applied([]));
    expect((await onceMoreIfInternal(signalled.attempt)).ok).toBe(false);
    expect(signalled.calls).toHaveLength(1);
    const stopping = runs(failed(INTERNAL), applied([]));
    expect((await onceMoreIfInternal(stopping.attempt, () => true)).ok).toBe(false);
    expect(stopping.calls).toHaveLength(1);
  });
});
