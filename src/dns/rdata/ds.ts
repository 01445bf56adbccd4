// DS (RFC 4034 §5): key tag, algorithm, digest type and the digest of a child zone's
// DNSKEY, as hex (white space inside the digest allowed, RFC 4034 §5.3), written upper
// case and joined as BIND prints it. The digest length is checked for known digest types.
import { fail, ok } from "../result";
import { defineRdata } from "./descriptor";
import { dnssecAlgorithmField } from "./dnssec-algorithm";
import { hexField, hexLengthProblem, uintField } from "./fields";
import { concatWire, hexOctets, u16, u8 } from "./wire";

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

export const DS = defineRdata({
  type: "DS",
  code: 43,
  shape: "key tag, algorithm, digest type and digest",
  example: "12345 13 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D",
  tokens: { min: 4, max: Number.POSITIVE_INFINITY },
  parse(tokens) {
    const keyTag = uintField(tokens[0], 65535, "DS key tag");
    if (!keyTag.ok) return keyTag;
    const algorithm = dnssecAlgorithmField(tokens[1], "DS algorithm");
    if (!algorithm.ok) return algorithm;
    const digestType = uintField(tokens[2], 255, "DS digest type");
    if (!digestType.ok) return digestType;
    if (digestType.value === 0) return fail("DS digest type 0 is reserved (RFC 4034 §5.1.3)");
    const digest = hexField(tokens.slice(3), "DS digest");
    if (!digest.ok) return digest;
    const name = DIGEST_NAMES[digestType.value];
    const length = hexLengthProblem(digest.value, DIGEST_DIGITS[digestType.value], `DS digest for digest type ${digestType.value} (${name})`);
    if (length) return fail(length);
    return ok<DelegationSigner>({ keyTag: keyTag.value, algorithm: algorithm.value, digestType: digestType.value, digest: digest.value });
  },
  text: ({ keyTag, algorithm, digestType, digest }) => `${keyTag} ${algorithm} ${digestType} ${digest}`,
  wire: ({ keyTag, algorithm, digestType, digest }) => concatWire(u16(keyTag), u8(algorithm), u8(digestType), hexOctets(digest)),
  names: () => [],
});
