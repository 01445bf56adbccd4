// docs/dns.md#records (records) over HTTP: owners, types and canonical RDATA, the DNS rules,
// TTL per RRset, updates, lists.
//
// Every test creates the zones and records it needs, under names no other test of this
// file uses (the file shares one D1), so each runs alone (`vitest run -t "…"`) or in any
// order; only the list filter tests, which read and never write, share zones made once in
// their block's beforeAll. New tests keep to that: a zone name of their own.
import { beforeAll, describe, expect, it } from "vitest";
import { RECORD_TYPES, rdataExamples } from "../src/dns/rdata";
import {
  allowedMethods,
  allPages,
  api,
  createRecord,
  createZone,
  errorFields,
  expectProblem,
  idsOf,
  readZone,
  RECORD_ID,
  recordLines,
  RFC3339_MS_UTC,
} from "./helpers";

const UNKNOWN_RECORD = "rec_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B";

/** Asserts a 422 validation_failed whose errors name exactly `fields`. */
function expectInvalid(response: Awaited<ReturnType<typeof api>>, fields: string[], label = "") {
  const problem = expectProblem(response, 422, "validation_failed");
  expect(errorFields(problem), label).toEqual(fields);
  return problem;
}

function post(fields: Record<string, unknown>) {
  return api("POST", "/v1/records", { json: fields });
}

