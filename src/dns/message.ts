// DNS messages in wire form (RFC 1035 §4.1), as much as a DNS UPDATE server needs (RFC 2136
// §2): the header, the sections of resource records with their names decompressed
// (RFC 1035 §4.1.4), and a response written back. Pure, over octets: hostile bytes come
// back as a reason (`MessageProblem`), never as an exception. RDATA of the types whose names
// a sender may compress (RFC 3597 §4: the RFC 1035 types, and those a receiver must also
// decompress) is given back with those names uncompressed, so that each type's `fromWire`
// (src/dns/rdata/) reads it as it reads RFC 3597's generic form.

/** Header flags and counts (RFC 1035 §4.1.1; RFC 2136 §2.2 names the counts of an UPDATE ZO, PR, UP, AD). */
export interface MessageHeader {
  id: number;
  qr: boolean;
  opcode: number;
  aa: boolean;
  tc: boolean;
  rd: boolean;
  ra: boolean;
  /** The low four bits (RFC 1035 §4.1.1; RFC 6891 extends them with the OPT record). */
  rcode: number;
  counts: [number, number, number, number];
}

/** A domain name from the wire: its labels as octets (case kept), and the offset after it. */
export interface WireName {
  labels: Uint8Array[];
}

export interface MessageQuestion {
  name: WireName;
  type: number;
  class: number;
}

export interface MessageRecord {
  name: WireName;
  type: number;
  class: number;
  ttl: number;
  /** The RDATA, names of the types in NAME_LAYOUTS decompressed. */
  rdata: Uint8Array;
  /** Where the record starts in the message (TSIG signs what lies before it). */
  offset: number;
}

export interface Message {
  header: MessageHeader;
  /** The question section (an UPDATE's zone section). */
  questions: MessageQuestion[];
  /** The answer, authority and additional sections (an UPDATE's prerequisite, update and additional sections). */
  sections: [MessageRecord[], MessageRecord[], MessageRecord[]];
}

export const OPCODE_QUERY = 0;
export const OPCODE_UPDATE = 5;

export const CLASS_IN = 1;
export const CLASS_NONE = 254;
export const CLASS_ANY = 255;

export const TYPE_SOA = 6;
export const TYPE_OPT = 41;
export const TYPE_TSIG = 250;
export const TYPE_ANY = 255;

/** RCODEs (RFC 1035 §4.1.1, RFC 2136 §2.2, RFC 8945 §3's TSIG errors are in its RR). */
export const RCODE = {
  NOERROR: 0,
  FORMERR: 1,
  SERVFAIL: 2,
  NXDOMAIN: 3,
  NOTIMP: 4,
  REFUSED: 5,
  YXDOMAIN: 6,
  YXRRSET: 7,
  NXRRSET: 8,
  NOTAUTH: 9,
  NOTZONE: 10,
} as const;
export type RcodeName = keyof typeof RCODE;

/** Why a message cannot be read, and what header it had when that much was readable. */
export interface MessageProblem {
  error: string;
  header: MessageHeader | null;
}

/** The largest DNS message (RFC 1035 §4.2.2: TCP's two-octet length). */
export const MAX_MESSAGE_OCTETS = 65_535;

/**
 * The name fields of RDATA that may arrive compressed, per type: `n` a domain name, a
 * number a run of fixed octets, `s` a <character-string>. RFC 1035 types (NS, CNAME, SOA,
 * PTR, MX and the experimental MB/MG/MR/MINFO, MD/MF) may be compressed by any sender; RFC
 * 3597 §4 asks receivers to decompress RP, AFSDB, RT, PX, SRV, NAPTR and KX too, and DNAME
 * (RFC 6672 §2.5) costs nothing to accept either way.
 */
