// Between the rollover engine's key ids (rollover.ts) and the records the parent and the
// apex carry: the DS records a wanted set becomes, which of the zone's keys a DS set the
// parent shows names, and the CDS/CDNSKEY records a CDS set becomes (RFC 7344 §4, RFC 8078 §4).
import type { DnsKey } from "../rdata/dnskey";
import { DIGEST_SHA1, DIGEST_SHA256, DIGEST_SHA384, type DigestType, dnskeyTag, dnskeyText, dsDigest, dsText } from "./keys";
import { CDNSKEY_DELETE, CDS_DELETE, type CdsSet, cdsOf, type DsState, isPublished, type KeyState, type ParentDs, type SigningProcess } from "./rollover";

/** A key of the engine with its public half. */
export interface KeyWithDnskey {
  id: string;
  dnskey: DnsKey;
}

/** A DS record's fields (RFC 4034 §5.1; RFC 5910's dsData). */
export interface DsFields {
  key_tag: number;
  algorithm: number;
  digest_type: number;
  digest: string;
}

const COMPUTED: readonly number[] = [DIGEST_SHA1, DIGEST_SHA256, DIGEST_SHA384];

/**
 * The DS records to submit for the wanted keys: SHA-256 only, the digest every validator
 * supports (RFC 8624 §3.3) and what the one-click DS already publishes (docs/dnssec.md).
 */
export function dsRecordsOf(owner: string, wanted: readonly string[], keys: readonly KeyWithDnskey[]): DsFields[] {
  return wanted.flatMap((id) => {
    const key = keys.find((k) => k.id === id);
    if (!key) return [];
    return [
      { key_tag: dnskeyTag(key.dnskey), algorithm: key.dnskey.algorithm, digest_type: DIGEST_SHA256, digest: dsDigest(owner, key.dnskey, DIGEST_SHA256) },
    ];
  });
}

/**
 * Which of `keys` a DS set at the parent names (tag, algorithm and digest all match: RFC 4034
 * §5.1), and how many of its records name none of them (another key's, a digest type not
 * computed here). What `dsSeen` takes.
 */
export function parentDsKeys(owner: string, keys: readonly KeyWithDnskey[], ds: readonly DsFields[]): ParentDs {
  const named = new Set<string>();
  let unknown = 0;
  for (const record of ds) {
    const key = COMPUTED.includes(record.digest_type)
      ? keys.find(
          (k) =>
            k.dnskey.algorithm === record.algorithm &&
            dnskeyTag(k.dnskey) === record.key_tag &&
            dsDigest(owner, k.dnskey, record.digest_type as DigestType) === record.digest.toUpperCase(),
        )
      : undefined;
    if (key) named.add(key.id);
    else unknown++;
  }
  return { keys: keys.filter((k) => named.has(k.id)).map((k) => k.id), unknown };
}

/** The CDS (SHA-256) and CDNSKEY records of a CDS set, in presentation form. */
export function cdsRecords(owner: string, cds: CdsSet, keys: readonly KeyWithDnskey[]): { type: "CDS" | "CDNSKEY"; content: string }[] {
  if (cds.kind === "none") return [];
  if (cds.kind === "delete") {
    return [
      { type: "CDS", content: CDS_DELETE },
      { type: "CDNSKEY", content: CDNSKEY_DELETE },
    ];
  }
  const named = keys.filter((k) => cds.keys.includes(k.id));
  return [
    ...named.map((k) => ({ type: "CDS" as const, content: dsText(owner, k.dnskey, DIGEST_SHA256) })),
    ...named.map((k) => ({ type: "CDNSKEY" as const, content: dnskeyText(k.dnskey) })),
  ];
}

/** A live key as the apex shows it: its public half, its state and its DS state. */
export interface ApexKey extends KeyWithDnskey {
  state: KeyState;
  ds: DsState;
}

/**
 * The records signing adds at the apex, as the tier serves them and the zone's JSON shows
 * them: each published key's DNSKEY, then the CDS (SHA-256) and CDNSKEY of the zone's CDS
 * set (`cdsOf`: the DS set the parent must show, or RFC 8078's delete while the zone leaves
 * DNSSEC).
 */
export function apexSigningRecords(owner: string, keys: readonly ApexKey[], rollover: Pick<SigningProcess, "kind"> | null) {
  return [
    ...keys.filter(isPublished).map((k) => ({ type: "DNSKEY" as const, content: dnskeyText(k.dnskey) })),
    ...cdsRecords(owner, cdsOf(keys, rollover), keys),
  ];
}

/**
 * What the parent's name servers say of a zone's DS RRset (parent-servers.ts): the set all
 * of them show (none: empty), or why nothing is concluded.
 */
export type ParentAnswer = { kind: "ds"; records: DsFields[] } | { kind: "unavailable"; reason: string };
