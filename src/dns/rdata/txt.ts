// TXT (RFC 1035 §3.3.14): one or more <character-string>s of at most 255 octets each.
import { decodeCharString, encodeCharString, MAX_RDATA_OCTETS, MAX_STRING_OCTETS, PLAIN_STRING, splitOctets, utf8 } from "./character-string";
import { countProblem, type RdataParser } from "./fields";
import { content, fail, type Check, type RdataResult } from "../result";
import type { Token } from "./tokens";

/** One string, already in canonical quoted form, with its length on the wire. */
interface TxtPiece {
  text: string;
  octets: number;
}

function piecesOfOctets(bytes: Uint8Array): TxtPiece[] {
  return splitOctets(bytes).map((piece) => ({ text: encodeCharString(piece), octets: piece.length }));
}

/** The strings a token makes: one, or several when a bare token is too long for one. */
function tokenPieces(token: Token, index: number): Check<TxtPiece[]> {
  // Fast path for the usual printable-ASCII string: its characters are its octets.
  if (PLAIN_STRING.test(token.raw) && token.raw.length <= MAX_STRING_OCTETS) {
    return { ok: true, value: [{ text: `"${token.raw}"`, octets: token.raw.length }] };
  }
  const bytes = decodeCharString(token.raw);
  if (!bytes.ok) return fail(`TXT string ${index + 1}: ${bytes.error}`);
  if (bytes.value.length > MAX_RDATA_OCTETS) return tooLong();
  if (bytes.value.length > MAX_STRING_OCTETS && token.quoted) {
    return fail(`TXT string ${index + 1} is ${bytes.value.length} bytes; a string holds at most ${MAX_STRING_OCTETS} (split it into several quoted strings)`);
  }
  return { ok: true, value: piecesOfOctets(bytes.value) };
}

/**
 * TXT written as tokens (master-file form): each token is one string. A bare token
 * longer than 255 octets is split, since it cannot be meant as one string; a quoted one
 * is refused, since its author chose its boundaries.
 */
export const canonicalTxt: RdataParser = (tokens) => {
  const problem = countProblem("TXT", tokens, 1, Number.POSITIVE_INFINITY);
  if (problem) return fail(problem);
  const pieces: TxtPiece[] = [];
  let octets = 0;
  for (let i = 0; i < tokens.length; i++) {
    const made = tokenPieces(tokens[i]!, i);
    if (!made.ok) return made;
    for (const piece of made.value) {
      pieces.push(piece);
      octets += 1 + piece.octets;
    }
    if (octets > MAX_RDATA_OCTETS) return tooLong();
  }
  return content(pieces.map((p) => p.text).join(" "));
};

/**
 * TXT given as plain text (the JSON API's unquoted content): the whole text, spaces
 * included and no escapes, is the data, split into strings of at most 255 octets —
 * what every DNS API does with `v=spf1 include:_spf.example.com ~all`.
 */
export function canonicalTxtText(text: string): RdataResult {
  const trimmed = text.trim();
  if (trimmed.length === 0) return fail(countProblem("TXT", [], 1)!);
  const bytes = utf8(trimmed);
  if (bytes.length > MAX_RDATA_OCTETS) return tooLong();
  const strings = splitOctets(bytes);
  // Each string costs one length octet more than its data.
  if (bytes.length + strings.length > MAX_RDATA_OCTETS) return tooLong();
  return content(strings.map(encodeCharString).join(" "));
}

function tooLong(): { ok: false; error: string } {
  return fail(`TXT data is longer than a record can hold (${MAX_RDATA_OCTETS} octets on the wire)`);
}
