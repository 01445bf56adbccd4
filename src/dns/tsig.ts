// TSIG (RFC 8945): a message signed with a shared secret, HMAC over the message and the
// TSIG variables. Verifying a request (§5.2: key, then MAC, then time) and signing its
// response (§5.3: the request's MAC, then the response, then the variables) with WebCrypto,
// for the algorithms TSIG keys here have: hmac-sha256 and hmac-sha512 (§6, RFC 4635). Pure
// but for the digest itself (crypto.subtle, the same in workerd and Node).
import { canonicalNameOctets, CLASS_ANY, type Message, type MessageRecord, nameText, TYPE_TSIG, type WireName, wireName, wireNameOctets } from "./message";

/** TSIG error codes (RFC 8945 §3, IANA's TSIG/TKEY RR error registry). */
export const TSIG_ERROR = { NOERROR: 0, BADSIG: 16, BADKEY: 17, BADTIME: 18, BADTRUNC: 22 } as const;

/** How far a signature's time may be from ours, at most (RFC 8945 §10 recommends 300 s): a client's larger fudge does not widen it. */
export const MAX_FUDGE_SECONDS = 300;

export const TSIG_ALGORITHMS = {
  "hmac-sha256": { hash: "SHA-256", octets: 32 },
  "hmac-sha512": { hash: "SHA-512", octets: 64 },
} as const;
export type TsigAlgorithm = keyof typeof TSIG_ALGORITHMS;

export function isTsigAlgorithm(name: string): name is TsigAlgorithm {
  return Object.hasOwn(TSIG_ALGORITHMS, name);
}

/** A message's TSIG record, read (RFC 8945 §4.2). */
export interface TsigRecord {
  /** The key's name, lower case, no trailing dot. */
  keyName: string;
  keyWireName: WireName;
  /** The algorithm's name, lower case, no trailing dot (`hmac-sha256`). */
  algorithm: string;
  algorithmWireName: WireName;
  /** Seconds since the epoch (48 bits). */
  timeSigned: number;
  fudge: number;
  mac: Uint8Array;
  originalId: number;
  error: number;
  otherData: Uint8Array;
  /** Where the TSIG record starts: what precedes it is what was signed. */
  offset: number;
}

/**
 * The message's TSIG, null when it has none, or why it is malformed: it must be the last
 * record of the additional section and the only one (RFC 8945 §5.2: FORMERR otherwise).
 */
export function readTsig(message: Message): { ok: true; tsig: TsigRecord | null } | { ok: false; error: string } {
  const additional = message.sections[2];
  const all = [...message.sections[0], ...message.sections[1], ...additional];
  const at = all.findIndex((record) => record.type === TYPE_TSIG);
  if (at < 0) return { ok: true, tsig: null };
  const record = all[at]!;
  if (record !== additional.at(-1) || all.filter((r) => r.type === TYPE_TSIG).length > 1)
    return { ok: false, error: "a TSIG record must be the last record of the additional section, and the only one (RFC 8945 §5.2)" };
  if (record.class !== CLASS_ANY || record.ttl !== 0) return { ok: false, error: "a TSIG record has class ANY and TTL 0 (RFC 8945 §4.2)" };
  const rdata = parseTsigRdata(record);
  return rdata ? { ok: true, tsig: rdata } : { ok: false, error: "the TSIG record's RDATA does not read (RFC 8945 §4.2)" };
}

