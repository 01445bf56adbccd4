// The IANA special-purpose address registries (RFC 6890, and the ranges they list since):
// which addresses are not a host on the public Internet. A webhook may not be sent to any
// of them (loopback only from a loopback deployment), since the service would otherwise be
// a way into the network it runs in (server-side request forgery); nor may a zone's
// declared secondary be one (NOTIFY and transfers go to it). One rule for both.
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
  // RFC 8215: a network's own NAT64 translator, with the IPv4 address wherever its prefix
  // length puts it (RFC 6052 §2.2): refused whatever it carries.
  v6("64:ff9b:1::", 48, "private", "RFC 8215 local-use NAT64"),
  v6("100::", 64, "reserved", "RFC 6666 discard-only"),
  // RFC 4380: a Teredo relay reaches a host behind a NAT, the client's IPv4 address
  // obfuscated in the last 32 bits; not globally reachable (IANA), refused as a whole.
  v6("2001::", 32, "reserved", "RFC 4380 Teredo"),
  v6("2001::", 23, "reserved", "RFC 2928 IETF protocol assignments"),
  v6("2001:db8::", 32, "documentation", "RFC 3849"),
  v6("3fff::", 20, "documentation", "RFC 9637"),
  v6("fc00::", 7, "private", "RFC 4193 unique local"),
  v6("fe80::", 10, "link-local", "RFC 4291"),
  v6("fec0::", 10, "private", "RFC 3879 site-local"),
  v6("ff00::", 8, "multicast", "RFC 4291"),
];

/** Global unicast (RFC 4291 §2.4): everything outside it is unassigned or reserved by the IETF. */
const GLOBAL_UNICAST = v6("2000::", 3, "reserved", "RFC 4291 §2.4: outside global unicast 2000::/3");

function inRange(bytes: number[], range: Range): boolean {
  for (let bit = 0; bit < range.bits; bit += 8) {
    const take = Math.min(8, range.bits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[bit / 8] ?? 0) & mask) !== ((range.prefix[bit / 8] ?? 0) & mask)) return false;
  }
  return true;
}

/** An IPv6 form that carries an IPv4 address and reaches it: where the address is, and the form's name for messages. */
interface Carrier {
  matches(b: number[]): boolean;
  at: number;
  form: string;
}

const zeros = (b: number[], from: number, to: number) => b.slice(from, to).every((x) => x === 0);

/**
 * The IPv6 forms that carry an IPv4 address and lead to it, judged as that address
 * (a form that can reach a private, loopback or link-local IPv4 address is refused as
 * that address is; one that carries a public address is as public as it):
 *
 * - IPv4-mapped `::ffff:0:0/96` (RFC 4291 §2.5.5.2): a dual-stack socket connects to the IPv4 address;
 * - IPv4-translated `::ffff:0:0:0/96` (RFC 2765 §2.1, SIIT): a stateless translator forwards to it;
 * - IPv4-compatible `::/96` (RFC 4291 §2.5.5.1, deprecated), but `::` and `::1`, which are their own;
 * - NAT64 well-known `64:ff9b::/96` (RFC 6052 §2.1): a translator forwards to it (RFC 6052 §3.1
 *   forbids private addresses behind this prefix, which a misconfigured translator would not check);
 * - 6to4 `2002::/16` (RFC 3056): the IPv4 address of the site's 6to4 router, bits 16–47.
 *
 * Not here, refused as a whole (IPV6_RANGES): local-use NAT64 `64:ff9b:1::/48` and Teredo
 * `2001::/32`. A NAT64 translator under a network-specific prefix (RFC 6052 §2.2) looks like
 * any global address, and only the network that runs it knows it is one.
 */
const CARRIERS: Carrier[] = [
  { matches: (b) => zeros(b, 0, 10) && b[10] === 0xff && b[11] === 0xff, at: 12, form: "IPv4-mapped, ::ffff:0:0/96, RFC 4291" },
  {
    matches: (b) => zeros(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(b, 10, 12),
    at: 12,
    form: "IPv4-translated, ::ffff:0:0:0/96, RFC 2765",
  },
  { matches: (b) => zeros(b, 0, 12) && !(zeros(b, 12, 15) && (b[15] === 0 || b[15] === 1)), at: 12, form: "IPv4-compatible, ::/96, RFC 4291" },
  { matches: (b) => b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(b, 4, 12), at: 12, form: "NAT64, 64:ff9b::/96, RFC 6052" },
  { matches: (b) => b[0] === 0x20 && b[1] === 0x02, at: 2, form: "6to4, 2002::/16, RFC 3056" },
];

/** The special-purpose range an address is in, or null for a public Internet address. */
export function specialAddress(ip: ParsedIp): SpecialAddress | null {
  if (ip.version === 4) {
    const range = IPV4_RANGES.find((r) => inRange(ip.bytes, r));
    return range ? { class: range.class, range: range.range } : null;
  }
  const carrier = CARRIERS.find((c) => c.matches(ip.bytes));
  if (carrier) {
    const carried = ip.bytes.slice(carrier.at, carrier.at + 4);
    const inner = specialAddress({ version: 4, text: carried.join("."), bytes: carried });
    return inner ? { class: inner.class, range: `${inner.range}, carried in ${ip.text} (${carrier.form})` } : null;
  }
  const range = IPV6_RANGES.find((r) => inRange(ip.bytes, r)) ?? (inRange(ip.bytes, GLOBAL_UNICAST) ? undefined : GLOBAL_UNICAST);
  return range ? { class: range.class, range: range.range } : null;
}

/**
 * Why an address is not a public Internet host, or null when it is: the one rule for every
 * address the service sends to that a customer names (webhooks' targets, src/resources/
 * webhooks/target.ts; a zone's declared secondaries, docs/serving.md), as a phrase after
 * the address (`10.1.2.3 is a private address (10.0.0.0/8, RFC 1918)`).
 */
export function nonGlobalReason(ip: ParsedIp): string | null {
  const special = specialAddress(ip);
  if (special) return `is a${/^[aeiou]/.test(special.class) ? "n" : ""} ${special.class} address (${special.range})`;
  // A public IPv4 address written as IPv6 is reached as that IPv4 address; it is named so.
  if (ip.version === 6 && CARRIERS[0]!.matches(ip.bytes)) return "is an IPv4-mapped address; give the IPv4 address instead";
  return null;
}
