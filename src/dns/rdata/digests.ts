// Types that carry a hash as hex: DS (RFC 4034 §5.3), TLSA (RFC 6698 §2.2) and
// SSHFP (RFC 4255 §3.2). The hex length is checked wherever the hash is known.
import { countProblem, hexField, hexLengthProblem, uintField, type RdataParser } from "./fields";
import { content, fail, ok, type Check } from "../result";
import type { Token } from "./tokens";

// DNSSEC algorithm mnemonics (RFC 4034 appendix A.1 and the IANA registry), accepted
// as BIND accepts them; the canonical form is the number.
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

// Hex digits per DS digest type: SHA-1 (RFC 4034), SHA-256 (RFC 4509),
// GOST R 34.11-94 (RFC 5933), SHA-384 (RFC 6605).
const DS_DIGEST_DIGITS: Record<number, number> = { 1: 40, 2: 64, 3: 64, 4: 96 };
const DS_DIGEST_NAMES: Record<number, string> = { 1: "SHA-1", 2: "SHA-256", 3: "GOST R 34.11-94", 4: "SHA-384" };
// TLSA matching types 1 (SHA-256) and 2 (SHA-512), RFC 6698 §2.1.3.
const TLSA_DIGITS: Record<number, number> = { 1: 64, 2: 128 };
// SSHFP fingerprint types 1 (SHA-1, RFC 4255) and 2 (SHA-256, RFC 6594).
const SSHFP_DIGITS: Record<number, number> = { 1: 40, 2: 64 };

function dnssecAlgorithm(token: Token | undefined): Check<number> {
  const mnemonic = token && !token.quoted ? DNSSEC_ALGORITHMS[token.raw.toUpperCase()] : undefined;
  if (mnemonic !== undefined) return ok(mnemonic);
  return uintField(token, 255, "DS algorithm");
}

export const canonicalDs: RdataParser = (tokens) => {
  const problem = countProblem("DS", tokens, 4, Number.POSITIVE_INFINITY);
  if (problem) return fail(problem);
  const keyTag = uintField(tokens[0], 65535, "DS key tag");
  if (!keyTag.ok) return keyTag;
  const algorithm = dnssecAlgorithm(tokens[1]);
  if (!algorithm.ok) return algorithm;
  const digestType = uintField(tokens[2], 255, "DS digest type");
  if (!digestType.ok) return digestType;
  if (digestType.value === 0) return fail("DS digest type 0 is reserved (RFC 4034 §5.1.3)");
  const digest = hexField(tokens.slice(3), "DS digest");
  if (!digest.ok) return digest;
  const name = DS_DIGEST_NAMES[digestType.value];
  const length = hexLengthProblem(digest.value, DS_DIGEST_DIGITS[digestType.value], `DS digest for digest type ${digestType.value} (${name})`);
  if (length) return fail(length);
  return content(`${keyTag.value} ${algorithm.value} ${digestType.value} ${digest.value}`);
};

export const canonicalTlsa: RdataParser = (tokens) => {
  const problem = countProblem("TLSA", tokens, 4, Number.POSITIVE_INFINITY);
  if (problem) return fail(problem);
  const usage = uintField(tokens[0], 3, "TLSA certificate usage");
  if (!usage.ok) return usage;
  const selector = uintField(tokens[1], 1, "TLSA selector");
  if (!selector.ok) return selector;
  const matching = uintField(tokens[2], 2, "TLSA matching type");
  if (!matching.ok) return matching;
  const data = hexField(tokens.slice(3), "TLSA certificate association data");
  if (!data.ok) return data;
  const length = hexLengthProblem(data.value, TLSA_DIGITS[matching.value], `TLSA data for matching type ${matching.value}`);
  if (length) return fail(length);
  return content(`${usage.value} ${selector.value} ${matching.value} ${data.value}`);
};

export const canonicalSshfp: RdataParser = (tokens) => {
  const problem = countProblem("SSHFP", tokens, 3, Number.POSITIVE_INFINITY);
  if (problem) return fail(problem);
  // 1 RSA, 2 DSA, 3 ECDSA (RFC 6594), 4 Ed25519 (RFC 7479), 6 Ed448 (RFC 8709).
  const algorithm = uintField(tokens[0], 6, "SSHFP algorithm");
  if (!algorithm.ok) return algorithm;
  const type = uintField(tokens[1], 2, "SSHFP fingerprint type");
  if (!type.ok) return type;
  const fingerprint = hexField(tokens.slice(2), "SSHFP fingerprint");
  if (!fingerprint.ok) return fingerprint;
  const length = hexLengthProblem(fingerprint.value, SSHFP_DIGITS[type.value], `SSHFP fingerprint for type ${type.value}`);
  if (length) return fail(length);
  return content(`${algorithm.value} ${type.value} ${fingerprint.value}`);
};
