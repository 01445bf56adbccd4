// Keys of algorithms 8, 13, 14 and 15 (src/dns/dnssec/signing-keys.ts): the DNSKEY public key
// field is what each algorithm's RFC says, proved by verifying, with the key rebuilt from
// that field alone, a signature made with the private half rebuilt from BIND's private-key
// text (what PowerDNS signs with).
import { describe, expect, it } from "vitest";
import { base64Octets } from "../../src/crypto/base64";
import { generateSigningKey, iscPrivateKeyText, rsaPublicKeyField } from "../../src/dns/dnssec/signing-keys";

const b64url = (octets: Uint8Array) =>
  btoa(String.fromCharCode(...octets))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

function iscFields(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .trim()
      .split("\n")
      .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)]),
  );
}

const MESSAGE = new TextEncoder().encode("www.example. 300 IN A 192.0.2.1");

describe("an RSASHA256 key (algorithm 8): RFC 3110 public key, 2048 bits", () => {
  it("the DNSKEY field is exponent length 3, exponent 65537, a 256-octet modulus", async () => {
    const key = await generateSigningKey(8);
    expect(key.publicKey.length).toBe(1 + 3 + 256);
    expect(Array.from(key.publicKey.slice(0, 4))).toEqual([3, 1, 0, 1]);
  });

  it("a signature made from BIND's private-key text verifies under the key rebuilt from the DNSKEY field", async () => {
    const key = await generateSigningKey(8);
    const fields = iscFields(iscPrivateKeyText(8, key.privateKey));
    expect(fields["Private-key-format"]).toBe("v1.2");
    expect(fields.Algorithm).toBe("8 (RSASHA256)");
    const jwk = (field: string) => b64url(base64Octets(fields[field]!));
    const algorithm = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
    const privateKey = await crypto.subtle.importKey(
      "jwk",
      {
        kty: "RSA",
        n: jwk("Modulus"),
        e: jwk("PublicExponent"),
        d: jwk("PrivateExponent"),
        p: jwk("Prime1"),
        q: jwk("Prime2"),
        dp: jwk("Exponent1"),
        dq: jwk("Exponent2"),
        qi: jwk("Coefficient"),
      },
      algorithm,
      false,
      ["sign"],
    );
    const signature = new Uint8Array(await crypto.subtle.sign(algorithm, privateKey, MESSAGE));
    const exponent = key.publicKey.slice(1, 4);
    const modulus = key.publicKey.slice(4);
    const publicKey = await crypto.subtle.importKey("jwk", { kty: "RSA", n: b64url(modulus), e: b64url(exponent) }, algorithm, false, ["verify"]);
    expect(await crypto.subtle.verify(algorithm, publicKey, signature, MESSAGE)).toBe(true);
    expect(await crypto.subtle.verify(algorithm, publicKey, signature, new TextEncoder().encode("tampered"))).toBe(false);
  });

  it("an exponent longer than 255 octets takes RFC 3110's three-octet length", () => {
    const field = rsaPublicKeyField(new Uint8Array(256).fill(1), new Uint8Array([9, 9]));
    expect(Array.from(field.slice(0, 3))).toEqual([0, 1, 0]);
    expect(field.length).toBe(3 + 256 + 2);
  });
});

describe.each([
  [13, "P-256", 32, "SHA-256", "13 (ECDSAP256SHA256)"],
  [14, "P-384", 48, "SHA-384", "14 (ECDSAP384SHA384)"],
] as const)("an ECDSA key of algorithm %i (%s): RFC 6605 public key", (algorithm, curve, octets, hash, label) => {
  it(`the DNSKEY field is X | Y, ${2 * octets} octets, and BIND's private-key text holds the ${octets}-octet scalar`, async () => {
    const key = await generateSigningKey(algorithm);
    expect(key.publicKey.length).toBe(2 * octets);
    const fields = iscFields(iscPrivateKeyText(algorithm, key.privateKey));
    expect(fields.Algorithm).toBe(label);
    expect(base64Octets(fields.PrivateKey!).length).toBe(octets);
  });

  it("a signature made from BIND's private-key text verifies under the key rebuilt from the DNSKEY field", async () => {
    const key = await generateSigningKey(algorithm);
    const d = base64Octets(iscFields(iscPrivateKeyText(algorithm, key.privateKey)).PrivateKey!);
    const x = b64url(key.publicKey.slice(0, octets));
    const y = b64url(key.publicKey.slice(octets));
    const params = { name: "ECDSA", namedCurve: curve };
    const privateKey = await crypto.subtle.importKey("jwk", { kty: "EC", crv: curve, x, y, d: b64url(d) }, params, false, ["sign"]);
    const signature = await crypto.subtle.sign({ name: "ECDSA", hash }, privateKey, MESSAGE);
    const raw = new Uint8Array(1 + 2 * octets);
    raw[0] = 0x04;
    raw.set(key.publicKey, 1);
    const publicKey = await crypto.subtle.importKey("raw", raw, params, false, ["verify"]);
    expect(await crypto.subtle.verify({ name: "ECDSA", hash }, publicKey, signature, MESSAGE)).toBe(true);
  });
});

describe("an ED25519 key (algorithm 15): RFC 8080's 32-octet public key, BIND's 32-octet PrivateKey", () => {
  it("a signature made from BIND's private-key text verifies under the key rebuilt from the DNSKEY field", async () => {
    const key = await generateSigningKey(15);
    expect(key.publicKey.length).toBe(32);
    const fields = iscFields(iscPrivateKeyText(15, key.privateKey));
    expect(fields["Private-key-format"]).toBe("v1.2");
    expect(fields.Algorithm).toBe("15 (ED25519)");
    expect(base64Octets(fields.PrivateKey!).length).toBe(32);
    const privateKey = await crypto.subtle.importKey(
      "jwk",
      { kty: "OKP", crv: "Ed25519", d: b64url(base64Octets(fields.PrivateKey!)), x: b64url(key.publicKey) },
      { name: "Ed25519" },
      false,
      ["sign"],
    );
    const signature = new Uint8Array(await crypto.subtle.sign({ name: "Ed25519" }, privateKey, MESSAGE));
    expect(signature.length).toBe(64);
    const publicKey = await crypto.subtle.importKey("raw", key.publicKey, { name: "Ed25519" }, false, ["verify"]);
    expect(await crypto.subtle.verify({ name: "Ed25519" }, publicKey, signature, MESSAGE)).toBe(true);
  });
});