describe("creating a record", () => {
  it("answers 201 with the record of §8, Location and ETag", async () => {
    const zone = await createZone("create.rec.test");
    const response = await post({ zone: zone.id, name: "www", type: "A", content: "192.0.2.10" });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(RECORD_ID),
      zone: zone.id,
      name: "www",
      fqdn: "www.create.rec.test",
      type: "A",
      content: "192.0.2.10",
      ttl: 3600,
      comment: null,
      created_at: expect.stringMatching(RFC3339_MS_UTC),
      updated_at: response.body.created_at,
    });
    expect(response.headers.get("location")).toBe(`/v1/records/${response.body.id}`);
    expect(response.headers.get("etag")).toMatch(/^(W\/)?"[^"]+"$/);
    const read = await api("GET", `/v1/records/${response.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(response.body);
    expect(read.headers.get("etag")).toBe(response.headers.get("etag"));
    expect(await api("GET", `/v1/records/${response.body.id}`, { headers: { "if-none-match": read.headers.get("etag")! } })).toMatchObject({
      status: 304,
      text: "",
    });
    expect((await readZone(zone.id)).record_count).toBe(3);
  });

  it("takes the zone by id or by name, in any spelling", async () => {
    const zone = await createZone("bücher-zone.test");
    for (const [i, ref] of [zone.id, zone.name, `${zone.name.toUpperCase()}.`, "bücher-zone.test", "BÜCHER-zone.test."].entries()) {
      const record = await createRecord(ref, { name: `h${i}`, type: "A", content: "192.0.2.1" });
      expect(record.zone, ref).toBe(zone.id);
    }
  });

  it("in an unknown zone answers 422 naming zone", async () => {
    expectInvalid(await post({ zone: "nowhere.rec.test", type: "A", content: "192.0.2.1" }), ["zone"]);
    expectInvalid(await post({ zone: "zon_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B", type: "A", content: "192.0.2.1" }), ["zone"]);
  });

  it("needs zone, type and content: 422 naming each missing one", async () => {
    expectInvalid(await post({}), ["content", "type", "zone"]);
  });

  it("refuses read-only and unknown fields by name", async () => {
    await createZone("fields.rec.test");
    const readOnly = expectProblem(
      await post({ zone: "fields.rec.test", type: "A", content: "192.0.2.1", id: UNKNOWN_RECORD, fqdn: "x.fields.rec.test" }),
      422,
      "read_only_field",
    );
    expect(errorFields(readOnly)).toEqual(["fqdn", "id"]);
    const unknown = expectProblem(await post({ zone: "fields.rec.test", type: "A", content: "192.0.2.1", priority: 10 }), 422, "unknown_field");
    expect(errorFields(unknown)).toEqual(["priority"]);
    expect((await readZone("fields.rec.test")).record_count).toBe(2);
  });

  it("lists every problem of a bad record at once", async () => {
    await createZone("many.rec.test");
    expectInvalid(await post({ zone: "many.rec.test", name: "www.elsewhere.test.", type: "A", content: "300.0.0.1", comment: "c".repeat(256), ttl: -1 }), [
      "comment",
      "content",
      "name",
      "ttl",
    ]);
  });
});

describe("owner names of a record", () => {
  it("default to @, the apex", async () => {
    await createZone("owner.rec.test");
    expect(await createRecord("owner.rec.test", { type: "TXT", content: "apex" })).toMatchObject({ name: "@", fqdn: "owner.rec.test" });
    expect(await createRecord("owner.rec.test", { name: "@", type: "A", content: "192.0.2.1" })).toMatchObject({ name: "@", fqdn: "owner.rec.test" });
    expect(await createRecord("owner.rec.test", { name: "Owner.Rec.Test.", type: "AAAA", content: "2001:db8::1" })).toMatchObject({
      name: "@",
      fqdn: "owner.rec.test",
    });
    expect(await createRecord("owner.rec.test", { name: "owner.rec.test", type: "MX", content: "10 mx.example.org" })).toMatchObject({
      name: "@",
      fqdn: "owner.rec.test",
    });
  });

  it("may be relative, or absolute inside the zone with or without the trailing dot", async () => {
    await createZone("relative.rec.test");
    const cases: [string, string, string][] = [
      ["WWW", "www", "www.relative.rec.test"],
      ["a.b", "a.b", "a.b.relative.rec.test"],
      ["abs.relative.rec.test", "abs", "abs.relative.rec.test"],
      ["Dot.Relative.Rec.Test.", "dot", "dot.relative.rec.test"],
      ["_sip._tcp", "_sip._tcp", "_sip._tcp.relative.rec.test"],
      ["bücher", "xn--bcher-kva", "xn--bcher-kva.relative.rec.test"],
      // Without the trailing dot a name that does not end in the zone's is relative (the documented choice).
      ["www.elsewhere.test", "www.elsewhere.test", "www.elsewhere.test.relative.rec.test"],
    ];
    for (const [name, relative, fqdn] of cases) {
      // TXT, since service labels may not own address records (RFC 1123 host names).
      expect(await createRecord("relative.rec.test", { name, type: "TXT", content: "owner" }), name).toMatchObject({ name: relative, fqdn });
    }
  });

  it("of address and mail-exchanger records are host names: an underscore label answers 422 naming name", async () => {
    await createZone("checknames.rec.test");
    const problem = expectProblem(
      await api("POST", "/v1/records", { json: { zone: "checknames.rec.test", name: "_x", type: "A", content: "192.0.2.1" } }),
      422,
      "validation_failed",
    );
    expect(problem.errors).toEqual([{ field: "name", message: 'the owner of an A record must be a host name (RFC 1123 §2.1); label "_x" has an underscore' }]);
    expect(await createRecord("checknames.rec.test", { name: "*", type: "A", content: "192.0.2.1" })).toMatchObject({ name: "*" });
  });

  it("outside the zone (absolute, with the trailing dot) answer 422 naming name", async () => {
    await createZone("outside.rec.test");
    for (const name of ["www.elsewhere.test.", "rec.test.", "xoutside.rec.test.", "www.xoutside.rec.test."]) {
      expectInvalid(await post({ zone: "outside.rec.test", name, type: "A", content: "192.0.2.3" }), ["name"], name);
    }
    expect((await readZone("outside.rec.test")).record_count).toBe(2);
  });

  it("that are not valid names answer 422 naming name", async () => {
    await createZone("badname.rec.test");
    for (const name of ["-bad", "a..b", "bad label", `${"a".repeat(64)}`, "."]) {
      expectInvalid(await post({ zone: "badname.rec.test", name, type: "A", content: "192.0.2.3" }), ["name"], name);
    }
    expect((await readZone("badname.rec.test")).record_count).toBe(2);
  });
});

describe("wildcard owners", () => {
  it("* as the leftmost label is accepted", async () => {
    await createZone("wild.rec.test");
    expect(await createRecord("wild.rec.test", { name: "*", type: "A", content: "192.0.2.1" })).toMatchObject({ name: "*", fqdn: "*.wild.rec.test" });
    expect(await createRecord("wild.rec.test", { name: "*.foo", type: "A", content: "192.0.2.1" })).toMatchObject({
      name: "*.foo",
      fqdn: "*.foo.wild.rec.test",
    });
  });

  it("* anywhere else answers 422 naming name", async () => {
    await createZone("wild-elsewhere.rec.test");
    for (const name of ["foo.*.bar", "foo.*", "*foo", "f*o", "**"]) {
      expectInvalid(await post({ zone: "wild-elsewhere.rec.test", name, type: "A", content: "192.0.2.1" }), ["name"], name);
    }
  });
});

describe("record types", () => {
  it("are case-insensitive and returned upper case", async () => {
    await createZone("types.rec.test");
    expect(await createRecord("types.rec.test", { name: "lower", type: "aaaa", content: "2001:db8::1" })).toMatchObject({ type: "AAAA" });
    expect(await createRecord("types.rec.test", { name: "lower", type: "Mx", content: "10 mx.example.org" })).toMatchObject({ type: "MX" });
  });

  it("every supported type takes a valid content and returns it canonical", async () => {
    await createZone("alltypes.rec.test");
    for (const type of RECORD_TYPES) {
      const record = await createRecord("alltypes.rec.test", { name: `t-${type.toLowerCase()}`, type, content: rdataExamples[type] });
      expect(record, type).toMatchObject({ type, content: rdataExamples[type] });
    }
    const types = (await allPages("/v1/zones/alltypes.rec.test/records?limit=200")).items.map((r) => r.type);
    expect(new Set(types)).toEqual(new Set(RECORD_TYPES));
  });

  it("SOA cannot be created: 422 naming type", async () => {
    await createZone("soa.rec.test");
    for (const type of ["SOA", "soa"]) {
      expectInvalid(await post({ zone: "soa.rec.test", type, content: "ns1.example.net. hostmaster.soa.rec.test. 1 7200 900 1209600 300" }), ["type"], type);
    }
    expect((await readZone("soa.rec.test")).record_count).toBe(2);
  });

  it("that are unknown answer 422 naming type", async () => {
    await createZone("unknown-type.rec.test");
    for (const type of ["FOO", "KEY", "TYPE255", "", "A6"]) {
      expectInvalid(await post({ zone: "unknown-type.rec.test", name: "unknown", type, content: "x" }), ["type"], type);
    }
  });
});

describe("canonical content", () => {
  it("is what every type returns, whatever the spelling sent", async () => {
    await createZone("canon.rec.test");
    const cases: [string, string, string][] = [
      ["A", " 192.0.2.1 ", "192.0.2.1"],
      ["AAAA", "2001:DB8:0:0:0:0:0:10", "2001:db8::10"],
      ["AAAA", "::FFFF:192.0.2.1", "::ffff:192.0.2.1"],
      ["CNAME", "Target.Example.ORG", "target.example.org."],
      ["MX", "10 Mail.Example.com", "10 mail.example.com."],
      ["MX", "0 .", "0 ."],
      ["NS", "ns3.example.org", "ns3.example.org."],
      ["PTR", "host.example.com", "host.example.com."],
      ["SRV", "10 5 5060 SIP.example.com", "10 5 5060 sip.example.com."],
      ["CAA", '0 ISSUE "letsencrypt.org"', '0 issue "letsencrypt.org"'],
      [
        "DS",
        "12345 ECDSAP256SHA256 2 e06d44b80b8f1d39a95c0b0d7c65d08458e880409bbc683457104237c7f8ec8d",
        "12345 13 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D",
      ],
      [
        "TLSA",
        "3 1 1 0c72ac70b745ac19998811b131d662c9ac69dbdbe7cb23e5b514b56664c5d3d6",
        "3 1 1 0C72AC70B745AC19998811B131D662C9AC69DBDBE7CB23E5B514B56664C5D3D6",
      ],
      ["TXT", "v=spf1 include:_spf.example.com ~all", '"v=spf1 include:_spf.example.com ~all"'],
      ["TXT", '"one" "two"', '"one" "two"'],
      ["TXT", '"say \\"hi\\"" "semi\\059colon"', '"say \\"hi\\"" "semi;colon"'],
      ["TXT", "x".repeat(300), `"${"x".repeat(255)}" "${"x".repeat(45)}"`],
    ];
    for (const [i, [type, content, canonical]] of cases.entries()) {
      const record = await createRecord("canon.rec.test", { name: `c${i}`, type, content });
      expect(record.content, `${type} ${content}`).toBe(canonical);
      expect((await api("GET", `/v1/records/${record.id}`)).body.content).toBe(canonical);
    }
  });

  it("makes differently spelled identical records one: 409 already_exists", async () => {
    await createZone("canon-same.rec.test");
    await createRecord("canon-same.rec.test", { name: "same", type: "AAAA", content: "2001:db8::1" });
    await createRecord("canon-same.rec.test", { name: "same", type: "MX", content: "10 mx.example.org." });
    expectProblem(
      await post({ zone: "canon-same.rec.test", name: "SAME.canon-same.rec.test.", type: "aaaa", content: "2001:DB8:0::1" }),
      409,
      "already_exists",
    );
    expectProblem(await post({ zone: "canon-same.rec.test", name: "same", type: "MX", content: "10 MX.example.org" }), 409, "already_exists");
    expect((await readZone("canon-same.rec.test")).record_count).toBe(4);
  });
});

describe("invalid content", () => {
  it("answers 422 naming content, per type", async () => {
    await createZone("invalid.rec.test");
    const cases: [string, string][] = [
      ["A", "256.0.0.1"],
      ["A", "192.0.2"],
      ["A", "not-an-address"],
      ["A", ""],
      ["AAAA", "2001:db8::g"],
      ["AAAA", "192.0.2.1"],
      ["CNAME", "bad..name"],
      ["MX", "70000 mail.example.com"],
      ["MX", "ten mail.example.com"],
      ["MX", "10"],
      ["NS", "ns_1.example.org"],
      ["SRV", "0 0 70000 sip.example.com"],
      ["CAA", '0 unknowntag "x"'],
      ["CAA", '256 issue "letsencrypt.org"'],
      ["DS", "12345 13 2 XYZ"],
      ["DS", "12345 13 2 ABCD"],
      ["TLSA", "4 1 1 0C72AC70B745AC19998811B131D662C9AC69DBDBE7CB23E5B514B56664C5D3D6"],
      ["TLSA", "3 1 1 nothex"],
      ["SSHFP", "4 2 12"],
      ["TXT", `"${"x".repeat(256)}"`],
      ["PTR", "1.2.3.4.5"],
    ];
    for (const [type, content] of cases) {
      const problem = expectInvalid(await post({ zone: "invalid.rec.test", name: "bad", type, content }), ["content"], `${type} ${content}`);
      expect(problem.errors[0].message.length).toBeGreaterThan(0);
    }
    expect((await readZone("invalid.rec.test")).record_count).toBe(2);
  });
});

describe("hostile content", () => {
  it("never answers 5xx: every type answers 201 or a 422 naming content", async () => {
    const zone = await createZone("hostile.rec.test");
    const contents = ["", "( 1", ";", '"unclosed', "\\", "\u0000\n", "@", "..", "\\# 4 c0000201", "1 2 3 4 5 6 7 8 9", "\u{1F600}", "x".repeat(2000)];
    const cases = RECORD_TYPES.flatMap((type) => contents.map((content, i) => ({ name: `${type.toLowerCase()}-${i}`, type, content })));
    // Each at its own name, so they may go ten at a time (all at once, every write of the
    // zone racing for its serial, tests the retry budget rather than the content rules).
    const responses: Awaited<ReturnType<typeof post>>[] = [];
    for (let i = 0; i < cases.length; i += 10) responses.push(...(await Promise.all(cases.slice(i, i + 10).map((c) => post({ zone: zone.id, ...c })))));
    for (const [i, response] of responses.entries()) {
      if (response.status !== 201) expectInvalid(response, ["content"], `${cases[i]!.type} ${JSON.stringify(cases[i]!.content)}`);
    }
    expect((await readZone(zone.id)).record_count).toBe(2 + responses.filter((r) => r.status === 201).length);
  }, 300_000);
});

describe("record TTL", () => {
  it("defaults to the zone's default_ttl", async () => {
    await createZone("ttl.rec.test", { default_ttl: 900 });
    expect((await createRecord("ttl.rec.test", { name: "d", type: "A", content: "192.0.2.1" })).ttl).toBe(900);
  });

  it("takes 0 to 2147483647; outside or fractional answers 422 naming ttl", async () => {
    await createZone("ttl-range.rec.test");
    expect((await createRecord("ttl-range.rec.test", { name: "zero", type: "A", content: "192.0.2.1", ttl: 0 })).ttl).toBe(0);
    expect((await createRecord("ttl-range.rec.test", { name: "max", type: "A", content: "192.0.2.1", ttl: 2147483647 })).ttl).toBe(2147483647);
    for (const ttl of [-1, 2147483648, 1.5, "300", null]) {
      expectInvalid(await post({ zone: "ttl-range.rec.test", name: "bad", type: "A", content: "192.0.2.1", ttl }), ["ttl"], String(ttl));
    }
  });
});

describe("record comments", () => {
  it("take up to 255 characters, or null", async () => {
    await createZone("comment.rec.test");
    const long = await createRecord("comment.rec.test", { name: "long", type: "A", content: "192.0.2.1", comment: "c".repeat(255) });
    expect(long.comment).toBe("c".repeat(255));
    expect((await createRecord("comment.rec.test", { name: "none", type: "A", content: "192.0.2.1", comment: null })).comment).toBeNull();
    expectInvalid(await post({ zone: "comment.rec.test", name: "over", type: "A", content: "192.0.2.1", comment: "c".repeat(256) }), ["comment"]);
  });

  it("are cleared by PATCH null", async () => {
    await createZone("comment-clear.rec.test");
    const record = await createRecord("comment-clear.rec.test", { name: "clear", type: "A", content: "192.0.2.1", comment: "temporary" });
    const response = await api("PATCH", `/v1/records/${record.id}`, { json: { comment: null } });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ id: record.id, comment: null, content: "192.0.2.1" });
  });
});

describe("CNAME at the apex", () => {
  it("answers 422, whether the apex is written @, omitted or absolute", async () => {
    await createZone("apex-cname.rec.test");
    for (const name of ["@", undefined, "apex-cname.rec.test."]) {
      const problem = expectProblem(await post({ zone: "apex-cname.rec.test", name, type: "CNAME", content: "target.example.org" }), 422, "validation_failed");
      expect(problem.errors.length, String(name)).toBe(1);
    }
    expect((await readZone("apex-cname.rec.test")).record_count).toBe(2);
  });

  it("answers 422 when a PATCH would move a CNAME there", async () => {
    await createZone("apex-cname-patch.rec.test");
    const cname = await createRecord("apex-cname-patch.rec.test", { name: "alias", type: "CNAME", content: "target.example.org" });
    expectProblem(await api("PATCH", `/v1/records/${cname.id}`, { json: { name: "@" } }), 422, "validation_failed");
    expect((await api("GET", `/v1/records/${cname.id}`)).body).toEqual(cname);
  });
});

describe("a CNAME is alone at its name", () => {
  it("a CNAME beside other data answers 409 rrset_conflict", async () => {
    await createZone("cname.rec.test");
    await createRecord("cname.rec.test", { name: "www", type: "A", content: "192.0.2.1" });
    expectProblem(await post({ zone: "cname.rec.test", name: "www", type: "CNAME", content: "target.example.org" }), 409, "rrset_conflict");
  });

  it("other data beside a CNAME answers 409 rrset_conflict", async () => {
    await createZone("cname-beside.rec.test");
    await createRecord("cname-beside.rec.test", { name: "alias", type: "CNAME", content: "target.example.org" });
    for (const [type, content] of [
      ["A", "192.0.2.1"],
      ["TXT", "hello"],
      ["MX", "10 mx.example.org"],
    ]) {
      expectProblem(await post({ zone: "cname-beside.rec.test", name: "alias", type, content }), 409, "rrset_conflict");
    }
    expect((await readZone("cname-beside.rec.test")).record_count).toBe(3);
  });

  it("a second CNAME at the name answers 409", async () => {
    await createZone("cname-second.rec.test");
    await createRecord("cname-second.rec.test", { name: "alias", type: "CNAME", content: "target.example.org" });
    expectProblem(await post({ zone: "cname-second.rec.test", name: "alias", type: "CNAME", content: "other.example.org" }), 409, "rrset_conflict");
    expectProblem(await post({ zone: "cname-second.rec.test", name: "alias", type: "CNAME", content: "target.example.org" }), 409, "already_exists");
  });

  it("holds for PATCH: a type or name change into a conflict answers 409", async () => {
    await createZone("cname-patch.rec.test");
    await createRecord("cname-patch.rec.test", { name: "alias", type: "CNAME", content: "target.example.org" });
    const a = await createRecord("cname-patch.rec.test", { name: "patch-a", type: "A", content: "192.0.2.1" });
    await createRecord("cname-patch.rec.test", { name: "patch-a", type: "TXT", content: "beside" });
    expectProblem(await api("PATCH", `/v1/records/${a.id}`, { json: { type: "CNAME", content: "target.example.org" } }), 409, "rrset_conflict");
    expectProblem(await api("PATCH", `/v1/records/${a.id}`, { json: { name: "alias" } }), 409, "rrset_conflict");
    const cname = await createRecord("cname-patch.rec.test", { name: "patch-c", type: "CNAME", content: "target.example.org" });
    expectProblem(await api("PATCH", `/v1/records/${cname.id}`, { json: { name: "patch-a" } }), 409, "rrset_conflict");
    // Alone, a record may become a CNAME.
    const lone = await createRecord("cname-patch.rec.test", { name: "lone", type: "A", content: "192.0.2.1" });
    const changed = await api("PATCH", `/v1/records/${lone.id}`, { json: { type: "CNAME", content: "target.example.org" } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ type: "CNAME", content: "target.example.org." });
  });

  it("holds under concurrency: a CNAME and an A written at once give one 201 and one 409", async () => {
    const zone = await createZone("cname-race.rec.test");
    const [cname, a] = await Promise.all([
      post({ zone: zone.id, name: "race", type: "CNAME", content: "target.example.org" }),
      post({ zone: zone.id, name: "race", type: "A", content: "192.0.2.1" }),
    ]);
    expect([cname.status, a.status].sort()).toEqual([201, 409]);
    expectProblem(cname.status === 409 ? cname : a, 409, "rrset_conflict");
    expect((await readZone(zone.id)).record_count).toBe(3);
  });
});

describe("identical records", () => {
  it("(same name, type and content) answer 409 already_exists", async () => {
    await createZone("dup.rec.test");
    await createRecord("dup.rec.test", { name: "www", type: "A", content: "192.0.2.1" });
    expectProblem(await post({ zone: "dup.rec.test", name: "www.dup.rec.test.", type: "A", content: "192.0.2.1" }), 409, "already_exists");
    // The same content under another name or type is another record.
    await createRecord("dup.rec.test", { name: "www2", type: "A", content: "192.0.2.1" });
    await createRecord("dup.rec.test", { name: "www", type: "TXT", content: "192.0.2.1" });
  });

  it("answer 409 already_exists when a PATCH would make one", async () => {
    await createZone("dup-patch.rec.test");
    await createRecord("dup-patch.rec.test", { name: "www", type: "A", content: "192.0.2.1" });
    const other = await createRecord("dup-patch.rec.test", { name: "www", type: "A", content: "192.0.2.2" });
    expectProblem(await api("PATCH", `/v1/records/${other.id}`, { json: { content: "192.0.2.1" } }), 409, "already_exists");
    expect((await api("GET", `/v1/records/${other.id}`)).body.content).toBe("192.0.2.2");
  });
});

describe("the apex keeps at least one NS record", () => {
  it("deleting the last apex NS answers 409 rrset_conflict and keeps it", async () => {
    await createZone("apex-ns.rec.test", { nameservers: ["ns1.example.org"] });
    const [ns] = (await api("GET", "/v1/zones/apex-ns.rec.test/records?type=NS")).body.data;
    expectProblem(await api("DELETE", `/v1/records/${ns.id}`), 409, "rrset_conflict");
    expect((await api("GET", `/v1/records/${ns.id}`)).status).toBe(200);
    expect((await readZone("apex-ns.rec.test")).record_count).toBe(1);
  });

  it("deleting one of two answers 204; then the other is the last", async () => {
    await createZone("apex-ns2.rec.test", { nameservers: ["ns1.example.org", "ns2.example.org"] });
    const [first, second] = (await api("GET", "/v1/zones/apex-ns2.rec.test/records?type=NS")).body.data;
    const deleted = await api("DELETE", `/v1/records/${first.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expectProblem(await api("GET", `/v1/records/${first.id}`), 404, "not_found");
    expectProblem(await api("DELETE", `/v1/records/${second.id}`), 409, "rrset_conflict");
    expect((await readZone("apex-ns2.rec.test")).record_count).toBe(1);
  });

  it("a PATCH moving the last apex NS away (name or type) answers 409; changing its host is fine", async () => {
    await createZone("apex-ns-patch.rec.test", { nameservers: ["ns1.example.org"] });
    const [ns] = (await api("GET", "/v1/zones/apex-ns-patch.rec.test/records?type=NS")).body.data;
    expectProblem(await api("PATCH", `/v1/records/${ns.id}`, { json: { name: "sub" } }), 409, "rrset_conflict");
    expectProblem(await api("PATCH", `/v1/records/${ns.id}`, { json: { type: "A", content: "192.0.2.53" } }), 409, "rrset_conflict");
    const host = await api("PATCH", `/v1/records/${ns.id}`, { json: { content: "ns9.example.org" } });
    expect(host.status, host.text).toBe(200);
    expect(host.body).toMatchObject({ name: "@", type: "NS", content: "ns9.example.org." });
  });

  it("holds under concurrency: deleting both apex NS at once gives one 204 and one 409", async () => {
    const zone = await createZone("apex-ns-race.rec.test", { nameservers: ["ns1.example.org", "ns2.example.org"] });
    const ns = (await api("GET", `/v1/zones/${zone.id}/records?type=NS`)).body.data;
    const responses = await Promise.all(ns.map((r: { id: string }) => api("DELETE", `/v1/records/${r.id}`)));
    expect(responses.map((r) => r.status).sort()).toEqual([204, 409]);
    expectProblem(responses.find((r) => r.status === 409)!, 409, "rrset_conflict");
    expect(await readZone(zone.id)).toMatchObject({ record_count: 1, soa: { serial: zone.soa.serial + 1 } });
  });

  it("NS records below the apex (delegations) may all be deleted", async () => {
    await createZone("delegation.rec.test", { nameservers: ["ns1.example.org"] });
    const delegations = [
      await createRecord("delegation.rec.test", { name: "child", type: "NS", content: "ns1.child.example.org" }),
      await createRecord("delegation.rec.test", { name: "child", type: "NS", content: "ns2.child.example.org" }),
    ];
    for (const delegation of delegations) expect((await api("DELETE", `/v1/records/${delegation.id}`)).status).toBe(204);
    expect(await recordLines("delegation.rec.test")).toEqual(["@ 3600 NS ns1.example.org."]);
  });
});

