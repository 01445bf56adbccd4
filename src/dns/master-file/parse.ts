// Reading a zone from an RFC 1035 §5 master file. Every bad line is reported with the
// line it starts on and a reason (one reason per line), and nothing is thrown: the
// result is either the whole zone or the list of problems.
//
// Choices where the RFCs leave room (BIND's behaviour unless said otherwise):
// - A record without a TTL takes the $TTL in effect (RFC 2308 §4); without one, the
//   previous record's TTL (RFC 1035 §5.1); the SOA, when it comes first, its MINIMUM.
//   With none of these the line is refused.
// - The zone's name is the `origin` option when given, else the $ORIGIN in effect at
//   the first record (or, under `$ORIGIN .` as named-compilezone writes, the owner of
//   a leading SOA). A record whose owner is outside it is left out with a warning, as
//   BIND ignores out-of-zone data.
// - Only class IN (CLASS1 is IN, RFC 3597 §5); $INCLUDE and `\`-escapes in names are
//   refused with a reason. $GENERATE is expanded as BIND expands it (generate.ts), each
//   record it makes counted like a record of the file, at most MAX_GENERATED_RECORDS a
//   line. Types by number and generic RDATA (RFC 3597) as rdata/generic.ts says.
// - What BIND loads with a warning loads here with one: DS, CDS, DNSKEY and CDNSKEY with
//   an algorithm or digest RFC 8624 deprecates (rdata/dnssec-deprecated.ts), and a TXT
//   or SPF string written unquoted and longer than 255 octets (split into strings of 255).
// - Identical records (same owner, type and RDATA) count once (RFC 2181 §5); so does an
//   identical second SOA, as AXFR output ends with. A record whose TTL differs from its
//   RRset's takes the RRset's first TTL, with a warning (RFC 2181 §5.2; BIND does the same).
// - What a DNSSEC signer adds (RRSIG, NSEC, NSEC3, NSEC3PARAM) is read, then dropped with
//   a warning: this service signs zones itself (docs/dnssec.md).
// - The zone obeys the API's rules (a CNAME alone and not at the apex, no DS at the apex,
//   BIND's check-names) and BIND's integrity checks (zone-integrity.ts), so no import
//   holds a zone BIND would refuse.
import { isWithin, normalizeName } from "../name";
import { canonicalRdataTokens, rdataNames, rdataWire, recordTypeOf } from "../rdata";
import type { Token } from "../rdata/tokens";
import { signerRdataProblem, nsec3OwnerProblem } from "../rdata/dnssec-signed";
import { nameField, uintField } from "../rdata/fields";
import { BIND_TYPE_CODES } from "../rdata/generic";
import { fail, ok, show, type Check } from "../result";
import { apexProblem, coexistenceProblem, MAX_RRSET_WIRE_OCTETS, ownerNameProblem, rrsetSizeProblem, rrsetWireOctets, targetNameProblem } from "../rrset-rules";
import { integrityProblems } from "../zone-integrity";
import { looksLikeTtl, parseTtl } from "../ttl";
import { deprecatedDnssecWarning, longStringWarning } from "../rdata/dnssec-deprecated";
import { expandGenerateText, generatedCount, parseGenerateRange } from "./generate";
import { createLexer, readEntry, type Entry } from "./lexer";
import type { MasterFileError, MasterFileRecord, MasterFileResult, SoaFields } from "./types";

/** After this many problems the reader stops: a hostile file must not grow the answer without end. */
export const MAX_REPORTED_ERRORS = 1000;

/**
 * The most records one $GENERATE line may make: more is an absurd range, refused before
 * any is made (the file's record limit, `maxRecords`, counts the records it makes too).
 */
export const MAX_GENERATED_RECORDS = 65_536;

interface ReadState {
  zone: string | null;
  origin: string | null;
  /** $TTL in effect. */
  defaultTtl: number | null;
  firstDefaultTtl: number | null;
  previousTtl: number | null;
  previousOwner: string | null;
  /** The previous owner was refused: lines that repeat it need no second complaint. */
  previousOwnerRefused: boolean;
  soa: (SoaFields & { ttl: number }) | null;
  soaLine: number;
  records: MasterFileRecord[];
  errors: MasterFileError[];
  /** What was read but changed or left out, and why. */
  warnings: MasterFileError[];
  /** The first line and count of each signer type dropped. */
  dropped: Map<string, { line: number; count: number }>;
  stopped: boolean;
  /** The caller's bound on records read (`maxRecords`); past it the reader stops. */
  maxRecords: number;
  /** Line of the first record over `maxRecords`, once one is met. */
  overLimitLine: number | null;
}

