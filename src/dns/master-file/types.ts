// The shapes a master file is read into and written from.
import type { StoredType } from "../rdata";

export interface SoaFields {
  /** Primary name server, lower-case A-labels, no trailing dot; "." for none (the root). */
  mname: string;
  /** Responsible mailbox as a name (`hostmaster.example.com`), no trailing dot. */
  rname: string;
  serial: number;
  refresh: number;
  retry: number;
  expire: number;
  minimum: number;
}

export interface MasterFileRecord {
  /** 1-based line the record starts on. */
  line: number;
  /** Owner name: absolute, lower case, no trailing dot. */
  fqdn: string;
  type: StoredType;
  ttl: number;
  /** Canonical RDATA, as `canonicalRdata` returns it. */
  content: string;
}

export interface ParsedMasterFile {
  /** The zone's name (its apex), no trailing dot. */
  origin: string;
  /** The first $TTL in the file, if any. */
  defaultTtl: number | null;
  soa: (SoaFields & { ttl: number }) | null;
  /** Every record except the SOA, in file order, duplicates left out. */
  records: MasterFileRecord[];
  /** What was read but changed or left out, and why (RRset TTLs aligned, a signer's records dropped). */
  warnings: MasterFileError[];
}

/** `line` is 1-based; 0 means the problem concerns the file as a whole. */
export interface MasterFileError {
  line: number;
  message: string;
}

/** `tooManyRecords`: the file holds more records than the caller's `maxRecords` (then the only error says so). */
export type MasterFileResult = { ok: true; zone: ParsedMasterFile } | { ok: false; errors: MasterFileError[]; tooManyRecords?: true };

export interface ZoneToRender {
  /** The zone's name, no trailing dot. */
  name: string;
  defaultTtl: number;
  soa: SoaFields;
  /** TTL of the SOA record; the zone's default TTL when absent. */
  soaTtl?: number;
  records: {
    /** Owner relative to the zone, "@" for the apex. */
    name: string;
    type: string;
    ttl: number;
    /** Canonical RDATA (names absolute, so they read the same under any $ORIGIN). */
    content: string;
  }[];
}
