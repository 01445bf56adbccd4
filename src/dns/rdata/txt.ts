// TXT (RFC 1035 §3.3.14): one or more <character-string>s of at most 255 octets each.
import { decodeCharString, encodeCharString, MAX_RDATA_OCTETS, MAX_STRING_OCTETS, splitOctets, utf8 } from "./character-string";
import { countProblem, type RdataParser } from "./fields";
import { content, fail, type RdataResult } from "../result";

/**
 * TXT written as tokens (master-file form): each token is one string. A bare token
 * longer than 255 octets is split, since it cannot be meant as one string; a quoted one
 * is refused, since its author chose its boundaries.
 */
export const canonicalTxt: RdataParser = (tokens) => {
  const problem = countProblem("TXT", tokens, 1, Number.POSITIVE_INFINITY);
  if (problem) return fail(problem);
  const strings: Uint8Array[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const bytes = decodeCharString(token.raw);
    if (!bytes.ok) return fail(`TXT string ${i + 1}: ${bytes.error}`);
    if (bytes.value.length <= MAX_STRING_OCTETS) strings.push(bytes.value);
    else if (!token.quoted) for (const piece of splitOctets(bytes.value)) strings.push(piece);
    else {
      return fail(
        `TXT string ${i + 1} is ${bytes.value.length} bytes; a string holds at most ${MAX_STRING_OCTETS} (split it into several quoted strings)`,
      );
    }
  }
  return renderStrings(strings);
};

/**
 * TXT given as plain text (the JSON API's unquoted content): the whole text, spaces
 * included and no escapes, is the data, split into strings of at most 255 octets —
 * what every DNS API does with `v=spf1 include:_spf.example.com ~all`.
 */
export function canonicalTxtText(text: string): RdataResult {
  const trimmed = text.trim();
  if (trimmed.length === 0) return fail(countProblem("TXT", [], 1)!);
  if (trimmed.length > MAX_RDATA_OCTETS) return fail(`TXT data is longer than ${MAX_RDATA_OCTETS} octets`);
  return renderStrings(splitOctets(utf8(trimmed)));
}

function renderStrings(strings: Uint8Array[]): RdataResult {
  let octets = 0;
  for (const s of strings) octets += 1 + s.length;
  if (octets > MAX_RDATA_OCTETS) return fail(`TXT data is ${octets} octets on the wire; a record holds at most ${MAX_RDATA_OCTETS}`);
  return content(strings.map(encodeCharString).join(" "));
}
