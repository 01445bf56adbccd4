// docs/dns.md#zones, export and import: zones as RFC 1035 master files (`text/dns`, RFC 4027)
// over HTTP, all or nothing, and lossless both ways.
import { describe, expect, it } from "vitest";
import { RECORD_TYPES, rdataExamples } from "../src/dns/rdata";
import {
  allPages,
  api,
  apiRaw,
  createRecord,
  createZone,
  errorFields,
  expectProblem,
  exportZone,
  importZone,
  MASTER_FILE_TYPE,
  readZone,
  recordLines,
  ZONE_ID,
} from "./helpers";

const MiB = 1024 * 1024;
import { MAX_MASTER_FILE_BYTES } from "../src/resources/zones/master-file";

/** Every zone's id, over all pages: what an all-or-nothing import must leave alone. */
async function allZoneIds(): Promise<string[]> {
  return (await allPages("/v1/zones?limit=200")).items.map((z) => z.id);
}

describe("exporting a zone", () => {
  it("with Accept: text/dns answers the master file: $ORIGIN, $TTL, the SOA with the current serial, every record", async () => {
    const zone = await createZone("export.test", { default_ttl: 600, nameservers: ["ns1.example.org", "ns2.example.org"] });
    await createRecord(zone.id, { name: "www", type: "A", content: "192.0.2.10", ttl: 300 });
    await createRecord(zone.id, { name: "www", type: "AAAA", content: "2001:db8::10" });
    await createRecord(zone.id, { type: "MX", content: "10 mail.export.test" });
    await createRecord(zone.id, { name: "mail", type: "A", content: "192.0.2.25" });
    await createRecord(zone.id, { type: "TXT", content: "v=spf1 mx -all" });
    const current = await readZone(zone.id);
    const response = await exportZone("export.test");
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get("content-type")).toBe(MASTER_FILE_TYPE);
    const lines = response.text.trimEnd().split("\n");
    expect(lines.slice(0, 3)).toEqual([
      "$ORIGIN export.test.",
      "$TTL 600",
      `@ 600 IN SOA ns1.example.org. hostmaster.export.test. ${current.soa.serial} 7200 900 1209600 300`,
    ]);
    expect(lines.slice(3).sort()).toEqual(
      [
        "@ 600 IN NS ns1.example.org.",
        "@ 600 IN NS ns2.example.org.",
        "@ 600 IN MX 10 mail.export.test.",
        '@ 600 IN TXT "v=spf1 mx -all"',
        "mail 600 IN A 192.0.2.25",
        "www 300 IN A 192.0.2.10",
        "www 600 IN AAAA 2001:db8::10",
      ].sort(),
    );
    expect(lines.length).toBe(3 + current.record_count);
    expect(response.text.endsWith("\n")).toBe(true);
  });

  it("follows the serial: a change shows in the next export", async () => {
    await createRecord("export.test", { name: "later", type: "A", content: "192.0.2.99" });
    const serial = (await readZone("export.test")).soa.serial;
    const text = (await exportZone("export.test")).text;
    expect(text).toContain(` ${serial} 7200 900 1209600 300\n`);
    expect(text).toContain("\nlater 600 IN A 192.0.2.99\n");
  });

  it("works by id and by name; JSON stays the default", async () => {
    const zone = await readZone("export.test");
    const byId = await exportZone(zone.id);
    expect(byId.status).toBe(200);
    expect(byId.text).toBe((await exportZone("EXPORT.test.")).text);
    for (const accept of [undefined, "application/json", "*/*", "text/dns;q=0.5, application/json"]) {
      const response = await api("GET", "/v1/zones/export.test", { headers: accept ? { accept } : {} });
      expect(response.status, accept).toBe(200);
      expect(response.headers.get("content-type"), accept).toBe("application/json; charset=utf-8");
      expect(response.body, accept).toEqual(zone);
    }
  });

  it("of an unknown zone answers 404 problem JSON", async () => {
    expectProblem(await exportZone("nowhere.test"), 404, "not_found");
  });

  it("has an ETag of its own: a JSON ETag does not validate the master file", async () => {
    const json = await api("GET", "/v1/zones/export.test");
    const file = await exportZone("export.test");
    expect(file.headers.get("etag")).toMatch(/"[^"]+"$/);
    expect(file.headers.get("etag")).not.toBe(json.headers.get("etag"));
    const stale = await api("GET", "/v1/zones/export.test", { headers: { accept: "text/dns", "if-none-match": json.headers.get("etag")! } });
    expect(stale.status).toBe(200);
    expect(stale.text).toBe(file.text);
    const fresh = await api("GET", "/v1/zones/export.test", { headers: { accept: "text/dns", "if-none-match": file.headers.get("etag")! } });
    expect(fresh.status).toBe(304);
  });
});

