// Splitting presentation-form RDATA into tokens (RFC 1035 §5.1): runs of characters
// separated by white space, or quoted strings. Escapes (`\X`, `\DDD`) are kept in
// `raw` and resolved by whoever knows what the field means: a `\.` means something
// different inside a name than inside a TXT string.
import { fail, ok, type Check } from "../result";

export interface Token {
  /** The token's text, escapes unresolved; for a quoted token, without the quotes. */
  raw: string;
  quoted: boolean;
}

export interface Scanned {
  /** Index just past the token. */
  end: number;
  raw: string;
  error: string | null;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const EQUALS = 0x3d;
const NEWLINE = 0x0a;

export function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0a || code === 0x0b || code === 0x0c;
}

/**
 * Scans a quoted string whose opening quote is just before `start`. A master file may
 * not continue a quoted string on the next line (`stopAtNewline`), as in BIND; the
 * newline is then left for the caller so line numbers stay right.
 */
export function scanQuoted(text: string, start: number, stopAtNewline: boolean): Scanned {
  for (let i = start; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) return { end: i + 1, raw: text.slice(start, i), error: null };
    if (code === NEWLINE && stopAtNewline) {
      return { end: i, raw: text.slice(start, i), error: "a quoted string is not closed before the end of the line" };
    }
    if (code === BACKSLASH) {
      const next = text.charCodeAt(i + 1);
      if (Number.isNaN(next) || (next === NEWLINE && stopAtNewline)) {
        return { end: i + 1, raw: text.slice(start, i), error: "a backslash ends the line inside a quoted string" };
      }
      i++;
    }
  }
  return { end: text.length, raw: text.slice(start), error: "a quoted string is not closed" };
}

/**
 * Scans an unquoted token up to the next delimiter. `\X` keeps X in the token (so `\ `
 * and `\;` are data). `key="a b"` is one token, as in RFC 9460 §2.1 SvcParams, where
 * the value may be quoted; any other `"` inside a token is an ordinary character.
 */
export function scanBare(text: string, start: number, isDelimiter: (code: number) => boolean): Scanned {
  let i = start;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (isDelimiter(code)) break;
    if (code === BACKSLASH) {
      const next = text.charCodeAt(i + 1);
      if (Number.isNaN(next) || next === NEWLINE) {
        return { end: i + 1, raw: text.slice(start, i), error: "a backslash ends the line" };
      }
      i += 2;
      continue;
    }
    if (code === QUOTE && i > start && text.charCodeAt(i - 1) === EQUALS) {
      const value = scanQuoted(text, i + 1, true);
      if (value.error) return { end: value.end, raw: text.slice(start, value.end), error: value.error };
      i = value.end;
      continue;
    }
    i++;
  }
  return { end: i, raw: text.slice(start, i), error: null };
}

/** Tokens of RDATA given on its own (the JSON API's `content`): no comments, no parentheses. */
export function tokenizeRdata(text: string): Check<Token[]> {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (isSpace(code)) {
      i++;
      continue;
    }
    const quoted = code === QUOTE;
    const scanned = quoted ? scanQuoted(text, i + 1, false) : scanBare(text, i, isSpace);
    if (scanned.error) return fail(scanned.error);
    tokens.push({ raw: scanned.raw, quoted });
    i = scanned.end;
  }
  return ok(tokens);
}
