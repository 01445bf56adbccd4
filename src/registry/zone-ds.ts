// Whether a domain's DS set, what the parent publishes for it (RFC 5910 §4.1 dsData),
// refers to keys of a zone hosted here: while it does, the zone's keys must stay (RFC 6781
// §4.1.4: the DS goes first, then the key), so turning signing off and deleting the zone
// are refused (docs/dnssec.md).
import { type DigestType, DIGEST_SHA1, DIGEST_SHA256, DIGEST_SHA384, dnskeyTag, dsDigest } from "../dns/dnssec/keys";
import type { DnsKey } from "../dns/rdata/dnskey";
import type { DsData } from "./lifecycle";

const COMPUTED_DIGEST_TYPES: readonly number[] = [DIGEST_SHA1, DIGEST_SHA256, DIGEST_SHA384];

/**
 * The first DS of `domainDs` that refers to one of `keys` of the zone `owner` (RFC 4034
 * §5.1: its key tag, algorithm and digest match the key's), or undefined. A DS of a digest
 * type this service does not compute refers to none of them.
 */
export function dsOfZoneKeys(owner: string, domainDs: readonly DsData[], keys: readonly DnsKey[]): DsData | undefined {
  return domainDs.find(
    (ds) =>
      COMPUTED_DIGEST_TYPES.includes(ds.digest_type) &&
      keys.some(
        (key) =>
          key.algorithm === ds.algorithm && dnskeyTag(key) === ds.key_tag && dsDigest(owner, key, ds.digest_type as DigestType) === ds.digest.toUpperCase(),
      ),
  );
}
