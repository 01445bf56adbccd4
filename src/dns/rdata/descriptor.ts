// One record type, defined once (in the manner of dnspython's and miekg/dns's
// one-definition-per-type): its code, how its presentation form (RFC 1035 §5.1 and the
// type's RFC) reads into typed fields, the canonical text and wire form of those fields,
// and the names they refer to. `src/dns/rdata/index.ts` builds every table from these.
import type { Check } from "../result";
import type { Token } from "./tokens";
import type { WireReader } from "./wire";

export interface RdataDescriptor<Fields> {
  /** The mnemonic, upper case, as the IANA registry spells it. */
  readonly type: string;
  /** The type code (RFC 6895 registry); RRsets at one owner sort by it (RFC 4034 §6.3). */
  readonly code: number;
  /** What the fields are, for messages: "a preference and a mail server name". */
  readonly shape: string;
  /** One valid content, already canonical: docs, tests and messages show it. */
  readonly example: string;
  /** How many presentation tokens the RDATA takes (`max` defaults to `min`). */
  readonly tokens: { readonly min: number; readonly max?: number };
  /**
   * Reads the tokens (their count already checked) into typed fields. `origin` is the
   * master file's origin (no trailing dot, "" for the root) that relative names extend,
   * or null in the JSON API, where every name is absolute dot or no dot.
   */
  parse(tokens: Token[], origin: string | null): Check<Fields>;
  /**
   * Reads content written as plain text in the JSON API (no leading quote), for the types
   * whose RDATA is text (TXT): the whole text is the data, escapes and all.
   */
  parseText?(text: string): Check<Fields>;
  /** The canonical presentation form: identical data always reads the same. */
  text(fields: Fields): string;
  /**
   * The RDATA on the wire (RFC 1035 §3.3 and the type's RFC), in the DNSSEC canonical
   * form (RFC 4034 §6.2): names uncompressed and lower case.
   */
  wire(fields: Fields): Uint8Array;
  /** The domain names the RDATA refers to: absolute, no trailing dot, the root left out. */
  names(fields: Fields): string[];
  /**
   * The presentation form (names absolute) of RDATA given in wire form, as RFC 3597 §5
   * allows for any type (`A \# 4 C0000201`); `parse` then validates it like any other.
   * The caller checks that the reader did not fail and consumed every octet.
   */
  fromWire(wire: WireReader): string;
}

/** Types the descriptor's fields from its `parse`, so each type file needs no annotations. */
export function defineRdata<Fields>(descriptor: RdataDescriptor<Fields>): RdataDescriptor<Fields> {
  return descriptor;
}

/** A name field (absolute, with its trailing dot) as `names` lists it, or nothing for the root. */
export function referencedName(name: string): string[] {
  return name === "." ? [] : [name.slice(0, -1)];
}
