// dsOfZoneKeys (src/registry/zone-ds.ts): whether a domain's DS refers to keys of a zone,
// which holds the zone's keys (turning DNSSEC off, deleting the zone: docs/dnssec.md).
import { describe, expect, it } from "vitest";
import { DIGEST_SHA1, DIGEST_SHA256, DIGEST_SHA384, type DigestType, dnskeyTag, dsDigest } from "../../src/dns/dnssec/keys";
import { parseRdata } from "../../src/dns/rdata";
import type { DnsKey } from "../../src/dns/rdata/dnskey";
import { dsOfZoneKeys } from "../../src/registry/zone-ds";

function dnskey(text: string): DnsKey {
  const parsed = parseRdata("DNSKEY", text, null);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

// RFC 6605 §6.1: example.net's P-256 key and its SHA-256 DS.
const KEY = dnskey("257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edb krSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==");
const RFC6605_DS = { key_tag: 55648, algorithm: 13, digest_type: 2, digest: "b4c8c1fe2e7477127b27115656ad6256f424625bf5c1e2770ce6d6e37df61d17" };

describe("a domain's DS refers to a zone's key by key tag, algorithm and digest (RFC 4034 §5.1)", () => {
  it("finds RFC 6605's DS of example.net's key, whatever the case of its digest, among other DS", () => {
    const other = { key_tag: 12345, algorithm: 13, digest_type: 2, digest: "00".repeat(32) };
    expect(dsOfZoneKeys("example.net", [other, RFC6605_DS], [KEY])).toEqual(RFC6605_DS);
    expect(dsOfZoneKeys("example.net", [{ ...RFC6605_DS, digest: RFC6605_DS.digest.toUpperCase() }], [KEY])).toBeDefined();
  });

  it("finds a DS of every digest type the service computes (SHA-1, SHA-256, SHA-384)", () => {
    const types: DigestType[] = [DIGEST_SHA1, DIGEST_SHA256, DIGEST_SHA384];
    for (const type of types) {
      const ds = { key_tag: dnskeyTag(KEY), algorithm: 13, digest_type: type, digest: dsDigest("example.net", KEY, type) };
      expect(dsOfZoneKeys("example.net", [ds], [KEY]), `digest type ${type}`).toEqual(ds);
    }
  });

  it("finds none for another owner, another digest, another tag or algorithm, a digest type it does not compute, or no keys", () => {
    expect(dsOfZoneKeys("example.com", [RFC6605_DS], [KEY])).toBeUndefined();
    expect(dsOfZoneKeys("example.net", [{ ...RFC6605_DS, digest: "00".repeat(32) }], [KEY])).toBeUndefined();
    expect(dsOfZoneKeys("example.net", [{ ...RFC6605_DS, key_tag: 55649 }], [KEY])).toBeUndefined();
    expect(dsOfZoneKeys("example.net", [{ ...RFC6605_DS, algorithm: 14 }], [KEY])).toBeUndefined();
    expect(dsOfZoneKeys("example.net", [{ ...RFC6605_DS, digest_type: 3 }], [KEY])).toBeUndefined();
    expect(dsOfZoneKeys("example.net", [RFC6605_DS], [])).toBeUndefined();
  });
});
