// TXT (RFC 1035 §3.3.14): one or more <character-string>s of at most 255 octets each.
import { fail, ok, type Check } from "../result";
import {
  decodeCharString,
  encodeCharString,
  MAX_RDATA_OCTETS,
  MAX_STRING_OCTETS,
  type Octets,
  PLAIN_STRING,
  splitOctets,
  textOctets,
} from "./character-string";
import { defineRdata, type RdataDescriptor } from "./descriptor";
import { countProblem } from "./fields";
import type { Token } from "./tokens";
import { charString, concatWire } from "./wire";

export interface TextStrings {
  /** Each string's octets (≤ 255 each). */
  strings: Octets[];
}

/** The strings a token makes: one, or several when a bare token is too long for one. */
function tokenStrings(type: string, token: Token, index: number): Check<Octets[]> {
  // Fast path for the usual printable-ASCII string: its characters are its octets.
  if (PLAIN_STRING.test(token.raw) && token.raw.length <= MAX_STRING_OCTETS) return ok([token.raw]);
  const bytes = decodeCharString(token.raw);
  if (!bytes.ok) return fail(`${type} string ${index + 1}: ${bytes.error}`);
  if (bytes.value.length > MAX_RDATA_OCTETS) return tooLong(type);
  if (bytes.value.length > MAX_STRING_OCTETS && token.quoted) {
    return fail(
      `${type} string ${index + 1} is ${bytes.value.length} bytes; a string holds at most ${MAX_STRING_OCTETS} (split it into several quoted strings)`,
    );
  }
  return ok(splitOctets(bytes.value));
}

function tooLong(type: string): { ok: false; error: string } {
  return fail(`${type} data is longer than a record can hold (${MAX_RDATA_OCTETS} octets on the wire)`);
}

/**
 * The descriptor of a type whose RDATA is a list of strings (TXT, and SPF, RFC 7208 §3).
 * Written as tokens (master-file form) each token is one string: a bare token longer
 * than 255 octets is split, since it cannot be meant as one string; a quoted one is
 * refused, since its author chose its boundaries. Written as plain text in JSON (no
 * leading quote), the whole text, spaces included and no escapes, is the data, split
 * into strings of at most 255 octets — what every DNS API does with
 * `v=spf1 include:_spf.example.com ~all`.
 */
export function textStringsRdata(about: { type: string; code: number; shape: string; example: string }): RdataDescriptor<TextStrings> {
  const descriptor: RdataDescriptor<TextStrings> = defineRdata({
    ...about,
    tokens: { min: 1, max: Number.POSITIVE_INFINITY },
    parse(tokens) {
      const strings: Octets[] = [];
      let octets = 0;
      for (let i = 0; i < tokens.length; i++) {
        const made = tokenStrings(about.type, tokens[i]!, i);
        if (!made.ok) return made;
        for (const piece of made.value) {
          strings.push(piece);
          octets += 1 + piece.length;
        }
        if (octets > MAX_RDATA_OCTETS) return tooLong(about.type);
      }
      return ok({ strings });
    },
    parseText(text) {
      const trimmed = text.trim();
      if (trimmed.length === 0) return fail(countProblem(descriptor, [])!);
      const bytes = textOctets(trimmed);
      if (bytes.length > MAX_RDATA_OCTETS) return tooLong(about.type);
      const strings = splitOctets(bytes);
      // Each string costs one length octet more than its data.
      if (bytes.length + strings.length > MAX_RDATA_OCTETS) return tooLong(about.type);
      return ok({ strings });
    },
    text: ({ strings }) => strings.map(encodeCharString).join(" "),
    wire: ({ strings }) => concatWire(...strings.map(charString)),
    names: () => [],
    fromWire(r) {
      const strings: string[] = [];
      while (r.left > 0 && r.failure === null) strings.push(encodeCharString(r.charString()));
      return strings.join(" ");
    },
  });
  return descriptor;
}

export const TXT = textStringsRdata({ type: "TXT", code: 16, shape: "one or more strings", example: '"v=spf1 -all"' });