describe("importing a master file", () => {
  const file = [
    "; export.test's neighbour, written by hand",
    "$ORIGIN import.test.",
    "$TTL 1h",
    "@   IN  SOA ns1.example.net. hostmaster (   ; a relative rname",
    "            2024010101 ; serial",
    "            7200       ; refresh",
    "            900        ; retry",
    "            2w         ; expire",
    "            300 )      ; minimum",
    "    IN  NS  ns1.example.net.",
    "        NS  ns2.example.net.",
    "@ 3600 IN MX 10 mail",
    "mail    IN A 192.0.2.25",
    "www 300 IN A 192.0.2.10",
    "    300 A 192.0.2.11 ; owner and class omitted",
    "ftp IN CNAME www",
    'txt IN TXT "say \\"hi\\"; not a comment" "semi\\059colon" plain',
    "_sip._tcp 3600 IN SRV 10 5 5060 sip.example.com.",
    "Www2.IMPORT.TEST. IN 3600 A 192.0.2.12",
    "$ORIGIN sub",
    "host IN A 192.0.2.30",
    "",
  ].join("\n");

  it("answers 201 with the zone, its SOA from the file and its records", async () => {
    const response = await importZone(file);
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(ZONE_ID),
      account: "acc_00000000000000000000000000",
      name: "import.test",
      unicode_name: "import.test",
      domain: null,
      default_ttl: 3600,
      soa: { mname: "ns1.example.net", rname: "hostmaster.import.test", serial: 2024010101, refresh: 7200, retry: 900, expire: 1209600, minimum: 300 },
      record_count: 11,
      secondaries: [],
      dnssec: { enabled: false, records: [] },
      created_at: expect.any(String),
      updated_at: response.body.created_at,
      warnings: [],
    });
    expect(response.headers.get("location")).toBe(`/v1/zones/${response.body.id}`);
    expect(response.headers.get("etag")).toMatch(/"[^"]+"$/);
    const { warnings: _warnings, ...zone } = response.body;
    expect(await readZone("import.test")).toEqual(zone);
    expect(await recordLines("import.test")).toEqual(
      [
        "@ 3600 NS ns1.example.net.",
        "@ 3600 NS ns2.example.net.",
        "@ 3600 MX 10 mail.import.test.",
        "mail 3600 A 192.0.2.25",
        "www 300 A 192.0.2.10",
        "www 300 A 192.0.2.11",
        "ftp 3600 CNAME www.import.test.",
        'txt 3600 TXT "say \\"hi\\"; not a comment" "semi;colon" "plain"',
        "_sip._tcp 3600 SRV 10 5 5060 sip.example.com.",
        "www2 3600 A 192.0.2.12",
        "host.sub 3600 A 192.0.2.30",
      ].sort(),
    );
  });

  it("takes the zone name from ?name= when the file has no $ORIGIN; no $TTL means the previous TTL", async () => {
    const text = [
      "@ 600 IN SOA ns.example.net. admin.example.net. 7 3600 600 86400 60",
      "@ IN NS ns.example.net.",
      "www IN 300 A 192.0.2.1",
      "    IN A 192.0.2.2",
      "",
    ].join("\n");
    const response = await importZone(text, "NoOrigin.test.");
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({
      name: "noorigin.test",
      default_ttl: 600,
      soa: { mname: "ns.example.net", rname: "admin.example.net", serial: 7, refresh: 3600, retry: 600, expire: 86400, minimum: 60 },
      record_count: 3,
    });
    expect(await recordLines("noorigin.test")).toEqual(["@ 600 NS ns.example.net.", "www 300 A 192.0.2.1", "www 300 A 192.0.2.2"]);
  });

  it("without an SOA gives the zone the default SOA of today", async () => {
    const response = await importZone("$ORIGIN nosoa.test.\n$TTL 300\n@ NS ns1.example.org.\n@ NS ns2.example.org.\n");
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({
      name: "nosoa.test",
      default_ttl: 300,
      record_count: 2,
      soa: { mname: "ns1.example.org", rname: "hostmaster.nosoa.test", refresh: 7200, retry: 900, expire: 1209600, minimum: 300 },
    });
    const today = new Date().toISOString().slice(0, 10).replaceAll("-", "");
    expect(String(response.body.soa.serial).slice(0, 8)).toBe(today);
  });

  it("converts Unicode names in the file and in ?name= to A-labels", async () => {
    const response = await importZone("$TTL 300\n@ NS ns1.example.org.\ncafé A 192.0.2.1\n", "Bücherei.test");
    expect(response.status, response.text).toBe(201);
    // The platform's URL parser is the reference IDNA mapping (docs/conventions.md).
    const aLabels = (name: string) => new URL(`http://${name}/`).hostname;
    expect(response.body).toMatchObject({ name: aLabels("bücherei.test"), unicode_name: "bücherei.test" });
    expect(await recordLines(response.body.id)).toEqual(["@ 300 NS ns1.example.org.", `${aLabels("café.x").slice(0, -2)} 300 A 192.0.2.1`]);
  });

  it("links the domain of the same name", async () => {
    const domain = (await api("POST", "/v1/domains", { json: { name: "imported-domain.com" } })).body;
    const response = await importZone("$ORIGIN imported-domain.com.\n$TTL 300\n@ NS ns1.example.org.\n");
    expect(response.status, response.text).toBe(201);
    expect(response.body.domain).toBe(domain.id);
  });

  it("raises the file's serial with the next change", async () => {
    await createRecord("noorigin.test", { name: "next", type: "A", content: "192.0.2.3" });
    expect((await readZone("noorigin.test")).soa.serial).toBeGreaterThan(7);
  });
});

