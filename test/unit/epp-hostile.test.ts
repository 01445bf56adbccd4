// Hostile input to the EPP codec's readers: whatever bytes a peer sends (a registry to the
// gateway, a client to the local registry), the answer is a typed error, never a throw,
// and nothing is expanded or fetched: a DOCTYPE is refused outright (no XXE, no billion
// laughs), and size, depth and element count are bounded before they cost memory.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCommand } from "../../src/epp/command-reader";
import { type EppParseErrorCode, parseResponse, parseServerMessage } from "../../src/epp/responses";
import { DEFAULT_XML_LIMITS } from "../../src/epp/xml";
import { fixture, fixtureNames } from "../epp/fixtures.mjs";

const OK_RESPONSE = `<epp xmlns="urn:ietf:params:xml:ns:epp-1.0"><response><result code="1000"><msg>ok</msg></result><trID><svTRID>S-1</svTRID></trID></response></epp>`;

function errorCode(input: string | Uint8Array): EppParseErrorCode | "ok" {
  const parsed = parseServerMessage(input);
  return parsed.ok ? "ok" : parsed.error.code;
}

describe("what is not XML is a typed error", () => {
  it("text, a truncated document, an empty one, two roots, an unbound prefix, a mismatched tag: not_well_formed", () => {
    for (const input of ["hello", "<epp", "", OK_RESPONSE + OK_RESPONSE, "<x:epp/>", "<epp><a></b></epp>", "<epp a='1' a='2'/>"]) {
      expect(errorCode(input), input).toBe("not_well_formed");
    }
  });

  it("bytes that are not UTF-8: not_utf8; a declaration of another encoding or XML 1.1: unsupported_encoding", () => {
    expect(errorCode(new Uint8Array([0x3c, 0x65, 0xff, 0xfe, 0x3e]))).toBe("not_utf8");
    expect(errorCode(`<?xml version="1.0" encoding="ISO-8859-1"?>${OK_RESPONSE}`)).toBe("unsupported_encoding");
    expect(errorCode(`<?xml version="1.1"?>${OK_RESPONSE}`)).toBe("unsupported_encoding");
    expect(errorCode(new TextEncoder().encode(`\uFEFF<?xml version="1.0" encoding="utf-8"?>${OK_RESPONSE}`))).toBe("ok");
  });

  it("an entity no DOCTYPE declared is not expanded: not_well_formed", () => {
    expect(errorCode(OK_RESPONSE.replace(">ok<", ">&xxe;<"))).toBe("not_well_formed");
  });

  it("a root that is not EPP's <epp> (another name, or <epp> in no namespace): not_epp", () => {
    expect(errorCode("<html/>")).toBe("not_epp");
    expect(errorCode(OK_RESPONSE.replace(' xmlns="urn:ietf:params:xml:ns:epp-1.0"', ""))).toBe("not_epp");
  });
});

