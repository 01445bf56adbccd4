// The record types this service stores, with their IANA type codes (RFC 6895 registry),
// which fix the canonical order of RRsets at one owner (RFC 4034 §6.3 sorts by code).

export const RECORD_TYPES = ["A", "AAAA", "CNAME", "MX", "NS", "TXT", "SRV", "CAA", "PTR", "DS", "TLSA", "SSHFP", "NAPTR", "SVCB", "HTTPS", "DNAME"] as const;

export type RecordType = (typeof RECORD_TYPES)[number];

export const RECORD_TYPE_CODES: Record<RecordType, number> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  PTR: 12,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
  NAPTR: 35,
  DNAME: 39,
  DS: 43,
  SSHFP: 44,
  TLSA: 52,
  SVCB: 64,
  HTTPS: 65,
  CAA: 257,
};

const TYPE_SET: ReadonlySet<string> = new Set(RECORD_TYPES);

/** Exact, upper-case match; callers upper-case user input first. */
export function isRecordType(s: string): s is RecordType {
  return TYPE_SET.has(s);
}
