// What a DNS record may hold that BIND loads with a warning rather than refusing, and this
// service too: DNSSEC algorithms and DS digests that RFC 8624 deprecates, and a TXT string
// written unquoted longer than one <character-string> holds. Such records are accepted
// (a zone moved from BIND keeps them), and the answer says why they deserve a look.
import { decodeCharString, MAX_STRING_OCTETS } from "./character-string";
import type { Token } from "./tokens";

// RFC 8624 §3.1: algorithms a signer MUST NOT (1, 3, 6, 12) or is NOT RECOMMENDED to (5, 7) use.
const DEPRECATED_ALGORITHMS: Readonly<Record<number, string>> = {
  1: "RSAMD5",
  3: "DSA",
  5: "RSASHA1",
  6: "DSA-NSEC3-SHA1",
  7: "RSASHA1-NSEC3-SHA1",
  12: "ECC-GOST",
};

// RFC 8624 §3.3: DS digests that MUST NOT be used to create DS records.
const DEPRECATED_DIGESTS: Readonly<Record<number, string>> = { 1: "SHA-1", 3: "GOST R 34.11-94" };

/** Why a DS, CDS, DNSKEY or CDNSKEY (canonical RDATA) deserves a warning, or null. */
export function deprecatedDnssecWarning(type: string, content: string): string | null {
  const fields = content.split(" ");
  const algorithmAt = type === "DS" || type === "CDS" ? 1 : type === "DNSKEY" || type === "CDNSKEY" ? 2 : -1;
  if (algorithmAt < 0) return null;
  const algorithm = Number(fields[algorithmAt]);
  const problems: string[] = [];
  if (DEPRECATED_ALGORITHMS[algorithm]) problems.push(`algorithm ${algorithm} (${DEPRECATED_ALGORITHMS[algorithm]}) is deprecated for signing (RFC 8624 §3.1)`);
  const digest = Number(fields[2]);
  if (algorithmAt === 1 && DEPRECATED_DIGESTS[digest]) {
    problems.push(`digest type ${digest} (${DEPRECATED_DIGESTS[digest]}) must not be used to create DS records (RFC 8624 §3.3)`);
  }
  if (problems.length === 0) return null;
  return `${problems.join("; ")}: accepted as BIND loads it, but validators may treat the zone as unsigned; prefer ECDSAP256SHA256 (13) and SHA-256 (2)`;
}

/** A TXT or SPF string written unquoted and longer than 255 octets: BIND refuses it; here it is split, with this warning. */
export function longStringWarning(type: string, tokens: readonly Token[]): string | null {
  if (type !== "TXT" && type !== "SPF") return null;
  const index = tokens.findIndex((token) => {
    if (token.quoted || token.raw.length <= MAX_STRING_OCTETS) return false;
    const octets = decodeCharString(token.raw);
    return octets.ok && octets.value.length > MAX_STRING_OCTETS;
  });
  if (index < 0) return null;
  return `string ${index + 1} is longer than ${MAX_STRING_OCTETS} octets, which BIND refuses; it was split into strings of ${MAX_STRING_OCTETS} (quote each string to choose where)`;
}
