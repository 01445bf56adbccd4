// DNSSEC key knowledge, pure (no HTTP, no database): the DNSKEY RDATA of a zone's key, its
// key tag (RFC 4034 appendix B) and the DS digests a parent publishes for it (RFC 4034
// §5.1.4: the digest of the canonical owner name and the DNSKEY RDATA, both in wire form;
// SHA-256 by RFC 4509, SHA-384 by RFC 6605). The wire forms come from the record-type
// descriptors (src/dns/rdata/), so a DS computed here and a DS parsed from a zone agree.
import { createHash } from "node:crypto";
import { DNSKEY, type DnsKey, keyTag } from "../rdata/dnskey";
import { concatWire, hexText, nameWire } from "../rdata/wire";

/** ECDSA Curve P-256 with SHA-256 (RFC 6605 §2): the one algorithm this service signs with. */
export const ALGORITHM_ECDSAP256SHA256 = 13;
/** Zone Key (256) + Secure Entry Point (1), RFC 4034 §2.1.1: one combined signing key (KSK and ZSK in one). */
export const FLAGS_COMBINED_SIGNING_KEY = 257;
/** RFC 4034 §2.1.2: "The Protocol Field MUST have value 3". */
export const DNSKEY_PROTOCOL = 3;

/** DS digest types (RFC 4034 §5.1.3 and the IANA registry) this module computes. */
export const DIGEST_SHA1 = 1;
export const DIGEST_SHA256 = 2;
export const DIGEST_SHA384 = 4;
export type DigestType = typeof DIGEST_SHA1 | typeof DIGEST_SHA256 | typeof DIGEST_SHA384;

const DIGEST_ALGORITHMS: Record<DigestType, string> = { 1: "sha1", 2: "sha256", 4: "sha384" };

/** The DS digest types the service publishes: SHA-256 (mandatory, RFC 8624 §3.3) and SHA-384. */
export const PUBLISHED_DIGEST_TYPES: readonly DigestType[] = [DIGEST_SHA256, DIGEST_SHA384];

/** A DNSKEY's RDATA in wire form (RFC 4034 §2.2): flags, protocol, algorithm, public key. */
export function dnskeyWire(key: DnsKey): Uint8Array {
  return DNSKEY.wire(key);
}

/** A DNSKEY's RDATA in presentation form, as stored and as BIND prints it: "257 3 13 <base64>". */
export function dnskeyText(key: DnsKey): string {
  return DNSKEY.text(key);
}

/** The key tag (RFC 4034 appendix B) of a DNSKEY. */
export function dnskeyTag(key: DnsKey): number {
  return keyTag(dnskeyWire(key));
}

/**
 * The DS digest of a DNSKEY owned by `owner` (RFC 4034 §5.1.4): digest(owner name in
 * canonical wire form | DNSKEY RDATA), upper-case hex as BIND prints it.
 */
export function dsDigest(owner: string, key: DnsKey, digestType: DigestType): string {
  const data = concatWire(nameWire(owner), dnskeyWire(key));
  // Synchronous (node:crypto, not WebCrypto): a zone's JSON shows its CDS, and presenting is synchronous.
  return hexText(new Uint8Array(createHash(DIGEST_ALGORITHMS[digestType]).update(data).digest()));
}

/** The DS RDATA (RFC 4034 §5.3) of a DNSKEY: "<key tag> <algorithm> <digest type> <digest>". */
export function dsText(owner: string, key: DnsKey, digestType: DigestType): string {
  return `${dnskeyTag(key)} ${key.algorithm} ${digestType} ${dsDigest(owner, key, digestType)}`;
}

/** The records signing adds at a zone's apex. */
export interface SigningApexRecord {
  type: "DNSKEY" | "CDS" | "CDNSKEY";
  content: string;
}

/** A key with the Secure Entry Point flag (257): a KSK or a combined key, the keys a DS names. */
function isEntryPointKey(key: DnsKey): boolean {
  return key.flags === FLAGS_COMBINED_SIGNING_KEY;
}

/**
 * The apex records of a zone whose DNSKEY RRset holds `keys` (docs/dnssec.md): each key's
 * DNSKEY, and for each entry point (flags 257) the CDS (SHA-256, the digest the parent's DS
 * gets) and CDNSKEY that tell a parent which DS to publish (RFC 7344 §4), in the order
 * PowerDNS serves them from the keys (its entry points: packethandler.cc addCDS).
 */
export function signingApexRecords(zone: string, keys: readonly DnsKey[]): SigningApexRecord[] {
  return [
    ...keys.map((key) => ({ type: "DNSKEY" as const, content: dnskeyText(key) })),
    ...keys.filter(isEntryPointKey).map((key) => ({ type: "CDS" as const, content: dsText(zone, key, DIGEST_SHA256) })),
    ...keys.filter(isEntryPointKey).map((key) => ({ type: "CDNSKEY" as const, content: dnskeyText(key) })),
  ];
}

/** The public half of an ECDSA P-256 key as a DNSKEY of this service: flags 257, protocol 3, algorithm 13. */
export function combinedSigningKey(publicKey: Uint8Array): DnsKey {
  return { flags: FLAGS_COMBINED_SIGNING_KEY, protocol: DNSKEY_PROTOCOL, algorithm: ALGORITHM_ECDSAP256SHA256, publicKey };
}
