// Every record type's `wire` and `fromWire` (src/dns/rdata/<type>.ts) are written by hand
// as each other's inverse. This file holds them to it, for every type the descriptor
// registry (src/dns/rdata/index.ts) knows: the type's canonical content → its wire form →
// RFC 3597 §5's generic form (`\# n hex`) → read back through `fromWire` → the same text.
// The examples first, then contents generated from them (fast-check, a fixed seed).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { genericText } from "../../src/dns/rdata/generic";
import { canonicalRdata, RECORD_TYPES, rdataExamples, rdataWire, type RecordType } from "../../src/dns/rdata";

/** The content's wire form in generic form, as a client or a zone file may write it. */
function generic(type: RecordType, content: string): string {
  const wire = rdataWire(type, content);
  if (!wire.ok) throw new Error(`${type} ${content}: ${wire.error}`);
  return genericText(wire.value);
}

describe("the descriptor registry: every type has an example", () => {
  it("knows types, and each has a non-empty example it accepts as canonical", () => {
    expect(RECORD_TYPES.length).toBeGreaterThan(0);
    for (const type of RECORD_TYPES) {
      const example: unknown = rdataExamples[type];
      expect(typeof example === "string" && example.trim() !== "", `${type} has no example`).toBe(true);
      expect(canonicalRdata(type, rdataExamples[type], null), type).toEqual({ ok: true, content: rdataExamples[type] });
    }
  });
});

describe("every type's example survives wire → generic (\\# n hex, RFC 3597) → fromWire → text unchanged", () => {
  it.each(RECORD_TYPES)("%s", (type) => {
    const example = rdataExamples[type];
    const written = generic(type, example);
    expect(written).toMatch(/^\\# [1-9]\d* [0-9A-F]+$/);
    // Read in the JSON API (no origin) and in a master file (an origin that must change nothing).
    expect(canonicalRdata(type, written, null)).toEqual({ ok: true, content: example });
    expect(canonicalRdata(type, written, "origin.example")).toEqual({ ok: true, content: example });
    // And round again: the wire form read back is the wire form written.
    expect(generic(type, example)).toBe(written);
  });
});

describe("any content a type accepts survives the same round trip (contents generated from the examples' octets)", () => {
  /**
   * Octets near a valid RDATA: the example's wire form with octets replaced, cut short or
   * extended. Most variants are refused; those a type accepts are contents it stores.
   */
  const near = (wire: Uint8Array) =>
    fc
      .tuple(
        fc.array(fc.tuple(fc.nat({ max: Math.max(0, wire.length - 1) }), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
        fc.integer({ min: -2, max: 2 }),
        fc.uint8Array({ maxLength: 2 }),
      )
      .map(([changes, cut, extra]) => {
        const octets = Uint8Array.from(wire);
        for (const [at, value] of changes) if (at < octets.length) octets[at] = value;
        return cut < 0 ? octets.slice(0, Math.max(0, octets.length + cut)) : cut > 0 ? Uint8Array.from([...octets, ...extra]) : octets;
      });

  it.each(RECORD_TYPES)("%s", (type) => {
    const wire = rdataWire(type, rdataExamples[type]);
    if (!wire.ok) throw new Error(wire.error);
    let accepted = 0;
    fc.assert(
      fc.property(near(wire.value), (octets) => {
        const read = canonicalRdata(type, genericText(octets), null);
        if (!read.ok) return;
        accepted++;
        // The content read from octets is canonical, and its own round trip changes nothing.
        expect(canonicalRdata(type, read.content, null)).toEqual(read);
        expect(canonicalRdata(type, generic(type, read.content), null)).toEqual(read);
      }),
      { seed: 3597, numRuns: 300, examples: [[wire.value]] },
    );
    // The unchanged example is the first run, so something was accepted.
    expect(accepted).toBeGreaterThan(0);
  });
});