const NAME_LAYOUTS: Record<number, readonly ("n" | "s" | number)[]> = {
  2: ["n"], // NS
  3: ["n"], // MD
  4: ["n"], // MF
  5: ["n"], // CNAME
  6: ["n", "n", 20], // SOA
  7: ["n"], // MB
  8: ["n"], // MG
  9: ["n"], // MR
  12: ["n"], // PTR
  14: ["n", "n"], // MINFO
  15: [2, "n"], // MX
  17: ["n", "n"], // RP
  18: [2, "n"], // AFSDB
  21: [2, "n"], // RT
  26: [2, "n", "n"], // PX
  33: [6, "n"], // SRV
  35: [4, "s", "s", "s", "n"], // NAPTR
  36: [2, "n"], // KX
  39: ["n"], // DNAME
};

class Reader {
  at = 0;
  failure: string | null = null;
  constructor(readonly bytes: Uint8Array) {}
  fail(reason: string) {
    this.failure ??= reason;
  }
  u8(): number {
    if (this.at + 1 > this.bytes.length) {
      this.fail("the message ends inside a field");
      return 0;
    }
    return this.bytes[this.at++]!;
  }
  u16(): number {
    return (this.u8() << 8) | this.u8();
  }
  u32(): number {
    return ((this.u16() << 16) >>> 0) + this.u16();
  }
  take(length: number): Uint8Array {
    if (this.at + length > this.bytes.length) {
      this.fail("the message ends inside a record");
      this.at = this.bytes.length;
      return new Uint8Array(0);
    }
    this.at += length;
    return this.bytes.subarray(this.at - length, this.at);
  }
  /** A name at the current offset, following compression pointers backwards only (no loops). */
  name(): WireName {
    const labels: Uint8Array[] = [];
    let at = this.at;
    let jumped = false;
    let octets = 1;
    for (let hops = 0; ; hops++) {
      if (at >= this.bytes.length) {
        this.fail("a name runs past the end of the message");
        break;
      }
      const length = this.bytes[at]!;
      if ((length & 0xc0) === 0xc0) {
        if (at + 1 >= this.bytes.length) {
          this.fail("a compression pointer runs past the end of the message");
          break;
        }
        const target = ((length & 0x3f) << 8) | this.bytes[at + 1]!;
        // RFC 1035 §4.1.4: a pointer names an earlier occurrence; forward ones are how loops are made.
        if (target >= at || hops > 127) {
          this.fail("a compression pointer does not point backwards");
          break;
        }
        if (!jumped) this.at = at + 2;
        jumped = true;
        at = target;
        continue;
      }
      if ((length & 0xc0) !== 0) {
        this.fail("a label type other than a plain label or a pointer (RFC 6891 §5)");
        break;
      }
      if (length === 0) {
        if (!jumped) this.at = at + 1;
        break;
      }
      if (at + 1 + length > this.bytes.length) {
        this.fail("a label runs past the end of the message");
        break;
      }
      octets += length + 1;
      if (octets > 255) {
        this.fail("a name is longer than 255 octets");
        break;
      }
      labels.push(this.bytes.subarray(at + 1, at + 1 + length));
      at += 1 + length;
    }
    if (this.failure) this.at = this.bytes.length;
    return { labels };
  }
}

function readHeader(reader: Reader): MessageHeader | null {
  if (reader.bytes.length < 12) return null;
  const id = reader.u16();
  const flags = reader.u16();
  const counts: [number, number, number, number] = [reader.u16(), reader.u16(), reader.u16(), reader.u16()];
  return {
    id,
    qr: (flags & 0x8000) !== 0,
    opcode: (flags >> 11) & 0x0f,
    aa: (flags & 0x0400) !== 0,
    tc: (flags & 0x0200) !== 0,
    rd: (flags & 0x0100) !== 0,
    ra: (flags & 0x0080) !== 0,
    rcode: flags & 0x0f,
    counts,
  };
}

/** A name's uncompressed wire form, labels as given (case kept). */
export function wireNameOctets(name: WireName): Uint8Array {
  let length = 1;
  for (const label of name.labels) length += label.length + 1;
  const out = new Uint8Array(length);
  let at = 0;
  for (const label of name.labels) {
    out[at++] = label.length;
    out.set(label, at);
    at += label.length;
  }
  out[at] = 0;
  return out;
}

