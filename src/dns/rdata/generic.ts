// RFC 3597: types by number (`TYPE65280`) and RDATA in generic form (`\# 4 0A000001`),
// so a type this service does not know is still stored and exported octet for octet.
// Which numbers may be such a type follows BIND 9.18, which reads the zones exported:
// BIND checks the RDATA of every type it knows, so a type BIND knows and this service
// does not describe is refused rather than stored unchecked.
import { fail, ok, type Check } from "../result";
import { MAX_RDATA_OCTETS } from "./character-string";
import type { Token } from "./tokens";
import { hexOctets, hexText } from "./wire";

/** The types BIND 9.18 knows (lib/dns/rdata/generic and in_1, BIND's spelling), by code. */
export const BIND_TYPE_CODES: Readonly<Record<string, number>> = {
  A: 1,
  NS: 2,
  MD: 3,
  MF: 4,
  CNAME: 5,
  SOA: 6,
  MB: 7,
  MG: 8,
  MR: 9,
  NULL: 10,
  WKS: 11,
  PTR: 12,
  HINFO: 13,
  MINFO: 14,
  MX: 15,
  TXT: 16,
  RP: 17,
  AFSDB: 18,
  X25: 19,
  ISDN: 20,
  RT: 21,
  NSAP: 22,
  "NSAP-PTR": 23,
  SIG: 24,
  KEY: 25,
  PX: 26,
  GPOS: 27,
  AAAA: 28,
  LOC: 29,
  NXT: 30,
  EID: 31,
  NIMLOC: 32,
  SRV: 33,
  ATMA: 34,
  NAPTR: 35,
  KX: 36,
  CERT: 37,
  A6: 38,
  DNAME: 39,
  SINK: 40,
  OPT: 41,
  APL: 42,
  DS: 43,
  SSHFP: 44,
  IPSECKEY: 45,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  DHCID: 49,
  NSEC3: 50,
  NSEC3PARAM: 51,
  TLSA: 52,
  SMIMEA: 53,
  HIP: 55,
  NINFO: 56,
  RKEY: 57,
  TALINK: 58,
  CDS: 59,
  CDNSKEY: 60,
  OPENPGPKEY: 61,
  CSYNC: 62,
  ZONEMD: 63,
  SVCB: 64,
  HTTPS: 65,
  DSYNC: 66,
  HHIT: 67,
  BRID: 68,
  SPF: 99,
  NID: 104,
  L32: 105,
  L64: 106,
  LP: 107,
  EUI48: 108,
  EUI64: 109,
  TKEY: 249,
  TSIG: 250,
  IXFR: 251,
  AXFR: 252,
  MAILB: 253,
  MAILA: 254,
  ANY: 255,
  URI: 256,
  CAA: 257,
  AVC: 258,
  DOA: 259,
  AMTRELAY: 260,
  RESINFO: 261,
  WALLET: 262,
  TA: 32768,
  DLV: 32769,
  KEYDATA: 65533,
};

/** Type codes that are never data (RFC 6895 §3.1: 0, OPT, and the Q/Meta range 128–255). */
export function isMetaType(code: number): boolean {
  return code === 0 || code === 41 || (code >= 128 && code <= 255);
}

/** `TYPE65280` → 65280 (RFC 3597 §5), or null when the text is not that form. */
export function genericTypeCode(upper: string): number | null {
  const match = /^TYPE([0-9]{1,5})$/.exec(upper);
  if (!match) return null;
  const code = Number(match[1]);
  return code <= 65535 ? code : null;
}

/** True when the RDATA tokens are in the generic form, `\#` first (RFC 3597 §5). */
export function isGenericRdata(tokens: Token[]): boolean {
  const first = tokens[0];
  return first !== undefined && !first.quoted && first.raw === "\\#";
}

/**
 * The octets of generic RDATA: `\#`, the length in octets, then that many octets in hex,
 * which white space may split (RFC 3597 §5).
 */
export function genericOctets(tokens: Token[], type: string): Check<Uint8Array> {
  const lengthToken = tokens[1];
  const shape = `generic ${type} RDATA is \\# then the length in octets, then the octets in hex (RFC 3597 §5), e.g. \\# 4 0A000001`;
  if (!lengthToken || lengthToken.quoted || !/^[0-9]{1,5}$/.test(lengthToken.raw)) return fail(shape);
  const length = Number(lengthToken.raw);
  if (length > MAX_RDATA_OCTETS) return fail(`generic ${type} RDATA is at most ${MAX_RDATA_OCTETS} octets`);
  const hexTokens = tokens.slice(2);
  if (hexTokens.some((t) => t.quoted)) return fail(shape);
  const hex = hexTokens.map((t) => t.raw).join("");
  if (!/^[0-9a-fA-F]*$/.test(hex)) return fail(`generic ${type} RDATA: the octets must be hexadecimal digits (0–9, A–F)`);
  if (hex.length !== 2 * length) return fail(`generic ${type} RDATA says ${length} octets (${2 * length} hex digits) but gives ${hex.length} hex digits`);
  return ok(hexOctets(hex));
}

/** The canonical generic form, as BIND prints a type it does not know. */
export function genericText(octets: Uint8Array): string {
  return octets.length === 0 ? "\\# 0" : `\\# ${octets.length} ${hexText(octets)}`;
}
