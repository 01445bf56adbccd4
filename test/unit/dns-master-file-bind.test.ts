// Zone files as BIND reads them (docs/dns.md "Master files"): $GENERATE expanded with its
// modifiers, the forms taken from BIND's own test zones (bin/tests/system/checkzone/zones/
// good-generate-modifier.db, bad-generate-*.db, generate-overflow.db, the ARM's examples)
// and expected as BIND expands them; records outside the zone, deprecated DNSSEC
// algorithms and over-long unquoted TXT strings loaded with a warning, as BIND does.
import { describe, expect, it } from "vitest";
import { type MasterFileResult, parseMasterFile } from "../../src/dns/master-file";
import { expandGenerateText, parseGenerateRange } from "../../src/dns/master-file/generate";
import { MAX_GENERATED_RECORDS } from "../../src/dns/master-file/parse";

function zone(...lines: string[]): MasterFileResult {
  return parseMasterFile(
    `${["$ORIGIN example.", "$TTL 300", "@ SOA ns1.example.net. hostmaster.example. 1 7200 900 1209600 300", "@ NS ns1.example.net.", ...lines].join("\n")}\n`,
  );
}

function generated(result: MasterFileResult) {
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.zone.records.filter((r) => r.type !== "NS" || r.fqdn !== "example").map((r) => `${r.fqdn} ${r.ttl} ${r.type} ${r.content}`);
}

function problems(result: MasterFileResult) {
  if (result.ok) throw new Error("expected errors");
  return result.errors;
}

