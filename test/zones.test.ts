// docs/dns.md#zones (zones) over HTTP, with the SOA serial's rules (§7, §9 atomicity).
import { describe, expect, it } from "vitest";
import { dateSerialBase } from "../src/dns/serial";
import {
  allowedMethods,
  allPages,
  api,
  type ApiResponse,
  createDomain,
  createRecord,
  createZone,
  errorFields,
  errorFor,
  expectProblem,
  namesOf,
  readZone,
  recordLines,
  RFC3339_MS_UTC,
  ZONE_ID,
} from "./helpers";

/** Today's YYYYMMDD (UTC), read before and after a request so a midnight between them cannot fail a test. */
function todays(): number {
  return dateSerialBase(new Date()) / 100;
}

async function serialOf(zone: string): Promise<number> {
  return (await readZone(zone)).soa.serial;
}

describe("creating a zone", () => {
  it("answers 201 with the zone of §7, Location and ETag", async () => {
    const response = await api("POST", "/v1/zones", { json: { name: "create.test", nameservers: ["ns1.example.org", "ns2.example.org"] } });
    expect(response.status, response.text).toBe(201);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.body).toEqual({
      id: expect.stringMatching(ZONE_ID),
      account: "acc_00000000000000000000000000",
      name: "create.test",
      unicode_name: "create.test",
      domain: null,
      default_ttl: 3600,
      soa: { mname: "ns1.example.org", rname: "hostmaster.create.test", serial: expect.any(Number), refresh: 7200, retry: 900, expire: 1209600, minimum: 300 },
      record_count: 2,
      dnssec: { enabled: false, records: [] },
      secondaries: [],
      created_at: expect.stringMatching(RFC3339_MS_UTC),
      updated_at: response.body.created_at,
    });
    expect(response.headers.get("location")).toBe(`/v1/zones/${response.body.id}`);
    expect(response.headers.get("etag")).toMatch(/^(W\/)?"[^"]+"$/);
    const read = await api("GET", `/v1/zones/${response.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(response.body);
    expect(read.headers.get("etag")).toBe(response.headers.get("etag"));
  });

  it("requires a name: 422 naming name", async () => {
    const problem = expectProblem(await api("POST", "/v1/zones", { json: {} }), 422, "validation_failed");
    expect(errorFields(problem)).toEqual(["name"]);
  });

  it("refuses read-only and unknown fields by name", async () => {
    const readOnly = expectProblem(await api("POST", "/v1/zones", { json: { name: "ro.create.test", id: "zon_x", record_count: 9 } }), 422, "read_only_field");
    expect(errorFields(readOnly)).toEqual(["id", "record_count"]);
    const unknown = expectProblem(await api("POST", "/v1/zones", { json: { name: "uk.create.test", ttl: 300 } }), 422, "unknown_field");
    expect(errorFields(unknown)).toEqual(["ttl"]);
    expectProblem(await api("GET", "/v1/zones/ro.create.test"), 404, "not_found");
  });
});

describe("zone names", () => {
  it("are stored lowercase without the trailing dot", async () => {
    const zone = await createZone("Normal-Ised.TEST.");
    expect(zone).toMatchObject({ name: "normal-ised.test", unicode_name: "normal-ised.test", soa: { rname: "hostmaster.normal-ised.test" } });
  });

  it("in Unicode are converted to A-labels, with unicode_name beside them", async () => {
    const zone = await createZone("MÜNCHEN.de");
    expect(zone).toMatchObject({ name: "xn--mnchen-3ya.de", unicode_name: "münchen.de", soa: { rname: "hostmaster.xn--mnchen-3ya.de" } });
  });

  it("may be reverse zones", async () => {
    const v4 = await createZone("2.0.192.in-addr.arpa");
    expect(v4).toMatchObject({ name: "2.0.192.in-addr.arpa", record_count: 2 });
    const ptr = await createRecord(v4.id, { name: "10", type: "PTR", content: "host.example.com" });
    expect(ptr).toMatchObject({ name: "10", fqdn: "10.2.0.192.in-addr.arpa", content: "host.example.com." });
    const v6 = await createZone("8.B.D.0.1.0.0.2.ip6.arpa.");
    expect(v6.name).toBe("8.b.d.0.1.0.0.2.ip6.arpa");
  });

  it("that are not valid DNS names answer 422 naming name", async () => {
    for (const name of ["-bad.test", "a..b.test", "", ".", `${"a".repeat(64)}.test`, "bad name.test", "under_score-.test"]) {
      const problem = expectProblem(await api("POST", "/v1/zones", { json: { name } }), 422, "validation_failed");
      expect(errorFields(problem), name).toEqual(["name"]);
    }
  });

  it("are unique: a taken name, however spelled, answers 409 already_exists", async () => {
    const zone = await createZone("taken.test");
    for (const name of ["taken.test", "TAKEN.test."]) {
      expectProblem(await api("POST", "/v1/zones", { json: { name } }), 409, "already_exists");
    }
    expect((await api("GET", "/v1/zones?name=taken.test")).body.data.map((z: { id: string }) => z.id)).toEqual([zone.id]);
  });

  it("created concurrently give one 201 and 409s, never a 500", async () => {
    const responses = await Promise.all(Array.from({ length: 6 }, () => api("POST", "/v1/zones", { json: { name: "race.test" } })));
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of responses.filter((r) => r.status === 409)) expectProblem(r, 409, "already_exists");
    expect((await readZone("race.test")).record_count).toBe(2);
  });
});

describe("default_ttl of a zone", () => {
  it("is 3600 unless given", async () => {
    expect((await createZone("ttl-default.test")).default_ttl).toBe(3600);
  });

  it("takes 0 to 2147483647", async () => {
    expect((await createZone("ttl-zero.test", { default_ttl: 0 })).default_ttl).toBe(0);
    expect((await createZone("ttl-max.test", { default_ttl: 2147483647 })).default_ttl).toBe(2147483647);
  });

  it("outside that range or not a whole number answers 422 naming default_ttl", async () => {
    for (const default_ttl of [-1, 2147483648, 1.5, "3600", null]) {
      const problem = expectProblem(await api("POST", "/v1/zones", { json: { name: "ttl-bad.test", default_ttl } }), 422, "validation_failed");
      expect(errorFields(problem), String(default_ttl)).toEqual(["default_ttl"]);
    }
    expectProblem(await api("GET", "/v1/zones/ttl-bad.test"), 404, "not_found");
  });
});

describe("name servers of a new zone", () => {
  it("become the apex NS records, with the zone's default TTL, counted in record_count", async () => {
    const zone = await createZone("ns.test", { nameservers: ["NS1.Example.org.", "ns2.example.org", "ns3.example.org"], default_ttl: 600 });
    expect(zone.record_count).toBe(3);
    const records = await api("GET", "/v1/zones/ns.test/records");
    expect(records.status).toBe(200);
    expect(records.body.data).toEqual(
      ["ns1", "ns2", "ns3"].map((ns) =>
        expect.objectContaining({ zone: zone.id, name: "@", fqdn: "ns.test", type: "NS", content: `${ns}.example.org.`, ttl: 600, comment: null }),
      ),
    );
  });

  it("default to the configured DEFAULT_NAMESERVERS", async () => {
    const zone = await createZone("ns-default.test");
    expect(zone).toMatchObject({ record_count: 2, soa: { mname: "ns1.example.net" } });
    expect(await recordLines("ns-default.test")).toEqual(["@ 3600 NS ns1.example.net.", "@ 3600 NS ns2.example.net."]);
  });

  it("that are not host names, or listed twice, answer 422 naming the entry", async () => {
    const bad = expectProblem(
      await api("POST", "/v1/zones", { json: { name: "ns-bad.test", nameservers: ["ns1.example.org", "ns_2.example.org", "ns3"] } }),
      422,
      "validation_failed",
    );
    expect(errorFields(bad)).toEqual(["nameservers[1]", "nameservers[2]"]);
    const twice = expectProblem(
      await api("POST", "/v1/zones", { json: { name: "ns-bad.test", nameservers: ["ns1.example.org", "NS1.example.org."] } }),
      422,
      "validation_failed",
    );
    expect(errorFields(twice)).toEqual(["nameservers[1]"]);
    const none = expectProblem(await api("POST", "/v1/zones", { json: { name: "ns-bad.test", nameservers: [] } }), 422, "validation_failed");
    expect(errorFields(none)).toEqual(["nameservers"]);
    expectProblem(await api("GET", "/v1/zones/ns-bad.test"), 404, "not_found");
  });
});

describe("the SOA of a new zone", () => {
  it("defaults to mname = first name server, rname hostmaster.<zone> and the documented timers", async () => {
    const zone = await createZone("soa-default.test", { nameservers: ["b.example.org", "a.example.org"] });
    expect(zone.soa).toEqual({
      mname: "b.example.org",
      rname: "hostmaster.soa-default.test",
      serial: expect.any(Number),
      refresh: 7200,
      retry: 900,
      expire: 1209600,
      minimum: 300,
    });
  });

  it("takes overrides of every field but serial; an address rname is converted to a name", async () => {
    const zone = await createZone("soa-override.test", {
      soa: { mname: "NS.Primary.example.", rname: "DNS-Admin@Example.org", refresh: 3600, retry: 600, expire: 604800, minimum: 60 },
    });
    expect(zone.soa).toEqual({
      mname: "ns.primary.example",
      rname: "dns-admin.example.org",
      serial: expect.any(Number),
      refresh: 3600,
      retry: 600,
      expire: 604800,
      minimum: 60,
    });
  });

  it("merges a partial override onto the defaults", async () => {
    const zone = await createZone("soa-partial.test", { soa: { rname: "hostmaster@example.com", minimum: 120 } });
    expect(zone.soa).toMatchObject({ mname: "ns1.example.net", rname: "hostmaster.example.com", refresh: 7200, retry: 900, expire: 1209600, minimum: 120 });
  });

  it("refuses soa.serial with 422 read_only_field, creating nothing", async () => {
    const problem = expectProblem(await api("POST", "/v1/zones", { json: { name: "soa-serial.test", soa: { serial: 2030010100 } } }), 422, "read_only_field");
    expect(errorFields(problem)).toEqual(["soa.serial"]);
    expectProblem(await api("GET", "/v1/zones/soa-serial.test"), 404, "not_found");
  });

  it("refuses bad names, naming each field", async () => {
    const problem = expectProblem(
      await api("POST", "/v1/zones", { json: { name: "soa-bad.test", soa: { mname: "-ns.example.org", rname: "a.b@example.org" } } }),
      422,
      "validation_failed",
    );
    expect(errorFields(problem)).toEqual(["soa.mname", "soa.rname"]);
  });

  it("refuses timers outside 0–4294967295, naming each field", async () => {
    const problem = expectProblem(
      await api("POST", "/v1/zones", { json: { name: "soa-bad.test", soa: { refresh: -1, expire: 4294967296, retry: 1.5 } } }),
      422,
      "validation_failed",
    );
    expect(errorFields(problem)).toEqual(["soa.expire", "soa.refresh", "soa.retry"]);
    expectProblem(await api("GET", "/v1/zones/soa-bad.test"), 404, "not_found");
  });

  it("refuses a field the SOA does not have", async () => {
    const problem = expectProblem(await api("POST", "/v1/zones", { json: { name: "soa-bad.test", soa: { ttl: 60 } } }), 422, "unknown_field");
    expect(errorFields(problem)).toEqual(["soa.ttl"]);
  });
});

describe("reading a zone", () => {
  it("works by id, by name, with a trailing dot, in any case and in Unicode", async () => {
    const zone = await createZone("bücher.test");
    expect(zone.name).toBe("xn--bcher-kva.test");
    for (const segment of [zone.id, "xn--bcher-kva.test", "XN--BCHER-KVA.test.", "bücher.test", "BÜCHER.test."]) {
      const read = await api("GET", `/v1/zones/${encodeURIComponent(segment)}`);
      expect(read.status, segment).toBe(200);
      expect(read.body).toEqual(zone);
    }
  });

  it("answers 304 to a matching If-None-Match, and HEAD like GET without a body", async () => {
    const zone = await createZone("conditional-read.test");
    const read = await api("GET", `/v1/zones/${zone.id}`);
    const etag = read.headers.get("etag")!;
    const again = await api("GET", `/v1/zones/${zone.id}`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    const head = await api("HEAD", `/v1/zones/${zone.id}`);
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(head.headers.get("etag")).toBe(etag);
  });

  it("of an unknown id or name answers 404 not_found", async () => {
    for (const segment of ["zon_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B", "nowhere.test", "bad_label-.test"]) {
      expectProblem(await api("GET", `/v1/zones/${segment}`), 404, "not_found");
    }
  });
});

describe("zone list filters", () => {
  it("name matches exactly, normalised like a body", async () => {
    const alpha = await createZone("alpha.listing.test");
    await createZone("beta.listing.test");
    expect(namesOf(await api("GET", "/v1/zones?name=ALPHA.listing.test."))).toEqual(["alpha.listing.test"]);
    expect((await api("GET", `/v1/zones?name=${encodeURIComponent("alpha.listing.test")}`)).body.data[0].id).toBe(alpha.id);
    expect(namesOf(await api("GET", "/v1/zones?name=listing.test"))).toEqual([]);
  });

  it("q is a case-insensitive substring of the name; filters combine with AND", async () => {
    await createZone("gamma.listing.test");
    expect(namesOf(await api("GET", "/v1/zones?q=LISTING"))).toEqual(["alpha.listing.test", "beta.listing.test", "gamma.listing.test"]);
    expect(namesOf(await api("GET", "/v1/zones?q=listing&name=beta.listing.test"))).toEqual(["beta.listing.test"]);
    expect(namesOf(await api("GET", "/v1/zones?q=a.listing"))).toEqual(["alpha.listing.test", "beta.listing.test", "gamma.listing.test"]);
    expect(namesOf(await api("GET", "/v1/zones?q=%25"))).toEqual([]);
  });

  it("refuse unknown parameters and bad names with 400 invalid_query", async () => {
    expectProblem(await api("GET", "/v1/zones?type=A"), 400, "invalid_query");
    expectProblem(await api("GET", "/v1/zones?name=-bad.test"), 400, "invalid_query");
  });
});

describe("zone list pagination", () => {
  it("walks every zone once, in creation order, with next_cursor and Link", async () => {
    const created = [];
    for (let i = 1; i <= 5; i++) created.push((await createZone(`p${i}.paging.test`)).id);
    const first = await api("GET", "/v1/zones?q=paging&limit=2");
    expect(first.status).toBe(200);
    expect(first.body.data.map((z: { id: string }) => z.id)).toEqual(created.slice(0, 2));
    expect(first.body.next_cursor).toEqual(expect.any(String));
    expect(first.headers.get("link")).toBe(`</v1/zones?q=paging&limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}>; rel="next"`);
    const { pages, items } = await allPages("/v1/zones?q=paging&limit=2");
    expect(pages.map((p) => p.data.length)).toEqual([2, 2, 1]);
    expect(pages[2]!.next_cursor).toBeNull();
    expect(pages[2]!.link).toBeNull();
    expect(items.map((z) => z.id)).toEqual(created);
  });

  it("refuses a limit outside 1–200 and a tampered cursor with 400", async () => {
    expectProblem(await api("GET", "/v1/zones?limit=0"), 400, "invalid_query");
    expectProblem(await api("GET", "/v1/zones?limit=201"), 400, "invalid_query");
    expectProblem(await api("GET", "/v1/zones?cursor=bm90LWEtY3Vyc29y"), 400, "invalid_cursor");
  });
});

describe("the link between a zone and the domain of the same name", () => {
  it("is made when the domain is registered after the zone", async () => {
    const zone = await createZone("zonefirst.com");
    expect(zone.domain).toBeNull();
    const domain = await createDomain("zonefirst.com");
    expect(domain.zone).toBe(zone.id);
    expect((await readZone("zonefirst.com")).domain).toBe(domain.id);
  });

  it("is made when the zone is created after the domain", async () => {
    const domain = await createDomain("domainfirst.com");
    expect(domain.zone).toBeNull();
    const zone = await createZone("DomainFirst.com.");
    expect(zone.domain).toBe(domain.id);
    expect((await api("GET", "/v1/domains/domainfirst.com")).body.zone).toBe(zone.id);
  });

  it("is the domain filter of the zone list, by id or name", async () => {
    const domain = (await api("GET", "/v1/domains/domainfirst.com")).body;
    expect(namesOf(await api("GET", `/v1/zones?domain=${domain.id}`))).toEqual(["domainfirst.com"]);
    expect(namesOf(await api("GET", "/v1/zones?domain=DomainFirst.com."))).toEqual(["domainfirst.com"]);
    expect(namesOf(await api("GET", "/v1/zones?domain=dom_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B"))).toEqual([]);
  });

  it("as a filter matches only zones that have a domain: a zone with no domain of its name is not listed", async () => {
    const zone = await createZone("nodomain.com");
    expect(zone.domain).toBeNull();
    expect(namesOf(await api("GET", "/v1/zones?domain=nodomain.com"))).toEqual([]);
  });

  it("is dropped when the domain is deleted: the zone survives with domain null and its records", async () => {
    const domain = await createDomain("survivor.com");
    const zone = await createZone("survivor.com");
    await createRecord("survivor.com", { name: "www", type: "A", content: "192.0.2.80" });
    expect(zone.domain).toBe(domain.id);
    expect((await api("DELETE", "/v1/domains/survivor.com")).status).toBe(204);
    expectProblem(await api("GET", "/v1/domains/survivor.com"), 404, "not_found");
    const after = await readZone("survivor.com");
    expect(after).toMatchObject({ id: zone.id, domain: null, record_count: 3 });
  });

  it("is dropped from the domain when the zone is deleted", async () => {
    const domain = await createDomain("zonegone.com");
    await createZone("zonegone.com");
    expect((await api("DELETE", "/v1/zones/zonegone.com")).status).toBe(204);
    expect((await api("GET", `/v1/domains/${domain.id}`)).body.zone).toBeNull();
  });
});

describe("updating a zone", () => {
  it("changes default_ttl for records created afterwards; existing records keep theirs", async () => {
    const zone = await createZone("patch-ttl.test");
    const response = await api("PATCH", "/v1/zones/patch-ttl.test", { json: { default_ttl: 7200 } });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ id: zone.id, default_ttl: 7200, record_count: 2, soa: { ...zone.soa, serial: zone.soa.serial + 1 } });
    const read = await api("GET", `/v1/zones/${zone.id}`);
    expect(read.body).toEqual(response.body);
    expect(read.headers.get("etag")).toBe(response.headers.get("etag"));
    expect(await recordLines(zone.id)).toEqual(["@ 3600 NS ns1.example.net.", "@ 3600 NS ns2.example.net."]);
    expect((await createRecord(zone.id, { name: "new", type: "A", content: "192.0.2.1" })).ttl).toBe(7200);
  });

  it("merges soa fields into the SOA, converting an address rname", async () => {
    const zone = await createZone("patch-soa.test");
    const response = await api("PATCH", `/v1/zones/${zone.id}`, {
      json: { soa: { refresh: 1800, rname: "ops@example.org", mname: "NS9.example.org." } },
      headers: { "content-type": "application/merge-patch+json" },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.soa).toEqual({ ...zone.soa, refresh: 1800, rname: "ops.example.org", mname: "ns9.example.org", serial: zone.soa.serial + 1 });
  });

  it("refuses soa.serial and read-only fields with 422 read_only_field, changing nothing", async () => {
    const zone = await createZone("patch-ro.test");
    const serial = expectProblem(await api("PATCH", `/v1/zones/${zone.id}`, { json: { soa: { serial: zone.soa.serial + 10 } } }), 422, "read_only_field");
    expect(errorFields(serial)).toEqual(["soa.serial"]);
    const name = expectProblem(await api("PATCH", `/v1/zones/${zone.id}`, { json: { name: "renamed.test" } }), 422, "read_only_field");
    expect(errorFields(name)).toEqual(["name"]);
    const others = expectProblem(
      await api("PATCH", `/v1/zones/${zone.id}`, { json: { record_count: 0, domain: null, default_ttl: 60 } }),
      422,
      "read_only_field",
    );
    expect(errorFields(others)).toEqual(["domain", "record_count"]);
    expect(await readZone(zone.id)).toEqual(zone);
  });

  it("refuses bad values with 422 naming them, changing nothing", async () => {
    const zone = await createZone("patch-bad.test");
    const problem = expectProblem(await api("PATCH", `/v1/zones/${zone.id}`, { json: { default_ttl: -5, soa: { retry: "soon" } } }), 422, "validation_failed");
    expect(errorFields(problem)).toEqual(["default_ttl", "soa.retry"]);
    for (const json of [{ default_ttl: null }, { soa: null }, { soa: { refresh: null } }]) {
      const problem = expectProblem(await api("PATCH", `/v1/zones/${zone.id}`, { json }), 422, "validation_failed");
      expect(errorFields(problem).length, JSON.stringify(json)).toBe(1);
    }
    const unknown = expectProblem(await api("PATCH", `/v1/zones/${zone.id}`, { json: { nameservers: ["ns.example.org"] } }), 422, "unknown_field");
    expect(errorFields(unknown)).toEqual(["nameservers"]);
    expect(await readZone(zone.id)).toEqual(zone);
  });

  it("with an empty patch, or the values it already has, is a no-op: 200, same updated_at, same serial", async () => {
    const zone = await createZone("patch-noop.test");
    const before = await api("GET", `/v1/zones/${zone.id}`);
    for (const json of [{}, { default_ttl: 3600 }, { soa: { refresh: 7200, rname: "hostmaster.patch-noop.test" } }]) {
      const response = await api("PATCH", `/v1/zones/${zone.id}`, { json });
      expect(response.status, JSON.stringify(json)).toBe(200);
      expect(response.body).toEqual(zone);
      expect(response.headers.get("etag")).toBe(before.headers.get("etag"));
    }
    expect(await readZone(zone.id)).toEqual(zone);
  });

  it("honours If-Match: a stale ETag answers 412 precondition_failed", async () => {
    const zone = await createZone("patch-if-match.test");
    const etag = (await api("GET", `/v1/zones/${zone.id}`)).headers.get("etag")!;
    const changed = await api("PATCH", `/v1/zones/${zone.id}`, { json: { default_ttl: 60 }, headers: { "if-match": etag } });
    expect(changed.status, changed.text).toBe(200);
    expectProblem(await api("PATCH", `/v1/zones/${zone.id}`, { json: { default_ttl: 120 }, headers: { "if-match": etag } }), 412, "precondition_failed");
    expect((await readZone(zone.id)).default_ttl).toBe(60);
  });

  it("of an unknown zone answers 404", async () => {
    expectProblem(await api("PATCH", "/v1/zones/nowhere.test", { json: { default_ttl: 60 } }), 404, "not_found");
  });
});

describe("deleting a zone", () => {
  it("removes the zone and all its records", async () => {
    const zone = await createZone("delete-me.test");
    const records = [
      await createRecord(zone.id, { name: "www", type: "A", content: "192.0.2.1" }),
      await createRecord(zone.id, { name: "mail", type: "MX", content: "10 mx.example.org" }),
    ];
    const response = await api("DELETE", "/v1/zones/delete-me.test");
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expectProblem(await api("GET", `/v1/zones/${zone.id}`), 404, "not_found");
    expectProblem(await api("GET", `/v1/zones/${zone.id}/records`), 404, "not_found");
    for (const record of records) expectProblem(await api("GET", `/v1/records/${record.id}`), 404, "not_found");
    expect((await api("GET", `/v1/records?zone=${zone.id}`)).body.data).toEqual([]);
    // The name is free again, for a new zone with a fresh id and its own records.
    const again = await createZone("delete-me.test");
    expect(again.id).not.toBe(zone.id);
    expect(again.record_count).toBe(2);
  });

  it("honours If-Match: a stale ETag answers 412 and the zone stays", async () => {
    const zone = await createZone("delete-if-match.test");
    const etag = (await api("GET", `/v1/zones/${zone.id}`)).headers.get("etag")!;
    await createRecord(zone.id, { name: "www", type: "A", content: "192.0.2.1" });
    expectProblem(await api("DELETE", `/v1/zones/${zone.id}`, { headers: { "if-match": etag } }), 412, "precondition_failed");
    expect((await readZone(zone.id)).record_count).toBe(3);
    const current = (await api("GET", `/v1/zones/${zone.id}`)).headers.get("etag")!;
    expect((await api("DELETE", `/v1/zones/${zone.id}`, { headers: { "if-match": current } })).status).toBe(204);
  });

  it("of an unknown zone answers 404", async () => {
    expectProblem(await api("DELETE", "/v1/zones/zon_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B"), 404, "not_found");
  });
});

describe("unsupported methods on zones", () => {
  it("answer 405 method_not_allowed with Allow", async () => {
    await createZone("methods.test");
    const put = expectProblem(await api("PUT", "/v1/zones/methods.test", { json: { name: "methods.test" } }), 405, "method_not_allowed");
    expect(put.detail).toMatch(/PATCH/);
    expect(allowedMethods(await api("PUT", "/v1/zones/methods.test", { json: {} }))).toEqual(["DELETE", "GET", "HEAD", "OPTIONS", "PATCH"]);
    const collection = await api("DELETE", "/v1/zones");
    expectProblem(collection, 405, "method_not_allowed");
    expect(allowedMethods(collection)).toEqual(["GET", "HEAD", "OPTIONS", "POST"]);
    const records = await api("POST", "/v1/zones/methods.test/records", { json: {} });
    expectProblem(records, 405, "method_not_allowed");
    expect(allowedMethods(records)).toEqual(["GET", "HEAD", "OPTIONS"]);
  });
});

describe("the SOA serial of a new zone", () => {
  it("is YYYYMMDDnn of today (UTC)", async () => {
    const before = todays();
    const zone = await createZone("serial-new.test");
    const after = todays();
    expect([before, after]).toContain(Math.floor(zone.soa.serial / 100));
  });
});

describe("the SOA serial rises by exactly one with every change", () => {
  it("record create, record patch, record delete and zone patch each add one", async () => {
    const zone = await createZone("serial-steps.test");
    let serial = zone.soa.serial;
    const record = await createRecord(zone.id, { name: "www", type: "A", content: "192.0.2.1" });
    expect(await serialOf(zone.id)).toBe(++serial);
    expect((await api("PATCH", `/v1/records/${record.id}`, { json: { content: "192.0.2.2" } })).status).toBe(200);
    expect(await serialOf(zone.id)).toBe(++serial);
    expect((await api("PATCH", `/v1/records/${record.id}`, { json: { comment: "web" } })).status).toBe(200);
    expect(await serialOf(zone.id)).toBe(++serial);
    expect((await api("DELETE", `/v1/records/${record.id}`)).status).toBe(204);
    expect(await serialOf(zone.id)).toBe(++serial);
    expect((await api("PATCH", `/v1/zones/${zone.id}`, { json: { soa: { minimum: 60 } } })).status).toBe(200);
    expect(await serialOf(zone.id)).toBe(++serial);
  });

  it("one write that also sets its RRset's TTL still adds exactly one", async () => {
    const zone = await createZone("serial-rrset.test");
    await createRecord(zone.id, { name: "www", type: "A", content: "192.0.2.1", ttl: 300 });
    await createRecord(zone.id, { name: "www", type: "A", content: "192.0.2.2" });
    const before = await serialOf(zone.id);
    await createRecord(zone.id, { name: "www", type: "A", content: "192.0.2.3", ttl: 60 });
    expect(await serialOf(zone.id)).toBe(before + 1);
  });

  it("N sequential changes add N", async () => {
    const zone = await createZone("serial-n.test");
    for (let i = 1; i <= 12; i++) await createRecord(zone.id, { name: `host${i}`, type: "A", content: `192.0.2.${i}` });
    expect(await readZone(zone.id)).toMatchObject({ record_count: 14, soa: { serial: zone.soa.serial + 12 } });
  });

  it("concurrent record creates add one each: 20 at once add exactly 20", async () => {
    const zone = await createZone("serial-parallel.test");
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api("POST", "/v1/records", { json: { zone: zone.id, name: `p${i}`, type: "A", content: `192.0.2.${i + 1}` } })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(await readZone(zone.id)).toMatchObject({ record_count: 22, soa: { serial: zone.soa.serial + 20 } });
  });

  it("concurrent patches and deletes add one each", async () => {
    const zone = await createZone("serial-parallel-mixed.test");
    const records = [];
    for (let i = 0; i < 10; i++) records.push(await createRecord(zone.id, { name: `m${i}`, type: "A", content: `192.0.2.${i + 1}` }));
    const before = await serialOf(zone.id);
    const responses = await Promise.all(
      records.map((r, i) =>
        i % 2 === 0 ? api("PATCH", `/v1/records/${r.id}`, { json: { content: `198.51.100.${i + 1}` } }) : api("DELETE", `/v1/records/${r.id}`),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(records.map((_, i) => (i % 2 === 0 ? 200 : 204)));
    expect(await readZone(zone.id)).toMatchObject({ record_count: 7, soa: { serial: before + 10 } });
  });

  it("concurrent creates of one identical record give one 201 and 409s, and add one", async () => {
    const zone = await createZone("serial-parallel-same.test");
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => api("POST", "/v1/records", { json: { zone: zone.id, name: "same", type: "A", content: "192.0.2.9" } })),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([201, ...Array(7).fill(409)]);
    for (const r of responses.filter((r) => r.status === 409)) expectProblem(r, 409, "already_exists");
    expect(await readZone(zone.id)).toMatchObject({ record_count: 3, soa: { serial: zone.soa.serial + 1 } });
  });
});

describe("the SOA serial never rises for a write that changes nothing", () => {
  it("rejected record writes (409, 422, 412) and no-op patches leave it", async () => {
    const zone = await createZone("serial-still.test", { nameservers: ["ns1.example.org"] });
    const record = await createRecord(zone.id, { name: "www", type: "A", content: "192.0.2.1", comment: "web" });
    const etag = (await api("GET", `/v1/records/${record.id}`)).headers.get("etag")!;
    await createRecord(zone.id, { name: "alias", type: "CNAME", content: "www.example.org" });
    const serial = await serialOf(zone.id);
    const [ns] = (await api("GET", `/v1/zones/${zone.id}/records?type=NS`)).body.data;
    const attempts: [number, () => Promise<ApiResponse>][] = [
      [409, () => api("POST", "/v1/records", { json: { zone: zone.id, name: "www", type: "A", content: "192.0.2.1" } })],
      [409, () => api("POST", "/v1/records", { json: { zone: zone.id, name: "www", type: "CNAME", content: "x.example.org" } })],
      [409, () => api("POST", "/v1/records", { json: { zone: zone.id, name: "alias", type: "TXT", content: "hi" } })],
      [409, () => api("DELETE", `/v1/records/${ns.id}`)],
      [409, () => api("PATCH", `/v1/records/${ns.id}`, { json: { name: "sub" } })],
      [422, () => api("POST", "/v1/records", { json: { zone: zone.id, name: "bad", type: "A", content: "999.0.0.1" } })],
      [422, () => api("POST", "/v1/records", { json: { zone: zone.id, type: "CNAME", content: "x.example.org" } })],
      [422, () => api("PATCH", `/v1/records/${record.id}`, { json: { type: "AAAA" } })],
      [422, () => api("PATCH", `/v1/zones/${zone.id}`, { json: { default_ttl: -1 } })],
      [422, () => api("PATCH", `/v1/zones/${zone.id}`, { json: { soa: { serial: serial + 5 } } })],
      [200, () => api("PATCH", `/v1/records/${record.id}`, { json: {} })],
      [200, () => api("PATCH", `/v1/records/${record.id}`, { json: { content: "192.0.2.1", comment: "web", ttl: record.ttl } })],
      [200, () => api("PATCH", `/v1/zones/${zone.id}`, { json: {} })],
    ];
    for (const [status, attempt] of attempts) {
      const response = await attempt();
      expect(response.status, response.text).toBe(status);
      expect(await serialOf(zone.id), response.text).toBe(serial);
    }
    // A stale If-Match on a record write changes nothing either.
    await api("PATCH", `/v1/records/${record.id}`, { json: { comment: "changed" } });
    const changed = await serialOf(zone.id);
    expectProblem(await api("PATCH", `/v1/records/${record.id}`, { json: { comment: "stale" }, headers: { "if-match": etag } }), 412, "precondition_failed");
    expectProblem(await api("DELETE", `/v1/records/${record.id}`, { headers: { "if-match": etag } }), 412, "precondition_failed");
    expect(await serialOf(zone.id)).toBe(changed);
    expect((await readZone(zone.id)).record_count).toBe(3);
  });
});

describe("a 422 on zone creation", () => {
  it("lists every problem at once", async () => {
    const problem = expectProblem(
      await api("POST", "/v1/zones", { json: { name: "bad_zone-.test", default_ttl: -1, nameservers: ["ns1"], soa: { minimum: -1 } } }),
      422,
      "validation_failed",
    );
    expect(errorFields(problem)).toEqual(["default_ttl", "name", "nameservers[0]", "soa.minimum"]);
    expect(errorFor(problem, "name").message).toMatch(/bad_zone-/);
  });
});

describe("a zone of one label is named in a path with its trailing dot; without it the segment is an id", () => {
  it("GET, PATCH and its records by /v1/zones/<label>. ; /v1/zones/<label> is 404 naming the id", async () => {
    const created = await api("POST", "/v1/zones", { json: { name: "internal", nameservers: ["ns1.example.net"] } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.name).toBe("internal");
    const read = await api("GET", "/v1/zones/internal.");
    expect(read.status, read.text).toBe(200);
    expect(read.body.id).toBe(created.body.id);
    expect((await api("GET", `/v1/zones/${created.body.id}`)).body.name).toBe("internal");
    const patched = await api("PATCH", "/v1/zones/internal.", { json: { default_ttl: 600 } });
    expect(patched.status, patched.text).toBe(200);
    expect((await api("GET", "/v1/zones/internal./records")).status).toBe(200);
    expect((await api("GET", "/v1/records?zone=internal.")).status).toBe(200);
    const asId = expectProblem(await api("GET", "/v1/zones/internal"), 404, "not_found");
    expect(asId.detail).toBe('No zone has the id "internal".');
  });
});
