// Issue 15 over HTTP: zones as BIND reads them. What an import keeps, changes (with a
// warning in its 201 answer) or refuses (422 naming the line), and the zone create's
// in-zone name servers. The zone rules themselves: test/unit/dns-master-file.test.ts,
// test/unit/dns-zone-integrity.test.ts; each case against BIND itself: scripts/zone-check.mjs.
import { describe, expect, it } from "vitest";
import { api, apiRaw, createZone, expectProblem, exportZone, importZone, readZone, recordLines } from "./helpers";

const head = (zone: string) => `$ORIGIN ${zone}.\n$TTL 300\n@ SOA ns1.example.net. hostmaster 2026010101 7200 900 1209600 300\n@ NS ns1.example.net.\n`;

describe("an import answers 201 with the warnings of what it did not keep as written", () => {
  it("lists no warnings for a plain zone, and the zone's ETag is GET's", async () => {
    const response = await importZone(`${head("plain.import.test")}www A 192.0.2.1\n`);
    expect(response.status, response.text).toBe(201);
    expect(response.body.warnings).toEqual([]);
    const read = await api("GET", `/v1/zones/${response.body.id}`);
    expect(read.headers.get("etag")).toBe(response.headers.get("etag"));
    const { warnings: _warnings, ...zone } = response.body;
    expect(read.body).toEqual(zone);
  });
  it("leaves a signer's records out, one warning per type, and aligns an RRset's TTLs with a warning", async () => {
    const text = `${head("signed.import.test")}@ RRSIG SOA 13 2 300 20370101000000 20261101000000 36263 signed.import.test. AQID
@ NSEC www.signed.import.test. NS SOA RRSIG NSEC
www 60 A 192.0.2.1
www 120 A 192.0.2.2
www RRSIG A 13 3 60 20370101000000 20261101000000 36263 signed.import.test. AQID
`;
    const response = await importZone(text);
    expect(response.status, response.text).toBe(201);
    expect(response.body.warnings).toEqual([
      { line: 5, message: "2 RRSIG records left out (the first on line 5): a DNSSEC signer's output, not zone data; this service signs zones itself" },
      { line: 6, message: "1 NSEC record left out (the first on line 6): a DNSSEC signer's output, not zone data; this service signs zones itself" },
      { line: 8, message: "TTL 120 differs from TTL 60 of the same A RRset on line 7; the record takes 60, as an RRset has one TTL (RFC 2181 §5.2)" },
    ]);
    expect(await recordLines("signed.import.test")).toEqual(["@ 300 NS ns1.example.net.", "www 60 A 192.0.2.1", "www 60 A 192.0.2.2"]);
  });
});

describe("a master file is octets (RFC 1035 §5.1): an octet that is not UTF-8 refuses its line, not the file", () => {
  const bytes = (...parts: (string | number)[]) => Uint8Array.from(parts.flatMap((p) => (typeof p === "number" ? [p] : [...new TextEncoder().encode(p)])));
  it("keeps such an octet inside a TXT string, as BIND does, and exports it as \\DDD", async () => {
    const body = bytes(head("octets.import.test"), 'www TXT "caf', 0xe9, '"\n');
    const response = await apiRaw("POST", "/v1/zones", { body, headers: { "content-type": "text/dns" } });
    expect(response.status, response.text).toBe(201);
    expect(await recordLines("octets.import.test")).toContain('www 300 TXT "caf\\233"');
    expect((await exportZone("octets.import.test")).text).toContain('www 300 IN TXT "caf\\233"\n');
  });
  it("refuses a line with one in an owner name, naming that line only", async () => {
    const body = bytes(head("octet-owner.import.test"), "ok A 192.0.2.1\n", "caf", 0xe9, " A 192.0.2.2\n", "ok2 A 192.0.2.3\n");
    const problem = expectProblem(await apiRaw("POST", "/v1/zones", { body, headers: { "content-type": "text/dns" } }), 422, "validation_failed");
    expect(problem.errors).toEqual([
      { field: "line 6", line: 6, message: 'owner name "caf\\\\233": escaped characters in names (such as \\.) are not supported' },
    ]);
    expectProblem(await api("GET", "/v1/zones/octet-owner.import.test"), 404, "not_found");
  });
});

describe("an import refuses what BIND refuses, naming the line", () => {
  it("a DS at the apex, an in-zone name server without an address, an NS below a DNAME, an underscore in an HTTPS target", async () => {
    const text = `${head("bind-rules.import.test")}@ DS 12345 13 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D
@ NS ns2
@ NS ns.legacy
legacy DNAME example.net.
ns.legacy A 192.0.2.1
www HTTPS 1 _svc.example.net.
`;
    const problem = expectProblem(await importZone(text), 422, "validation_failed");
    expect(problem.errors.map((e: { line: number }) => e.line)).toEqual([5, 6, 7, 10]);
    expectProblem(await api("GET", "/v1/zones/bind-rules.import.test"), 404, "not_found");
  });
});

describe("types by number (RFC 3597) round-trip through import and export", () => {
  it("keeps an unknown type octet for octet and reads a known one as itself", async () => {
    const response = await importZone(`${head("generic.import.test")}a CLASS1 TYPE65280 \\# 6 abcd ( ef 01 23 45 )\nb TYPE1 \\# 4 0A000001\n`);
    expect(response.status, response.text).toBe(201);
    const exported = (await exportZone("generic.import.test")).text;
    expect(exported).toContain("a 300 IN TYPE65280 \\# 6 ABCDEF012345\n");
    expect(exported).toContain("b 300 IN A 10.0.0.1\n");
    const again = await importZone(exported.replace(/^\$ORIGIN [^\n]*\n/, ""), "generic-copy.import.test");
    expect(again.status, again.text).toBe(201);
    const copy = (await exportZone("generic-copy.import.test")).text;
    expect(copy.replace(/^\$ORIGIN [^\n]*\n/, "")).toBe(exported.replace(/^\$ORIGIN [^\n]*\n/, ""));
  });
  it("keeps a root SOA MNAME and exports it as '.'", async () => {
    const response = await importZone("$ORIGIN rpz.import.test.\n$TTL 300\n@ SOA . hostmaster 1 3600 600 86400 300\n@ NS ns1.example.net.\n");
    expect(response.status, response.text).toBe(201);
    expect((await readZone("rpz.import.test")).soa.mname).toBe(".");
    expect((await exportZone("rpz.import.test")).text).toContain("IN SOA . hostmaster.rpz.import.test. 1 ");
  });
});

describe("a new zone's name servers lie outside it: it starts with no address record for one inside", () => {
  it("answers 422 naming the name server inside the zone", async () => {
    const response = await api("POST", "/v1/zones", { json: { name: "inside.import.test", nameservers: ["ns1.example.net", "ns2.inside.import.test"] } });
    const problem = expectProblem(response, 422, "validation_failed");
    expect(problem.errors).toEqual([
      {
        field: "nameservers[1]",
        message:
          "ns2.inside.import.test lies inside the zone, which would start with no address record for it (RFC 1034 §4.2.2): create the zone with outside name servers, add the A or AAAA record of ns2.inside.import.test, then its NS record",
      },
    ]);
    await createZone("inside.import.test", { nameservers: ["ns1.example.net"] });
  });
});