describe("a bad master file", () => {
  it("answers 422 listing every bad line with its number and reason, and creates nothing", async () => {
    const before = await allZoneIds();
    const text = [
      "$ORIGIN bad.test.", // 1
      "$TTL 3600", // 2
      "@ IN NS ns1.example.net.", // 3
      "ok IN A 192.0.2.1", // 4
      "bad1 IN A 999.1.1.1", // 5
      "bad2 IN MX abc", // 6
      'good IN TXT "fine"', // 7
      "bad3 IN FOO whatever", // 8
      "outside.example.com. IN A 192.0.2.1", // 9: left out with a warning (BIND ignores out-of-zone data), not an error
      "$INCLUDE other.zone", // 10
      "bad4 IN A ( 192.0.2.1", // 11: never closed
      "",
    ].join("\n");
    const problem = expectProblem(await importZone(text), 422, "validation_failed");
    expect(problem.errors.map((e: { line: number }) => e.line)).toEqual([5, 6, 8, 10, 11]);
    for (const error of problem.errors) {
      expect(error).toMatchObject({ field: `line ${error.line}`, message: expect.any(String) });
      expect(error.message.length).toBeGreaterThan(5);
    }
    expect(problem.errors[2].message).toMatch(/FOO/);
    expect(problem.errors[3].message).toMatch(/INCLUDE/);
    expectProblem(await api("GET", "/v1/zones/bad.test"), 404, "not_found");
    expect(await allZoneIds()).toEqual(before);
  });

  it("without an NS record at the apex answers 422 and creates nothing", async () => {
    const before = await allZoneIds();
    const problem = expectProblem(await importZone("$ORIGIN no-ns.test.\n$TTL 300\nwww A 192.0.2.1\nsub NS ns1.example.org.\n"), 422, "validation_failed");
    expect(problem.errors).toHaveLength(1);
    // A problem of the file as a whole reads like the parser's own: line 0, field "file".
    expect(problem.errors[0]).toMatchObject({ field: "file", line: 0, message: expect.stringMatching(/NS/) });
    expectProblem(await api("GET", "/v1/zones/no-ns.test"), 404, "not_found");
    expect(await allZoneIds()).toEqual(before);
  });

  it("that breaks an RRset rule across lines answers 422 naming the line", async () => {
    const text = "$ORIGIN rrset-bad.test.\n$TTL 300\n@ NS ns1.example.org.\nwww A 192.0.2.1\nwww CNAME other.example.org.\n@ CNAME x.example.org.\n";
    const problem = expectProblem(await importZone(text), 422, "validation_failed");
    expect(problem.errors.map((e: { line: number }) => e.line)).toEqual([5, 6]);
    expectProblem(await api("GET", "/v1/zones/rrset-bad.test"), 404, "not_found");
  });

  it("however hostile, answers 4xx and creates nothing", async () => {
    const before = await allZoneIds();
    const files = [
      '$ORIGIN hostile.test.\n$TTL 300\n@ NS ns1.example.org.\nx TXT "unclosed\n',
      "$ORIGIN hostile.test.\n$TTL 300\n@ NS ns1.example.org.\nx A 192.0.2.1 )\n",
      "$ORIGIN hostile.test.\n$TTL 300\n@ NS ns1.example.org.\nx \u0000 A 192.0.2.1\n",
      "$ORIGIN hostile.test.\n$TTL 99999999999\n@ NS ns1.example.org.\n",
      "$ORIGIN hostile.test.\n$TTL 300\n@ NS ns1.example.org.\n@ SOA a b c d e f g\n",
      "$ORIGIN hostile.test.\n$TTL 300\n@ NS ns1.example.org.\n" + "(".repeat(5000) + "\n",
      "$ORIGIN ..\n",
      "$ORIGIN hostile.test.\n$TTL 300\n@ NS ns1.example.org.\nx TYPE65 \\# 0\n",
      "\u{1F600}\u{1F600}\n".repeat(100),
    ];
    for (const text of files) {
      const response = await importZone(text);
      expectProblem(response, 422, "validation_failed");
      expect(response.body.errors.length, text.slice(0, 80)).toBeGreaterThan(0);
    }
    const notUtf8 = await apiRaw("POST", "/v1/zones", { body: new Uint8Array([0x24, 0x4f, 0xff, 0xfe, 0x0a]), headers: { "content-type": "text/dns" } });
    // A master file is octets (RFC 1035 §5.1): an octet that is not UTF-8 refuses its line, not the file.
    expect(expectProblem(notUtf8, 422, "validation_failed").errors[0]).toEqual({
      field: "line 1",
      line: 1,
      message: expect.stringMatching(/^unknown directive /),
    });
    expect(await allZoneIds()).toEqual(before);
  });

  it("with no zone name (no $ORIGIN, no ?name=) or nothing in it answers 422", async () => {
    expectProblem(await importZone("@ 300 IN NS ns1.example.org.\n"), 422, "validation_failed");
    expectProblem(await importZone(""), 422, "validation_failed");
  });
});

