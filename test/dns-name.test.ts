import { describe, expect, it } from "vitest";
import { ancestorNames, normalizeName, toUnicodeName } from "../src/dns/name";

describe("name normalisation", () => {
  it("lowercases and drops one trailing dot", () => {
    expect(normalizeName("Example.COM.")).toEqual({ ok: true, name: "example.com" });
  });
  it("converts U-labels to A-labels (UTS #46)", () => {
    expect(normalizeName("München.DE")).toEqual({ ok: true, name: "xn--mnchen-3ya.de" });
    expect(toUnicodeName("xn--mnchen-3ya.de")).toBe("münchen.de");
  });
  it("names the label at fault", () => {
    expect(normalizeName("-bad.com")).toEqual({ ok: false, error: 'label "-bad" starts with a hyphen' });
    expect(normalizeName("a".repeat(64) + ".com")).toMatchObject({ ok: false, error: expect.stringContaining("longer than 63") });
    expect(normalizeName("xn--zz-ab.com")).toMatchObject({ ok: false, error: expect.stringContaining("not a valid IDN A-label") });
    expect(normalizeName("ab--cd.com")).toMatchObject({ ok: false, error: expect.stringContaining("3rd and 4th") });
  });
  it("lists ancestors nearest first", () => {
    expect(ancestorNames("a.b.example.com")).toEqual(["b.example.com", "example.com", "com"]);
  });
});
