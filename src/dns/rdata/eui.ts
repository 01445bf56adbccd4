// EUI48 and EUI64 (RFC 7043 §3.2, §4.2): a MAC address or EUI-64 identifier as two-digit
// hex groups joined by hyphens, written lower case as RFC 7043 shows them.
import { fail, ok } from "../result";
import { defineRdata, type RdataDescriptor } from "./descriptor";
import { hexOctets } from "./wire";

export function euiRdata(about: { type: string; code: number; octets: number; example: string; section: string }): RdataDescriptor<{ address: string }> {
  const { type, octets } = about;
  const shape = new RegExp(`^[0-9A-Fa-f]{2}(?:-[0-9A-Fa-f]{2}){${octets - 1}}$`);
  return defineRdata({
    type,
    code: about.code,
    shape: `${octets} hex octets joined by hyphens`,
    example: about.example,
    tokens: { min: 1 },
    parse([token]) {
      if (token!.quoted || !shape.test(token!.raw)) {
        return fail(`${type} must be ${octets} two-digit hex groups joined by hyphens, e.g. ${about.example} (RFC 7043 ${about.section})`);
      }
      return ok({ address: token!.raw.toLowerCase() });
    },
    text: ({ address }) => address,
    wire: ({ address }) => hexOctets(address.replaceAll("-", "")),
    names: () => [],
    fromWire: (r) => [...r.bytes(octets)].map((b) => b.toString(16).padStart(2, "0")).join("-"),
  });
}