function parseTsigRdata(record: MessageRecord): TsigRecord | null {
  const bytes = record.rdata;
  let at = 0;
  const labels: Uint8Array[] = [];
  // The algorithm name is never compressed (RFC 8945 §4.2).
  for (;;) {
    const length = bytes[at];
    if (length === undefined || length > 63) return null;
    at++;
    if (length === 0) break;
    if (at + length > bytes.length) return null;
    labels.push(bytes.subarray(at, at + length));
    at += length;
  }
  const algorithmWireName = { labels };
  const need = (n: number) => at + n <= bytes.length;
  const u16 = () => {
    const value = (bytes[at]! << 8) | bytes[at + 1]!;
    at += 2;
    return value;
  };
  if (!need(10)) return null;
  const timeSigned = u16() * 2 ** 32 + ((u16() << 16) >>> 0) + u16();
  const fudge = u16();
  const macSize = u16();
  if (!need(macSize + 6)) return null;
  const mac = bytes.subarray(at, at + macSize);
  at += macSize;
  const originalId = u16();
  const error = u16();
  const otherLength = u16();
  if (at + otherLength !== bytes.length) return null;
  const otherData = bytes.subarray(at, at + otherLength);
  return {
    keyName: nameText(record.name),
    keyWireName: record.name,
    algorithm: nameText(algorithmWireName),
    algorithmWireName,
    timeSigned,
    fudge,
    mac,
    originalId,
    error,
    otherData,
    offset: record.offset,
  };
}

function u16(value: number): number[] {
  return [(value >> 8) & 0xff, value & 0xff];
}

function u48(value: number): number[] {
  const high = Math.floor(value / 2 ** 32);
  const low = value % 2 ** 32;
  return [...u16(high), (low >>> 24) & 0xff, (low >>> 16) & 0xff, (low >>> 8) & 0xff, low & 0xff];
}

function concat(parts: readonly (Uint8Array | readonly number[])[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The TSIG variables a MAC covers (RFC 8945 §4.3.3): key name, class, TTL, algorithm, time, fudge, error, other data. */
function variables(v: {
  keyWireName: WireName;
  algorithmWireName: WireName;
  timeSigned: number;
  fudge: number;
  error: number;
  otherData: Uint8Array;
}): Uint8Array {
  return concat([
    canonicalNameOctets(v.keyWireName),
    u16(CLASS_ANY),
    [0, 0, 0, 0],
    canonicalNameOctets(v.algorithmWireName),
    u48(v.timeSigned),
    u16(v.fudge),
    u16(v.error),
    u16(v.otherData.length),
    v.otherData,
  ]);
}

async function hmac(algorithm: TsigAlgorithm, secret: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: TSIG_ALGORITHMS[algorithm].hash }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, data));
}

