// <character-string> (RFC 1035 §3.3, presentation form §5.1): up to 255 octets, written
// quoted or bare, with `\X` for a literal X and `\DDD` for the octet with decimal value DDD.
import { fail, ok, type Check } from "../result";

export const MAX_STRING_OCTETS = 255;
/** RDATA is at most 65535 octets on the wire (RFC 1035 §3.2.1, RDLENGTH is 16 bits). */
export const MAX_RDATA_OCTETS = 65535;

/**
 * Octets held in a string, one character (code 0–255) per octet. A zone can hold 100 000
 * strings; as strings they cost the parser almost nothing, where a Uint8Array each made it
 * spend most of its time collecting garbage. Printable ASCII text is its own octets.
 */
export type Octets = string;

const encoder = new TextEncoder();
const NON_ASCII = /[^\x00-\x7f]/;

/** The UTF-8 octets of text. */
export function textOctets(text: string): Octets {
  return NON_ASCII.test(text) ? bytesToOctets(encoder.encode(text)) : text;
}

export function bytesToOctets(bytes: Uint8Array): Octets {
  // String.fromCharCode(...) with one huge argument list would overflow the stack.
  let out = "";
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return out;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** Resolves escapes into octets; text outside escapes is taken as UTF-8. */
export function decodeCharString(raw: string): Check<Octets> {
  if (!raw.includes("\\")) return ok(textOctets(raw));
  let out = "";
  let plainStart = 0;
  const flushPlain = (end: number) => {
    if (end > plainStart) out += textOctets(raw.slice(plainStart, end));
  };
  for (let i = 0; i < raw.length; i++) {
    if (raw.charCodeAt(i) !== 0x5c) continue;
    flushPlain(i);
    const next = raw.charCodeAt(i + 1);
    if (Number.isNaN(next)) return fail("a string ends with a lone backslash");
    if (isDigit(next)) {
      const digits = raw.slice(i + 1, i + 4);
      if (!/^[0-9]{3}$/.test(digits)) return fail(`"\\${digits}" is not an escape: use \\DDD with three decimal digits`);
      const value = Number(digits);
      if (value > 255) return fail(`"\\${digits}" is not an octet (0–255)`);
      out += String.fromCharCode(value);
      i += 3;
    } else {
      // `\X` is X itself; X may be a non-ASCII character, possibly a surrogate pair.
      const width = next >= 0xd800 && next <= 0xdbff ? 2 : 1;
      out += textOctets(raw.slice(i + 1, i + 1 + width));
      i += width;
    }
    plainStart = i + 1;
  }
  flushPlain(raw.length);
  return ok(out);
}

// How each octet is written inside quotes: printable ASCII as is, `"` and `\` escaped,
// every other octet (controls, and each octet of non-ASCII UTF-8) as `\DDD`, as BIND does.
const OCTET_TEXT: readonly string[] = Array.from({ length: 256 }, (_, b) => {
  if (b === 0x22 || b === 0x5c) return `\\${String.fromCharCode(b)}`;
  if (b >= 0x20 && b <= 0x7e) return String.fromCharCode(b);
  return `\\${String(b).padStart(3, "0")}`;
});

/** Text that needs no escaping: printable ASCII other than `"` and `\`. */
export const PLAIN_STRING = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** The canonical quoted form of a <character-string>. */
export function encodeCharString(octets: Octets): string {
  if (PLAIN_STRING.test(octets)) return `"${octets}"`;
  let out = '"';
  for (let i = 0; i < octets.length; i++) out += OCTET_TEXT[octets.charCodeAt(i)];
  return `${out}"`;
}

/**
 * Splits octets into strings of at most 255 without cutting a UTF-8 sequence, so every
 * piece of UTF-8 text stays valid UTF-8 (RFC 7208 §3.3 joins them back without separators).
 */
export function splitOctets(octets: Octets, max = MAX_STRING_OCTETS): Octets[] {
  if (octets.length <= max) return [octets];
  const pieces: Octets[] = [];
  let start = 0;
  while (start < octets.length) {
    let end = Math.min(start + max, octets.length);
    // Step back over continuation octets (10xxxxxx) so the cut falls between characters.
    while (end < octets.length && end > start && (octets.charCodeAt(end) & 0xc0) === 0x80) end--;
    if (end === start) end = Math.min(start + max, octets.length);
    pieces.push(octets.slice(start, end));
    start = end;
  }
  return pieces;
}
