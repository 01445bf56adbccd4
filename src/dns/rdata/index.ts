// RDATA in presentation form (RFC 1035 §5.1 and each type's RFC): parsed into typed
// fields, validated, and written back in one canonical form, so identical data always
// reads the same (names absolute, lower case, with the trailing dot; IPv6 compressed;
// strings quoted), and in wire form. Every table here is built from the one descriptor
// per type (`<type>.ts`); a new type is a new file and its line in RDATA_DESCRIPTORS.
// Any other type BIND does not know either is kept in RFC 3597's generic form (generic.ts).
import { fail, type Check, type RdataResult } from "../result";
import { A } from "./a";
import { AAAA } from "./aaaa";
import { CAA } from "./caa";
import { CDNSKEY } from "./cdnskey";
import { CDS } from "./cds";
import { CERT } from "./cert";
import { CNAME } from "./cname";
import { defineRdata, type RdataDescriptor } from "./descriptor";
import { DNAME } from "./dname";
import { DNSKEY } from "./dnskey";
import { DS } from "./ds";
import { EUI48 } from "./eui48";
import { EUI64 } from "./eui64";
import { countProblem } from "./fields";
import { BIND_TYPE_CODES, genericOctets, genericText, genericTypeCode, isGenericRdata, isMetaType } from "./generic";
import { HINFO } from "./hinfo";
import { LOC } from "./loc";
import { HTTPS } from "./https";
import { MX } from "./mx";
import { NAPTR } from "./naptr";
import { NS } from "./ns";
import { OPENPGPKEY } from "./openpgpkey";
import { PTR } from "./ptr";
import { RP } from "./rp";
import { SMIMEA } from "./smimea";
import { SPF } from "./spf";
import { SRV } from "./srv";
import { SSHFP } from "./sshfp";
import { SVCB } from "./svcb";
import { TLSA } from "./tlsa";
import { tokenizeRdata, type Token } from "./tokens";
import { TXT } from "./txt";
import { URI } from "./uri";
import { wireReader } from "./wire";
import { ZONEMD } from "./zonemd";

/** The record types this service stores, in the order the API lists them. */
const RDATA_DESCRIPTORS = {
  A,
  AAAA,
  CNAME,
  MX,
  NS,
  TXT,
  SRV,
  CAA,
  PTR,
  DS,
  TLSA,
  SSHFP,
  NAPTR,
  SVCB,
  HTTPS,
  DNAME,
  DNSKEY,
  CDS,
  CDNSKEY,
  HINFO,
  RP,
  URI,
  SPF,
  EUI48,
  EUI64,
  LOC,
  CERT,
  OPENPGPKEY,
  SMIMEA,
  ZONEMD,
} as const;

type Descriptors = typeof RDATA_DESCRIPTORS;
export type RecordType = keyof Descriptors;
/** The typed fields of a type's RDATA, as its descriptor's `parse` returns them. */
export type RdataFields<T extends RecordType> = Descriptors[T] extends RdataDescriptor<infer F> ? F : never;

export const RECORD_TYPES = Object.keys(RDATA_DESCRIPTORS) as RecordType[];

const TYPE_SET: ReadonlySet<string> = new Set(RECORD_TYPES);

/** Exact, upper-case match; callers upper-case user input first. */
export function isRecordType(s: string): s is RecordType {
  return TYPE_SET.has(s);
}

/** A type as records store it: one described here, or another by number (RFC 3597 §5). */
export type StoredType = RecordType | `TYPE${number}`;

/** The types a DNSSEC signer adds to a zone; this service signs zones itself (docs/dnssec.md). */
export const SIGNER_TYPES = ["RRSIG", "NSEC", "NSEC3", "NSEC3PARAM"] as const;
export type SignerType = (typeof SIGNER_TYPES)[number];

export type TypeLookup =
  | { ok: true; type: StoredType }
  | { ok: false; kind: "soa" }
  | { ok: false; kind: "signer"; type: SignerType; error: string }
  /** QTYPEs and the like (RFC 6895 §3.1): a question may name them, a zone never holds them. */
  | { ok: false; kind: "meta"; error: string }
  | { ok: false; kind: "refused"; error: string };

const CODE_TO_TYPE = new Map<number, string>(Object.entries(BIND_TYPE_CODES).map(([name, code]) => [code, name]));
const SUPPORTED = `supported: ${RECORD_TYPES.join(", ")}, and any type BIND does not know either as TYPEnnn with RFC 3597 data (\\# length hex)`;