describe("importing a zone whose name is taken", () => {
  it("answers 409 already_exists and leaves the existing zone as it was", async () => {
    const zone = await createZone("taken-import.test");
    const problem = expectProblem(await importZone("$ORIGIN Taken-Import.test.\n$TTL 300\n@ NS ns9.example.org.\nwww A 192.0.2.1\n"), 409, "already_exists");
    expect(problem.detail).toMatch(/taken-import\.test/);
    expect(await readZone(zone.id)).toEqual(zone);
    expectProblem(await importZone("$TTL 300\n@ NS ns9.example.org.\n", "taken-import.test"), 409, "already_exists");
  });
});

describe("a large master file", () => {
  it("is imported whole: 5 000 records, all counted, listed and exported", async () => {
    const lines = ["$ORIGIN large.test.", "$TTL 300", "@ NS ns1.example.org."];
    for (let i = 0; i < 5000; i++) lines.push(`h${i} A 10.${(i >> 8) & 255}.${i & 255}.1`);
    const response = await importZone(`${lines.join("\n")}\n`);
    expect(response.status, response.text.slice(0, 500)).toBe(201);
    expect(response.body.record_count).toBe(5001);
    const { items } = await allPages("/v1/zones/large.test/records?limit=200&type=A");
    expect(items).toHaveLength(5000);
    expect(new Set(items.map((r) => r.name)).size).toBe(5000);
    const exported = await exportZone("large.test");
    expect(exported.text.trimEnd().split("\n")).toHaveLength(3 + 5001);
  });
});