function warn(state: ReadState, line: number, message: string): void {
  if (state.warnings.length < MAX_REPORTED_ERRORS) state.warnings.push({ line, message });
  else if (state.warnings.length === MAX_REPORTED_ERRORS)
    state.warnings.push({ line, message: `more than ${MAX_REPORTED_ERRORS} warnings; the rest are not listed` });
}

function report(state: ReadState, line: number, message: string): void {
  if (state.stopped) return;
  state.errors.push({ line, message });
  if (state.errors.length >= MAX_REPORTED_ERRORS) {
    state.errors.push({ line, message: `more than ${MAX_REPORTED_ERRORS} problems; stopped reading here` });
    state.stopped = true;
  }
}

/**
 * `maxRecords`: stop reading at the first record past this many (duplicates counted), and
 * answer `tooManyRecords`: what a reader holds grows with the records it keeps, so a
 * caller with a memory budget bounds them as well as the bytes.
 */
export function parseMasterFile(text: string, options: { origin?: string; maxRecords?: number } = {}): MasterFileResult {
  const state = initialState();
  state.maxRecords = options.maxRecords ?? Number.POSITIVE_INFINITY;
  if (options.origin !== undefined) {
    const zone = normalizeName(options.origin, { underscore: true });
    if (!zone.ok) return { ok: false, errors: [{ line: 0, message: `the zone name ${show(options.origin)}: ${zone.error}` }] };
    state.zone = state.origin = zone.name;
  }
  const lexer = createLexer(text);
  for (let entry = readEntry(lexer); entry !== null && !state.stopped; entry = readEntry(lexer)) readEntryInto(state, entry);
  if (state.overLimitLine !== null) {
    return { ok: false, tooManyRecords: true, errors: [{ line: state.overLimitLine, message: `more than ${state.maxRecords} records; stopped reading here` }] };
  }
  const zone = state.zone ?? (state.origin || null);
  if (zone === null && !state.stopped) {
    report(state, 0, "the zone's name is unknown: add a $ORIGIN line or give the zone name");
  }
  if (zone === null || state.stopped) return { ok: false, errors: state.errors };
  const records = settleRrsets(state, zone);
  droppedWarnings(state);
  // The RRset checks come after the line checks; report in line order all the same.
  if (state.errors.length > 0) return { ok: false, errors: state.errors.sort((a, b) => a.line - b.line) };
  return {
    ok: true,
    zone: { origin: zone, defaultTtl: state.firstDefaultTtl, soa: state.soa, records, warnings: state.warnings.sort((a, b) => a.line - b.line) },
  };
}

function initialState(): ReadState {
  return {
    zone: null,
    origin: null,
    defaultTtl: null,
    firstDefaultTtl: null,
    previousTtl: null,
    previousOwner: null,
    previousOwnerRefused: false,
    soa: null,
    soaLine: 0,
    records: [],
    errors: [],
    warnings: [],
    dropped: new Map(),
    stopped: false,
    maxRecords: Number.POSITIVE_INFINITY,
    overLimitLine: null,
  };
}

function readEntryInto(state: ReadState, entry: Entry): void {
  if (entry.error !== null) {
    report(state, entry.line, entry.error);
    // Its owner cannot be trusted; do not blame the lines that repeat it.
    if (!entry.blankOwner) markOwnerRefused(state);
    return;
  }
  const first = entry.tokens[0]!;
  if (!first.quoted && first.raw.startsWith("$")) readDirective(state, entry);
  else readRecord(state, entry);
}

function markOwnerRefused(state: ReadState): void {
  state.previousOwner = null;
  state.previousOwnerRefused = true;
}