describe("TTL belongs to the RRset", () => {
  it("creating a record with a ttl sets it on its siblings, and on no other RRset", async () => {
    await createZone("rrset.rec.test");
    const first = await createRecord("rrset.rec.test", { name: "www", type: "A", content: "192.0.2.1", ttl: 300 });
    await createRecord("rrset.rec.test", { name: "www", type: "AAAA", content: "2001:db8::1", ttl: 300 });
    await createRecord("rrset.rec.test", { name: "other", type: "A", content: "192.0.2.1", ttl: 300 });
    const second = await createRecord("rrset.rec.test", { name: "www", type: "A", content: "192.0.2.2", ttl: 600 });
    expect(second.ttl).toBe(600);
    expect((await api("GET", `/v1/records/${first.id}`)).body.ttl).toBe(600);
    expect(await recordLines("rrset.rec.test")).toEqual([
      "@ 3600 NS ns1.example.net.",
      "@ 3600 NS ns2.example.net.",
      "other 300 A 192.0.2.1",
      "www 300 AAAA 2001:db8::1",
      "www 600 A 192.0.2.1",
      "www 600 A 192.0.2.2",
    ]);
  });

  it("creating a record without a ttl adopts the RRset's ttl, not the zone default", async () => {
    await createZone("rrset-adopt.rec.test");
    await createRecord("rrset-adopt.rec.test", { name: "www", type: "A", content: "192.0.2.1", ttl: 600 });
    const second = await createRecord("rrset-adopt.rec.test", { name: "www", type: "A", content: "192.0.2.3" });
    expect(second.ttl).toBe(600);
    expect((await createRecord("rrset-adopt.rec.test", { name: "www", type: "AAAA", content: "2001:db8::1" })).ttl).toBe(3600);
  });

  it("PATCH ttl sets it on every record of the RRset", async () => {
    await createZone("rrset-patch.rec.test");
    const one = await createRecord("rrset-patch.rec.test", { name: "www", type: "A", content: "192.0.2.1", ttl: 600 });
    await createRecord("rrset-patch.rec.test", { name: "www", type: "A", content: "192.0.2.2" });
    await createRecord("rrset-patch.rec.test", { name: "www", type: "A", content: "192.0.2.3" });
    await createRecord("rrset-patch.rec.test", { name: "www", type: "AAAA", content: "2001:db8::1", ttl: 300 });
    const response = await api("PATCH", `/v1/records/${one.id}`, { json: { ttl: 120 } });
    expect(response.status, response.text).toBe(200);
    expect(response.body.ttl).toBe(120);
    const ttls = (await api("GET", "/v1/zones/rrset-patch.rec.test/records?name=www")).body.data.map(
      (r: { type: string; ttl: number }) => `${r.type} ${r.ttl}`,
    );
    expect(ttls.sort()).toEqual(["A 120", "A 120", "A 120", "AAAA 300"]);
  });

  it("concurrent writes leave the RRset with one TTL", async () => {
    const zone = await createZone("rrset-race.rec.test");
    const first = await createRecord(zone.id, { name: "www", type: "A", content: "192.0.2.1", ttl: 50 });
    // A TTL change racing creates that adopt the RRset's TTL: whatever the order, one TTL.
    for (const [round, ttl] of [300, 600, 900].entries()) {
      const responses = await Promise.all([
        api("PATCH", `/v1/records/${first.id}`, { json: { ttl } }),
        ...Array.from({ length: 5 }, (_, i) => post({ zone: zone.id, name: "www", type: "A", content: `192.0.2.${round * 10 + i + 10}` })),
      ]);
      expect(responses.map((r) => r.status)).toEqual([200, ...Array(5).fill(201)]);
      const ttls = (await api("GET", `/v1/zones/${zone.id}/records?name=www&type=A`)).body.data.map((r: { ttl: number }) => r.ttl);
      expect(ttls).toHaveLength(6 + round * 5);
      expect(new Set(ttls).size, `round ${round}: ${JSON.stringify(ttls)}`).toBe(1);
    }
  });

  it("a record moved into an RRset by PATCH adopts its ttl", async () => {
    await createZone("rrset-move.rec.test");
    await createRecord("rrset-move.rec.test", { name: "www", type: "A", content: "192.0.2.1", ttl: 120 });
    const moved = await createRecord("rrset-move.rec.test", { name: "mover", type: "A", content: "192.0.2.9", ttl: 45 });
    const response = await api("PATCH", `/v1/records/${moved.id}`, { json: { name: "www" } });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ name: "www", ttl: 120 });
  });
});

