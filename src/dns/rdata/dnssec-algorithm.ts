// DNSSEC algorithm numbers (RFC 4034 appendix A.1 and the IANA registry) in the fields
// of DS, DNSKEY and their kin: a number, or the mnemonic BIND accepts; written as the number.
import { ok, type Check } from "../result";
import { uintField } from "./fields";
import type { Token } from "./tokens";

const DNSSEC_ALGORITHMS: Record<string, number> = {
  RSAMD5: 1,
  DH: 2,
  DSA: 3,
  RSASHA1: 5,
  "DSA-NSEC3-SHA1": 6,
  "RSASHA1-NSEC3-SHA1": 7,
  RSASHA256: 8,
  RSASHA512: 10,
  "ECC-GOST": 12,
  ECDSAP256SHA256: 13,
  ECDSAP384SHA384: 14,
  ED25519: 15,
  ED448: 16,
};

export function dnssecAlgorithmField(token: Token | undefined, what: string): Check<number> {
  const mnemonic = token && !token.quoted ? DNSSEC_ALGORITHMS[token.raw.toUpperCase()] : undefined;
  if (mnemonic !== undefined) return ok(mnemonic);
  return uintField(token, 255, what);
}
