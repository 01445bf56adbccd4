// URI (RFC 7553 §4): priority, weight and a target URI, always a quoted string in
// presentation form (RFC 7553 §4.4, as BIND requires); on the wire the URI runs to the end
// of the RDATA, without a length octet, so it may be longer than 255 octets.
import { fail, ok } from "../result";
import { decodeCharString, encodeCharString, MAX_RDATA_OCTETS } from "./character-string";
import { defineRdata } from "./descriptor";
import { uintField } from "./fields";
import { concatWire, octetList, u16 } from "./wire";

// RFC 3986 §3: a scheme, a colon, then URI characters (no white space or controls).
const URI_SYNTAX = /^[A-Za-z][A-Za-z0-9+.-]*:[\x21-\x7e]*$/;

export const URI = defineRdata({
  type: "URI",
  code: 256,
  shape: "priority, weight and a quoted target URI",
  example: '10 1 "https://www.example.com/"',
  tokens: { min: 3 },
  parse([priorityToken, weightToken, targetToken]) {
    const priority = uintField(priorityToken, 65535, "URI priority");
    if (!priority.ok) return priority;
    const weight = uintField(weightToken, 65535, "URI weight");
    if (!weight.ok) return weight;
    if (!targetToken!.quoted) return fail('URI target must be a quoted string, e.g. "https://www.example.com/" (RFC 7553 §4.4)');
    const target = decodeCharString(targetToken!.raw);
    if (!target.ok) return fail(`URI target: ${target.error}`);
    if (!URI_SYNTAX.test(target.value))
      return fail("URI target must be a URI with a scheme, such as https:// or ftp://, and no spaces (RFC 7553 §4.4, RFC 3986)");
    if (4 + target.value.length > MAX_RDATA_OCTETS) return fail("URI target is longer than a record can hold");
    return ok({ priority: priority.value, weight: weight.value, target: target.value });
  },
  text: ({ priority, weight, target }) => `${priority} ${weight} ${encodeCharString(target)}`,
  wire: ({ priority, weight, target }) => concatWire(u16(priority), u16(weight), octetList(target)),
  names: () => [],
  fromWire: (r) => `${r.u16()} ${r.u16()} ${encodeCharString(String.fromCharCode(...r.rest()))}`,
});