/**
 * What a type written as a mnemonic (any case) or as `TYPEnnn` (RFC 3597 §5) names: a
 * type this service stores (`TYPE1` is A; a number neither it nor BIND knows stays
 * `TYPE65280`), the zone's SOA, a DNSSEC signer's type, or a refusal that says why.
 */
export function recordTypeOf(input: string): TypeLookup {
  const upper = input.toUpperCase();
  const code = genericTypeCode(upper);
  const name = code === null ? upper : (CODE_TO_TYPE.get(code) ?? null);
  if (name === null) {
    return isMetaType(code!)
      ? { ok: false, kind: "meta", error: `${input} is a meta-type (RFC 6895 §3.1), never data in a zone` }
      : { ok: true, type: `TYPE${code!}` };
  }
  if (isRecordType(name)) return { ok: true, type: name };
  if (name === "SOA") return { ok: false, kind: "soa" };
  if ((SIGNER_TYPES as readonly string[]).includes(name)) {
    const type = name as SignerType;
    return {
      ok: false,
      kind: "signer",
      type,
      error: `${type} records are what a DNSSEC signer adds to a zone; this service signs zones itself and keeps no ${type} records`,
    };
  }
  const known = BIND_TYPE_CODES[name];
  const written = name === upper ? name : `${upper} (${name})`;
  if (known !== undefined && isMetaType(known)) return { ok: false, kind: "meta", error: `${written} is a meta-type (RFC 6895 §3.1), never data in a zone` };
  if (known !== undefined) return { ok: false, kind: "refused", error: `record type ${name} (${known}) is not supported; ${SUPPORTED}` };
  return {
    ok: false,
    kind: "refused",
    error: `${JSON.stringify(input.length > 40 ? `${input.slice(0, 40)}…` : input)} is not a supported record type; ${SUPPORTED}`,
  };
}

/** The code of a stored type (RFC 6895 registry). */
export function typeCode(type: StoredType): number {
  return isRecordType(type) ? RDATA_DESCRIPTORS[type].code : genericTypeCode(type)!;
}

function table<V>(value: (descriptor: RdataDescriptor<unknown>) => V): Record<RecordType, V> {
  return Object.fromEntries(RECORD_TYPES.map((type) => [type, value(descriptorOf(type))])) as Record<RecordType, V>;
}

/**
 * A type's descriptor with its fields erased: parse, text, wire and names still agree with
 * each other, which is all the functions below need.
 */
function descriptorOf(type: StoredType): RdataDescriptor<unknown> {
  if (isRecordType(type)) return RDATA_DESCRIPTORS[type] as RdataDescriptor<never> as RdataDescriptor<unknown>;
  return genericDescriptor(type);
}

/** A type neither this service nor BIND knows: its RDATA is octets, kept as they are (RFC 3597). */
function genericDescriptor(type: string): RdataDescriptor<unknown> {
  return defineRdata<Uint8Array>({
    type,
    code: genericTypeCode(type) ?? 0,
    shape: "RDATA in RFC 3597's generic form",
    example: "\\# 4 0A000001",
    tokens: { min: 1, max: Number.POSITIVE_INFINITY },
    parse: (tokens) =>
      isGenericRdata(tokens)
        ? genericOctets(tokens, type)
        : fail(`${type} is a type this service knows only by number: write its RDATA as \\# length hex (RFC 3597 §5), e.g. \\# 4 0A000001`),
    text: genericText,
    wire: (octets) => octets,
    names: () => [],
    fromWire: (r) => genericText(r.rest()),
  }) as RdataDescriptor<unknown>;
}

/** The IANA type codes, which fix the canonical order of RRsets at one owner (RFC 4034 §6.3). */
export const RECORD_TYPE_CODES: Record<RecordType, number> = table((d) => d.code);

/** One valid, canonical content per type (for API docs, tests and error messages). */
export const rdataExamples: Record<RecordType, string> = table((d) => d.example);

function originName(origin: string | null): string | null {
  if (origin === null) return null;
  return (origin.endsWith(".") ? origin.slice(0, -1) : origin).toLowerCase();
}