describe("updating a record", () => {
  it("changes name, type, content, ttl and comment, returning the record canonical with a new ETag", async () => {
    const zone = await createZone("patch.rec.test");
    const record = await createRecord(zone.id, { name: "www", type: "A", content: "192.0.2.1" });
    const etag = (await api("GET", `/v1/records/${record.id}`)).headers.get("etag");
    const response = await api("PATCH", `/v1/records/${record.id}`, {
      json: { name: "Web.patch.rec.test.", type: "aaaa", content: "2001:DB8::0:1", ttl: 60, comment: "moved" },
      headers: { "content-type": "application/merge-patch+json" },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      ...record,
      name: "web",
      fqdn: "web.patch.rec.test",
      type: "AAAA",
      content: "2001:db8::1",
      ttl: 60,
      comment: "moved",
      updated_at: expect.stringMatching(RFC3339_MS_UTC),
    });
    expect(response.headers.get("etag")).not.toBe(etag);
    expect((await api("GET", `/v1/records/${record.id}`)).body).toEqual(response.body);
  });

  it("re-validates the whole record: a type change whose old content does not fit answers 422 naming content", async () => {
    await createZone("patch-revalidate.rec.test");
    const record = await createRecord("patch-revalidate.rec.test", { name: "typed", type: "A", content: "192.0.2.1" });
    expectInvalid(await api("PATCH", `/v1/records/${record.id}`, { json: { type: "AAAA" } }), ["content"]);
    expectInvalid(await api("PATCH", `/v1/records/${record.id}`, { json: { type: "MX" } }), ["content"]);
    expectInvalid(await api("PATCH", `/v1/records/${record.id}`, { json: { content: "2001:db8::1" } }), ["content"]);
    expectInvalid(await api("PATCH", `/v1/records/${record.id}`, { json: { type: "SOA" } }), ["type"]);
    expectInvalid(await api("PATCH", `/v1/records/${record.id}`, { json: { name: "www.elsewhere.test." } }), ["name"]);
    expectInvalid(await api("PATCH", `/v1/records/${record.id}`, { json: { name: "a.*" } }), ["name"]);
    expectInvalid(await api("PATCH", `/v1/records/${record.id}`, { json: { ttl: -1 } }), ["ttl"]);
    expect((await api("GET", `/v1/records/${record.id}`)).body).toEqual(record);
  });

  it("refuses zone and other read-only fields with 422 read_only_field", async () => {
    await createZone("patch-readonly.rec.test");
    const other = await createZone("patch-other.rec.test");
    const record = await createRecord("patch-readonly.rec.test", { name: "fixed", type: "A", content: "192.0.2.1" });
    const zone = expectProblem(await api("PATCH", `/v1/records/${record.id}`, { json: { zone: other.id } }), 422, "read_only_field");
    expect(errorFields(zone)).toEqual(["zone"]);
    const others = expectProblem(
      await api("PATCH", `/v1/records/${record.id}`, { json: { id: UNKNOWN_RECORD, fqdn: "x.patch-readonly.rec.test", created_at: record.created_at } }),
      422,
      "read_only_field",
    );
    expect(errorFields(others)).toEqual(["created_at", "fqdn", "id"]);
    expect(errorFields(expectProblem(await api("PATCH", `/v1/records/${record.id}`, { json: { weight: 1 } }), 422, "unknown_field"))).toEqual(["weight"]);
    expect((await api("GET", `/v1/records/${record.id}`)).body).toEqual(record);
  });

  it("with an empty patch is a no-op: 200, unchanged updated_at", async () => {
    await createZone("patch-noop.rec.test");
    const record = await createRecord("patch-noop.rec.test", { name: "noop", type: "A", content: "192.0.2.1" });
    const response = await api("PATCH", `/v1/records/${record.id}`, { json: {} });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(record);
  });

  it("honours If-Match: a stale ETag answers 412 precondition_failed", async () => {
    await createZone("patch-if-match.rec.test");
    const record = await createRecord("patch-if-match.rec.test", { name: "guarded", type: "A", content: "192.0.2.1" });
    const etag = (await api("GET", `/v1/records/${record.id}`)).headers.get("etag")!;
    expect((await api("PATCH", `/v1/records/${record.id}`, { json: { comment: "one" }, headers: { "if-match": etag } })).status).toBe(200);
    expectProblem(await api("PATCH", `/v1/records/${record.id}`, { json: { comment: "two" }, headers: { "if-match": etag } }), 412, "precondition_failed");
    expect((await api("GET", `/v1/records/${record.id}`)).body.comment).toBe("one");
  });

  it("of an unknown record answers 404", async () => {
    expectProblem(await api("PATCH", `/v1/records/${UNKNOWN_RECORD}`, { json: { ttl: 60 } }), 404, "not_found");
  });
});

