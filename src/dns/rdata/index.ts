// RDATA in presentation form (RFC 1035 §5.1 and each type's RFC): parsed into typed
// fields, validated, and written back in one canonical form, so identical data always
// reads the same (names absolute, lower case, with the trailing dot; IPv6 compressed;
// strings quoted), and in wire form. Every table here is built from the one descriptor
// per type (`<type>.ts`); a new type is a new file and its line in RDATA_DESCRIPTORS.
import { fail, type Check, type RdataResult } from "../result";
import { A } from "./a";
import { AAAA } from "./aaaa";
import { CAA } from "./caa";
import { CDNSKEY } from "./cdnskey";
import { CDS } from "./cds";
import { CERT } from "./cert";
import { CNAME } from "./cname";
import type { RdataDescriptor } from "./descriptor";
import { DNAME } from "./dname";
import { DNSKEY } from "./dnskey";
import { DS } from "./ds";
import { EUI48 } from "./eui48";
import { EUI64 } from "./eui64";
import { countProblem } from "./fields";
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
import { ZONEMD } from "./zonemd";

export type { RdataDescriptor } from "./descriptor";
export { keyTag } from "./dnskey";
export { nameWire } from "./wire";
export type { RdataResult } from "../result";
export type { Token } from "./tokens";

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

function table<V>(value: (descriptor: RdataDescriptor<unknown>) => V): Record<RecordType, V> {
  return Object.fromEntries(RECORD_TYPES.map((type) => [type, value(descriptorOf(type))])) as Record<RecordType, V>;
}

/**
 * A type's descriptor with its fields erased: parse, text, wire and names still agree with
 * each other, which is all the functions below need.
 */
function descriptorOf(type: RecordType): RdataDescriptor<unknown> {
  return RDATA_DESCRIPTORS[type] as RdataDescriptor<never> as RdataDescriptor<unknown>;
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
  if (descriptor.parseText && origin === null && !text.trimStart().startsWith('"')) return descriptor.parseText(text);
  const tokens = tokenizeRdata(text);
  if (!tokens.ok) return fail(`${descriptor.type} content: ${tokens.error}`);
  return parseTokensWith(descriptor, tokens.value, originName(origin));
}

function parseTokensWith(descriptor: RdataDescriptor<unknown>, tokens: Token[], origin: string | null): Check<unknown> {
  const first = tokens[0];
  if (first && !first.quoted && first.raw === "\\#") {
    return fail(`generic RDATA (\\# …, RFC 3597) is not supported; write ${descriptor.type} data in its own presentation form`);
  }
  const problem = countProblem(descriptor, tokens);
  if (problem) return fail(problem);
  return descriptor.parse(tokens, origin);
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
export function canonicalRdata(type: RecordType, text: string, origin: string | null): RdataResult {
  const descriptor = descriptorOf(type);
  return canonical(descriptor, parseWith(descriptor, text, origin));
}

/** As `canonicalRdata`, for RDATA already split into tokens; `origin` without a trailing dot. */
export function canonicalRdataTokens(type: RecordType, tokens: Token[], origin: string | null): RdataResult {
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
export function rdataWire(type: RecordType, content: string): Check<Uint8Array> {
  const descriptor = descriptorOf(type);
  const fields = parseWith(descriptor, content, null);
  return fields.ok ? { ok: true, value: descriptor.wire(fields.value) } : fields;
}

/**
 * The domain names a canonical RDATA refers to (absolute, without the trailing dot; the
 * root "." left out): CNAME/NS/PTR/DNAME targets, MX exchange, SRV/SVCB/HTTPS target,
 * NAPTR replacement. Other types hold no names.
 */
export function rdataNames(type: RecordType, content: string): string[] {
  const descriptor = descriptorOf(type);
  const fields = parseWith(descriptor, content, null);
  return fields.ok ? descriptor.names(fields.value) : [];
}
