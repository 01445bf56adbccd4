// Zone files as BIND reads them, over HTTP (docs/dns.md "Master files"): an import with
// $GENERATE, a record outside the zone and a DS with a deprecated algorithm and digest is
// created, its 201 lists the warnings; a record write of such a DS answers with a warning;
// the domain's own `ds` (what the registry publishes for it) still refuses them.
import { describe, expect, it } from "vitest";
import { api, createDomain, createZone, errorFields, expectProblem, importZone } from "./helpers";

describe("an import BIND loads with warnings is created, with the same warnings", () => {
  it("$GENERATE expands; out-of-zone data and a deprecated DS are warned about", async () => {
    const text = [
      "$ORIGIN bind-compat.test.",
      "$TTL 300",
      "@ NS ns1.example.net.",
      "$GENERATE 1-20 host$ A 192.0.2.$",
      "$GENERATE 1-2 ${0,3,n} PTR host$.bind-compat.test.",
      "www.elsewhere.example. A 192.0.2.99",
      "child NS ns1.example.net.",
      "child DS 60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118",
      "",
    ].join("\n");
    const response = await importZone(text);
    expect(response.status, response.text).toBe(201);
    expect(response.body.warnings.map((w: any) => w.line)).toEqual([6, 8]);
    expect(response.body.warnings[0].message).toContain("outside the zone");
    expect(response.body.warnings[1].message).toContain("RSASHA1");
    const hosts = await api("GET", "/v1/zones/bind-compat.test/records?type=A&limit=200");
    expect(hosts.body.data).toHaveLength(20);
    // Nibbles padded to 3 characters, the dot counted (BIND: "the width field includes the label separator").
    const ptr = await api("GET", "/v1/zones/bind-compat.test/records?type=PTR");
    expect(ptr.body.data.map((r: any) => [r.name, r.content])).toEqual([
      ["1.0", "host1.bind-compat.test."],
      ["2.0", "host2.bind-compat.test."],
    ]);
  });

  it("an absurd $GENERATE range answers 422 naming its line, and creates nothing", async () => {
    const problem = expectProblem(
      await importZone("$ORIGIN absurd.test.\n$TTL 300\n@ NS ns1.example.net.\n$GENERATE 0-99999999 h$ A 192.0.2.1\n"),
      422,
      "validation_failed",
    );
    expect(problem.errors).toEqual([{ field: "line 4", line: 4, message: expect.stringContaining("would make 100000000 records") }]);
    expectProblem(await api("GET", "/v1/zones/absurd.test"), 404, "not_found");
  });

  it("records a $GENERATE makes count toward the 25 000-record limit (413)", async () => {
    const response = await importZone("$ORIGIN many.test.\n$TTL 300\n@ NS ns1.example.net.\n$GENERATE 1-30000 h$ A 192.0.2.1\n");
    expectProblem(response, 413, "payload_too_large");
  });
});

describe("a record write with a deprecated DNSSEC algorithm or digest is accepted with a warning", () => {
  it("POST and PATCH of a DS with RSASHA1 / SHA-1 answer with warnings; a modern one without", async () => {
    await createZone("ds-warn.test", { nameservers: ["ns1.example.net", "ns2.example.net"] });
    expect((await api("POST", "/v1/records", { json: { zone: "ds-warn.test", name: "child", type: "NS", content: "ns1.example.net." } })).status).toBe(201);
    const old = await api("POST", "/v1/records", {
      json: { zone: "ds-warn.test", name: "child", type: "DS", content: "60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118" },
    });
    expect(old.status, old.text).toBe(201);
    expect(old.body.warnings).toEqual([{ field: "content", message: expect.stringContaining("algorithm 5 (RSASHA1) is deprecated") }]);
    expect(old.body.warnings[0].message).toContain("digest type 1 (SHA-1)");
    // The record as read has no warnings: they are the write's answer.
    expect((await api("GET", `/v1/records/${old.body.id}`)).body).not.toHaveProperty("warnings");
    const modern = await api("PATCH", `/v1/records/${old.body.id}`, {
      json: { content: "60485 13 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D" },
    });
    expect(modern.status, modern.text).toBe(200);
    expect(modern.body).not.toHaveProperty("warnings");
  });

  it("a domain's ds (what the registry publishes) still refuses them (RFC 8624 §3.3)", async () => {
    const problem = expectProblem(
      await api("POST", "/v1/domains", {
        json: { name: "ds-policy.com", ds: [{ key_tag: 60485, algorithm: 5, digest_type: 1, digest: "2BB183AF5F22588179A53B0A98631FAD1A292118" }] },
      }),
      422,
      "validation_failed",
    );
    expect(errorFields(problem)).toEqual(["ds[0].algorithm", "ds[0].digest_type"]);
    await createDomain("ds-policy-ok.com");
  });
});
