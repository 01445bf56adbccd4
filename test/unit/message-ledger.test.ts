// The gateway's record of the poll messages it set aside (src/gateway/message-ledger.ts,
// docs/registries.md "Poll messages the API cannot take"): what it reads back from its state
// directory, and what it reads of a poll answer the codec could not read.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { EppResponse } from "../../src/epp/types";
import { MessageLedger, messageIdOf } from "../../src/gateway/message-ledger";

const OPTIONS = { attempts: 3, retryMinMs: 1_000, retryMaxMs: 60_000 };
const READING = { code: 1301, results: [], msgQ: { count: 1, id: "m-1" }, resData: [], extensions: [], trID: { svTRID: "S-1" } } as unknown as EppResponse;

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a set-aside file is read back only when it is a whole record", () => {
  it("a file that parses but lacks fields (no set_aside_at) or holds the wrong types is skipped and logged in capitals; due() and status() answer with the whole records, never throw", async () => {
    const stateDir = mkdtempSync(join(tmpdir(), "ledger-state-"));
    const first = new MessageLedger("verisign", { ...OPTIONS, stateDir });
    first.setAside("m-1", "<epp/>", READING, Date.parse("2026-11-29T08:00:00Z"));
    const dir = join(stateDir, "set-aside-messages", "verisign");
    const whole = readdirSync(dir);
    expect(whole).toHaveLength(1);
    const { set_aside_at: _, ...withoutSetAsideAt } = JSON.parse(readFileSync(join(dir, whole[0]!), "utf8"));
    writeFileSync(join(dir, "message-no-set-aside-at.json"), JSON.stringify({ ...withoutSetAsideAt, message_id: "m-2" }));
    writeFileSync(
      join(dir, "message-wrong-types.json"),
      JSON.stringify({ ...withoutSetAsideAt, message_id: "m-3", set_aside_at: "2026-11-29T08:00:00Z", attempts: "3" }),
    );
    writeFileSync(join(dir, "message-an-array.json"), "[]");
    writeFileSync(join(dir, "message-not-json.json"), "{");
    const logged: string[] = [];
    vi.spyOn(console, "error").mockImplementation((line: unknown) => {
      logged.push(String(line));
    });

    const restarted = new MessageLedger("verisign", { ...OPTIONS, stateDir });
    expect(restarted.status()).toMatchObject({
      set_aside: 1,
      set_aside_messages: [{ id: "m-1", set_aside_at: "2026-11-29T08:00:00.000Z", attempts: 0, replays: 0 }],
    });
    expect(restarted.due(Date.parse("2026-11-30T00:00:00Z")).map((d) => d.file)).toEqual(whole);
    for (const file of ["message-no-set-aside-at.json", "message-wrong-types.json", "message-an-array.json", "message-not-json.json"])
      expect(
        logged.some((line) => line.includes(`THE SET-ASIDE MESSAGE FILE ${join(dir, file)} IS NOT A RECORD`)),
        file,
      ).toBe(true);
    expect(logged.find((l) => l.includes("message-no-set-aside-at.json"))).toContain("set_aside_at is not a time");
    expect(logged.find((l) => l.includes("message-wrong-types.json"))).toContain("attempts is not a count");
    // Left as they are, for an operator.
    expect(readdirSync(dir).sort()).toEqual(
      [...whole, "message-an-array.json", "message-no-set-aside-at.json", "message-not-json.json", "message-wrong-types.json"].sort(),
    );
  });
});

describe("the msgQ of a poll answer the codec could not read", () => {
  it("a count that is not a number is unknown (null), never NaN; a numeric one is read", () => {
    const answer = (count: string) => `<epp><response><result code="1301"/><msgQ count="${count}" id="12"/></response></epp>`;
    expect(messageIdOf(answer("many"))).toEqual({ id: "12", code: 1301, count: null });
    expect(messageIdOf(answer(""))).toEqual({ id: "12", code: 1301, count: null });
    expect(messageIdOf(answer("-1"))).toEqual({ id: "12", code: 1301, count: null });
    expect(messageIdOf(answer("1e3"))).toEqual({ id: "12", code: 1301, count: null });
    expect(messageIdOf(answer(" 7 "))).toEqual({ id: "12", code: 1301, count: 7 });
    expect(messageIdOf(`<epp><response><result code="1301"/><msgQ id="12"/></response></epp>`)).toEqual({ id: "12", code: 1301, count: null });
  });
});
