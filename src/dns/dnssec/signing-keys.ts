// Signing keys of every algorithm the service signs with (src/dns/dnssec/signing-policy.ts),
// made with WebCrypto: the DNSKEY public key field as each algorithm's RFC wants it, and the
// private half as the octets the service seals (src/crypto/sealed.ts) and PowerDNS reads
// back as BIND's "Private-key-format: v1.2" text.
//
// - 8 RSASHA256 (RFC 5702), 2048 bits, exponent 65 537: the public key is RFC 3110 §2's
//   exponent length, exponent, modulus; the private half is every CRT field BIND writes.
// - 13 ECDSAP256SHA256 and 14 ECDSAP384SHA384 (RFC 6605 §4): the public key is X | Y of the
//   uncompressed point (32 or 48 octets each); the private half the scalar d.
// - 15 ED25519 (RFC 8080 §3): the public key is the 32-octet encoding of RFC 8032 §5.1.5;
//   the private half the 32-octet private key (RFC 8032's seed), what BIND writes as
//   `PrivateKey` and PowerDNS 4.7 reads back with EVP_PKEY_new_raw_private_key.
import { base64Text } from "../../crypto/base64";
import { generateEcdsaP256, iscPrivateKeyText as p256PrivateKeyText } from "./ecdsa";

export const GENERATED_ALGORITHMS = [8, 13, 14, 15] as const;
export type GeneratedAlgorithm = (typeof GENERATED_ALGORITHMS)[number];

export function isGeneratedAlgorithm(n: number): n is GeneratedAlgorithm {
  return (GENERATED_ALGORITHMS as readonly number[]).includes(n);
}

export interface SigningKeyMaterial {
  algorithm: GeneratedAlgorithm;
  /** The DNSKEY public key field. */
  publicKey: Uint8Array;
  /** What is sealed: the scalar d (ECDSA), the private key (Ed25519), or the RSA fields as JSON (RSA). */
  privateKey: Uint8Array;
}

const RSA_BITS = 2048;
const RSA_EXPONENT = new Uint8Array([0x01, 0x00, 0x01]);
const P384_COORDINATE_OCTETS = 48;

/** The JWK fields of an RSA private key, in the order BIND's private-key file names them. */
const RSA_FIELDS = [
  ["n", "Modulus"],
  ["e", "PublicExponent"],
  ["d", "PrivateExponent"],
  ["p", "Prime1"],
  ["q", "Prime2"],
  ["dp", "Exponent1"],
  ["dq", "Exponent2"],
  ["qi", "Coefficient"],
] as const;

function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}

/** RFC 3110 §2: exponent length (one octet, or 0 and two octets past 255), exponent, modulus. */
export function rsaPublicKeyField(exponent: Uint8Array, modulus: Uint8Array): Uint8Array {
  const length = exponent.length <= 255 ? [exponent.length] : [0, exponent.length >> 8, exponent.length & 0xff];
  const out = new Uint8Array(length.length + exponent.length + modulus.length);
  out.set(length, 0);
  out.set(exponent, length.length);
  out.set(modulus, length.length + exponent.length);
  return out;
}

async function generateRsaSha256(): Promise<SigningKeyMaterial> {
  const params = { name: "RSASSA-PKCS1-v1_5", modulusLength: RSA_BITS, publicExponent: RSA_EXPONENT, hash: "SHA-256" };
  const pair = (await crypto.subtle.generateKey(params, true, ["sign", "verify"])) as CryptoKeyPair;
  const jwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
  const fields: Record<string, string> = {};
  for (const [name] of RSA_FIELDS) {
    const value = jwk[name];
    if (!value) throw new Error(`RSA private key export has no ${name}`);
    fields[name] = value;
  }
  const publicKey = rsaPublicKeyField(fromBase64Url(fields.e!), fromBase64Url(fields.n!));
  return { algorithm: 8, publicKey, privateKey: new TextEncoder().encode(JSON.stringify(fields)) };
}

async function generateEcdsaP384(): Promise<SigningKeyMaterial> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-384" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const raw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  if (raw.length !== 1 + 2 * P384_COORDINATE_OCTETS || raw[0] !== 0x04) throw new Error("P-384 public key is not an uncompressed point");
  const jwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
  if (!jwk.d) throw new Error("P-384 private key export has no d");
  const d = fromBase64Url(jwk.d);
  if (d.length !== P384_COORDINATE_OCTETS) throw new Error("P-384 private scalar is not 48 octets");
  return { algorithm: 14, publicKey: raw.slice(1), privateKey: d };
}

const ED25519_OCTETS = 32;

async function generateEd25519(): Promise<SigningKeyMaterial> {
  const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const raw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  if (raw.length !== ED25519_OCTETS) throw new Error("Ed25519 public key is not 32 octets");
  const jwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
  if (!jwk.d) throw new Error("Ed25519 private key export has no d");
  const d = fromBase64Url(jwk.d);
  if (d.length !== ED25519_OCTETS) throw new Error("Ed25519 private key is not 32 octets");
  return { algorithm: 15, publicKey: raw, privateKey: d };
}

/** A new key pair of `algorithm`. */
export async function generateSigningKey(algorithm: GeneratedAlgorithm): Promise<SigningKeyMaterial> {
  switch (algorithm) {
    case 8:
      return generateRsaSha256();
    case 13:
      return { algorithm: 13, ...(await generateEcdsaP256()) };
    case 14:
      return generateEcdsaP384();
    case 15:
      return generateEd25519();
  }
}

/** The private key as BIND's dnssec-keygen writes it and PowerDNS imports it ("Private-key-format: v1.2"). */
export function iscPrivateKeyText(algorithm: GeneratedAlgorithm, privateKey: Uint8Array): string {
  switch (algorithm) {
    case 13:
      return p256PrivateKeyText(privateKey);
    case 14:
      return `Private-key-format: v1.2\nAlgorithm: 14 (ECDSAP384SHA384)\nPrivateKey: ${base64Text(privateKey)}\n`;
    case 15:
      return `Private-key-format: v1.2\nAlgorithm: 15 (ED25519)\nPrivateKey: ${base64Text(privateKey)}\n`;
    case 8: {
      const fields = JSON.parse(new TextDecoder().decode(privateKey)) as Record<string, string>;
      const lines = RSA_FIELDS.map(([name, label]) => `${label}: ${base64Text(fromBase64Url(fields[name] ?? ""))}`);
      return `Private-key-format: v1.2\nAlgorithm: 8 (RSASHA256)\n${lines.join("\n")}\n`;
    }
  }
}
