// The numbers in DNSSEC fields (DS, DNSKEY, CERT and their kin): a number, or one of
// the mnemonics BIND 9.18 reads (lib/dns/rcode.c), case-insensitive; written as numbers.
// Only BIND's spellings: an import must not take a mnemonic BIND would refuse.
import { fail, ok, type Check } from "../result";
import { uintField } from "./fields";
import type { Token } from "./tokens";

// DNSSEC algorithm numbers (RFC 4034 appendix A.1, RFC 5155, RFC 5702, RFC 6605, RFC 8080).
const ALGORITHM_MNEMONICS: Record<string, number> = {
  RSAMD5: 1,
  DH: 2,
  DSA: 3,
  RSASHA1: 5,
  NSEC3DSA: 6,
  NSEC3RSASHA1: 7,
  RSASHA256: 8,
  RSASHA512: 10,
  ECCGOST: 12,
  ECDSAP256SHA256: 13,
  ECDSA256: 13,
  ECDSAP384SHA384: 14,
  ECDSA384: 14,
  ED25519: 15,
  ED448: 16,
  INDIRECT: 252,
  PRIVATEDNS: 253,
  PRIVATEOID: 254,
};

// DS digest types (RFC 4034 §5.1.3, RFC 4509, RFC 5933, RFC 6605).
const DIGEST_MNEMONICS: Record<string, number> = { "SHA-1": 1, SHA1: 1, "SHA-256": 2, SHA256: 2, GOST: 3, "SHA-384": 4, SHA384: 4 };

function mnemonicOr(table: Record<string, number>, token: Token | undefined, max: number, what: string): Check<number> {
  const known = token && !token.quoted ? table[token.raw.toUpperCase()] : undefined;
  return known === undefined ? uintField(token, max, what) : ok(known);
}

export function dnssecAlgorithmField(token: Token | undefined, what: string): Check<number> {
  return mnemonicOr(ALGORITHM_MNEMONICS, token, 255, what);
}

export function digestTypeField(token: Token | undefined, what: string): Check<number> {
  return mnemonicOr(DIGEST_MNEMONICS, token, 255, what);
}

/** DNSKEY protocol: RFC 4034 §2.1.2 allows only 3 (BIND also reads the mnemonic DNSSEC). */
export function protocolField(token: Token | undefined, what: string): Check<number> {
  const value = token && !token.quoted && token.raw.toUpperCase() === "DNSSEC" ? ok(3) : uintField(token, 255, what);
  if (!value.ok) return value;
  return value.value === 3 ? value : fail(`${what} must be 3 (RFC 4034 §2.1.2)`);
}
