// Building RDATA in wire form (RFC 1035 §3.3): big-endian integers, length-prefixed
// <character-string>s and names as uncompressed label sequences, lower case, as DNSSEC's
// canonical form wants them (RFC 4034 §6.2) and RFC 3597 §4 requires for new types.

export type WirePart = Uint8Array | readonly number[];

export function u8(value: number): number[] {
  return [value & 0xff];
}

export function u16(value: number): number[] {
  return [(value >>> 8) & 0xff, value & 0xff];
}

export function u32(value: number): number[] {
  return [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

/** Octets held in a string (see character-string.ts) as wire octets. */
export function octetList(octets: string): number[] {
  const out = new Array<number>(octets.length);
  for (let i = 0; i < octets.length; i++) out[i] = octets.charCodeAt(i) & 0xff;
  return out;
}

/** A <character-string>: one length octet, then at most 255 octets. */
export function charString(octets: string): number[] {
  return [octets.length, ...octetList(octets)];
}

/**
 * An absolute name (`mail.example.com.`, or `.` for the root) as labels: a length octet
 * before each, a zero octet for the root. Stored names are lower-case ASCII A-labels, so
 * each character is one octet; lower-casing again keeps the canonical form whatever the input.
 */
export function nameWire(name: string): number[] {
  const out: number[] = [];
  const bare = name.endsWith(".") ? name.slice(0, -1) : name;
  if (bare !== "") {
    for (const label of bare.toLowerCase().split(".")) {
      out.push(label.length);
      for (let i = 0; i < label.length; i++) out.push(label.charCodeAt(i) & 0xff);
    }
  }
  out.push(0);
  return out;
}

/** The parts one after the other. */
export function concatWire(...parts: WirePart[]): Uint8Array {
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

/** Upper-case hex digits as octets (the caller has checked them). */
export function hexOctets(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Base64 (RFC 4648 §4) as octets (the caller has checked the alphabet and padding). */
export function base64Octets(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
