// A zone's signing key made with WebCrypto: ECDSA on curve P-256 with SHA-256, DNSSEC
// algorithm 13 (RFC 6605). The public key goes into the DNSKEY as RFC 6605 §4 wants it,
// the 64 octets X | Y of the uncompressed point (WebCrypto's "raw" export is 0x04 | X | Y);
// the private key is the 32-octet scalar d, which is what BIND's and PowerDNS's private-key
// files hold ("PrivateKey:", base64).
import { base64Text } from "../../crypto/base64";

const P256 = { name: "ECDSA", namedCurve: "P-256" } as const;
const COORDINATE_OCTETS = 32;

export interface EcdsaKeyMaterial {
  /** X | Y, 64 octets: the DNSKEY public key field (RFC 6605 §4). */
  publicKey: Uint8Array;
  /** The private scalar d, 32 octets. */
  privateKey: Uint8Array;
}

function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}

/** A new P-256 key pair, as the octets DNSSEC needs. */
export async function generateEcdsaP256(): Promise<EcdsaKeyMaterial> {
  const pair = (await crypto.subtle.generateKey(P256, true, ["sign", "verify"])) as CryptoKeyPair;
  const raw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  // RFC 6605 §4: the uncompressed point without its 0x04 prefix.
  if (raw.length !== 1 + 2 * COORDINATE_OCTETS || raw[0] !== 0x04) throw new Error("P-256 public key is not an uncompressed point");
  const jwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
  if (!jwk.d) throw new Error("P-256 private key export has no d");
  const d = fromBase64Url(jwk.d);
  if (d.length !== COORDINATE_OCTETS) throw new Error("P-256 private scalar is not 32 octets");
  return { publicKey: raw.slice(1), privateKey: d };
}

/**
 * The private key in the "Private-key-format: v1.2" text BIND's dnssec-keygen writes and
 * PowerDNS reads (pdnsutil import-zone-key, and the remote backend's getDomainKeys
 * `content`): for algorithm 13 the scalar d in base64.
 */
export function iscPrivateKeyText(privateKey: Uint8Array): string {
  return `Private-key-format: v1.2\nAlgorithm: 13 (ECDSAP256SHA256)\nPrivateKey: ${base64Text(privateKey)}\n`;
}