describe("$GENERATE expands as BIND does", () => {
  it("the ARM's examples: `$` is the iterator, a quoted RDATA loses its quotes", () => {
    expect(generated(zone("$GENERATE 1-3 HOST-$ A 1.2.3.$", '$GENERATE 1-2 HOST-$ MX "0 ."'))).toEqual([
      "host-1.example 300 A 1.2.3.1",
      "host-2.example 300 A 1.2.3.2",
      "host-3.example 300 A 1.2.3.3",
      "host-1.example 300 MX 0 .",
      "host-2.example 300 MX 0 .",
    ]);
  });

  it("the ARM's modifiers: ${offset,width,d}, hexadecimal, and nibble owners (good-generate-modifier.db)", () => {
    expect(generated(zone("$GENERATE 0-2 HOST-${0,4,d} A 1.2.3.${1,0,d}", "$GENERATE 1024-1026 ${0,3,n} AAAA 2001:db8::${0,4,x}"))).toEqual([
      "host-0000.example 300 A 1.2.3.1",
      "host-0001.example 300 A 1.2.3.2",
      "host-0002.example 300 A 1.2.3.3",
      "0.0.4.example 300 AAAA 2001:db8::400",
      "1.0.4.example 300 AAAA 2001:db8::401",
      "2.0.4.example 300 AAAA 2001:db8::402",
    ]);
  });

  it("${offset} and ${offset,width} alone, a negative offset, a step, TTL and class (good-generate-modifier.db, rrl's tld zones)", () => {
    expect(
      generated(zone("$GENERATE 8-9 host$ A 1.2.3.${1,0}", "$GENERATE 10-11 host$ 60 IN A 1.2.3.${1}", "$GENERATE 101-105/2 ns$ IN A 10.53.1.${-100}")),
    ).toEqual([
      "host8.example 300 A 1.2.3.9",
      "host9.example 300 A 1.2.3.10",
      "host10.example 60 A 1.2.3.11",
      "host11.example 60 A 1.2.3.12",
      "ns101.example 300 A 10.53.1.1",
      "ns103.example 300 A 10.53.1.3",
      "ns105.example 300 A 10.53.1.5",
    ]);
  });

  it("a negative value in nibbles is its 32-bit two's complement (${-2000,0,n} of good-generate-modifier.db)", () => {
    expect(expandGenerateText("${-2000,0,n}", 1024)).toEqual({ ok: true, value: "0.3.c.f.f.f.f.f" });
    expect(expandGenerateText("${-2000,0,N}", 1025)).toEqual({ ok: true, value: "1.3.C.F.F.F.F.F" });
    expect(expandGenerateText("${-5,4,d}|${-5,0,x}|${0,3,o}|${0,4,X}", 1)).toEqual({ ok: true, value: "-004|fffffffc|001|0001" });
  });

  it("nibble width counts the dots: ${0,7,n} of 0x1 pads to 1.0.0.0", () => {
    expect(expandGenerateText("${0,7,n}", 1)).toEqual({ ok: true, value: "1.0.0.0" });
    expect(expandGenerateText("${0,0,n}", 0)).toEqual({ ok: true, value: "0" });
  });

  it("$$ and \\$ are a literal $ (the backslash stays as an escape)", () => {
    expect(expandGenerateText("a$$b", 7)).toEqual({ ok: true, value: "a$b" });
    expect(expandGenerateText("a\\$b$", 7)).toEqual({ ok: true, value: "a\\$b7" });
    // The quotes go before the RDATA is read, so its spaces separate strings, as in BIND.
    expect(generated(zone('$GENERATE 1-1 txt$ TXT "cost $$$"'))).toEqual(['txt1.example 300 TXT "cost" "$1"']);
  });

  it("RFC 2317 classless delegation: NS at the apex of a reverse zone and CNAMEs (the ARM)", () => {
    const result = parseMasterFile(
      `${["$ORIGIN 0.0.192.in-addr.arpa.", "$TTL 300", "@ SOA ns1.example.net. hostmaster.example. 1 7200 900 1209600 300", "$GENERATE 1-2 @ NS SERVER$.EXAMPLE.", "$GENERATE 1-3 $ CNAME $.0"].join("\n")}\n`,
    );
    expect(result.ok && result.zone.records.map((r) => `${r.fqdn} ${r.type} ${r.content}`)).toEqual([
      "0.0.192.in-addr.arpa NS server1.example.",
      "0.0.192.in-addr.arpa NS server2.example.",
      "1.0.0.192.in-addr.arpa CNAME 1.0.0.0.192.in-addr.arpa.",
      "2.0.0.192.in-addr.arpa CNAME 2.0.0.0.192.in-addr.arpa.",
      "3.0.0.192.in-addr.arpa CNAME 3.0.0.0.192.in-addr.arpa.",
    ]);
  });

  it("refuses what BIND refuses: a bad range, garbage or a missing brace in a modifier, an overflow, a meta type (bad-generate-*.db, bad2.db)", () => {
    for (const [line, message] of [
      ["$GENERATE 9--10 host$ 3600 A 192.0.2.$", "range"],
      ["$GENERATE 10-9 host$ A 192.0.2.$", "range"],
      ["$GENERATE 1-3/0 $ A 1.2.3.$", "range"],
      ["$GENERATE 1-3/ $ A 1.2.3.$", "range"],
      ["$GENERATE 0-7 host$ A 1.2.3.${1,0,dgarbagegarbage}", "modifier"],
      ["$GENERATE 0-7 host$ A 1.2.3.${1000", "modifier"],
      ["$GENERATE 1-1 host$ TXT foo${2147483647}", "out of range"],
      ['$GENERATE 0-7 tkey$ TKEY "invalid.algorithm. 1516055980 1516140801 1 0 16 gRof8D2BFKvl/vrr9Lmnjw== 16 gRof8D2BFKvl/vrr9Lmnjw=="', "TKEY"],
      ["$GENERATE 1-3 host$ A 1.2.3.$ extra", "one RDATA field"],
      ["$GENERATE 1-3", "one RDATA field"],
    ] as const) {
      const errors = problems(zone(line));
      expect(errors, line).toHaveLength(1);
      expect(errors[0]!.line, line).toBe(5);
      expect(errors[0]!.message, line).toContain(message);
    }
  });

  it("a range past 2^31-1 overflows nothing: 19-28/2147483645 makes one record (generate-overflow.db)", () => {
    expect(generated(zone("$GENERATE 19-28/2147483645 $ CNAME x"))).toEqual(["19.example 300 CNAME x.example."]);
  });

  it(`an absurd range is refused before anything is made: at most ${MAX_GENERATED_RECORDS} records a line`, () => {
    const errors = problems(zone("$GENERATE 0-2147483647 host$ A 192.0.2.1"));
    expect(errors).toEqual([{ line: 5, message: `$GENERATE 0-2147483647 would make 2147483648 records; one line makes at most ${MAX_GENERATED_RECORDS}` }]);
  });

  it("the records it makes count toward the import's record limit", () => {
    const result = parseMasterFile("$ORIGIN example.\n$TTL 300\n$GENERATE 1-5000 host$ TXT data-$\n", { maxRecords: 1000 });
    expect(result).toMatchObject({ ok: false, tooManyRecords: true, errors: [{ line: 3, message: "more than 1000 records; stopped reading here" }] });
  });

  it("a generated owner outside the zone is left out with a warning, as BIND ignores it", () => {
    const result = zone("$GENERATE 1-2 host$.example.org. A 192.0.2.$", "$GENERATE 1-1 in$ A 192.0.2.$");
    expect(generated(result)).toEqual(["in1.example 300 A 192.0.2.1"]);
    expect(result.ok && result.zone.warnings.map((w) => w.message)).toEqual([
      "host1.example.org is outside the zone example: left out, as BIND ignores out-of-zone data",
      "host2.example.org is outside the zone example: left out, as BIND ignores out-of-zone data",
    ]);
  });

  it("a bad generated record stops the expansion with one error on the directive's line", () => {
    expect(problems(zone("$GENERATE 250-260 host$ A 192.0.2.$"))).toEqual([{ line: 5, message: expect.stringContaining("192.0.2.256") }]);
  });

  it("parses ranges", () => {
    expect(parseGenerateRange("1-10")).toEqual({ ok: true, value: { start: 1, stop: 10, step: 1 } });
    expect(parseGenerateRange("0-100/25")).toEqual({ ok: true, value: { start: 0, stop: 100, step: 25 } });
    expect(parseGenerateRange("5-5")).toEqual({ ok: true, value: { start: 5, stop: 5, step: 1 } });
    expect(parseGenerateRange("2147483648-2147483648").ok).toBe(false);
  });
});

