// Field readers shared by the per-type parsers: counted fields, integers, domain names
// and hex blobs. Each returns a value or a reason that names the field.
import { normalizeName } from "../name";
import { fail, ok, show, type Check } from "../result";
import { MAX_RDATA_OCTETS } from "./character-string";
import { base64Octets } from "../../crypto/base64";
import type { RdataDescriptor } from "./descriptor";
import type { Token } from "./tokens";

type Described = Pick<RdataDescriptor<unknown>, "type" | "shape" | "example" | "tokens">;

/** Why `tokens` cannot hold the type's fields, or null when the count fits. */
export function countProblem({ type, shape, example, tokens: count }: Described, tokens: Token[]): string | null {
  if (tokens.length === 0) return `${type} content is empty; it needs ${shape} (e.g. ${example})`;
  if (tokens.length < count.min) return `${type} needs ${shape} (e.g. ${example})`;
  const extra = tokens[count.max ?? count.min];
  if (extra) return `${type} has more than ${shape}: unexpected ${show(extra.raw)}`;
  return null;
}

/** An unsigned decimal integer in 0–max (no sign, no fraction, no unit). */
export function uintField(token: Token | undefined, max: number, what: string): Check<number> {
  const problem = `${what} must be an integer 0–${max}`;
  if (!token || token.quoted || !/^[0-9]{1,10}$/.test(token.raw)) return fail(problem);
  const value = Number(token.raw);
  return value <= max ? ok(value) : fail(problem);
}

export interface TargetRules {
  /** "." is meaningful here (null MX, RFC 7505; SRV "no service", RFC 2782; SVCB, RFC 9460). */
  root?: boolean;
  /** `_` labels are legitimate here (aliases to service names, RFC 8552). */
  underscore?: boolean;
  /**
   * A mailbox written as a name (SOA RNAME, RP mbox, RFC 1035 §8): the first label is the
   * local part and may hold `_`; the rest is a host name, as BIND's check-names wants.
   */
  mailbox?: boolean;
  /** `*` as the whole leftmost label (an NSEC's next name may be a wildcard, RFC 4592 §4.4). */
  wildcard?: boolean;
}

/**
 * A domain name inside RDATA, returned absolute with its trailing dot. With an origin
 * (master file, RFC 1035 §5.1) a name without a trailing dot is relative to it and "@"
 * is the origin; without one (JSON API) every name is absolute.
 */
export function nameField(token: Token | undefined, origin: string | null, what: string, rules: TargetRules = {}): Check<string> {
  if (!token) return fail(`${what} is missing`);
  const raw = token.raw;
  if (token.quoted) return fail(`${what} must be a domain name, not a quoted string`);
  if (raw.includes("\\")) return fail(`${what} ${show(raw)}: escaped characters in names (such as \\.) are not supported`);
  if (raw === "@" && origin === null) return fail(`${what} "@" needs a zone origin; give the full name`);
  // An origin of "" is the root (`$ORIGIN .`), so "@" may be the root too.
  const full = raw === "@" ? `${origin}.` : raw.endsWith(".") || origin === null ? raw : `${raw}.${origin}`;
  if (full === ".") return rules.root ? ok(".") : fail(`${what} cannot be the root "."`);
  const name = normalizeName(full, { underscore: rules.underscore || rules.mailbox, wildcard: rules.wildcard });
  if (!name.ok) return fail(`${what} ${show(raw)}: ${name.error}`);
  if (rules.mailbox && !rules.underscore) {
    const hostLabel = name.name.split(".").find((label, i) => i > 0 && label.includes("_"));
    if (hostLabel !== undefined) return fail(`${what} ${show(raw)}: only the mailbox's first label may hold "_"; label "${hostLabel}" is part of a host name`);
  }
  return ok(`${name.name}.`);
}

/**
 * Hex digits, possibly split over several tokens (RFC 4034 §5.3 allows white space
 * inside the digest), returned upper case as BIND prints them.
 */
export function hexField(tokens: Token[], what: string): Check<string> {
  if (tokens.length === 0) return fail(`${what} is missing`);
  if (tokens.some((t) => t.quoted)) return fail(`${what} must be hexadecimal digits, not a quoted string`);
  const hex = tokens.map((t) => t.raw).join("");
  if (!/^[0-9a-fA-F]+$/.test(hex)) return fail(`${what} must be hexadecimal digits (0–9, A–F)`);
  if (hex.length % 2 !== 0) return fail(`${what} has an odd number of hex digits (${hex.length})`);
  if (hex.length / 2 > MAX_RDATA_OCTETS) return fail(`${what} is longer than ${MAX_RDATA_OCTETS} octets`);
  return ok(hex.toUpperCase());
}

/** Checks a hex field against the length a known hash algorithm gives. */
export function hexLengthProblem(hex: string, expectedDigits: number | undefined, what: string): string | null {
  if (expectedDigits === undefined || hex.length === expectedDigits) return null;
  return `${what} must be ${expectedDigits} hex digits, not ${hex.length}`;
}

/**
 * Base64 (RFC 4648 §4), possibly split over several tokens (keys and signatures are long,
 * RFC 4034 §2.2), with its padding, as BIND requires: at least one octet.
 */
export function base64Field(tokens: Token[], what: string): Check<Uint8Array> {
  if (tokens.length === 0) return fail(`${what} is missing`);
  if (tokens.some((t) => t.quoted)) return fail(`${what} must be base64, not a quoted string`);
  const text = tokens.map((t) => t.raw).join("");
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length === 0)
    return fail(`${what} must be base64 (A–Z, a–z, 0–9, +, /, padded with =)`);
  const bytes = base64Octets(text);
  if (bytes.length > MAX_RDATA_OCTETS) return fail(`${what} is longer than ${MAX_RDATA_OCTETS} octets`);
  return ok(bytes);
}
