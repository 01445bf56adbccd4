// Reads a master file (RFC 1035 §5.1) entry by entry: one line, or several joined by
// parentheses; `;` starts a comment outside quotes. Every entry remembers the line it
// starts on and whether that line began with white space (a blank owner). Problems are
// recorded on the entry, never thrown, and reading always moves forward, so any input,
// however broken, is read once from start to end.
import { scanBare, scanQuoted, type Token } from "../rdata/tokens";

export interface Entry {
  /** 1-based line the entry starts on. */
  line: number;
  /** The line starts with white space: the owner is the previous one (RFC 1035 §5.1). */
  blankOwner: boolean;
  tokens: Token[];
  /** The first problem met while reading the entry, if any. */
  error: string | null;
}

export interface Lexer {
  text: string;
  pos: number;
  line: number;
}

// More tokens than a 65535-octet RDATA could need: a bigger entry is junk, and keeping
// its tokens would only cost memory.
const MAX_TOKENS_PER_ENTRY = 70000;

const NEWLINE = 0x0a;

function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f;
}

function isMasterDelimiter(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0d || code === NEWLINE || code === 0x3b || code === 0x28 || code === 0x29 || isControl(code);
}

export function createLexer(text: string): Lexer {
  // A byte-order mark is not part of the first line.
  return { text, pos: text.charCodeAt(0) === 0xfeff ? 1 : 0, line: 1 };
}

/** The next entry holding tokens or a problem; null at the end of the text. */
export function readEntry(lexer: Lexer): Entry | null {
  while (lexer.pos < lexer.text.length) {
    const entry = readLogicalLine(lexer);
    if (entry.tokens.length > 0 || entry.error !== null) return entry;
  }
  return null;
}

function readLogicalLine(lexer: Lexer): Entry {
  const { text } = lexer;
  const first = text.charCodeAt(lexer.pos);
  const entry: Entry = { line: lexer.line, blankOwner: first === 0x20 || first === 0x09, tokens: [], error: null };
  const problem = (message: string) => {
    entry.error ??= message;
  };
  let depth = 0;
  let openedOn = 0;
  while (lexer.pos < text.length) {
    const code = text.charCodeAt(lexer.pos);
    if (code === NEWLINE) {
      lexer.pos++;
      lexer.line++;
      if (depth === 0) return entry;
    } else if (code === 0x20 || code === 0x09 || code === 0x0d) {
      lexer.pos++;
    } else if (code === 0x3b) {
      const end = text.indexOf("\n", lexer.pos);
      lexer.pos = end === -1 ? text.length : end;
    } else if (code === 0x28) {
      if (depth++ === 0) openedOn = lexer.line;
      lexer.pos++;
    } else if (code === 0x29) {
      if (depth === 0) problem('")" without a matching "("');
      else depth--;
      lexer.pos++;
    } else if (isControl(code)) {
      problem(`control character U+${code.toString(16).toUpperCase().padStart(4, "0")} outside a quoted string`);
      lexer.pos++;
    } else {
      readToken(lexer, entry, problem);
    }
  }
  if (depth > 0) problem(`"(" opened on line ${openedOn} is never closed`);
  return entry;
}

function readToken(lexer: Lexer, entry: Entry, problem: (message: string) => void): void {
  const quoted = lexer.text.charCodeAt(lexer.pos) === 0x22;
  const scanned = quoted ? scanQuoted(lexer.text, lexer.pos + 1, true) : scanBare(lexer.text, lexer.pos, isMasterDelimiter);
  if (scanned.error) problem(scanned.error);
  if (entry.tokens.length < MAX_TOKENS_PER_ENTRY) entry.tokens.push({ raw: scanned.raw, quoted });
  else problem(`the entry has more than ${MAX_TOKENS_PER_ENTRY} fields`);
  lexer.pos = scanned.end;
}
