import { describe, expect, it } from "vitest";
import { generateEcdsaP256, iscPrivateKeyText } from "../../src/dns/dnssec/ecdsa";
import { combinedSigningKey, DIGEST_SHA1, DIGEST_SHA256, DIGEST_SHA384, dnskeyTag, dnskeyText, dsText } from "../../src/dns/dnssec/keys";
import { seal, unseal } from "../../src/crypto/sealed";
import { parseRdata } from "../../src/dns/rdata";
import type { DnsKey } from "../../src/dns/rdata/dnskey";

function dnskey(text: string): DnsKey {
  const parsed = parseRdata("DNSKEY", text, null);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

// RFC 4034 §5.4 (and RFC 4509 §2.3, the same key): dskey.example.com.'s DNSKEY.
const RFC4034_KEY = dnskey(
  "256 3 5 AQOeiiR0GOMYkDshWoSKz9Xz fwJr1AYtsmx3TGkJaNXVbfi/ 2pHm822aJ5iI9BMzNXxeYCmZ DRD99WYwYqUSdjMmmAphXdvx egXd/M5+X7OrzKBaMbCVdFLU Uh6DhweJBjEVv5f2wwjM9Xzc nOf+EPbtG9DMBmADjFDc2w/r ljwvFw==",
);
// RFC 6605 §6.1 (P-256) and §6.2 (P-384), both owned by example.net.
const RFC6605_P256 = dnskey("257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edb krSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==");
const RFC6605_P384 = dnskey(
  "257 3 14 xKYaNhWdGOfJ+nPrL8/arkwf2EY3MDJ+SErKivBVSum1 w/egsXvSADtNJhyem5RCOpgQ6K8X1DRSEkrbYQ+OB+v8 /uX45NBwY8rp65F6Glur8I/mlVNgF6W/qTI37m40",
);

describe("key tags and DS digests reproduce the RFCs' published examples", () => {
  it("RFC 4034 §5.4: dskey.example.com.'s key has tag 60485 and SHA-1 DS 2BB183AF…", async () => {
    expect(dnskeyTag(RFC4034_KEY)).toBe(60485);
    expect(await dsText("dskey.example.com.", RFC4034_KEY, DIGEST_SHA1)).toBe("60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118");
  });
  it("RFC 4509 §2.3: the same key's SHA-256 DS", async () => {
    expect(await dsText("dskey.example.com.", RFC4034_KEY, DIGEST_SHA256)).toBe("60485 5 2 D4B7D520E7BB5F0F67674A0CCEB1E3E0614B93C4F9E99B8383F6A1E4469DA50A");
  });
  it("RFC 6605 §6.1: the P-256 key has tag 55648 and SHA-256 DS b4c8c1fe…", async () => {
    expect(dnskeyText(RFC6605_P256)).toBe("257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==");
    expect(dnskeyTag(RFC6605_P256)).toBe(55648);
    expect(await dsText("example.net.", RFC6605_P256, DIGEST_SHA256)).toBe("55648 13 2 B4C8C1FE2E7477127B27115656AD6256F424625BF5C1E2770CE6D6E37DF61D17");
  });
  it("RFC 6605 §6.2: the P-384 key has tag 10771 and SHA-384 DS 72d7b629…", async () => {
    expect(dnskeyTag(RFC6605_P384)).toBe(10771);
    expect(await dsText("example.net.", RFC6605_P384, DIGEST_SHA384)).toBe(
      "10771 14 4 72D7B62976CE06438E9C0BF319013CF801F09ECC84B8D7E9495F27E305C6A9B0563A9B5F4D288405C3008A946DF983D6",
    );
  });
  it("the owner name is hashed in canonical (lower-case) form, RFC 4034 §6.2", async () => {
    expect(await dsText("EXAMPLE.NET", RFC6605_P256, DIGEST_SHA256)).toBe(await dsText("example.net.", RFC6605_P256, DIGEST_SHA256));
  });
});

describe("a generated key is an ECDSA P-256 combined signing key (RFC 6605)", () => {
  it("has a 64-octet public key X|Y, flags 257, protocol 3, algorithm 13, and signatures that verify with it", async () => {
    const material = await generateEcdsaP256();
    expect(material.publicKey.length).toBe(64);
    expect(material.privateKey.length).toBe(32);
    const key = combinedSigningKey(material.publicKey);
    expect(dnskeyText(key)).toMatch(/^257 3 13 [A-Za-z0-9+/]{86}==$/);
    // The DNSKEY's X|Y, with 0x04 in front, is the public key WebCrypto verifies with.
    const verify = await crypto.subtle.importKey("raw", new Uint8Array([4, ...material.publicKey]), { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
    const x = btoa(String.fromCharCode(...material.publicKey.slice(0, 32)))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    const y = btoa(String.fromCharCode(...material.publicKey.slice(32)))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    const d = btoa(String.fromCharCode(...material.privateKey))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    const sign = await crypto.subtle.importKey("jwk", { kty: "EC", crv: "P-256", x, y, d }, { name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]);
    const data = new TextEncoder().encode("example");
    const signature = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, sign, data);
    expect(await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, verify, signature, data)).toBe(true);
  });
  it("writes the private key in BIND's v1.2 private-key format", () => {
    const d = new Uint8Array(32).fill(1);
    expect(iscPrivateKeyText(d)).toBe("Private-key-format: v1.2\nAlgorithm: 13 (ECDSAP256SHA256)\nPrivateKey: AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=\n");
  });
});

describe("private keys are sealed with AES-256-GCM, bound to their key id", () => {
  const secret = "test-dnssec-secret-0123456789abcdef";
  it("opens with the same secret and id only", async () => {
    const plain = new Uint8Array([1, 2, 3, 4]);
    const sealed = await seal(secret, "key_1", plain);
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain("AQIDBA");
    expect(await unseal(secret, "key_1", sealed)).toEqual(plain);
    expect(await unseal(secret, "key_2", sealed)).toBeNull();
    expect(await unseal(`${secret}x`, "key_1", sealed)).toBeNull();
    expect(await unseal(secret, "key_1", `${sealed.slice(0, -4)}AAA=`)).toBeNull();
    expect(await unseal(secret, "key_1", "garbage")).toBeNull();
  });
  it("uses a fresh nonce each time", async () => {
    const plain = new Uint8Array([9]);
    expect(await seal(secret, "key_1", plain)).not.toBe(await seal(secret, "key_1", plain));
  });
});
