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

/** Octets as upper-case hex, as BIND prints them. */
export function hexText(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out.toUpperCase();
}

/**
 * Reads RDATA given in wire form (RFC 3597 `\# length hex`): each read moves on; reading
 * past the end, or a name this service could not store, marks the reader failed instead of
 * throwing, so hostile bytes come back as a reason.
 */
export interface WireReader {
  u8(): number;
  u16(): number;
  u32(): number;
  bytes(length: number): Uint8Array;
  /** Every octet left. */
  rest(): Uint8Array;
  /** A <character-string>, as octets. */
  charString(): string;
  /** An uncompressed name, lower case, absolute with its trailing dot ("." for the root). */
  name(): string;
  readonly left: number;
  /** Marks the RDATA invalid (the first reason given is kept). */
  fail(reason: string): void;
  /** Why reading failed, or null. */
  readonly failure: string | null;
}

const NAME_OCTET = /^[A-Za-z0-9_*-]$/;

export function wireReader(wire: Uint8Array): WireReader {
  let at = 0;
  let failure: string | null = null;
  const take = (length: number): Uint8Array => {
    if (failure !== null || at + length > wire.length) {
      failure ??= "the RDATA ends before its last field";
      return new Uint8Array(0);
    }
    at += length;
    return wire.subarray(at - length, at);
  };
  return {
    u8: () => take(1)[0] ?? 0,
    u16: () => {
      const b = take(2);
      return b.length === 2 ? (b[0]! << 8) | b[1]! : 0;
    },
    u32: () => {
      const b = take(4);
      return b.length === 4 ? ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0 : 0;
    },
    bytes: take,
    rest: () => take(wire.length - at),
    charString() {
      const length = take(1)[0] ?? 0;
      return String.fromCharCode(...take(length));
    },
    name() {
      let name = "";
      let octets = 0;
      for (;;) {
        const length = take(1)[0];
        if (length === undefined) return ".";
        if (length === 0) return name === "" ? "." : name;
        // RFC 3597 §4: names in the RDATA of generic types are never compressed.
        if (length > 63) {
          failure ??= "a name in the RDATA is compressed or has a label over 63 octets";
          return ".";
        }
        const label = String.fromCharCode(...take(length));
        octets += length + 1;
        if (octets > 254) failure ??= "a name in the RDATA is longer than 255 octets";
        if (![...label].every((c) => NAME_OCTET.test(c))) failure ??= "a name in the RDATA has characters other than letters, digits, hyphens and underscores";
        name += `${label.toLowerCase()}.`;
      }
    },
    get left() {
      return wire.length - at;
    },
    fail(reason) {
      failure ??= reason;
    },
    get failure() {
      return failure;
    },
  };
}