function parseWith(descriptor: RdataDescriptor<unknown>, text: string, origin: string | null): Check<unknown> {
  // Plain text (TXT in JSON) unless it is quoted, or RFC 3597's generic form (`\# 0`).
  if (descriptor.parseText && origin === null && !/^\s*(?:"|\\#(?:\s|$))/.test(text)) return descriptor.parseText(text);
  const tokens = tokenizeRdata(text);
  if (!tokens.ok) return fail(`${descriptor.type} content: ${tokens.error}`);
  return parseTokensWith(descriptor, tokens.value, originName(origin));
}

function parseTokensWith(descriptor: RdataDescriptor<unknown>, tokens: Token[], origin: string | null): Check<unknown> {
  if (isGenericRdata(tokens) && isRecordType(descriptor.type)) return parseGenericOfKnown(descriptor, tokens);
  const problem = countProblem(descriptor, tokens);
  if (problem) return fail(problem);
  return descriptor.parse(tokens, origin);
}

/**
 * RDATA of a known type given in generic form (`A \# 4 C0000201`, RFC 3597 §5): read from
 * its octets into the type's presentation form, then checked like any other, as BIND
 * does; it is stored in the type's own canonical form.
 */
function parseGenericOfKnown(descriptor: RdataDescriptor<unknown>, tokens: Token[]): Check<unknown> {
  const { type } = descriptor;
  const octets = genericOctets(tokens, type);
  if (!octets.ok) return octets;
  const reader = wireReader(octets.value);
  const text = descriptor.fromWire(reader);
  if (reader.failure !== null) return fail(`generic ${type} RDATA: ${reader.failure}`);
  if (reader.left > 0) return fail(`generic ${type} RDATA has ${reader.left} octets more than ${type} holds`);
  const presented = tokenizeRdata(text);
  if (!presented.ok || isGenericRdata(presented.value)) return fail(`generic ${type} RDATA is not valid ${type} data`);
  const fields = parseTokensWith(descriptor, presented.value, null);
  return fields.ok ? fields : fail(`generic ${type} RDATA: ${fields.error}`);
}

function canonical(descriptor: RdataDescriptor<unknown>, fields: Check<unknown>): RdataResult {
  return fields.ok ? { ok: true, content: descriptor.text(fields.value) } : fields;
}

/**
 * The canonical presentation form of `text` as RDATA of `type`, or why it is not valid.
 *
 * `origin === null` is the JSON API's reading: every name inside the content is
 * absolute, dot or no dot, and "@" means nothing; a TXT content that does not start
 * with a quote is plain text (spaces kept, no escapes), split into 255-octet strings.
 * With an origin (master-file reading, RFC 1035 §5.1) names without a trailing dot are
 * relative to it, "@" is the origin, and each TXT token is one string. Either way `;`
 * and parentheses are data here: comments and line continuation belong to the master
 * file, which tokenizes itself and calls `canonicalRdataTokens`.
 */
export function canonicalRdata(type: StoredType, text: string, origin: string | null): RdataResult {
  const descriptor = descriptorOf(type);
  return canonical(descriptor, parseWith(descriptor, text, origin));
}

/** As `canonicalRdata`, for RDATA already split into tokens; `origin` without a trailing dot. */
export function canonicalRdataTokens(type: StoredType, tokens: Token[], origin: string | null): RdataResult {
  const descriptor = descriptorOf(type);
  return canonical(descriptor, parseTokensWith(descriptor, tokens, origin));
}

/** RDATA of `type` as typed fields; `text` and `origin` read as in `canonicalRdata`. */
export function parseRdata<T extends RecordType>(type: T, text: string, origin: string | null): Check<RdataFields<T>> {
  return parseWith(descriptorOf(type), text, origin) as Check<RdataFields<T>>;
}

/**
 * The wire form of canonical RDATA (as stored), in DNSSEC canonical form (RFC 4034 §6.2:
 * names uncompressed, lower case), for digests and signatures.
 */
export function rdataWire(type: StoredType, content: string): Check<Uint8Array> {
  const descriptor = descriptorOf(type);
  const fields = parseWith(descriptor, content, null);
  return fields.ok ? { ok: true, value: descriptor.wire(fields.value) } : fields;
}

/**
 * The domain names a canonical RDATA refers to (absolute, without the trailing dot; the
 * root "." left out): CNAME/NS/PTR/DNAME targets, MX exchange, SRV/SVCB/HTTPS target,
 * NAPTR replacement. Other types hold no names.
 */
export function rdataNames(type: StoredType, content: string): string[] {
  const descriptor = descriptorOf(type);
  const fields = parseWith(descriptor, content, null);
  return fields.ok ? descriptor.names(fields.value) : [];
}