/** The RDATA with its names uncompressed (NAME_LAYOUTS), or why it does not read as its type. */
function decompressedRdata(reader: Reader, type: number, start: number, length: number): Uint8Array {
  const layout = NAME_LAYOUTS[type];
  const end = start + length;
  if (!layout || length === 0) return reader.bytes.subarray(start, end);
  const parts: Uint8Array[] = [];
  const saved = reader.at;
  reader.at = start;
  for (const field of layout) {
    if (field === "n") parts.push(wireNameOctets(reader.name()));
    else if (field === "s") parts.push(reader.take(1 + (reader.bytes[reader.at] ?? 0)));
    else parts.push(reader.take(field));
    if (reader.at > end) reader.fail("a record's RDATA is shorter than its type's fields");
  }
  // What follows the last field (nothing, for these types) is kept for the type's own reader to refuse.
  if (reader.at < end) parts.push(reader.bytes.subarray(reader.at, end));
  reader.at = saved;
  let total = 0;
  for (const part of parts) total += part.length;
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function readRecord(reader: Reader): MessageRecord {
  const offset = reader.at;
  const name = reader.name();
  const type = reader.u16();
  const klass = reader.u16();
  const ttl = reader.u32();
  const length = reader.u16();
  const start = reader.at;
  reader.take(length);
  const rdata = reader.failure ? new Uint8Array(0) : decompressedRdata(reader, type, start, length);
  return { name, type, class: klass, ttl, rdata, offset };
}

/** Reads a whole message; a problem when any part of it does not read, or octets follow its last record. */
export function parseMessage(bytes: Uint8Array): { ok: true; message: Message } | ({ ok: false } & MessageProblem) {
  const reader = new Reader(bytes);
  const header = readHeader(reader);
  if (!header) return { ok: false, error: "a DNS message has a 12-octet header; this is shorter", header: null };
  if (bytes.length > MAX_MESSAGE_OCTETS) return { ok: false, error: `a DNS message is at most ${MAX_MESSAGE_OCTETS} octets`, header };
  const questions: MessageQuestion[] = [];
  for (let i = 0; i < header.counts[0] && !reader.failure; i++) questions.push({ name: reader.name(), type: reader.u16(), class: reader.u16() });
  const sections: [MessageRecord[], MessageRecord[], MessageRecord[]] = [[], [], []];
  for (const [s, section] of sections.entries()) {
    for (let i = 0; i < header.counts[s + 1]! && !reader.failure; i++) section.push(readRecord(reader));
  }
  if (reader.failure) return { ok: false, error: reader.failure, header };
  if (reader.at !== bytes.length) return { ok: false, error: "octets follow the message's last record", header };
  return { ok: true, message: { header, questions, sections } };
}

/** Only the header, when the rest does not read: what an answer to a malformed message echoes. */
export function parseHeader(bytes: Uint8Array): MessageHeader | null {
  return readHeader(new Reader(bytes));
}

const ESCAPED = new Set([0x2e, 0x5c, 0x22, 0x28, 0x29, 0x3b, 0x40, 0x24]); // . \ " ( ) ; @ $

/** A label in presentation form (RFC 1035 §5.1: `\.`, `\DDD` for what is not printable), letters lower-cased. */
function labelText(label: Uint8Array): string {
  let out = "";
  for (const octet of label) {
    const lower = octet >= 0x41 && octet <= 0x5a ? octet + 0x20 : octet;
    if (ESCAPED.has(lower)) out += `\\${String.fromCharCode(lower)}`;
    else if (lower <= 0x20 || lower >= 0x7f) out += `\\${String(lower).padStart(3, "0")}`;
    else out += String.fromCharCode(lower);
  }
  return out;
}

/** A name in presentation form, lower case, without the trailing dot ("" for the root). */
export function nameText(name: WireName): string {
  return name.labels.map(labelText).join(".");
}

/** A name's wire form in DNSSEC canonical form (RFC 4034 §6.2: uncompressed, letters lower-cased), as TSIG digests it. */
export function canonicalNameOctets(name: WireName): Uint8Array {
  const out = wireNameOctets(name);
  for (let i = 0; i < out.length; i++) if (out[i]! >= 0x41 && out[i]! <= 0x5a) out[i]! += 0x20;
  // Length octets are below 64, so never in A–Z: only label octets changed.
  return out;
}

/** A name of presentation-form labels with no escapes (the names this service writes), as wire labels. */
export function wireName(text: string): WireName {
  const bare = text.endsWith(".") ? text.slice(0, -1) : text;
  return { labels: bare === "" ? [] : bare.split(".").map((label) => new TextEncoder().encode(label)) };
}

function u16(value: number): number[] {
  return [(value >> 8) & 0xff, value & 0xff];
}

/**
 * A response's header and question section, uncompressed (RFC 2136 §3.8: an UPDATE's answer
 * echoes the zone section and carries no records but a TSIG, appended by src/dns/tsig.ts),
 * and, for a question, the records of its answer and authority sections (`aa`: an
 * authoritative answer).
 */
export function renderResponse(
  request: { id: number; opcode: number; rd?: boolean },
  rcode: number,
  questions: readonly MessageQuestion[],
  sections: { aa: boolean; answer?: readonly Omit<MessageRecord, "offset">[]; authority?: readonly Omit<MessageRecord, "offset">[] } = { aa: false },
): Uint8Array {
  const answer = sections.answer ?? [];
  const authority = sections.authority ?? [];
  const flags = 0x8000 | ((request.opcode & 0x0f) << 11) | (sections.aa ? 0x0400 : 0) | (request.rd ? 0x0100 : 0) | (rcode & 0x0f);
  const parts: number[] = [...u16(request.id), ...u16(flags), ...u16(questions.length), ...u16(answer.length), ...u16(authority.length), 0, 0];
  for (const question of questions) parts.push(...wireNameOctets(question.name), ...u16(question.type), ...u16(question.class));
  for (const record of [...answer, ...authority]) {
    parts.push(...wireNameOctets(record.name), ...u16(record.type), ...u16(record.class));
    parts.push((record.ttl >>> 24) & 0xff, (record.ttl >>> 16) & 0xff, (record.ttl >>> 8) & 0xff, record.ttl & 0xff);
    parts.push(...u16(record.rdata.length), ...record.rdata);
  }
  return Uint8Array.from(parts);
}

/** Builds a message from parts (for the tests and the scripts' clients): header, then each section's records, uncompressed. */
export function renderMessage(message: {
  id: number;
  opcode: number;
  qr?: boolean;
  rcode?: number;
  questions: readonly MessageQuestion[];
  sections: readonly [readonly Omit<MessageRecord, "offset">[], readonly Omit<MessageRecord, "offset">[], readonly Omit<MessageRecord, "offset">[]];
}): Uint8Array {
  const flags = (message.qr ? 0x8000 : 0) | ((message.opcode & 0x0f) << 11) | ((message.rcode ?? 0) & 0x0f);
  const out: number[] = [
    ...u16(message.id),
    ...u16(flags),
    ...u16(message.questions.length),
    ...u16(message.sections[0].length),
    ...u16(message.sections[1].length),
    ...u16(message.sections[2].length),
  ];
  for (const question of message.questions) out.push(...wireNameOctets(question.name), ...u16(question.type), ...u16(question.class));
  for (const section of message.sections) {
    for (const record of section) {
      out.push(...wireNameOctets(record.name), ...u16(record.type), ...u16(record.class));
      out.push((record.ttl >>> 24) & 0xff, (record.ttl >>> 16) & 0xff, (record.ttl >>> 8) & 0xff, record.ttl & 0xff);
      out.push(...u16(record.rdata.length), ...record.rdata);
    }
  }
  return Uint8Array.from(out);
}

/** The message with one more record in its additional section (a TSIG, which comes last: RFC 8945 §4.2). */
export function withAdditional(message: Uint8Array, record: Uint8Array): Uint8Array {
  const out = new Uint8Array(message.length + record.length);
  out.set(message);
  out.set(record, message.length);
  const count = ((out[10]! << 8) | out[11]!) + 1;
  out[10] = (count >> 8) & 0xff;
  out[11] = count & 0xff;
  return out;
}
