// TTLs: 0 … 2^31 - 1 seconds (RFC 2181 §8). Master files may use BIND's units
// (`1h30m`, `2d`, `1w`; s, m, h, d, w, either case) as well as plain seconds.
import { fail, ok, type Check } from "./result";

export const MAX_TTL = 2147483647;

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };
const PLAIN = /^[0-9]+$/;
const WITH_UNITS = /^(?:[0-9]+[smhdw])+$/i;

/** True when the text has the shape of a TTL (so a record line reads it as one). */
export function looksLikeTtl(text: string): boolean {
  return PLAIN.test(text) || WITH_UNITS.test(text);
}

/** Seconds in a TTL written as seconds or with units; `what` names the field in errors. */
export function parseTtl(text: string, what = "TTL"): Check<number> {
  const problem = `${what} must be 0–${MAX_TTL} seconds, or a time with units such as 1h or 2d`;
  if (text.length > 40 || !looksLikeTtl(text)) return fail(problem);
  let seconds = 0;
  if (PLAIN.test(text)) seconds = Number(text);
  else for (const [, digits, unit] of text.matchAll(/([0-9]+)([a-z])/gi)) seconds += Number(digits) * UNIT_SECONDS[unit!.toLowerCase()]!;
  return seconds <= MAX_TTL ? ok(seconds) : fail(problem);
}
