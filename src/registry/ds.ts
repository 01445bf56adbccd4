// DS data for the parent zone (RFC 5910 §4.1 dsData; RFC 4034 §5.1): which key tags,
// algorithms and digests the registry accepts. Algorithms are those RFC 8624 §3.1 says a
// validator MUST or is RECOMMENDED to support for signing (8 RSASHA256, 10 RSASHA512,
// 13 ECDSAP256SHA256, 14 ECDSAP384SHA384, 15 ED25519, 16 ED448); digests SHA-256 (2) and
// SHA-384 (4) (RFC 8624 §3.3: SHA-1 MUST NOT be used to create DS records).
import type { FieldError } from "./field-error";
import type { DsData } from "./lifecycle";

export const DS_ALGORITHMS = [8, 10, 13, 14, 15, 16] as const;
/** Digest type → hex digits of the digest. */
export const DS_DIGEST_LENGTHS: Readonly<Record<number, number>> = { 2: 64, 4: 96 };
export const DS_MAX_ENTRIES = 8;

/** Each entry's problems at `ds[i].field`, and duplicates; the digests compared uppercase. */
export function dsErrors(entries: readonly DsData[]): FieldError[] {
  const errors: FieldError[] = [];
  if (entries.length > DS_MAX_ENTRIES) errors.push({ field: "ds", message: `at most ${DS_MAX_ENTRIES} DS records` });
  const seen = new Set<string>();
  entries.forEach((ds, i) => {
    const at = `ds[${i}]`;
    if (!Number.isInteger(ds.key_tag) || ds.key_tag < 0 || ds.key_tag > 65535)
      errors.push({ field: `${at}.key_tag`, message: "must be an integer from 0 to 65535" });
    if (!(DS_ALGORITHMS as readonly number[]).includes(ds.algorithm))
      errors.push({ field: `${at}.algorithm`, message: `must be one of ${DS_ALGORITHMS.join(", ")}` });
    const length = DS_DIGEST_LENGTHS[ds.digest_type];
    if (length === undefined) errors.push({ field: `${at}.digest_type`, message: "must be 2 (SHA-256) or 4 (SHA-384)" });
    else if (!new RegExp(`^[0-9a-fA-F]{${length}}$`).test(ds.digest)) {
      errors.push({ field: `${at}.digest`, message: `must be ${length} hexadecimal digits for digest type ${ds.digest_type}` });
    }
    const key = `${ds.key_tag}/${ds.algorithm}/${ds.digest_type}/${ds.digest.toUpperCase()}`;
    if (seen.has(key)) errors.push({ field: at, message: "repeats an earlier DS record" });
    seen.add(key);
  });
  return errors;
}

/** The DS data as stored and shown: digests in uppercase hex. */
export function canonicalDs(entries: readonly DsData[]): DsData[] {
  return entries.map((ds) => ({ key_tag: ds.key_tag, algorithm: ds.algorithm, digest_type: ds.digest_type, digest: ds.digest.toUpperCase() }));
}

/** DS data under an extension whose registry takes none (docs/lifecycle.md: policy). */
export function dsPolicyErrors(entries: readonly DsData[], extension: { id: string; dnssec: boolean }): FieldError[] {
  return entries.length > 0 && !extension.dnssec ? [{ field: "ds", message: `.${extension.id} does not accept DS records (no DNSSEC)` }] : [];
}
