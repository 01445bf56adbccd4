// DNSKEY (RFC 4034 §2): flags, protocol 3, algorithm and the public key in base64
// (white space inside the key allowed, RFC 4034 §2.2). CDNSKEY (RFC 7344 §3.2,
// cdnskey.ts) shares the format. `keyTag` computes the tag a DS or RRSIG names the key by.
import { fail, ok } from "../result";
import { defineRdata, type RdataDescriptor } from "./descriptor";
import { dnssecAlgorithmField, protocolField } from "./dnssec-algorithm";
import { base64Field, uintField } from "./fields";
import { concatWire, u16, u8 } from "./wire";
import { base64Text } from "../../crypto/base64";

export interface DnsKey {
  flags: number;
  protocol: number;
  algorithm: number;
  publicKey: Uint8Array;
}

// RFC 4034 §2.1.1: bit 7 Zone Key (256), bit 15 Secure Entry Point (1); RFC 5011 §3:
// bit 8 REVOKE (128). The other bits "MUST have value 0".
const KNOWN_FLAGS = 256 | 128 | 1;

// Public key sizes where the algorithm fixes them: ECDSA P-256 and P-384 (RFC 6605 §4),
// Ed25519 and Ed448 (RFC 8080 §3).
const KEY_OCTETS: Record<number, number> = { 13: 64, 14: 96, 15: 32, 16: 57 };

/**
 * The descriptor of a type in the DNSKEY format. `deletion` is the one record with
 * algorithm 0 the type allows: RFC 8078 §4's "0 3 0 AA==" for CDNSKEY, none for DNSKEY
 * (RFC 4034 appendix A.1 reserves 0).
 */
export function dnskeyRdata(about: { type: string; code: number; example: string; deletion: string | null }): RdataDescriptor<DnsKey> {
  const { type } = about;
  const text = ({ flags, protocol, algorithm, publicKey }: DnsKey) => `${flags} ${protocol} ${algorithm} ${base64Text(publicKey)}`;
  return defineRdata({
    type,
    code: about.code,
    example: about.example,
    shape: "flags, protocol, algorithm and public key",
    tokens: { min: 4, max: Number.POSITIVE_INFINITY },
    parse(tokens) {
      const flags = uintField(tokens[0], 65535, `${type} flags`);
      if (!flags.ok) return flags;
      const protocol = protocolField(tokens[1], `${type} protocol`);
      if (!protocol.ok) return protocol;
      const algorithm = dnssecAlgorithmField(tokens[2], `${type} algorithm`);
      if (!algorithm.ok) return algorithm;
      const publicKey = base64Field(tokens.slice(3), `${type} public key`);
      if (!publicKey.ok) return publicKey;
      const key = { flags: flags.value, protocol: protocol.value, algorithm: algorithm.value, publicKey: publicKey.value };
      if (algorithm.value === 0) {
        if (about.deletion !== null && text(key) === about.deletion) return ok(key);
        return fail(
          about.deletion === null
            ? `${type} algorithm 0 is reserved (RFC 4034 appendix A.1)`
            : `${type} algorithm 0 is reserved, except in the record "${about.deletion}" that asks for the DS to be removed (RFC 8078 §4)`,
        );
      }
      if ((flags.value & ~KNOWN_FLAGS) !== 0) {
        return fail(
          `${type} flags ${flags.value} set reserved bits: only 256 (zone key), 128 (revoked) and 1 (secure entry point) are defined (RFC 4034 §2.1.1)`,
        );
      }
      const size = KEY_OCTETS[algorithm.value];
      if (size !== undefined && publicKey.value.length !== size) {
        return fail(`${type} public key for algorithm ${algorithm.value} must be ${size} octets, not ${publicKey.value.length}`);
      }
      return ok<DnsKey>(key);
    },
    text,
    wire: ({ flags, protocol, algorithm, publicKey }) => concatWire(u16(flags), u8(protocol), u8(algorithm), publicKey),
    names: () => [],
    fromWire: (r) => `${r.u16()} ${r.u8()} ${r.u8()} ${base64Text(r.rest())}`,
  });
}

export const DNSKEY = dnskeyRdata({
  type: "DNSKEY",
  code: 48,
  example: "257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==",
  deletion: null,
});

/**
 * The key tag of a DNSKEY (RFC 4034 appendix B): the ones' complement-free sum of its
 * RDATA as 16-bit words; algorithm 1 (RSA/MD5) uses bits of its modulus instead (B.1).
 */
export function keyTag(rdata: Uint8Array): number {
  if (rdata[3] === 1) return rdata.length >= 4 ? (rdata[rdata.length - 3]! << 8) | rdata[rdata.length - 2]! : 0;
  let sum = 0;
  for (let i = 0; i < rdata.length; i++) sum += i & 1 ? rdata[i]! : rdata[i]! << 8;
  sum += (sum >>> 16) & 0xffff;
  return sum & 0xffff;
}
