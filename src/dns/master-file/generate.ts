// BIND's $GENERATE directive (BIND 9 ARM, "BIND Primary File Extension: the $GENERATE
// Directive"), read as BIND reads it:
//
//   $GENERATE start-stop[/step] owner [ttl] [class] type rdata
//
// `start`, `stop` and `step` are whole numbers up to 2^31-1, start ≤ stop, step ≥ 1. In
// `owner` and `rdata` each `$` is the iterator's value; `$$` and `\$` are a literal `$`
// (the backslash stays, as an escape for the name or RDATA reader); `${offset}`,
// `${offset,width}` and `${offset,width,base}` add `offset` to the value and print it in a
// field of `width` characters, zero-padded, in base d (decimal), o (octal), x or X
// (hexadecimal) or n or N (nibbles: the hexadecimal digits reversed, one label each, the
// separating dots counted in the width). A value that is negative prints as BIND's C
// formatting prints it: a minus sign in decimal, its 32-bit two's complement in the other
// bases. `rdata` is one field (quoted when it holds spaces; the quotes go).
import { fail, ok, type Check } from "../result";

/** The largest number in a range, and the largest value an offset may reach (BIND: INT_MAX). */
const MAX_VALUE = 2 ** 31 - 1;

export interface GenerateRange {
  start: number;
  stop: number;
  step: number;
}

/** `start-stop` or `start-stop/step`. */
export function parseGenerateRange(text: string): Check<GenerateRange> {
  const match = /^([0-9]+)-([0-9]+)(?:\/([0-9]+))?$/.exec(text);
  const invalid = fail(
    `$GENERATE range "${text}" is invalid: write start-stop or start-stop/step, whole numbers from 0 to ${MAX_VALUE}, start ≤ stop, step ≥ 1`,
  );
  if (!match) return invalid;
  const [start, stop, step] = [Number(match[1]), Number(match[2]), match[3] === undefined ? 1 : Number(match[3])];
  if (start > MAX_VALUE || stop > MAX_VALUE || step > MAX_VALUE || step < 1 || stop < start) return invalid;
  return ok({ start, stop, step });
}

/** How many records a range makes. */
export function generatedCount(range: GenerateRange): number {
  return Math.floor((range.stop - range.start) / range.step) + 1;
}

/** The 32-bit two's complement of a value, as C's unsigned formatting prints a negative int. */
function unsigned32(value: number): number {
  return value < 0 ? value + 2 ** 32 : value;
}

/** Nibble form: hexadecimal digits least significant first, one per label, padded to `width` characters (dots counted). */
function nibbles(value: number, width: number, upper: boolean): string {
  const digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  let rest = unsigned32(value);
  let left = width;
  let out = "";
  do {
    out += digits[rest % 16];
    rest = Math.floor(rest / 16);
    if (left > 0) left--;
    if (left > 0 || rest !== 0) {
      out += ".";
      if (left > 0) left--;
    }
  } while (rest !== 0 || left > 0);
  return out;
}

function formatted(value: number, width: number, base: string): string {
  if (base === "n" || base === "N") return nibbles(value, width, base === "N");
  if (base === "d") {
    const digits = String(Math.abs(value));
    const sign = value < 0 ? "-" : "";
    return sign + digits.padStart(Math.max(0, width - sign.length), "0");
  }
  const radix = base === "o" ? 8 : 16;
  const text = unsigned32(value).toString(radix);
  return (base === "X" ? text.toUpperCase() : text).padStart(width, "0");
}

const MODIFIER = /^\{([+-]?[0-9]+)(?:,([0-9]+)(?:,([doxXnN]))?)?\}/;

/** The text with every `$` of it replaced for the iterator value `it`. */
export function expandGenerateText(template: string, it: number): Check<string> {
  let out = "";
  for (let i = 0; i < template.length; i++) {
    const char = template[i]!;
    if (char === "\\") {
      out += template.slice(i, i + 2);
      i++;
      continue;
    }
    if (char !== "$") {
      out += char;
      continue;
    }
    if (template[i + 1] === "$") {
      out += "$";
      i++;
      continue;
    }
    let offset = 0;
    let width = 0;
    let base = "d";
    if (template[i + 1] === "{") {
      const modifier = MODIFIER.exec(template.slice(i + 1));
      if (!modifier) return fail(`$GENERATE modifier in "${template}" is not \${offset}, \${offset,width} or \${offset,width,base} (base d, o, x, X, n or N)`);
      offset = Number(modifier[1]);
      width = modifier[2] === undefined ? 0 : Number(modifier[2]);
      base = modifier[3] ?? "d";
      if (!Number.isSafeInteger(offset) || Math.abs(offset) > MAX_VALUE || width > 255) return fail(`$GENERATE modifier in "${template}" is out of range`);
      i += modifier[0].length;
    }
    const value = it + offset;
    if (value > MAX_VALUE) return fail(`$GENERATE: ${it} + ${offset} is out of range (more than ${MAX_VALUE})`);
    out += formatted(value, width, base);
  }
  return ok(out);
}