describe("the size of a master file", () => {
  it(`up to ${MAX_MASTER_FILE_BYTES / MiB} MiB is read`, async () => {
    const head = "$ORIGIN big.test.\n$TTL 300\n@ NS ns1.example.org.\n";
    const text = head + ";".padEnd(MAX_MASTER_FILE_BYTES - head.length - 1, "x") + "\n";
    expect(new TextEncoder().encode(text).length).toBe(MAX_MASTER_FILE_BYTES);
    const response = await importZone(text);
    expect(response.status, response.text.slice(0, 500)).toBe(201);
    expect(response.body.record_count).toBe(1);
  });

  it(`over ${MAX_MASTER_FILE_BYTES / MiB} MiB answers 413 payload_too_large and creates nothing`, async () => {
    const head = "$ORIGIN too-big.test.\n$TTL 300\n@ NS ns1.example.org.\n";
    const text = head + ";".padEnd(MAX_MASTER_FILE_BYTES - head.length, "x") + "\n";
    expectProblem(await importZone(text), 413, "payload_too_large");
    expectProblem(await api("GET", "/v1/zones/too-big.test"), 404, "not_found");
  });
});

describe("?name= on zone creation", () => {
  it("with a JSON body answers 400 invalid_query and creates nothing", async () => {
    const problem = expectProblem(await api("POST", "/v1/zones?name=json-named.test", { json: { name: "json-body.test" } }), 400, "invalid_query");
    expect(errorFields(problem)).toEqual(["name"]);
    expectProblem(await api("GET", "/v1/zones/json-body.test"), 404, "not_found");
    expectProblem(await api("GET", "/v1/zones/json-named.test"), 404, "not_found");
  });
});

