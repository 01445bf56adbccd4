// docs/lifecycle.md, DS data (RFC 5910; RFC 8624 for the algorithms and digests): set on
// create or PATCH (replaced whole), validated, returned uppercase.
import { describe, expect, it } from "vitest";
import { api, createDomain, expectProblem } from "./helpers";
import { dsErrors, dsPolicyErrors } from "../src/registry/ds";

const SHA256 = "2bb183af5f22588179a53b0a98631fad1a292118f7bc1f6a6f0f8f4a6b1e7d2c";
const SHA384 = "a".repeat(96);
const ds = (fields: Record<string, unknown> = {}) => ({ key_tag: 12345, algorithm: 13, digest_type: 2, digest: SHA256, ...fields });

function patch(name: string, body: unknown) {
  return api("PATCH", `/v1/domains/${name}`, { json: body, headers: { "content-type": "application/merge-patch+json" } });
}

describe("DS data is set on create and returned with uppercase digests", () => {
  it("a SHA-256 and a SHA-384 digest", async () => {
    const created = await createDomain("ds-create.com", { ds: [ds(), ds({ key_tag: 0, algorithm: 14, digest_type: 4, digest: SHA384 })] });
    expect(created.ds).toEqual([ds({ digest: SHA256.toUpperCase() }), { key_tag: 0, algorithm: 14, digest_type: 4, digest: SHA384.toUpperCase() }]);
    expect((await api("GET", "/v1/domains/ds-create.com")).body.ds).toEqual(created.ds);
  });
});

describe("DS data is replaced whole by PATCH; null clears it", () => {
  it("replaces, then clears", async () => {
    await createDomain("ds-patch.com", { ds: [ds()] });
    const replaced = await patch("ds-patch.com", { ds: [ds({ key_tag: 1 })] });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.ds).toEqual([ds({ key_tag: 1, digest: SHA256.toUpperCase() })]);
    const cleared = await patch("ds-patch.com", { ds: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.ds).toEqual([]);
  });
});

describe("DS data is validated: 0–8 entries, key tag 0–65535, algorithm 8/10/13/14/15/16, digest 2 = 64 hex, 4 = 96 hex, no duplicates (422 validation_failed)", () => {
  it("names every bad field", async () => {
    const problem = expectProblem(
      await api("POST", "/v1/domains", {
        json: { name: "ds-bad.com", ds: [ds({ key_tag: 65536 }), ds({ algorithm: 5 }), ds({ digest_type: 1 }), ds({ digest: "abc" }), ds(), ds()] },
      }),
      422,
      "validation_failed",
    );
    expect(problem.errors).toEqual([
      { field: "ds[0].key_tag", message: "must be an integer from 0 to 65535" },
      { field: "ds[1].algorithm", message: "must be one of 8, 10, 13, 14, 15, 16" },
      { field: "ds[2].digest_type", message: "must be 2 (SHA-256) or 4 (SHA-384)" },
      { field: "ds[3].digest", message: "must be 64 hexadecimal digits for digest type 2" },
      { field: "ds[5]", message: "repeats an earlier DS record" },
    ]);
    expectProblem(await api("GET", "/v1/domains/ds-bad.com"), 404, "not_found");
  });
  it("a digest of the wrong length for SHA-384, and more than 8 entries", async () => {
    await createDomain("ds-many.com");
    const tooMany = expectProblem(await patch("ds-many.com", { ds: Array.from({ length: 9 }, (_, i) => ds({ key_tag: i })) }), 422, "validation_failed");
    expect(tooMany.errors).toEqual([{ field: "ds", message: "at most 8 DS records" }]);
    const short = expectProblem(await patch("ds-many.com", { ds: [ds({ digest_type: 4 })] }), 422, "validation_failed");
    expect(short.errors).toEqual([{ field: "ds[0].digest", message: "must be 96 hexadecimal digits for digest type 4" }]);
  });
  it("duplicates are compared case-insensitively (pure rule)", () => {
    expect(dsErrors([ds(), ds({ digest: SHA256.toUpperCase() })])).toEqual([{ field: "ds[1]", message: "repeats an earlier DS record" }]);
  });
});

// Every extension of the catalog has DNSSEC today, so the rule is tested as the pure rule
// create and PATCH call (src/registry/ds.ts dsPolicyErrors).
describe("DS data under an extension without DNSSEC answers 422 policy_violation", () => {
  it("names the extension; no DS data is always fine", () => {
    expect(dsPolicyErrors([ds()], { id: "example", dnssec: false })).toEqual([{ field: "ds", message: ".example does not accept DS records (no DNSSEC)" }]);
    expect(dsPolicyErrors([], { id: "example", dnssec: false })).toEqual([]);
    expect(dsPolicyErrors([ds()], { id: "com", dnssec: true })).toEqual([]);
  });
});

describe("the RDAP domain view shows DS data as secureDNS (RFC 9083 §5.3)", () => {
  it("delegationSigned with dsData, and false with none", async () => {
    await createDomain("ds-rdap.com", { ds: [ds()] });
    const rdap = await api("GET", "/v1/domains/ds-rdap.com", { headers: { accept: "application/rdap+json" } });
    expect(rdap.status, rdap.text).toBe(200);
    expect(rdap.body.secureDNS).toEqual({ delegationSigned: true, dsData: [{ keyTag: 12345, algorithm: 13, digestType: 2, digest: SHA256.toUpperCase() }] });
    await createDomain("ds-rdap-none.com");
    const unsigned = await api("GET", "/v1/domains/ds-rdap-none.com", { headers: { accept: "application/rdap+json" } });
    expect(unsigned.body.secureDNS).toEqual({ delegationSigned: false, dsData: [] });
  });
});
