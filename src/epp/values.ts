// The value rules of the EPP schemas (RFC 5730–5733, 5910, 3915, 8748) that a command's
// fields must meet: each returns why a value is refused, or null. The builder refuses a
// command that breaks one (EppInputError), so that nothing schema-invalid is ever sent.

/** A field of a command that breaks its schema's rule. */
export class EppInputError extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
    this.name = "EppInputError";
  }
}

/** Characters, as XML Schema counts them (code points). */
function length(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

// XML 1.0 §2.2: the characters a document may hold (no C0 controls but tab and line breaks, no lone surrogates).
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** XML Schema `token` within [min, max] characters: no tab or line break, no leading, trailing or doubled space. */
export function tokenProblem(value: unknown, min: number, max: number): string | null {
  if (typeof value !== "string") return "must be a string";
  if (NOT_XML_CHAR.test(value)) return "holds a character XML cannot carry (a control character)";
  if (/[\t\n\r]/.test(value) || value !== value.trim() || value.includes("  "))
    return "must not hold tabs, line breaks, or leading, trailing or doubled spaces";
  const n = length(value);
  if (n < min || n > max) return min === max ? `must be ${min} characters` : `must be ${min}–${max} characters`;
  return null;
}

/** XML Schema `normalizedString` (no tab or line break) within [min, max] characters. */
export function normalizedProblem(value: unknown, min: number, max: number): string | null {
  if (typeof value !== "string") return "must be a string";
  if (NOT_XML_CHAR.test(value)) return "holds a character XML cannot carry (a control character)";
  if (/[\t\n\r]/.test(value)) return "must not hold tabs or line breaks";
  const n = length(value);
  if (n < min || n > max) return `must be ${min}–${max} characters`;
  return null;
}

/** eppcom:clIDType: a client, contact or registrant id, 3–16 characters. */
export const clIdProblem = (value: unknown) => tokenProblem(value, 3, 16);
/** epp:trIDStringType: a clTRID, 3–64 characters. */
export const trIdProblem = (value: unknown) => tokenProblem(value, 3, 64);
/** eppcom:labelType: a domain or host name, 1–255 characters. */
export const labelProblem = (value: unknown) => tokenProblem(value, 1, 255);
/** epp:pwType: a login password, 6–16 characters (RFC 5730; longer ones need RFC 8807, not spoken here). */
export const loginPasswordProblem = (value: unknown) => tokenProblem(value, 6, 16);
/** eppcom:pwAuthInfoType: an object's authInfo password (`normalizedString`), here never empty. */
export const authInfoProblem = (value: unknown) => normalizedProblem(value, 1, 255);

export function periodProblem(value: { value: unknown; unit: unknown }): string | null {
  if (value.unit !== "y" && value.unit !== "m") return 'unit must be "y" or "m"';
  if (typeof value.value !== "number" || !Number.isInteger(value.value) || value.value < 1 || value.value > 99) return "must be a whole number 1–99";
  return null;
}

export function unsignedProblem(value: unknown, max: number): string | null {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= max ? null : `must be a whole number 0–${max}`;
}

export function hexProblem(value: unknown): string | null {
  return typeof value === "string" && /^(?:[0-9A-Fa-f]{2})+$/.test(value) ? null : "must be hexadecimal, an even number of digits";
}

export function currencyProblem(value: unknown): string | null {
  return typeof value === "string" && /^[A-Z]{3}$/.test(value) ? null : "must be three capital letters (ISO 4217)";
}

/** A fee: a non-negative decimal, as a string. */
export function feeAmountProblem(value: unknown): string | null {
  return typeof value === "string" && /^\d{1,18}(?:\.\d{1,9})?$/.test(value) ? null : 'must be a non-negative decimal string ("10.00")';
}

/** YYYY-MM-DD, a real date. */
export function dateProblem(value: unknown): string | null {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return "must be a date YYYY-MM-DD";
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value ? null : "must be a real date";
}

/** An XML Schema dateTime (what RGP's delTime and resTime are). */
export function dateTimeProblem(value: unknown): string | null {
  return typeof value === "string" && /^-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?$/.test(value)
    ? null
    : "must be a date and time (2024-01-02T03:04:05Z)";
}

/** The IP version of an address's text, or null when it is neither. */
export function ipVersion(value: unknown): "v4" | "v6" | null {
  if (typeof value !== "string") return null;
  if (/^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(value)) return "v4";
  if (value.length <= 45 && value.includes(":") && /^[0-9A-Fa-f:.]+$/.test(value) && (value.match(/::/g)?.length ?? 0) <= 1) return "v6";
  return null;
}

/** contact:e164StringType: `+CC.NUMBER`, at most 17 characters. */
export function phoneProblem(value: unknown): string | null {
  return typeof value === "string" && /^\+\d{1,3}\.\d{1,14}$/.test(value) && value.length <= 17 ? null : "must be +CC.NUMBER (E.164, at most 17 characters)";
}

export function countryProblem(value: unknown): string | null {
  return typeof value === "string" && /^[A-Za-z]{2}$/.test(value) ? null : "must be a two-letter country code";
}

/** An email address as EPP types it (eppcom:minTokenType) and as any registry would take it. */
export function emailProblem(value: unknown): string | null {
  if (typeof value !== "string" || tokenProblem(value, 3, 320) !== null || !/^[^\s@]+@[^\s@]+$/.test(value)) return "must be an email address";
  return null;
}

/** `int` postal information is 7-bit ASCII (RFC 5733 §2.4). */
export function asciiProblem(value: string): string | null {
  return /^[\x20-\x7e]*$/.test(value) ? null : "must be printable ASCII (postalInfo type int)";
}

export function check(field: string, problem: string | null): void {
  if (problem !== null) throw new EppInputError(field, problem);
}