function readDirective(state: ReadState, entry: Entry): void {
  const [directive, ...args] = entry.tokens as [Token, ...Token[]];
  const name = directive.raw.toUpperCase();
  switch (name) {
    case "$ORIGIN": {
      if (args.length !== 1) return report(state, entry.line, "$ORIGIN takes one domain name");
      const origin = originName(args[0]!, state.origin);
      if (!origin.ok) return report(state, entry.line, origin.error);
      state.origin = origin.value;
      return;
    }
    case "$TTL": {
      if (args.length !== 1 || args[0]!.quoted) return report(state, entry.line, "$TTL takes one TTL");
      const ttl = parseTtl(args[0]!.raw, "$TTL");
      if (!ttl.ok) return report(state, entry.line, ttl.error);
      state.defaultTtl = ttl.value;
      state.firstDefaultTtl ??= ttl.value;
      return;
    }
    case "$INCLUDE":
      return report(state, entry.line, "$INCLUDE is not supported: send the whole zone as one file");
    case "$GENERATE":
      return readGenerate(state, entry);
    default:
      return report(state, entry.line, `unknown directive ${show(directive.raw)} (known: $ORIGIN, $TTL)`);
  }
}

/** The new origin; "" is the root, which `named-compilezone` output starts from (`$ORIGIN .`). */
function originName(token: Token, current: string | null): Check<string> {
  const raw = token.raw;
  if (token.quoted || raw.includes("\\")) return fail(`$ORIGIN ${show(raw)} is not a plain domain name`);
  if (raw === ".") return ok("");
  if (!raw.endsWith(".") && current === null) return fail(`$ORIGIN ${show(raw)} is relative, and there is no origin yet to append; end it with a dot`);
  const name = normalizeName(raw.endsWith(".") ? raw : `${raw}.${current}`, { underscore: true });
  return name.ok ? ok(name.name) : fail(`$ORIGIN ${show(raw)}: ${name.error}`);
}

function ownerName(token: Token, origin: string): Check<string> {
  const raw = token.raw;
  if (token.quoted) return fail("an owner name cannot be a quoted string");
  if (raw === "@") return origin === "" ? fail('owner name "@" is the root here ($ORIGIN .)') : ok(origin);
  if (raw.includes("\\")) return fail(`owner name ${show(raw)}: escaped characters in names (such as \\.) are not supported`);
  const name = normalizeName(raw.endsWith(".") ? raw : `${raw}.${origin}`, { underscore: true, wildcard: true });
  return name.ok ? ok(name.name) : fail(`owner name ${show(raw)}: ${name.error}`);
}

/** The owner of the entry, or null when it is refused (and reported, if it is this line's fault). */
function entryOwner(state: ReadState, entry: Entry, origin: string): string | null {
  if (entry.blankOwner) {
    if (state.previousOwner === null && !state.previousOwnerRefused) {
      report(state, entry.line, "the line starts with white space (repeat the previous owner), but no record comes before it");
    }
    return state.previousOwner;
  }
  const owner = ownerName(entry.tokens[0]!, origin);
  if (!owner.ok) {
    report(state, entry.line, owner.error);
    markOwnerRefused(state);
    return null;
  }
  state.previousOwner = owner.value;
  state.previousOwnerRefused = false;
  return owner.value;
}

interface RecordHead {
  ttl: number | null;
  /** Index of the type token. */
  typeAt: number;
}

/** The optional TTL and class, in either order (RFC 1035 §5.1). */
function readTtlAndClass(tokens: Token[], start: number): Check<RecordHead> {
  let ttl: number | null = null;
  let sawClass = false;
  let i = start;
  for (; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.quoted) break;
    if (looksLikeTtl(token.raw)) {
      if (ttl !== null) return fail("the record has two TTLs");
      const parsed = parseTtl(token.raw);
      if (!parsed.ok) return parsed;
      ttl = parsed.value;
      continue;
    }
    const recordClass = className(token.raw);
    if (recordClass === null) break;
    if (sawClass) return fail("the record has two classes");
    if (recordClass !== "IN") return fail(`only class IN is supported, not ${recordClass}`);
    sawClass = true;
  }
  return ok({ ttl, typeAt: i });
}