describe("a DOCTYPE is refused outright: no entity is declared, expanded or fetched", () => {
  it("the billion laughs (nested entities) is refused at its DOCTYPE, in a few milliseconds", () => {
    const entities = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join("");
    const bomb = `<?xml version="1.0"?><!DOCTYPE epp [<!ENTITY lol0 "lol">${entities}]><epp xmlns="urn:ietf:params:xml:ns:epp-1.0"><response><result code="1000"><msg>&lol9;</msg></result><trID><svTRID>S</svTRID></trID></response></epp>`;
    const parsed = parseServerMessage(bomb);
    expect(parsed).toEqual({ ok: false, error: { code: "doctype_refused", message: expect.stringContaining("a DOCTYPE is not accepted") } });
  });

  it("an external entity (XXE: file:///etc/passwd) and an external DTD are refused", () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE epp [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${OK_RESPONSE.replace(">ok<", ">&xxe;<")}`;
    expect(errorCode(xxe)).toBe("doctype_refused");
    expect(errorCode(`<!DOCTYPE epp SYSTEM "http://attacker.example/epp.dtd">${OK_RESPONSE}`)).toBe("doctype_refused");
    expect(parseCommand(xxe)).toMatchObject({ ok: false, error: { code: "doctype_refused" } });
  });
});

describe("size, depth and element count are bounded", () => {
  it("a document over the limit (1 MiB) is refused unread, as text or as bytes: too_large", () => {
    const huge = OK_RESPONSE.replace(">ok<", `>${"a".repeat(DEFAULT_XML_LIMITS.maxChars)}<`);
    expect(errorCode(huge)).toBe("too_large");
    expect(errorCode(new TextEncoder().encode(huge))).toBe("too_large");
    expect(parseServerMessage(OK_RESPONSE, { ...DEFAULT_XML_LIMITS, maxChars: 100 })).toMatchObject({ ok: false, error: { code: "too_large" } });
  });

  it("elements nested 100 000 deep are refused at the 65th level (no stack to exhaust): too_deep", () => {
    const deep = `<epp xmlns="urn:ietf:params:xml:ns:epp-1.0">${"<a>".repeat(100_000)}${"</a>".repeat(100_000)}</epp>`;
    expect(parseServerMessage(deep)).toMatchObject({ ok: false, error: { code: "too_deep", message: expect.stringContaining("deeper than 64") } });
  });

  it("60 000 elements are refused at the 50 001st: too_many_elements; so are 100 attributes on one element", () => {
    const many = `<epp xmlns="urn:ietf:params:xml:ns:epp-1.0"><response>${"<a/>".repeat(60_000)}</response></epp>`;
    expect(errorCode(many)).toBe("too_many_elements");
    const attributes = Array.from({ length: 100 }, (_, i) => `a${i}="1"`).join(" ");
    expect(errorCode(`<epp xmlns="urn:ietf:params:xml:ns:epp-1.0" ${attributes}/>`)).toBe("too_many_elements");
  });
});

describe("well-formed XML that is not the EPP its schema says is malformed, naming what is wrong", () => {
  const cases: [string, string, string][] = [
    ["a response without trID", OK_RESPONSE.replace("<trID><svTRID>S-1</svTRID></trID>", ""), "<response> has no <trID>"],
    ["a result code that is not a number", OK_RESPONSE.replace('code="1000"', 'code="1e3"'), 'a result code is not a whole number: "1e3"'],
    ["a result code out of range", OK_RESPONSE.replace('code="1000"', 'code="99999"'), "a result code is out of range: 99999"],
    ["no result", OK_RESPONSE.replace('<result code="1000"><msg>ok</msg></result>', ""), "a response has no <result>"],
    [
      "an avail that is not a boolean",
      fixture("rfc5731-check.xml").replace('avail="1">example.com', 'avail="maybe">example.com'),
      'avail is not a boolean: "maybe"',
    ],
    ["a trStatus EPP does not have", fixture("rfc5731-transfer-query.xml").replace(">pending<", ">stolen<"), "trStatus stolen is not a transfer status"],
    ["a DS key tag over 65535", fixture("rfc5910-info-dsdata.xml").replace(">12345<", ">70000<"), "keyTag is out of range: 70000"],
    ["a negative fee", fixture("rfc8748-create.xml").replace(">5.00<", ">-5.00<"), 'a fee is "-5.00", not a non-negative decimal'],
    ["a greeting offering no object", fixture("rfc5730-greeting.xml").replace(/<objURI>[^<]*<\/objURI>/g, ""), "the greeting offers no object"],
    [
      "a command where a response is expected",
      `<epp xmlns="urn:ietf:params:xml:ns:epp-1.0"><command><logout/></command></epp>`,
      "<epp> holds <command>, not a greeting or response",
    ],
  ];
  for (const [name, input, message] of cases) {
    it(name, () => {
      expect(parseServerMessage(input)).toEqual({ ok: false, error: { code: "malformed", message } });
    });
  }

  it("a greeting where a response is expected", () => {
    expect(parseResponse(fixture("rfc5730-greeting.xml"))).toEqual({ ok: false, error: { code: "malformed", message: "a greeting, not a response" } });
  });
});

describe("no input makes a reader throw (fast-check)", () => {
  const CODES = new Set([
    "too_large",
    "not_utf8",
    "unsupported_encoding",
    "doctype_refused",
    "not_well_formed",
    "too_deep",
    "too_many_elements",
    "not_epp",
    "malformed",
    "unimplemented_command",
    "unimplemented_object",
    "unimplemented_extension",
  ]);
  const settles = (input: string | Uint8Array) => {
    for (const parsed of [parseServerMessage(input), parseCommand(input)]) {
      if (!parsed.ok && !CODES.has(parsed.error.code)) return false;
    }
    return true;
  };

  it("arbitrary text and bytes", () => {
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 300 }), settles), { numRuns: 500 });
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), settles), { numRuns: 500 });
  });

  it("every fixture cut short, or with a character replaced, at any place", () => {
    const documents = fixtureNames().map(fixture);
    fc.assert(
      fc.property(fc.nat(documents.length - 1), fc.nat(), fc.constantFrom("<", ">", "&", '"', "/", "x", "\u0000", "1", " ", "]]>"), (which, at, char) => {
        const text = documents[which]!;
        const cut = at % (text.length + 1);
        return settles(text.slice(0, cut)) && settles(text.slice(0, cut) + char + text.slice(cut + 1));
      }),
      { numRuns: 1500 },
    );
  });
});
