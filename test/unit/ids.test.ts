// Resource ids (src/db/ids.ts, src/db/ulid.js): a type prefix and a ULID, strictly ordered
// within an isolate, whether made one at a time or together for one batch.
import { describe, expect, it } from "vitest";
import { idFloor, newId, newIds } from "../../src/db/ids";

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

describe("ids are a type prefix and a ULID, in the order they were made", () => {
  it("newId: the kind's prefix, then 26 Crockford base-32 characters whose first 10 are the time", () => {
    const at = new Date("2026-11-26T04:00:00.000Z");
    const id = newId("delivery", at);
    expect(id.startsWith("dlv_")).toBe(true);
    expect(id.slice(4)).toMatch(ULID);
    expect(id >= idFloor("delivery", at)).toBe(true);
    expect(id < idFloor("delivery", new Date(at.getTime() + 1))).toBe(true);
  });

  it("newIds: as many ids as asked, each a valid id of the kind, strictly increasing and distinct", () => {
    const at = new Date("2026-11-26T04:00:01.000Z");
    const ids = newIds("delivery", 500, at);
    expect(ids).toHaveLength(500);
    for (const id of ids) expect(id).toMatch(/^dlv_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(new Set(ids).size).toBe(500);
    expect([...ids].sort()).toEqual(ids);
  });

  it("newIds after newId, and newId after newIds, keep the order (the same monotonic sequence)", () => {
    const at = new Date("2026-11-26T04:00:02.000Z");
    const first = newId("delivery", at);
    const batch = newIds("delivery", 3, at);
    const last = newId("delivery", at);
    expect([first, ...batch, last]).toEqual([first, ...batch, last].sort());
    expect(new Set([first, ...batch, last]).size).toBe(5);
  });

  it("newIds of 0 is an empty list", () => {
    expect(newIds("delivery", 0, new Date())).toEqual([]);
  });
});
