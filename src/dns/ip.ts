// IP addresses in canonical text form: IPv4 dotted quad without leading zeros,
// IPv6 as RFC 5952 (lowercase, longest zero run compressed, no IPv4-embedded form
// except for ::ffff:0:0/96).

export type IpVersion = 4 | 6;
export interface ParsedIp {
  version: IpVersion;
  /** Canonical text (RFC 5952 for IPv6). */
  text: string;
  /** 4 or 16 bytes. */
  bytes: number[];
}

export function parseIPv4(input: string): ParsedIp | null {
  const parts = input.split(".");
  if (parts.length !== 4) return null;
  const bytes: number[] = [];
  for (const part of parts) {
    // Leading zeros are refused: `010` is octal in some parsers and decimal in others.
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return null;
    const value = Number(part);
    if (value > 255) return null;
    bytes.push(value);
  }
  return { version: 4, text: bytes.join("."), bytes };
}

function parseGroups(part: string): number[] | null {
  if (part === "") return [];
  const groups: number[] = [];
  for (const group of part.split(":")) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
    groups.push(parseInt(group, 16));
  }
  return groups;
}

export function parseIPv6(input: string): ParsedIp | null {
  if (input.length > 45 || !/^[0-9a-fA-F:.]+$/.test(input)) return null;
  let text = input;
  if (text.includes(".")) {
    // An embedded IPv4 tail (`::ffff:192.0.2.1`) becomes its two 16-bit groups.
    const lastColon = text.lastIndexOf(":");
    const v4 = parseIPv4(text.slice(lastColon + 1));
    if (!v4) return null;
    const [a, b, c, d] = v4.bytes as [number, number, number, number];
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  let groups: number[];
  if (halves.length === 2) {
    const head = parseGroups(halves[0]!);
    const rest = parseGroups(halves[1]!);
    if (!head || !rest) return null;
    const missing = 8 - head.length - rest.length;
    if (missing < 1) return null;
    groups = [...head, ...new Array<number>(missing).fill(0), ...rest];
  } else {
    const all = parseGroups(text);
    if (!all) return null;
    if (all.length !== 8) return null;
    groups = all;
  }
  const bytes = groups.flatMap((g) => [g >> 8, g & 0xff]);
  return { version: 6, text: formatIPv6(groups), bytes };
}

function formatIPv6(groups: number[]): string {
  // RFC 5952 §5: an IPv4-mapped address keeps its dotted-quad tail (`::ffff:192.0.2.1`).
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `::ffff:${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`;
  }
  // RFC 5952 §4.2: compress the longest run of ≥ 2 zero groups, the first on a tie.
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart === -1) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}

/** Parses an IPv4 or IPv6 address; null when it is neither. */
export function parseIp(input: string): ParsedIp | null {
  return input.includes(":") ? parseIPv6(input) : parseIPv4(input);
}

/**
 * Why an address cannot be a name server's glue address, or null when it can.
 * RFC 6890 special-purpose ranges that never route to a server on the Internet.
 */
export function unusableGlueReason(ip: ParsedIp): string | null {
  const b = ip.bytes;
  if (ip.version === 4) {
    if (b[0] === 0) return 'is an unspecified ("this network") address';
    if (b[0] === 127) return "is a loopback address";
    if (b[0] === 169 && b[1] === 254) return "is a link-local address";
    if (b[0]! >= 224 && b[0]! <= 239) return "is a multicast address";
    if (b[0]! >= 240) return "is a reserved or broadcast address";
    return null;
  }
  if (b.every((x) => x === 0)) return "is the unspecified address";
  if (b.slice(0, 15).every((x) => x === 0) && b[15] === 1) return "is the loopback address";
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0x80) return "is a link-local address";
  if (b[0] === 0xff) return "is a multicast address";
  if (b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff) {
    return "is an IPv4-mapped address; give the IPv4 address instead";
  }
  return null;
}

/** Whether an address is loopback (127.0.0.0/8, ::1). */
export function isLoopback(ip: ParsedIp): boolean {
  return ip.version === 4 ? ip.bytes[0] === 127 : ip.bytes.slice(0, 15).every((x) => x === 0) && ip.bytes[15] === 1;
}