describe("media types of zone creation", () => {
  it("other than application/json and text/dns answer 415", async () => {
    const body = "$ORIGIN plain.test.\n$TTL 300\n@ NS ns1.example.org.\n";
    expectProblem(await api("POST", "/v1/zones", { body, headers: { "content-type": "text/plain" } }), 415, "unsupported_media_type");
    expectProblem(await api("GET", "/v1/zones/plain.test"), 404, "not_found");
  });

  it("text/dns with a charset parameter is a master file", async () => {
    const response = await api("POST", "/v1/zones", {
      body: "$ORIGIN charset.test.\n$TTL 300\n@ NS ns1.example.org.\n",
      headers: { "content-type": "text/dns; charset=utf-8" },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body.name).toBe("charset.test");
  });
});

describe("export → import → export", () => {
  /** A zone holding every supported type, escapes, a wildcard, service labels and an IDN owner. */
  async function richZone(name: string) {
    const zone = await createZone(name, {
      default_ttl: 600,
      nameservers: ["ns1.example.net", "ns2.example.net"],
      soa: { refresh: 3600, retry: 600, expire: 604800, minimum: 120, rname: "dns@example.org" },
    });
    for (const type of RECORD_TYPES) await createRecord(zone.id, { name: `t-${type.toLowerCase()}`, type, content: rdataExamples[type] });
    const more: Record<string, unknown>[] = [
      { name: "@", type: "MX", content: "10 mail.example.com" },
      { name: "@", type: "MX", content: "20 mail2.example.com" },
      { name: "@", type: "TXT", content: "v=spf1 include:_spf.example.com ~all" },
      { name: "@", type: "CAA", content: '0 iodef "mailto:security@example.com"' },
      { name: "escaped", type: "TXT", content: '"say \\"hi\\"" "back\\\\slash" "tab\\009here" "semi;colon" "caf\\195\\169"' },
      { name: "unicode", type: "TXT", content: "héllo wörld ☃" },
      { name: "long", type: "TXT", content: "y".repeat(600) },
      { name: "*", type: "A", content: "192.0.2.100" },
      { name: "*.wild", type: "AAAA", content: "2001:db8::100" },
      { name: "_sip._tcp", type: "SRV", content: "10 60 5060 sip.example.com", ttl: 86400 },
      { name: "_sip._tcp", type: "SRV", content: "20 0 5060 sip2.example.com" },
      { name: "_dmarc", type: "TXT", content: "v=DMARC1; p=reject" },
      { name: "bücher", type: "A", content: "192.0.2.200" },
      { name: "www", type: "A", content: "192.0.2.10", ttl: 300 },
      { name: "www", type: "A", content: "192.0.2.11" },
      { name: "deep.sub.tree", type: "A", content: "192.0.2.12", ttl: 0 },
      { name: "child", type: "NS", content: "ns.child.example.org" },
      { name: "child", type: "DS", content: rdataExamples.DS },
      { name: "commented", type: "A", content: "192.0.2.13", comment: "comments are not part of a master file" },
    ];
    for (const fields of more) await createRecord(zone.id, fields);
    return readZone(zone.id);
  }

  it("under another name (?name=, $ORIGIN stripped) gives the same file but for the origin, and the same data", async () => {
    const original = await richZone("roundtrip.test");
    const first = await exportZone("roundtrip.test");
    expect(first.status).toBe(200);
    const [originLine, ...rest] = first.text.split("\n");
    expect(originLine).toBe("$ORIGIN roundtrip.test.");
    expect(rest.length - 3).toBe(original.record_count);
    expect(first.text).toContain("\nxn--bcher-kva 600 IN A 192.0.2.200\n");
    expect(first.text).toContain('\nescaped 600 IN TXT "say \\"hi\\"" "back\\\\slash" "tab\\009here" "semi;colon" "caf\\195\\169"\n');
    expect(first.text).toContain("\n* 600 IN A 192.0.2.100\n");

    const imported = await importZone(rest.join("\n"), "copy.test");
    expect(imported.status, imported.text).toBe(201);
    expect(imported.body).toMatchObject({ name: "copy.test", default_ttl: original.default_ttl, soa: original.soa, record_count: original.record_count });
    const second = await exportZone("copy.test");
    expect(second.text).toBe(["$ORIGIN copy.test.", ...rest].join("\n"));
    expect(await recordLines("copy.test")).toEqual(await recordLines("roundtrip.test"));
  });

  it("after deleting the original gives the identical file", async () => {
    const first = (await exportZone("roundtrip.test")).text;
    const original = await readZone("roundtrip.test");
    const lines = await recordLines("roundtrip.test");
    expect((await api("DELETE", "/v1/zones/roundtrip.test")).status).toBe(204);
    const imported = await importZone(first);
    expect(imported.status, imported.text).toBe(201);
    expect(imported.body).toMatchObject({ name: "roundtrip.test", default_ttl: original.default_ttl, soa: original.soa, record_count: original.record_count });
    expect(imported.body.id).not.toBe(original.id);
    expect((await exportZone("roundtrip.test")).text).toBe(first);
    expect(await recordLines("roundtrip.test")).toEqual(lines);
  });
});
