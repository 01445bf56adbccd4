// CERT (RFC 4398 §2): certificate type, key tag, algorithm and the certificate or CRL in
// base64. Type and algorithm may be mnemonics and are written as BIND writes them.
import { fail, ok, type Check } from "../result";
import { defineRdata } from "./descriptor";
import { dnssecAlgorithmField } from "./dnssec-algorithm";
import { base64Field, uintField } from "./fields";
import type { Token } from "./tokens";
import { concatWire, u16, u8 } from "./wire";
import { base64Text } from "../../crypto/base64";

// RFC 4398 §2.1, with BIND's mnemonics (lib/dns/rcode.c).
const CERT_TYPES: Record<string, number> = { PKIX: 1, SPKI: 2, PGP: 3, IPKIX: 4, ISPKI: 5, IPGP: 6, ACPKIX: 7, IACPKIX: 8, URI: 253, OID: 254 };
const CERT_TYPE_NAMES: Record<number, string> = Object.fromEntries(Object.entries(CERT_TYPES).map(([name, code]) => [code, name]));
// BIND writes the first mnemonic its table has for an algorithm.
const ALGORITHM_NAMES: Record<number, string> = {
  1: "RSAMD5",
  2: "DH",
  3: "DSA",
  5: "RSASHA1",
  6: "NSEC3DSA",
  7: "NSEC3RSASHA1",
  8: "RSASHA256",
  10: "RSASHA512",
  12: "ECCGOST",
  13: "ECDSAP256SHA256",
  14: "ECDSAP384SHA384",
  15: "ED25519",
  16: "ED448",
  252: "INDIRECT",
  253: "PRIVATEDNS",
  254: "PRIVATEOID",
};

function certType(token: Token | undefined): Check<number> {
  const known = token && !token.quoted ? CERT_TYPES[token.raw.toUpperCase()] : undefined;
  const value = known === undefined ? uintField(token, 65535, "CERT type") : ok(known);
  if (!value.ok) return value;
  return value.value === 0 || value.value === 65535 ? fail(`CERT type ${value.value} is reserved (RFC 4398 §2.1)`) : value;
}

export const CERT = defineRdata({
  type: "CERT",
  code: 37,
  shape: "certificate type, key tag, algorithm and the certificate in base64",
  example: "PGP 0 0 mDMEXEcE6RYJKwYBBAHaRw8BAQdArjWwk3FAqyiFbFBKT4TzXcVBqPTB3gmzlC/Ub7O1u10=",
  tokens: { min: 4, max: Number.POSITIVE_INFINITY },
  parse(tokens) {
    const type = certType(tokens[0]);
    if (!type.ok) return type;
    const keyTag = uintField(tokens[1], 65535, "CERT key tag");
    if (!keyTag.ok) return keyTag;
    // 0 says the algorithm is unknown or not relevant (RFC 4398 §2.1.1).
    const algorithm = dnssecAlgorithmField(tokens[2], "CERT algorithm");
    if (!algorithm.ok) return algorithm;
    const certificate = base64Field(tokens.slice(3), "CERT certificate");
    if (!certificate.ok) return certificate;
    return ok({ certType: type.value, keyTag: keyTag.value, algorithm: algorithm.value, certificate: certificate.value });
  },
  text: (f) => `${CERT_TYPE_NAMES[f.certType] ?? f.certType} ${f.keyTag} ${ALGORITHM_NAMES[f.algorithm] ?? f.algorithm} ${base64Text(f.certificate)}`,
  wire: (f) => concatWire(u16(f.certType), u16(f.keyTag), u8(f.algorithm), f.certificate),
  names: () => [],
  fromWire: (r) => `${r.u16()} ${r.u16()} ${r.u8()} ${base64Text(r.rest())}`,
});

const ALGORITHM_CODES: Record<string, number> = Object.fromEntries(Object.entries(ALGORITHM_NAMES).map(([code, name]) => [name, Number(code)]));

/**
 * A stored CERT content with its type and algorithm as numbers (`PGP 0 ECDSAP256SHA256 …`
 * → `3 0 13 …`). RFC 4398 §2.2 allows either form; PowerDNS 4.7 reads only numbers
 * (its parser stops at `PGP`), so this is the form it is given.
 */
export function certWithNumbers(content: string): string {
  const [type = "", keyTag = "", algorithm = "", ...certificate] = content.split(" ");
  return [CERT_TYPES[type] ?? type, keyTag, ALGORITHM_CODES[algorithm] ?? algorithm, ...certificate].join(" ");
}
