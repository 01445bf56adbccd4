import { describe, expect, it } from "vitest";
import { ancestorNames, normalizeName, resolveOwnerName, toUnicodeName } from "../../src/dns/name";

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

describe("an all-numeric last label is refused only where it is the top-level one (RFC 3696 §2)", () => {
  it("a record owner relative to a reverse zone may end in a number; its absolute form is checked whole", () => {
    expect(resolveOwnerName("1.2", "0.10.in-addr.arpa")).toEqual({ ok: true, relative: "1.2", fqdn: "1.2.0.10.in-addr.arpa" });
    expect(resolveOwnerName("1.2.0.10.in-addr.arpa.", "0.10.in-addr.arpa")).toEqual({ ok: true, relative: "1.2", fqdn: "1.2.0.10.in-addr.arpa" });
    expect(normalizeName("1.2", { relative: true })).toEqual({ ok: true, name: "1.2" });
    expect(normalizeName("1.2")).toEqual({ ok: false, error: 'top-level label "2" is all-numeric' });
    expect(resolveOwnerName("www.123.", "example.com")).toEqual({ ok: false, error: 'top-level label "123" is all-numeric' });
  });
});

// The runtime's UTS #46 (node:url domainToUnicode/domainToASCII, as the URL parser) decides
// what an A-label is; these are the edge cases of IDNA2008 and UTS #46 it must get right.
describe("A-labels (RFC 5890 §2.3.2.1, UTS #46 §4) are checked by decoding them and encoding back", () => {
  it.each([
    ["xn--mnchen-3ya.de", "münchen.de"],
    ["xn--zca.de", "ß.de"], // deviation characters are kept (nontransitional processing)
    ["xn--fa-hia.de", "faß.de"],
    ["xn--3xa.gr", "ς.gr"],
    ["xn--nxasmq6b.gr", "βόλοσ.gr"],
    ["xn--mgba3gch31f060k.ir", "نامه\u200cای.ir"], // ZWNJ where CONTEXTJ allows it (RFC 5892 A.1)
    ["xn--ls8h.la", "💩.la"], // symbols: UTS #46 allows what IDNA2008 disallows
    ["_sip._tcp.xn--mnchen-3ya.de", "_sip._tcp.münchen.de"],
  ])("%s is valid and reads %s", (name, unicode) => {
    expect(normalizeName(name, { underscore: true })).toEqual({ ok: true, name });
    expect(toUnicodeName(name)).toBe(unicode);
  });
  it.each([
    ["xn--a", "is not Punycode"],
    ["xn--abc-a", "decodes to a C1 control character (U+0080)"],
    ["xn--wca", "decodes to upper-case Ü, which UTS #46 maps"],
    ["xn--im6c", "decodes to the ligature ﬀ, which UTS #46 maps to ff"],
    ["xn--bfa", "decodes to İ, which UTS #46 maps"],
    ["xn--ab-m1t", "holds a ZWJ outside the context RFC 5892 A.2 allows"],
    ["xn--a-wbb", "starts with a combining mark (RFC 5891 §4.2.3.2)"],
    ["xn--ab-5da", "holds a soft hyphen, which UTS #46 ignores"],
    ["xn--9wk", "decodes to ㍿, which UTS #46 maps"],
  ])("%s is refused: it %s", (label) => {
    expect(normalizeName(`${label}.com`)).toEqual({ ok: false, error: `label "${label}" is not a valid IDN A-label` });
  });
  it("refuses the ASCII-only and empty forms for their trailing hyphen first", () => {
    expect(normalizeName("xn--abc-.com")).toEqual({ ok: false, error: 'label "xn--abc-" ends with a hyphen' });
    expect(normalizeName("xn--.com")).toEqual({ ok: false, error: 'label "xn--" ends with a hyphen' });
  });
  it("leaves a label it cannot decode as it is when reading a name back", () => {
    expect(toUnicodeName("xn--a.example")).toBe("xn--a.example");
  });
});
