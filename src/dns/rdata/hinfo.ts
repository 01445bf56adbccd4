// HINFO (RFC 1035 §3.3.2): two <character-string>s, the CPU and the operating system
// (RFC 8482 §4.2 also uses it to answer ANY queries: "RFC8482" "").
import { fail, ok, type Check } from "../result";
import { decodeCharString, encodeCharString, MAX_STRING_OCTETS, type Octets } from "./character-string";
import { defineRdata } from "./descriptor";
import type { Token } from "./tokens";
import { charString, concatWire } from "./wire";

function stringField(token: Token, what: string): Check<Octets> {
  const octets = decodeCharString(token.raw);
  if (!octets.ok) return fail(`${what}: ${octets.error}`);
  if (octets.value.length > MAX_STRING_OCTETS) return fail(`${what} is longer than ${MAX_STRING_OCTETS} bytes`);
  return octets;
}

export const HINFO = defineRdata({
  type: "HINFO",
  code: 13,
  shape: "a CPU and an operating system string",
  example: '"RISC-V" "Linux"',
  tokens: { min: 2 },
  parse([cpuToken, osToken]) {
    const cpu = stringField(cpuToken!, "HINFO CPU");
    if (!cpu.ok) return cpu;
    const os = stringField(osToken!, "HINFO OS");
    if (!os.ok) return os;
    return ok({ cpu: cpu.value, os: os.value });
  },
  text: ({ cpu, os }) => `${encodeCharString(cpu)} ${encodeCharString(os)}`,
  wire: ({ cpu, os }) => concatWire(charString(cpu), charString(os)),
  names: () => [],
  fromWire: (r) => `${encodeCharString(r.charString())} ${encodeCharString(r.charString())}`,
});
