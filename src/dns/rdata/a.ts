// A (RFC 1035 §3.4.1): one IPv4 address, written without leading zeros.
import { parseIPv4, parseIPv6 } from "../ip";
import { fail, ok, show } from "../result";
import { defineRdata } from "./descriptor";

export const A = defineRdata({
  type: "A",
  code: 1,
  shape: "an IPv4 address",
  example: "192.0.2.10",
  tokens: { min: 1 },
  parse([token]) {
    const raw = token!.raw;
    // BIND reads the address as a bare token: quotes would be part of it.
    if (token!.quoted) return fail(`A content must be an address, not a quoted string`);
    const ip = parseIPv4(raw);
    if (ip) return ok({ address: ip.text });
    if (parseIPv6(raw)) return fail(`A needs an IPv4 address; ${show(raw)} is IPv6, use an AAAA record`);
    return fail(`A content ${show(raw)} is not an IPv4 address (e.g. 192.0.2.10; no leading zeros)`);
  },
  text: ({ address }) => address,
  wire: ({ address }) => Uint8Array.from(parseIPv4(address)!.bytes),
  names: () => [],
  fromWire: (r) => [...r.bytes(4)].join("."),
});