function className(raw: string): string | null {
  const upper = raw.toUpperCase();
  if (/^(IN|CH|CS|HS|NONE|ANY)$/.test(upper)) return upper;
  const generic = /^CLASS([0-9]{1,5})$/.exec(upper);
  if (!generic) return null;
  // RFC 3597 §5: CLASSnn is another spelling of a known class.
  const known: Record<string, string> = { "1": "IN", "3": "CH", "4": "HS" };
  return known[String(Number(generic[1]))] ?? upper;
}

/**
 * Fixes the zone's name at the first record: the $ORIGIN in effect, or, when that is
 * the root (`$ORIGIN .` as `named-compilezone` writes), the owner of a leading SOA.
 */
function settleZoneName(state: ReadState, entry: Entry): string | null {
  if (state.zone !== null) return state.zone;
  if (state.origin === "" && !entry.blankOwner) {
    const soaAt = entry.tokens.findIndex((t, i) => i > 0 && !t.quoted && t.raw.toUpperCase() === "SOA");
    const owner = soaAt > 0 ? ownerName(entry.tokens[0]!, "") : null;
    if (owner?.ok) state.zone = owner.value;
  } else if (state.origin) state.zone = state.origin;
  if (state.zone === null) {
    report(state, entry.line, "the zone's name is unknown: add a $ORIGIN line before the first record, or give the zone name");
    state.stopped = true;
  }
  return state.zone;
}

function readRecord(state: ReadState, entry: Entry): void {
  const zone = settleZoneName(state, entry);
  if (zone === null) return;
  const origin = state.origin ?? zone;
  const owner = entryOwner(state, entry, origin);
  if (owner === null) return;
  const head = readTtlAndClass(entry.tokens, entry.blankOwner ? 0 : 1);
  if (!head.ok) return report(state, entry.line, head.error);
  const typeToken = entry.tokens[head.value.typeAt];
  if (!typeToken) return report(state, entry.line, "the record has no type");
  if (!isWithin(owner, zone)) return warn(state, entry.line, `${owner} is outside the zone ${zone}: left out, as BIND ignores out-of-zone data`);
  const rdata = entry.tokens.slice(head.value.typeAt + 1);
  if (typeToken.quoted) return report(state, entry.line, `the record type ${show(typeToken.raw)} must be written without quotes`);
  const lookup = recordTypeOf(typeToken.raw);
  if (!lookup.ok && lookup.kind === "soa") return readSoa(state, entry.line, owner, head.value.ttl, rdata, origin);
  if (!lookup.ok && lookup.kind === "signer") return dropSigned(state, entry.line, owner, lookup.type, rdata, origin);
  if (!lookup.ok) return report(state, entry.line, lookup.error);
  const type = lookup.type;
  const ttl = head.value.ttl ?? state.defaultTtl ?? state.previousTtl;
  if (ttl === null) return report(state, entry.line, "the record has no TTL, and no $TTL line or earlier record gives one");
  state.previousTtl = ttl;
  const content = canonicalRdataTokens(type, rdata, origin);
  if (!content.ok) return report(state, entry.line, content.error);
  const caveat = deprecatedDnssecWarning(type, content.content) ?? longStringWarning(type, rdata);
  if (caveat) warn(state, entry.line, `${owner} ${type}: ${caveat}`);
  state.records.push({ line: entry.line, fqdn: owner, type, ttl, content: content.content });
  if (state.records.length > state.maxRecords) {
    state.overLimitLine = entry.line;
    state.stopped = true;
  }
}

/**
 * $GENERATE range owner [ttl] [class] type rdata: each record it makes is read as a line of
 * the file would be (its owner relative to the $ORIGIN, out-of-zone owners left out with a
 * warning), all with the directive's line number; the first bad one stops the expansion.
 */
