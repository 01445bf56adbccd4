// The IANA special-purpose address registries (RFC 6890, and the ranges they list since):
// which addresses are not a host on the public Internet. A webhook may not be sent to any
// of them (loopback only from a loopback deployment), since the service would otherwise be
// a way into the network it runs in (server-side request forgery).
import { type ParsedIp, parseIp } from "./ip";

/** Why an address is not a public Internet host: the class of range it is in. */
export type SpecialAddressClass = "unspecified" | "loopback" | "private" | "link-local" | "cgnat" | "multicast" | "documentation" | "reserved";

export interface SpecialAddress {
  class: SpecialAddressClass;
  /** The range and where it is defined, for messages (`10.0.0.0/8, RFC 1918`). */
  range: string;
}

interface Range {
  prefix: number[];
  bits: number;
  class: SpecialAddressClass;
  range: string;
}

function v4(text: string, bits: number, cls: SpecialAddressClass, source: string): Range {
  return { prefix: text.split(".").map(Number), bits, class: cls, range: `${text}/${bits}, ${source}` };
}

function v6(text: string, bits: number, cls: SpecialAddressClass, source: string): Range {
  return { prefix: parseIp(text)!.bytes, bits, class: cls, range: `${text}/${bits}, ${source}` };
}

const IPV4_RANGES: Range[] = [
  v4("0.0.0.0", 8, "unspecified", 'RFC 791 "this network"'),
  v4("10.0.0.0", 8, "private", "RFC 1918"),
  v4("100.64.0.0", 10, "cgnat", "RFC 6598 shared address space"),
  v4("127.0.0.0", 8, "loopback", "RFC 1122"),
  v4("169.254.0.0", 16, "link-local", "RFC 3927"),
  v4("172.16.0.0", 12, "private", "RFC 1918"),
  v4("192.0.0.0", 24, "reserved", "RFC 6890 IETF protocol assignments"),
  v4("192.0.2.0", 24, "documentation", "RFC 5737 TEST-NET-1"),
  v4("192.88.99.0", 24, "reserved", "RFC 7526 deprecated 6to4 relays"),
  v4("192.168.0.0", 16, "private", "RFC 1918"),
  v4("198.18.0.0", 15, "reserved", "RFC 2544 benchmarking"),
  v4("198.51.100.0", 24, "documentation", "RFC 5737 TEST-NET-2"),
  v4("203.0.113.0", 24, "documentation", "RFC 5737 TEST-NET-3"),
  v4("224.0.0.0", 4, "multicast", "RFC 5771"),
  v4("240.0.0.0", 4, "reserved", "RFC 1112 reserved, and the broadcast address"),
];

const IPV6_RANGES: Range[] = [
  v6("::", 128, "unspecified", "RFC 4291"),
  v6("::1", 128, "loopback", "RFC 4291"),
  v6("64:ff9b:1::", 48, "private", "RFC 8215 local-use NAT64"),
  v6("100::", 64, "reserved", "RFC 6666 discard-only"),
  v6("2001::", 23, "reserved", "RFC 2928 IETF protocol assignments"),
  v6("2001:db8::", 32, "documentation", "RFC 3849"),
  v6("3fff::", 20, "documentation", "RFC 9637"),
  v6("fc00::", 7, "private", "RFC 4193 unique local"),
  v6("fe80::", 10, "link-local", "RFC 4291"),
  v6("fec0::", 10, "private", "RFC 3879 site-local"),
  v6("ff00::", 8, "multicast", "RFC 4291"),
];

function inRange(bytes: number[], range: Range): boolean {
  for (let bit = 0; bit < range.bits; bit += 8) {
    const take = Math.min(8, range.bits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[bit / 8] ?? 0) & mask) !== ((range.prefix[bit / 8] ?? 0) & mask)) return false;
  }
  return true;
}

/**
 * The IPv4 address an IPv6 address carries and routes to, when it is one of the forms
 * that do: IPv4-mapped (::ffff:0:0/96, RFC 4291), IPv4-compatible (::/96, deprecated),
 * NAT64 (64:ff9b::/96, RFC 6052), 6to4 (2002::/16, RFC 3056).
 */
function embeddedIPv4(b: number[]): number[] | null {
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return b.slice(12, 16);
  if (zeros(0, 12) && !(zeros(12, 15) && (b[15] === 0 || b[15] === 1))) return b.slice(12, 16);
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return b.slice(12, 16);
  if (b[0] === 0x20 && b[1] === 0x02) return b.slice(2, 6);
  return null;
}

/** The special-purpose range an address is in, or null for a public Internet address. */
export function specialAddress(ip: ParsedIp): SpecialAddress | null {
  if (ip.version === 4) {
    const range = IPV4_RANGES.find((r) => inRange(ip.bytes, r));
    return range ? { class: range.class, range: range.range } : null;
  }
  const carried = embeddedIPv4(ip.bytes);
  if (carried) {
    const inner = specialAddress({ version: 4, text: carried.join("."), bytes: carried });
    return inner ? { class: inner.class, range: `${inner.range}, carried in ${ip.text}` } : null;
  }
  const range = IPV6_RANGES.find((r) => inRange(ip.bytes, r));
  return range ? { class: range.class, range: range.range } : null;
}