describe("deleting a record", () => {
  it("answers 204 and lowers record_count", async () => {
    const zone = await createZone("delete.rec.test");
    const record = await createRecord(zone.id, { name: "gone", type: "A", content: "192.0.2.1" });
    const response = await api("DELETE", `/v1/records/${record.id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expectProblem(await api("GET", `/v1/records/${record.id}`), 404, "not_found");
    expectProblem(await api("DELETE", `/v1/records/${record.id}`), 404, "not_found");
    expect((await readZone(zone.id)).record_count).toBe(2);
  });

  it("honours If-Match: a stale ETag answers 412 and the record stays", async () => {
    await createZone("delete-if-match.rec.test");
    const record = await createRecord("delete-if-match.rec.test", { name: "kept", type: "A", content: "192.0.2.1" });
    expectProblem(await api("DELETE", `/v1/records/${record.id}`, { headers: { "if-match": '"stale"' } }), 412, "precondition_failed");
    expect((await api("GET", `/v1/records/${record.id}`)).status).toBe(200);
  });
});

describe("unsupported methods on records", () => {
  it("answer 405 method_not_allowed with Allow", async () => {
    const put = await api("PUT", `/v1/records/${UNKNOWN_RECORD}`, { json: {} });
    expectProblem(put, 405, "method_not_allowed");
    expect(allowedMethods(put)).toEqual(["DELETE", "GET", "HEAD", "OPTIONS", "PATCH"]);
    const collection = await api("DELETE", "/v1/records");
    expectProblem(collection, 405, "method_not_allowed");
    expect(allowedMethods(collection)).toEqual(["GET", "HEAD", "OPTIONS", "POST"]);
  });
});

describe("record list filters", () => {
  /**
   * Two zones with known records, for this block's tests, which only read them (a test
   * that writes makes zones of its own). The addresses are used by no other test of the
   * file, so a filter across zones (content) finds these records and no others of the file.
   */
  async function filterZones() {
    const [one, two] = ["198.51.100.2", "198.51.100.3"];
    // The two zones are filled side by side; within each, records are created in order.
    const [a, b] = await Promise.all([
      (async () => {
        const zone = await createZone("filter-a.rec.test", { nameservers: ["ns1.example.org"] });
        const ns = (await api("GET", `/v1/zones/${zone.id}/records`)).body.data[0].id as string;
        const www1 = (await createRecord(zone.id, { name: "www", type: "A", content: one })).id as string;
        const www2 = (await createRecord(zone.id, { name: "www", type: "A", content: two })).id as string;
        const www6 = (await createRecord(zone.id, { name: "www", type: "AAAA", content: "2001:db8::1" })).id as string;
        const mail = (await createRecord(zone.id, { name: "mail", type: "MX", content: "10 mx.example.org" })).id as string;
        return { zone, ns, www1, www2, www6, mail };
      })(),
      (async () => {
        const zone = await createZone("filter-b.rec.test", { nameservers: ["ns1.example.org"] });
        const ns = (await api("GET", `/v1/zones/${zone.id}/records`)).body.data[0].id as string;
        const www = (await createRecord(zone.id, { name: "www", type: "A", content: one })).id as string;
        return { zone, ns, www };
      })(),
    ]);
    const ids = { aNs: a.ns, bNs: b.ns, aWww1: a.www1, aWww2: a.www2, aWww6: a.www6, aMail: a.mail, bWww: b.www };
    return { a: a.zone.name as string, aId: a.zone.id as string, b: b.zone.name as string, one, two, ...ids };
  }
  let f: Awaited<ReturnType<typeof filterZones>>;
  beforeAll(async () => {
    f = await filterZones();
  });

  it("zone (id or name) selects one zone's records", async () => {
    const aAll = [f.aNs, f.aWww1, f.aWww2, f.aWww6, f.aMail];
    for (const zone of [f.aId, f.a, `${f.a.toUpperCase()}.`]) {
      expect(idsOf(await api("GET", `/v1/records?zone=${encodeURIComponent(zone)}`)), zone).toEqual(aAll);
    }
    expect(idsOf(await api("GET", `/v1/zones/${f.a}/records`))).toEqual(aAll);
    expect(idsOf(await api("GET", `/v1/records?zone=${f.b}`))).toEqual([f.bNs, f.bWww]);
    expect(idsOf(await api("GET", "/v1/records?zone=nowhere.rec.test"))).toEqual([]);
  });

  it("name matches the owner; on a zone it may be relative, @ or absolute", async () => {
    const www = [f.aWww1, f.aWww2, f.aWww6];
    expect(idsOf(await api("GET", `/v1/records?zone=${f.a}&name=www`))).toEqual(www);
    expect(idsOf(await api("GET", `/v1/records?zone=${f.a}&name=www.${f.a}.`))).toEqual(www);
    for (const name of ["WWW", `www.${f.a}`, `www.${f.a}.`]) {
      expect(idsOf(await api("GET", `/v1/zones/${f.a}/records?name=${encodeURIComponent(name)}`)), name).toEqual(www);
    }
    expect(idsOf(await api("GET", `/v1/zones/${f.a}/records?name=%40`))).toEqual([f.aNs]);
  });

  it("type is case-insensitive; an unknown type answers 400 invalid_query", async () => {
    expect(idsOf(await api("GET", `/v1/zones/${f.a}/records?type=aaaa`))).toEqual([f.aWww6]);
    expect(idsOf(await api("GET", `/v1/records?type=A&zone=${f.b}`))).toEqual([f.bWww]);
    expectProblem(await api("GET", "/v1/records?type=FOO"), 400, "invalid_query");
    expectProblem(await api("GET", `/v1/zones/${f.a}/records?type=FOO`), 400, "invalid_query");
  });

  it("content matches exactly, canonicalised when type is given", async () => {
    // Across zones: every A record of the file with this content (other tests' zones may hold some), these two among them.
    const across = await api("GET", `/v1/records?content=${f.one}&type=A&q=www`);
    expect(across.body.data.map((r: { type: string; content: string }) => `${r.type} ${r.content}`)).toEqual(across.body.data.map(() => `A ${f.one}`));
    // In creation order, i.e. id order (the two zones were filled side by side).
    expect(idsOf(across).filter((id) => [f.aWww1, f.aWww2, f.bWww].includes(id))).toEqual([f.aWww1, f.bWww].sort());
    expect(idsOf(await api("GET", `/v1/zones/${f.a}/records?type=AAAA&content=${encodeURIComponent("2001:DB8:0::1")}`))).toEqual([f.aWww6]);
    expect(idsOf(await api("GET", `/v1/zones/${f.a}/records?type=MX&content=${encodeURIComponent("10 MX.example.org")}`))).toEqual([f.aMail]);
  });

  it("q is a case-insensitive substring of the owner name", async () => {
    expect(idsOf(await api("GET", `/v1/zones/${f.a}/records?q=AI`))).toEqual([f.aMail]);
    expect(idsOf(await api("GET", `/v1/records?q=WW&zone=${f.b}`))).toEqual([f.bWww]);
  });

  it("filters combine with AND", async () => {
    expect(idsOf(await api("GET", `/v1/records?zone=${f.a}&name=www&type=A&content=${f.two}`))).toEqual([f.aWww2]);
    expect(idsOf(await api("GET", `/v1/records?zone=${f.b}&type=MX`))).toEqual([]);
  });

  it("on /zones/{zone}/records: an unknown zone answers 404, a zone parameter 400", async () => {
    expectProblem(await api("GET", "/v1/zones/nowhere.rec.test/records"), 404, "not_found");
    expectProblem(await api("GET", "/v1/zones/zon_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B/records"), 404, "not_found");
    expectProblem(await api("GET", `/v1/zones/${f.a}/records?zone=${f.b}`), 400, "invalid_query");
    expectProblem(await api("GET", "/v1/records?colour=red"), 400, "invalid_query");
  });
});

describe("record list pagination", () => {
  it("walks every record once, in creation order, on /records and /zones/{zone}/records", async () => {
    const zone = await createZone("paging.rec.test", { nameservers: ["ns1.example.org"] });
    const ids = [(await api("GET", `/v1/zones/${zone.id}/records`)).body.data[0].id];
    for (let i = 0; i < 6; i++) ids.push((await createRecord(zone.id, { name: `p${i}`, type: "A", content: "192.0.2.1" })).id);
    for (const path of [`/v1/zones/${zone.id}/records?limit=3`, `/v1/records?zone=${zone.id}&limit=3`]) {
      const first = await api("GET", path);
      expect(first.headers.get("link"), path).toMatch(/^<\/v1\/.*cursor=[^>]+>; rel="next"$/);
      const { pages, items } = await allPages(path);
      expect(
        pages.map((p) => p.data.length),
        path,
      ).toEqual([3, 3, 1]);
      expect(
        items.map((r) => r.id),
        path,
      ).toEqual(ids);
    }
    expectProblem(await api("GET", `/v1/zones/${zone.id}/records?limit=0`), 400, "invalid_query");
    expectProblem(await api("GET", `/v1/records?cursor=garbage`), 400, "invalid_cursor");
  });
});

// Issue 15: a record write never leaves the zone in a state BIND's named-checkzone refuses
// (-k fail -i local -M fail -S fail); the rules are src/dns/rrset-rules.ts and zone-integrity.ts.
describe("a name server of the zone inside the zone needs an address record there (BIND: has no address records)", () => {
  it("refuses the apex NS before the address, takes it after, and keeps the address while the NS needs it", async () => {
    const zone = await createZone("ns-address.rec.test");
    const early = await post({ zone: zone.id, type: "NS", content: "ns1.ns-address.rec.test" });
    const problem = expectInvalid(early, ["content"]);
    expect(problem.errors[0].message).toBe(
      "the zone's name server ns1.ns-address.rec.test lies inside the zone but has no address record (A or AAAA) there; add one before naming it (RFC 1034 §4.2.2)",
    );
    const address = await createRecord(zone.id, { name: "ns1", type: "A", content: "192.0.2.53" });
    await createRecord(zone.id, { type: "NS", content: "ns1.ns-address.rec.test" });
    const removal = await api("DELETE", `/v1/records/${address.id}`);
    expect(expectProblem(removal, 409, "rrset_conflict").detail).toBe(
      "The NS record at ns-address.rec.test (ns1.ns-address.rec.test.) would break: the zone's name server ns1.ns-address.rec.test lies inside the zone but has no address record (A or AAAA) there; add one before naming it (RFC 1034 §4.2.2).",
    );
    const moved = await api("PATCH", `/v1/records/${address.id}`, { json: { name: "ns2" } });
    expectProblem(moved, 409, "rrset_conflict");
    await createRecord(zone.id, { name: "ns1", type: "AAAA", content: "2001:db8::53" });
    expect((await api("DELETE", `/v1/records/${address.id}`)).status).toBe(204);
  });
  it("takes a name server below a delegation without an address, as BIND does", async () => {
    const zone = await createZone("ns-delegated.rec.test");
    await createRecord(zone.id, { name: "sub", type: "NS", content: "ns1.example.net" });
    await createRecord(zone.id, { type: "NS", content: "ns.sub.ns-delegated.rec.test" });
  });
});

describe("an MX or SRV inside the zone does not point at an alias, nor below a DNAME (RFC 2181 §10.3; BIND -M fail, -S fail)", () => {
  it("refuses an MX to a CNAME, and a CNAME where an MX points", async () => {
    const zone = await createZone("mx-alias.rec.test");
    await createRecord(zone.id, { name: "alias", type: "CNAME", content: "mail.example.net" });
    const mx = await post({ zone: zone.id, type: "MX", content: "10 alias.mx-alias.rec.test" });
    expect(expectInvalid(mx, ["content"]).errors[0].message).toBe(
      "the mail exchanger alias.mx-alias.rec.test is an alias (CNAME at alias.mx-alias.rec.test); MX records must name a canonical name (RFC 2181 §10.3)",
    );
    await createRecord(zone.id, { type: "MX", content: "10 mail.mx-alias.rec.test" });
    const cname = await post({ zone: zone.id, name: "mail", type: "CNAME", content: "mx.example.net" });
    expect(expectProblem(cname, 409, "rrset_conflict").detail).toMatch(
      /^The MX record at mx-alias\.rec\.test \(10 mail\.mx-alias\.rec\.test\.\) would break: /,
    );
  });
  it("refuses an SRV to a name a wildcard CNAME answers", async () => {
    const zone = await createZone("srv-wild.rec.test");
    await createRecord(zone.id, { name: "*", type: "CNAME", content: "elsewhere.example.net" });
    expectInvalid(await post({ zone: zone.id, name: "_sip._tcp", type: "SRV", content: "0 0 5060 sip.srv-wild.rec.test" }), ["content"]);
    await createRecord(zone.id, { name: "sip", type: "A", content: "192.0.2.5" });
    await createRecord(zone.id, { name: "_sip._tcp", type: "SRV", content: "0 0 5060 sip.srv-wild.rec.test" });
  });
  it("a wildcard CNAME does not answer for an empty non-terminal (RFC 4592 §2.2.2): an SRV may point there, not at a name that does not exist", async () => {
    const zone = await createZone("srv-ent.rec.test");
    await createRecord(zone.id, { name: "*", type: "CNAME", content: "elsewhere.example.net" });
    await createRecord(zone.id, { name: "a.sip", type: "A", content: "192.0.2.6" }); // sip.srv-ent.rec.test exists, empty
    await createRecord(zone.id, { name: "_sip._tcp", type: "SRV", content: "0 0 5060 sip.srv-ent.rec.test" });
    expectInvalid(await post({ zone: zone.id, name: "_sip._udp", type: "SRV", content: "0 0 5060 nosuch.srv-ent.rec.test" }), ["content"]);
  });
  it("refuses a DNAME above an MX target, and a name below a DNAME as a target", async () => {
    const zone = await createZone("dname-below.rec.test");
    await createRecord(zone.id, { type: "MX", content: "10 mail.x.dname-below.rec.test" });
    expectProblem(await post({ zone: zone.id, name: "x", type: "DNAME", content: "example.net" }), 409, "rrset_conflict");
    await createRecord(zone.id, { name: "y", type: "DNAME", content: "example.net" });
    expectInvalid(await post({ zone: zone.id, type: "MX", content: "20 mail.y.dname-below.rec.test" }), ["content"]);
  });
  it("refuses removing a delegation that kept an alias-pointing MX below it out of the zone's own data", async () => {
    const zone = await createZone("below-cut.rec.test");
    const cut = await createRecord(zone.id, { name: "sub", type: "NS", content: "ns1.example.net" });
    await createRecord(zone.id, { name: "alias", type: "CNAME", content: "mx.example.net" });
    await createRecord(zone.id, { name: "a.sub", type: "MX", content: "10 alias.below-cut.rec.test" });
    expectProblem(await api("DELETE", `/v1/records/${cut.id}`), 409, "rrset_conflict");
  });
});

describe("no DS at the apex, no NS at a wildcard (BIND refuses both)", () => {
  it("answers 422 naming type for a DS at the apex and name for an NS at a wildcard", async () => {
    const zone = await createZone("ds-apex.rec.test");
    expect(expectInvalid(await post({ zone: zone.id, type: "DS", content: rdataExamples.DS }), ["type"]).errors[0].message).toBe(
      "a DS record cannot be at the zone apex: it belongs in the parent zone, at the delegation (RFC 4035 §2.4)",
    );
    expectInvalid(await post({ zone: zone.id, name: "*", type: "NS", content: "ns1.example.net" }), ["name"]);
    await createRecord(zone.id, { name: "child", type: "DS", content: rdataExamples.DS });
  });
});

describe("owner and target names follow BIND's check-names exactly", () => {
  it("refuses _msdcs as an A owner but takes gc._msdcs and SPF's _spf labels, as BIND does", async () => {
    const zone = await createZone("check-names.rec.test");
    expectInvalid(await post({ zone: zone.id, name: "_msdcs", type: "A", content: "192.0.2.1" }), ["name"]);
    await createRecord(zone.id, { name: "gc._msdcs", type: "A", content: "192.0.2.1" });
    await createRecord(zone.id, { name: "gc._msdcs", type: "AAAA", content: "2001:db8::1" });
    await createRecord(zone.id, { name: "192.0.2.1._spf", type: "A", content: "127.0.0.2" });
    expectInvalid(await post({ zone: zone.id, name: "x._spf", type: "AAAA", content: "2001:db8::1" }), ["name"]);
  });
  it("refuses an underscore in a ServiceMode SVCB/HTTPS target, not in an AliasMode one", async () => {
    const zone = await createZone("svcb-names.rec.test");
    expectInvalid(await post({ zone: zone.id, name: "a", type: "HTTPS", content: "1 _svc.example.net" }), ["content"]);
    await createRecord(zone.id, { name: "b", type: "HTTPS", content: "0 _svc.example.net" });
  });
  it("refuses an underscore in a PTR target in a reverse zone", async () => {
    const zone = await createZone("2.0.192.in-addr.arpa");
    expectInvalid(await post({ zone: zone.id, name: "1", type: "PTR", content: "_x.example.com" }), ["content"]);
    await createRecord(zone.id, { name: "1", type: "PTR", content: "host.example.com" });
  });
});

describe("types by number and generic RDATA (RFC 3597) through the API", () => {
  it("stores a type neither this service nor BIND knows octet for octet, and reads a known one as itself", async () => {
    const zone = await createZone("generic.rec.test");
    expect(await createRecord(zone.id, { name: "a", type: "type65280", content: "\\# 4 0a000001" })).toMatchObject({
      type: "TYPE65280",
      content: "\\# 4 0A000001",
    });
    expect(await createRecord(zone.id, { name: "b", type: "TYPE1", content: "\\# 4 0A000002" })).toMatchObject({ type: "A", content: "10.0.0.2" });
    expect((await recordLines("generic.rec.test")).filter((l) => l.startsWith("a "))).toEqual(["a 3600 TYPE65280 \\# 4 0A000001"]);
  });
  it("refuses meta-types, the types BIND knows and this service does not, and a signer's types", async () => {
    const zone = await createZone("generic-refused.rec.test");
    expectInvalid(await post({ zone: zone.id, name: "a", type: "TYPE255", content: "\\# 0" }), ["type"]);
    expect(expectInvalid(await post({ zone: zone.id, name: "a", type: "KEY", content: "256 3 5 AQID" }), ["type"]).errors[0].message).toMatch(
      /^record type KEY \(25\) is not supported; supported: A, /,
    );
    expect(expectInvalid(await post({ zone: zone.id, name: "a", type: "RRSIG", content: "A 13 2 60 1 1 1 x. AQID" }), ["type"]).errors[0].message).toBe(
      "RRSIG records are what a DNSSEC signer adds to a zone; this service signs zones itself and keeps no RRSIG records",
    );
  });
});

describe("the type filter reads a type as a record stores it (RFC 3597 §5)", () => {
  it("finds a type known only by number, and a known type named by number", async () => {
    const zone = await createZone("generic-filter.rec.test");
    await createRecord(zone.id, { name: "a", type: "TYPE65280", content: "\\# 1 ff" });
    await createRecord(zone.id, { name: "b", type: "A", content: "192.0.2.1" });
    const generic = await api("GET", "/v1/zones/generic-filter.rec.test/records?type=type65280");
    expect(generic.status, generic.text).toBe(200);
    expect(generic.body.data.map((r: { name: string }) => r.name)).toEqual(["a"]);
    const byNumber = await api("GET", "/v1/zones/generic-filter.rec.test/records?type=TYPE1&content=%5C%23%204%20C0000201");
    expect(byNumber.status, byNumber.text).toBe(200);
    expect(byNumber.body.data.map((r: { name: string }) => r.name)).toEqual(["b"]);
  });
});