function readGenerate(state: ReadState, entry: Entry): void {
  const [, rangeToken, ownerToken, ...rest] = entry.tokens;
  const usage = "$GENERATE takes a range, an owner, an optional TTL and class, a type and one RDATA field (quoted when it holds spaces)";
  if (!rangeToken || !ownerToken || rangeToken.quoted || ownerToken.quoted) return report(state, entry.line, usage);
  const range = parseGenerateRange(rangeToken.raw);
  if (!range.ok) return report(state, entry.line, range.error);
  const count = generatedCount(range.value);
  if (count > MAX_GENERATED_RECORDS) {
    return report(state, entry.line, `$GENERATE ${rangeToken.raw} would make ${count} records; one line makes at most ${MAX_GENERATED_RECORDS}`);
  }
  const head = readTtlAndClass(rest, 0);
  if (!head.ok) return report(state, entry.line, `$GENERATE: ${head.error}`);
  const typeToken = rest[head.value.typeAt];
  const rdataTokens = rest.slice(head.value.typeAt + 1);
  if (!typeToken || rdataTokens.length !== 1) return report(state, entry.line, usage);
  if (settleZoneName(state, entry) === null) return;
  const { start, stop, step } = range.value;
  const errorsBefore = state.errors.length;
  for (let it = start; it <= stop && !state.stopped; it += step) {
    const owner = expandGenerateText(ownerToken.raw, it);
    if (!owner.ok) return report(state, entry.line, owner.error);
    const rdata = expandGenerateText(rdataTokens[0]!.raw, it);
    if (!rdata.ok) return report(state, entry.line, rdata.error);
    // The RDATA's fields, as a line of the file would give them.
    const fields = readEntry(createLexer(rdata.value));
    const generated: Entry = {
      line: entry.line,
      blankOwner: false,
      tokens: [{ raw: owner.value, quoted: false }, ...rest.slice(0, head.value.typeAt + 1), ...(fields?.tokens ?? [])],
      error: fields?.error ?? null,
    };
    if (generated.error !== null) return report(state, entry.line, `$GENERATE: ${generated.error}`);
    readRecord(state, generated);
    if (state.errors.length > errorsBefore) return;
  }
}

const knownToBind = (upper: string) => upper in BIND_TYPE_CODES;

/** A signer's record: read as BIND reads it (a broken one is refused), then left out with a warning. */
function dropSigned(state: ReadState, line: number, owner: string, type: string, rdata: Token[], origin: string): void {
  const problem = (type === "NSEC3" ? nsec3OwnerProblem(owner) : null) ?? signerRdataProblem(type, rdata, origin, knownToBind);
  if (problem) return report(state, line, problem);
  const seen = state.dropped.get(type);
  if (seen) seen.count++;
  else state.dropped.set(type, { line, count: 1 });
}

function droppedWarnings(state: ReadState): void {
  for (const [type, { line, count }] of state.dropped) {
    const records = count === 1 ? `1 ${type} record` : `${count} ${type} records`;
    warn(state, line, `${records} left out (the first on line ${line}): a DNSSEC signer's output, not zone data; this service signs zones itself`);
  }
}

function soaTime(token: Token, what: string): Check<number> {
  return token.quoted ? fail(`${what} must be a time in seconds`) : parseTtl(token.raw, what);
}

function readSoaFields(rdata: Token[], origin: string): Check<SoaFields> {
  if (rdata.length !== 7) return fail("SOA needs mname, rname, serial, refresh, retry, expire and minimum");
  const [mnameToken, rnameToken, serialToken, refreshToken, retryToken, expireToken, minimumToken] = rdata as [Token, Token, Token, Token, Token, Token, Token];
  // A root MNAME says the zone has no primary to send NOTIFY or updates to (RPZ zones).
  const mname = nameField(mnameToken, origin, "SOA mname", { root: true });
  if (!mname.ok) return mname;
  // A mailbox, as BIND's check-names wants: any first label (`_` allowed), then a host name.
  const rname = nameField(rnameToken, origin, "SOA rname", { mailbox: true });
  if (!rname.ok) return rname;
  const serial = uintField(serialToken, 4294967295, "SOA serial");
  if (!serial.ok) return serial;
  const times = [
    soaTime(refreshToken, "SOA refresh"),
    soaTime(retryToken, "SOA retry"),
    soaTime(expireToken, "SOA expire"),
    soaTime(minimumToken, "SOA minimum"),
  ] as const;
  for (const time of times) if (!time.ok) return time;
  const [refresh, retry, expire, minimum] = times.map((t) => (t.ok ? t.value : 0)) as [number, number, number, number];
  const mnameText = mname.value === "." ? "." : mname.value.slice(0, -1);
  return ok({ mname: mnameText, rname: rname.value.slice(0, -1), serial: serial.value, refresh, retry, expire, minimum });
}

