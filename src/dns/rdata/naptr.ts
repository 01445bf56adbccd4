// NAPTR (RFC 3403 §4): order, preference, flags, services, regexp, replacement.
import { decodeCharString, encodeCharString, MAX_STRING_OCTETS, octetsToLatin1 } from "./character-string";
import { countProblem, nameField, uintField, type RdataParser } from "./fields";
import { content, fail, type Check } from "../result";
import type { Token } from "./tokens";

function stringField(token: Token, what: string): Check<Uint8Array> {
  const bytes = decodeCharString(token.raw);
  if (!bytes.ok) return fail(`${what}: ${bytes.error}`);
  if (bytes.value.length > MAX_STRING_OCTETS) return fail(`${what} is longer than ${MAX_STRING_OCTETS} bytes`);
  return bytes;
}

export const canonicalNaptr: RdataParser = (tokens, origin) => {
  const problem = countProblem("NAPTR", tokens, 6);
  if (problem) return fail(problem);
  const order = uintField(tokens[0], 65535, "NAPTR order");
  if (!order.ok) return order;
  const preference = uintField(tokens[1], 65535, "NAPTR preference");
  if (!preference.ok) return preference;
  const flags = stringField(tokens[2]!, "NAPTR flags");
  if (!flags.ok) return flags;
  // Flags are single characters from A–Z and 0–9 (RFC 3403 §4.1).
  if (!/^[A-Za-z0-9]*$/.test(octetsToLatin1(flags.value))) return fail("NAPTR flags may contain only letters and digits (RFC 3403 §4.1)");
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
  const strings = [flags.value, services.value, regexp.value].map(encodeCharString).join(" ");
  return content(`${order.value} ${preference.value} ${strings} ${replacement.value}`);
};
