// <character-string> (RFC 1035 §3.3, presentation form §5.1): up to 255 octets, written
// quoted or bare, with `\X` for a literal X and `\DDD` for the octet with decimal value DDD.
import { fail, ok, type Check } from "../result";

export const MAX_STRING_OCTETS = 255;
/** RDATA is at most 65535 octets on the wire (RFC 1035 §3.2.1, RDLENGTH is 16 bits). */
export const MAX_RDATA_OCTETS = 65535;

const encoder = new TextEncoder();

export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** Resolves escapes into octets; text outside escapes is taken as UTF-8. */
export function decodeCharString(raw: string): Check<Uint8Array> {
  if (!raw.includes("\\")) return ok(utf8(raw));
  const out: number[] = [];
  let plainStart = 0;
  const flushPlain = (end: number) => {
    if (end > plainStart) for (const b of utf8(raw.slice(plainStart, end))) out.push(b);
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
      out.push(value);
      i += 3;
    } else {
      // `\X` is X itself; X may be a non-ASCII character, possibly a surrogate pair.
      const width = next >= 0xd800 && next <= 0xdbff ? 2 : 1;
      for (const b of utf8(raw.slice(i + 1, i + 1 + width))) out.push(b);
      i += width;
    }
    plainStart = i + 1;
  }
  flushPlain(raw.length);
  return ok(Uint8Array.from(out));
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
export function encodeCharString(bytes: Uint8Array): string {
  let out = '"';
  for (const b of bytes) out += OCTET_TEXT[b];
  return `${out}"`;
}

/** One character per octet, for matching octet strings against ASCII grammars. */
export function octetsToLatin1(bytes: Uint8Array): string {
  // String.fromCharCode(...) with one huge argument list would overflow the stack.
  let out = "";
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return out;
}

/**
 * Splits text into strings of at most 255 octets without cutting a UTF-8 sequence, so
 * every piece stays valid UTF-8 (RFC 7208 §3.3 joins them back without separators).
 */
export function splitOctets(bytes: Uint8Array, max = MAX_STRING_OCTETS): Uint8Array[] {
  if (bytes.length === 0) return [bytes];
  const pieces: Uint8Array[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = Math.min(start + max, bytes.length);
    // Step back over continuation octets (10xxxxxx) so the cut falls between characters.
    while (end < bytes.length && end > start && (bytes[end]! & 0xc0) === 0x80) end--;
    if (end === start) end = Math.min(start + max, bytes.length);
    pieces.push(bytes.subarray(start, end));
    start = end;
  }
  return pieces;
}
