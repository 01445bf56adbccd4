// SSHFP (RFC 4255 §3): algorithm, fingerprint type and the fingerprint as hex, its
// length checked for the known fingerprint types.
import { fail, ok } from "../result";
import { defineRdata } from "./descriptor";
import { hexField, hexLengthProblem, uintField } from "./fields";
import { concatWire, hexOctets, hexText, u8 } from "./wire";

// Fingerprint types 1 (SHA-1, RFC 4255) and 2 (SHA-256, RFC 6594).
const FINGERPRINT_DIGITS: Record<number, number> = { 1: 40, 2: 64 };

export const SSHFP = defineRdata({
  type: "SSHFP",
  code: 44,
  shape: "algorithm, fingerprint type and fingerprint",
  example: "4 2 123456789ABCDEF67890123456789ABCDEF67890123456789ABCDEF123456789",
  tokens: { min: 3, max: Number.POSITIVE_INFINITY },
  parse(tokens) {
    // 1 RSA, 2 DSA, 3 ECDSA (RFC 6594), 4 Ed25519 (RFC 7479), 6 Ed448 (RFC 8709).
    const algorithm = uintField(tokens[0], 6, "SSHFP algorithm");
    if (!algorithm.ok) return algorithm;
    const type = uintField(tokens[1], 2, "SSHFP fingerprint type");
    if (!type.ok) return type;
    const fingerprint = hexField(tokens.slice(2), "SSHFP fingerprint");
    if (!fingerprint.ok) return fingerprint;
    const length = hexLengthProblem(fingerprint.value, FINGERPRINT_DIGITS[type.value], `SSHFP fingerprint for type ${type.value}`);
    if (length) return fail(length);
    return ok({ algorithm: algorithm.value, fingerprintType: type.value, fingerprint: fingerprint.value });
  },
  text: ({ algorithm, fingerprintType, fingerprint }) => `${algorithm} ${fingerprintType} ${fingerprint}`,
  wire: ({ algorithm, fingerprintType, fingerprint }) => concatWire(u8(algorithm), u8(fingerprintType), hexOctets(fingerprint)),
  names: () => [],
  fromWire: (r) => `${r.u8()} ${r.u8()} ${hexText(r.rest())}`,
});
