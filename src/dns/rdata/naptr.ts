// NAPTR (RFC 3403 §4): order, preference, flags, services, regexp, replacement.
import { fail, ok, type Check } from "../result";
import { decodeCharString, encodeCharString, MAX_STRING_OCTETS, type Octets } from "./character-string";
import { defineRdata, referencedName } from "./descriptor";
import { nameField, uintField } from "./fields";
import type { Token } from "./tokens";
import { charString, concatWire, nameWire, u16 } from "./wire";

function stringField(token: Token, what: string): Check<Octets> {
  const bytes = decodeCharString(token.raw);
  if (!bytes.ok) return fail(`${what}: ${bytes.error}`);
  if (bytes.value.length > MAX_STRING_OCTETS) return fail(`${what} is longer than ${MAX_STRING_OCTETS} bytes`);
  return bytes;
}

export const NAPTR = defineRdata({
  type: "NAPTR",
  code: 35,
  shape: "order, preference, flags, services, regexp and replacement",
  example: '100 10 "S" "SIP+D2U" "" _sip._udp.example.com.',
  tokens: { min: 6 },
  parse(tokens, origin) {
    const order = uintField(tokens[0], 65535, "NAPTR order");
    if (!order.ok) return order;
    const preference = uintField(tokens[1], 65535, "NAPTR preference");
    if (!preference.ok) return preference;
    const flags = stringField(tokens[2]!, "NAPTR flags");
    if (!flags.ok) return flags;
    // Flags are single characters from A–Z and 0–9 (RFC 3403 §4.1).
    if (!/^[A-Za-z0-9]*$/.test(flags.value)) return fail("NAPTR flags may contain only letters and digits (RFC 3403 §4.1)");
    const services = stringField(tokens[3]!, "NAPTR services");
    if (!services.ok) return services;
    const regexp = stringField(tokens[4]!, "NAPTR regexp");
    if (!regexp.ok) return regexp;
    const replacement = nameField(tokens[5], origin, "NAPTR replacement", { root: true, underscore: true });
    if (!replacement.ok) return replacement;
    // RFC 3403 §4.1: REGEXP and REPLACEMENT are mutually exclusive; "." marks the unused one.
    if (regexp.value.length > 0 && replacement.value !== ".") {
      return fail('NAPTR regexp and replacement are mutually exclusive: with a regexp the replacement must be "." (RFC 3403 §4.1)');
    }
    return ok({
      order: order.value,
      preference: preference.value,
      flags: flags.value,
      services: services.value,
      regexp: regexp.value,
      replacement: replacement.value,
    });
  },
  text: (f) => `${f.order} ${f.preference} ${encodeCharString(f.flags)} ${encodeCharString(f.services)} ${encodeCharString(f.regexp)} ${f.replacement}`,
  wire: (f) => concatWire(u16(f.order), u16(f.preference), charString(f.flags), charString(f.services), charString(f.regexp), nameWire(f.replacement)),
  names: ({ replacement }) => referencedName(replacement),
  fromWire(r) {
    const head = `${r.u16()} ${r.u16()}`;
    const strings = [r.charString(), r.charString(), r.charString()].map(encodeCharString).join(" ");
    return `${head} ${strings} ${r.name()}`;
  },
});