/** Equal octets, in a time that does not depend on where they differ. */
function sameOctets(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** The signed part of a request: the message before its TSIG, ARCOUNT one less, the original ID back (RFC 8945 §4.3.2). */
function unsignedPart(bytes: Uint8Array, tsig: TsigRecord): Uint8Array {
  const out = bytes.slice(0, tsig.offset);
  out[0] = (tsig.originalId >> 8) & 0xff;
  out[1] = tsig.originalId & 0xff;
  const count = ((out[10]! << 8) | out[11]!) - 1;
  out[10] = (count >> 8) & 0xff;
  out[11] = count & 0xff;
  return out;
}

export type TsigVerdict = { ok: true } | { ok: false; error: "BADSIG" | "BADTIME" | "FORMERR" };

/**
 * Verifies a request's TSIG with the key's secret (the caller found the key by name and
 * checked its algorithm: BADKEY otherwise, §5.2.1). The MAC first (§5.2.2: a MAC shorter
 * than the hash may be sent, but not shorter than half of it nor than 10 octets: FORMERR),
 * then the time (§5.2.3): at most `min(fudge, MAX_FUDGE_SECONDS)` from `nowSeconds`.
 */
export async function verifyRequest(
  bytes: Uint8Array,
  tsig: TsigRecord,
  algorithm: TsigAlgorithm,
  secret: Uint8Array,
  nowSeconds: number,
): Promise<TsigVerdict> {
  const full = TSIG_ALGORITHMS[algorithm].octets;
  if (tsig.mac.length > full || tsig.mac.length < Math.max(10, Math.ceil(full / 2))) return { ok: false, error: "FORMERR" };
  const mac = await hmac(algorithm, secret, concat([unsignedPart(bytes, tsig), variables(tsig)]));
  if (!sameOctets(mac.subarray(0, tsig.mac.length), tsig.mac)) return { ok: false, error: "BADSIG" };
  if (Math.abs(nowSeconds - tsig.timeSigned) > Math.min(tsig.fudge, MAX_FUDGE_SECONDS)) return { ok: false, error: "BADTIME" };
  return { ok: true };
}

function tsigRecordOctets(v: {
  keyWireName: WireName;
  algorithmWireName: WireName;
  timeSigned: number;
  fudge: number;
  mac: Uint8Array;
  originalId: number;
  error: number;
  otherData: Uint8Array;
}): Uint8Array {
  const rdata = concat([
    wireNameOctets(v.algorithmWireName),
    u48(v.timeSigned),
    u16(v.fudge),
    u16(v.mac.length),
    v.mac,
    u16(v.originalId),
    u16(v.error),
    u16(v.otherData.length),
    v.otherData,
  ]);
  return concat([wireNameOctets(v.keyWireName), u16(TYPE_TSIG), u16(CLASS_ANY), [0, 0, 0, 0], u16(rdata.length), rdata]);
}

/** The TSIG record a response carries: signed, or with an empty MAC (an error about the key or the MAC, §5.3.2). */
export interface ResponseTsig {
  request: TsigRecord;
  error: number;
  nowSeconds: number;
  /** The key's secret, or null for an unsigned error answer (BADKEY, BADSIG). */
  key: { algorithm: TsigAlgorithm; secret: Uint8Array } | null;
}

/**
 * The response's TSIG record (RFC 8945 §5.3): the MAC over the request's MAC (its length,
 * then itself), the response as sent without the TSIG, and the variables; the key and
 * algorithm names as the request wrote them. BADTIME carries our time in Other Data
 * (§5.2.3), as BIND sends it. An unsigned answer has MAC size 0.
 */
export async function responseTsig(response: Uint8Array, { request, error, nowSeconds, key }: ResponseTsig): Promise<Uint8Array> {
  const otherData = error === TSIG_ERROR.BADTIME ? Uint8Array.from(u48(nowSeconds)) : new Uint8Array(0);
  const fields = {
    keyWireName: request.keyWireName,
    algorithmWireName: request.algorithmWireName,
    timeSigned: nowSeconds,
    fudge: MAX_FUDGE_SECONDS,
    originalId: (response[0]! << 8) | response[1]!,
    error,
    otherData,
  };
  if (!key) return tsigRecordOctets({ ...fields, mac: new Uint8Array(0) });
  const mac = await hmac(key.algorithm, key.secret, concat([u16(request.mac.length), request.mac, response, variables(fields)]));
  return tsigRecordOctets({ ...fields, mac });
}

/**
 * Signs a request (for the tests and the scripts' clients, as nsupdate -y does): the TSIG
 * record appended to `message` (which has none), its MAC over the message and the variables.
 */
export async function signRequest(
  message: Uint8Array,
  key: { name: string; algorithm: TsigAlgorithm; secret: Uint8Array },
  timeSigned: number,
  fudge = MAX_FUDGE_SECONDS,
): Promise<Uint8Array> {
  const fields = {
    keyWireName: wireName(key.name),
    algorithmWireName: wireName(key.algorithm),
    timeSigned,
    fudge,
    originalId: (message[0]! << 8) | message[1]!,
    error: 0,
    otherData: new Uint8Array(0),
  };
  const mac = await hmac(key.algorithm, key.secret, concat([message, variables(fields)]));
  const record = tsigRecordOctets({ ...fields, mac });
  const out = concat([message, record]);
  const count = ((out[10]! << 8) | out[11]!) + 1;
  out[10] = (count >> 8) & 0xff;
  out[11] = count & 0xff;
  return out;
}

/** Verifies a response's TSIG against the request's MAC (for the tests and the scripts' clients). */
export async function verifyResponse(
  response: Uint8Array,
  tsig: TsigRecord,
  requestMac: Uint8Array,
  algorithm: TsigAlgorithm,
  secret: Uint8Array,
): Promise<boolean> {
  const mac = await hmac(algorithm, secret, concat([u16(requestMac.length), requestMac, unsignedPart(response, tsig), variables(tsig)]));
  return tsig.mac.length > 0 && sameOctets(mac.subarray(0, tsig.mac.length), tsig.mac);
}