describe("what BIND loads with a warning, the import loads with one", () => {
  it("DS, CDS, DNSKEY and CDNSKEY with deprecated algorithms or SHA-1 digests (RFC 8624)", () => {
    const result = zone(
      "child NS ns1.example.net.",
      "child DS 60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118",
      "child DS 60485 RSASHA256 SHA-256 2BB183AF5F22588179A53B0A98631FAD1A2921182BB183AF5F22588179A53B0A",
      "@ DNSKEY 257 3 RSASHA1 AwEAAcMnWBKLuvG/LwnPVykcmpvnntwxfshHlHRhlY0F3oz8NMYrHW5t",
      "@ CDS 60485 13 1 2BB183AF5F22588179A53B0A98631FAD1A292118",
      "@ CDNSKEY 257 3 7 AwEAAcMnWBKLuvG/LwnPVykcmpvnntwxfshHlHRhlY0F3oz8NMYrHW5t",
    );
    expect(result.ok).toBe(true);
    expect(result.ok && result.zone.records.filter((r) => ["DS", "DNSKEY", "CDS", "CDNSKEY"].includes(r.type))).toHaveLength(5);
    expect(result.ok && result.zone.warnings.map((w) => [w.line, w.message.split(":")[0]])).toEqual([
      [6, "child.example DS"],
      [8, "example DNSKEY"],
      [9, "example CDS"],
      [10, "example CDNSKEY"],
    ]);
    const messages = result.ok ? result.zone.warnings.map((w) => w.message) : [];
    expect(messages[0]).toContain("algorithm 5 (RSASHA1) is deprecated for signing (RFC 8624 §3.1)");
    expect(messages[0]).toContain("digest type 1 (SHA-1) must not be used to create DS records (RFC 8624 §3.3)");
    expect(messages[2]).not.toContain("algorithm");
  });

  it("an unquoted TXT string over 255 octets is split, with a warning; a quoted one is refused as before", () => {
    const long = "a".repeat(300);
    const result = zone(`long TXT ${long}`);
    expect(result.ok && result.zone.records.find((r) => r.type === "TXT")?.content).toBe(`"${"a".repeat(255)}" "${"a".repeat(45)}"`);
    expect(result.ok && result.zone.warnings).toEqual([
      {
        line: 5,
        message:
          "long.example TXT: string 1 is longer than 255 octets, which BIND refuses; it was split into strings of 255 (quote each string to choose where)",
      },
    ]);
    expect(problems(zone(`long TXT "${long}"`))[0]!.message).toContain("a string holds at most 255");
  });
});

/** Node's fs (these unit tests run in Node); imported by a computed name, as the project's types are the Workers runtime's. */
async function nodeFs(): Promise<{ readFileSync(path: string, encoding: "utf8"): string }> {
  const name = "node:fs";
  return import(/* @vite-ignore */ name);
}

describe("the corpus files of these cases (test/zones/, checked against named-checkzone by npm run zone-check)", () => {
  it("generate.zone expands to the records BIND's named-checkzone -D lists", async () => {
    const { readFileSync } = await nodeFs();
    const result = parseMasterFile(readFileSync("test/zones/generate.zone", "utf8"), { origin: "generate.example" });
    expect(result.ok && result.zone.records.map((r) => `${r.fqdn} ${r.type} ${r.content}`).sort()).toEqual(
      [
        "generate.example NS ns1.example.net.",
        "generate.example NS ns2.example.net.",
        "0.0.4.generate.example AAAA 2001:db8::400",
        "1.0.4.generate.example AAAA 2001:db8::401",
        "2.0.4.generate.example AAAA 2001:db8::402",
        "alias10.generate.example CNAME host1.generate.example.",
        "alias15.generate.example CNAME host6.generate.example.",
        "alias20.generate.example CNAME host11.generate.example.",
        "host-0000.generate.example A 198.51.100.1",
        "host-0001.generate.example A 198.51.100.2",
        "host-0002.generate.example A 198.51.100.3",
        "host1.generate.example A 192.0.2.1",
        "host2.generate.example A 192.0.2.2",
        "host3.generate.example A 192.0.2.3",
        "mx1.generate.example MX 10 host1.generate.example.",
        "mx2.generate.example MX 10 host2.generate.example.",
        "old8.generate.example A 203.0.113.9",
        "old9.generate.example A 203.0.113.10",
      ].sort(),
    );
  });

  it("out-of-zone.zone and deprecated-dnskey.zone load with their warnings", async () => {
    const { readFileSync } = await nodeFs();
    for (const [file, warns] of [
      ["out-of-zone", "is outside the zone"],
      ["deprecated-dnskey", "is deprecated for signing"],
      ["ds-child", "RFC 8624"],
    ]) {
      const result = parseMasterFile(readFileSync(`test/zones/${file}.zone`, "utf8"), { origin: `${file}.example` });
      expect(result.ok, file).toBe(true);
      expect(result.ok && result.zone.warnings.some((w) => w.message.includes(warns!)), file).toBe(true);
    }
  });
});