function readSoa(state: ReadState, line: number, owner: string, explicitTtl: number | null, rdata: Token[], origin: string): void {
  if (owner !== state.zone) return report(state, line, `the SOA record must be at the zone apex ${state.zone}, not ${owner}`);
  const fields = readSoaFields(rdata, origin);
  if (!fields.ok) return report(state, line, fields.error);
  if (state.soa) {
    // AXFR output ends with the SOA it began with: the same record, read once (RFC 5936 §2.2).
    const { ttl: _ttl, ...first } = state.soa;
    if (JSON.stringify(first) === JSON.stringify(fields.value)) return;
    return report(state, line, `a zone has one SOA record, and there is a different one on line ${state.soaLine} already`);
  }
  const ttl = explicitTtl ?? state.defaultTtl ?? state.previousTtl ?? fields.value.minimum;
  state.previousTtl = ttl;
  state.soa = { ...fields.value, ttl };
  state.soaLine = line;
}

interface RrsetSeen {
  first: MasterFileRecord;
  /** Every content in the RRset, once it has more than one. */
  contents: Set<string> | null;
}

/**
 * The records without duplicates, after checking the RRset rules across lines: one TTL
 * per RRset, a CNAME alone and not at the apex, one DNAME per name.
 */
function settleRrsets(state: ReadState, zone: string): MasterFileRecord[] {
  const rrsets = new Map<string, RrsetSeen>();
  // Only names holding a CNAME or DNAME can break a coexistence rule; few zones have many.
  const aliased = new Set<string>();
  for (const record of state.records) if (record.type === "CNAME" || record.type === "DNAME") aliased.add(record.fqdn);
  const typesAt = new Map<string, string[]>();
  const unique: MasterFileRecord[] = [];
  for (const record of state.records) {
    const rrset = `${record.fqdn} ${record.type}`;
    const seen = rrsets.get(rrset);
    if (seen && seen.first.ttl !== record.ttl) {
      warn(
        state,
        record.line,
        `TTL ${record.ttl} differs from TTL ${seen.first.ttl} of the same ${record.type} RRset on line ${seen.first.line}; the record takes ${seen.first.ttl}, as an RRset has one TTL (RFC 2181 §5.2)`,
      );
      record.ttl = seen.first.ttl;
    }
    if (seen) {
      if (seen.first.content === record.content || seen.contents?.has(record.content)) continue;
      (seen.contents ??= new Set([seen.first.content])).add(record.content);
    } else rrsets.set(rrset, { first: record, contents: null });
    unique.push(record);
    const ruleProblem =
      (record.fqdn === zone ? apexProblem(record.type) : null) ??
      ownerNameProblem(record.type, record.fqdn) ??
      (record.type === "PTR" ? targetNameProblem(record.type, record.fqdn, rdataNames(record.type, record.content)) : null);
    let coexistence: string | null = null;
    if (aliased.has(record.fqdn)) {
      const types = typesAt.get(record.fqdn) ?? [];
      coexistence = coexistenceProblem(record.type, types);
      types.push(record.type);
      typesAt.set(record.fqdn, types);
    }
    const problem = ruleProblem ?? coexistence;
    if (problem) report(state, record.line, problem);
  }
  // Each RRset must fit one DNS message (RFC 1035 §4.2.2): reported at the record that
  // takes it past the limit.
  const octets = new Map<string, number>();
  for (const record of unique) {
    const rrset = `${record.fqdn} ${record.type}`;
    const wire = rdataWire(record.type, record.content);
    const before = octets.get(rrset) ?? rrsetWireOctets(record.fqdn, []);
    const after = before + 12 + (wire.ok ? wire.value.length : 0);
    octets.set(rrset, after);
    if (before <= MAX_RRSET_WIRE_OCTETS && after > MAX_RRSET_WIRE_OCTETS) {
      report(state, record.line, rrsetSizeProblem(record.fqdn === zone ? "@" : record.fqdn, record.type, after)!);
    }
  }
  for (const { record, message } of integrityProblems(zone, unique)) report(state, record.line, message);
  return unique;
}
