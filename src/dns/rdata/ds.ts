// DS (RFC 4034 §5): key tag, algorithm, digest type and the digest of a child zone's
// DNSKEY, as hex (white space inside the digest allowed, RFC 4034 §5.3), written upper
// case and joined. The digest length is checked for known digest types. CDS (RFC 7344
// §3.1, cds.ts) shares the format.
import { fail, ok } from "../result";
import { defineRdata, type RdataDescriptor } from "./descriptor";
import { digestTypeField, dnssecAlgorithmField } from "./dnssec-algorithm";
import { hexField, hexLengthProblem, uintField } from "./fields";
import { concatWire, hexOctets, hexText, u16, u8 } from "./wire";

// Hex digits per digest type: SHA-1 (RFC 4034), SHA-256 (RFC 4509),
// GOST R 34.11-94 (RFC 5933), SHA-384 (RFC 6605).
const DIGEST_DIGITS: Record<number, number> = { 1: 40, 2: 64, 3: 64, 4: 96 };
const DIGEST_NAMES: Record<number, string> = { 1: "SHA-1", 2: "SHA-256", 3: "GOST R 34.11-94", 4: "SHA-384" };

export interface DelegationSigner {
  keyTag: number;
  algorithm: number;
  digestType: number;
  /** Upper-case hex. */
  digest: string;
}

/**
 * The descriptor of a type in the DS format. `deletion` is the one record with digest
 * type 0 the type allows: RFC 8078 §4's "0 0 0 00" for CDS, none for DS (RFC 4034 §5.1.3
 * reserves 0).
 */
export function delegationSignerRdata(about: { type: string; code: number; example: string; deletion: string | null }): RdataDescriptor<DelegationSigner> {
  const { type } = about;
  return defineRdata({
    type,
    code: about.code,
    example: about.example,
    shape: "key tag, algorithm, digest type and digest",
    tokens: { min: 4, max: Number.POSITIVE_INFINITY },
    parse(tokens) {
      const keyTag = uintField(tokens[0], 65535, `${type} key tag`);
      if (!keyTag.ok) return keyTag;
      const algorithm = dnssecAlgorithmField(tokens[1], `${type} algorithm`);
      if (!algorithm.ok) return algorithm;
      const digestType = digestTypeField(tokens[2], `${type} digest type`);
      if (!digestType.ok) return digestType;
      const digest = hexField(tokens.slice(3), `${type} digest`);
      if (!digest.ok) return digest;
      const fields = { keyTag: keyTag.value, algorithm: algorithm.value, digestType: digestType.value, digest: digest.value };
      if (digestType.value === 0) {
        if (about.deletion !== null && `${fields.keyTag} ${fields.algorithm} 0 ${fields.digest}` === about.deletion) return ok(fields);
        return fail(
          about.deletion === null
            ? `${type} digest type 0 is reserved (RFC 4034 §5.1.3)`
            : `${type} digest type 0 is reserved, except in the record "${about.deletion}" that asks for the DS to be removed (RFC 8078 §4)`,
        );
      }
      const name = DIGEST_NAMES[digestType.value];
      const length = hexLengthProblem(digest.value, DIGEST_DIGITS[digestType.value], `${type} digest for digest type ${digestType.value} (${name})`);
      if (length) return fail(length);
      return ok<DelegationSigner>(fields);
    },
    text: ({ keyTag, algorithm, digestType, digest }) => `${keyTag} ${algorithm} ${digestType} ${digest}`,
    wire: ({ keyTag, algorithm, digestType, digest }) => concatWire(u16(keyTag), u8(algorithm), u8(digestType), hexOctets(digest)),
    names: () => [],
    fromWire: (r) => `${r.u16()} ${r.u8()} ${r.u8()} ${hexText(r.rest())}`,
  });
}

export const DS = delegationSignerRdata({
  type: "DS",
  code: 43,
  example: "12345 13 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D",
  deletion: null,
});
