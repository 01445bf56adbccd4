// AAAA (RFC 3596 §2.2): one IPv6 address, written compressed (RFC 5952).
import { parseIPv4, parseIPv6 } from "../ip";
import { fail, ok, show } from "../result";
import { defineRdata } from "./descriptor";

export const AAAA = defineRdata({
  type: "AAAA",
  code: 28,
  shape: "an IPv6 address",
  example: "2001:db8::10",
  tokens: { min: 1 },
  parse([token]) {
    const raw = token!.raw;
    // BIND reads the address as a bare token: quotes would be part of it.
    if (token!.quoted) return fail(`AAAA content must be an address, not a quoted string`);
    const ip = parseIPv6(raw);
    if (ip) return ok({ address: ip.text });
    if (parseIPv4(raw)) return fail(`AAAA needs an IPv6 address; ${show(raw)} is IPv4, use an A record`);
    return fail(`AAAA content ${show(raw)} is not an IPv6 address (e.g. 2001:db8::10)`);
  },
  text: ({ address }) => address,
  wire: ({ address }) => Uint8Array.from(parseIPv6(address)!.bytes),
  names: () => [],
  fromWire: (r) => Array.from({ length: 8 }, () => r.u16().toString(16)).join(":"),
});
