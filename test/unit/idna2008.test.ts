// IDNA2008 for registered labels (RFC 5891–5893), beyond what UTS #46 lets through.
import { describe, expect, it } from "vitest";
import { idna2008LabelProblem } from "../../src/dns/idna2008";
import { matchRegistrableName } from "../../src/registry/extensions";

describe("IDNA2008: what a registered label may hold", () => {
  it.each(["münchen", "bücher", "日本語", "例え", "한국", "москва", "مثال", "שלום", "ελληνικά"])("admits %s", (label) => {
    expect(idna2008LabelProblem(label)).toBeNull();
  });

  it("refuses emoji and symbols (DISALLOWED), naming the code point", () => {
    expect(idna2008LabelProblem("😀")).toBe(
      '"😀" holds U+1F600 "😀", which IDNA2008 does not allow in a label (RFC 5892: only letters, marks, digits and the hyphen)',
    );
    expect(idna2008LabelProblem("i♥ny")).toContain("U+2665");
  });

  it("refuses joiners (CONTEXTJ, which needs joining types) and other default-ignorable code points", () => {
    expect(idna2008LabelProblem("a\u200db")).toContain("U+200D");
  });

  it("refuses a label mixing scripts (a Cyrillic letter in a Latin name), but not Japanese or Korean mixes", () => {
    expect(idna2008LabelProblem("paypaӏ")).toBe('"paypaӏ" mixes the Latin and Cyrillic scripts; a registered label uses one (the registries\' IDN tables)');
    expect(idna2008LabelProblem("東京タワー")).toBeNull();
  });

  it("refuses right-to-left labels that break the Bidi rule (RFC 5893)", () => {
    expect(idna2008LabelProblem("1مثال")).toContain("must start with a right-to-left letter");
    expect(idna2008LabelProblem("مثال٠۰")).toContain("Arabic-Indic");
  });

  it("refuses what is not NFC", () => {
    expect(idna2008LabelProblem("mu\u0308nchen")).toContain("Normalization Form C");
  });
});

describe("a registration is matched only when its label passes IDNA2008", () => {
  const extensions = new Map([["com", { id: "com" }]]);
  it("xn--i-n3p.com (an emoji) is not a registrable name", () => {
    const emoji = new URL("http://😀.com").hostname;
    const result = matchRegistrableName(emoji, extensions);
    expect(result).toMatchObject({ ok: false, kind: "not_registrable", error: expect.stringContaining("U+1F600") });
  });
  it("xn--mnchen-3ya.com passes", () => {
    expect(matchRegistrableName("xn--mnchen-3ya.com", extensions).ok).toBe(true);
  });
});
