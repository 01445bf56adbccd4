// What a token may do (docs/accounts.md), as pure functions over plain data: no HTTP, no D1.
// A token has a scope and optional restrictions; each restriction narrows, never widens.
// The authentication middleware caches a token's rights per isolate, so every check here
// runs without a database round trip.
//
// - `zones` / `domains`: the objects the token sees and changes, by name. A token with
//   either one is a narrow token: the other one, when null, means none (an ACME token
//   restricted to a zone sees no domain), and it has no access to contacts, hosts,
//   accounts or tokens other than itself.
// - `records`: record writes only for matching owner names (relative to the zone, `@` the
//   apex, `*.` in front matching one or more labels) and types. Reads are not narrowed.
// - `allowed_ips`: CIDRs the request must come from (CF-Connecting-IP).
// - `expires_at`: afterwards the token is unknown.
// Attenuation: a token mints only tokens with at most its own rights (`widening`).
import { parseIp } from "../dns/ip";

export type TokenScope = "read" | "write" | "dns";

export interface RecordRule {
  /** Owner name relative to the zone: `@`, `www`, `_acme-challenge`, `*._domainkey`. */
  name: string;
  /** Record types (upper case). */
  types: string[];
}

export interface TokenRights {
  scope: TokenScope;
  accountId: string;
  /** The account's role: operators see every account's objects. */
  role: "operator" | "customer";
  zones: string[] | null;
  domains: string[] | null;
  records: RecordRule[] | null;
  allowedIps: string[] | null;
  expiresAt: string | null;
}

/** True when the token is narrowed to named zones or domains (docs/accounts.md). */
export function isNarrow(rights: Pick<TokenRights, "zones" | "domains">): boolean {
  return rights.zones !== null || rights.domains !== null;
}

/** The zone names a token sees: null = all of its account's, [] = none. */
export function visibleZoneNames(rights: Pick<TokenRights, "zones" | "domains">): string[] | null {
  return isNarrow(rights) ? (rights.zones ?? []) : null;
}

/** The domain names a token sees: null = all of its account's, [] = none. */
export function visibleDomainNames(rights: Pick<TokenRights, "zones" | "domains">): string[] | null {
  return isNarrow(rights) ? (rights.domains ?? []) : null;
}

function labels(name: string): string[] {
  return name === "@" || name === "" ? [] : name.toLowerCase().split(".");
}

/**
 * Whether an owner-name pattern matches a relative owner name: equal, or `*.` followed by
 * a suffix that one or more labels precede (`*._domainkey` matches `s1._domainkey` and
 * `a.b._domainkey`, not `_domainkey` itself).
 */
export function ownerPatternMatches(pattern: string, owner: string): boolean {
  const p = labels(pattern);
  const o = labels(owner);
  if (p[0] !== "*") return p.length === o.length && p.every((label, i) => label === o[i]);
  const suffix = p.slice(1);
  if (o.length <= suffix.length) return false;
  return suffix.every((label, i) => label === o[o.length - suffix.length + i]);
}

/** The rule that allows writing `type` records at `owner`, or null when none does. */
export function recordRuleFor(rules: readonly RecordRule[], owner: string, type: string): RecordRule | null {
  const upper = type.toUpperCase();
  return rules.find((rule) => ownerPatternMatches(rule.name, owner) && rule.types.some((t) => t.toUpperCase() === upper)) ?? null;
}

function describeRules(rules: readonly RecordRule[]): string {
  return rules.map((rule) => `${rule.name} ${rule.types.join("/")}`).join(", ");
}

/** Why a record write is not allowed (null when it is): names the token's rules. */
export function recordWriteRefusal(rights: Pick<TokenRights, "records">, owner: string, type: string): string | null {
  if (rights.records === null) return null;
  if (recordRuleFor(rights.records, owner, type)) return null;
  const shown = owner === "" ? "@" : owner;
  return `This token may write records only for ${describeRules(rights.records) || "no name"}; ${type.toUpperCase()} at ${shown} is not among them.`;
}

// ---------------------------------------------------------------- addresses

interface Cidr {
  bytes: number[];
  prefix: number;
  version: 4 | 6;
  text: string;
}

/** A CIDR (`192.0.2.0/24`, `2001:db8::/32`, or a single address), canonical; null when malformed. */
export function parseCidr(input: string): Cidr | null {
  const [address, prefixText, ...rest] = input.split("/");
  if (rest.length > 0 || address === undefined) return null;
  const ip = parseIp(address);
  if (!ip) return null;
  const max = ip.version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return null;
  // Host bits set (`192.0.2.1/24`) are a mistake worth refusing: say the network instead.
  const bytes = ip.bytes.map((byte, i) => {
    const bits = Math.max(0, Math.min(8, prefix - i * 8));
    return byte & (0xff << (8 - bits)) & 0xff;
  });
  if (bytes.some((b, i) => b !== ip.bytes[i])) return null;
  return { bytes, prefix, version: ip.version, text: `${ip.text}/${prefix}` };
}

function contains(outer: Cidr, inner: { bytes: number[]; prefix: number; version: 4 | 6 }): boolean {
  if (outer.version !== inner.version || inner.prefix < outer.prefix) return false;
  for (let bit = 0; bit < outer.prefix; bit++) {
    const mask = 0x80 >> (bit % 8);
    if ((outer.bytes[bit >> 3]! & mask) !== (inner.bytes[bit >> 3]! & mask)) return false;
  }
  return true;
}

/** Whether a client address lies inside one of the CIDRs (null CIDRs: any address). */
export function addressAllowed(allowed: readonly string[] | null, address: string | null): boolean {
  if (allowed === null) return true;
  const ip = address === null ? null : parseIp(address);
  if (!ip) return false;
  const host = { bytes: ip.bytes, prefix: ip.version === 4 ? 32 : 128, version: ip.version };
  return allowed.some((text) => {
    const cidr = parseCidr(text);
    return cidr !== null && contains(cidr, host);
  });
}

// ---------------------------------------------------------------- attenuation

const SCOPE_RANK: Record<"read" | "write", number> = { read: 0, write: 1 };

function ruleCovers(outer: RecordRule, inner: RecordRule): boolean {
  const typesCovered = inner.types.every((t) => outer.types.some((o) => o.toUpperCase() === t.toUpperCase()));
  if (!typesCovered) return false;
  const o = labels(outer.name);
  const i = labels(inner.name);
  if (o[0] !== "*") return ownerPatternMatches(outer.name, inner.name) && i[0] !== "*";
  // `*.x` covers `a.x`, `*.a.x` and `*.x`; an inner wildcard must sit at or below the outer one.
  const suffix = o.slice(1);
  const innerSuffix = i[0] === "*" ? i.slice(1) : i;
  if (i[0] === "*") return innerSuffix.length >= suffix.length && suffix.every((label, k) => label === innerSuffix[innerSuffix.length - suffix.length + k]);
  return ownerPatternMatches(outer.name, inner.name);
}

function subset(inner: readonly string[], outer: readonly string[]): string[] {
  return inner.filter((name) => !outer.includes(name));
}

/**
 * Why `child` would have rights its minter does not (null when it is within them): the
 * first widening found, named. The operator's tokens may mint for any account.
 */
export function widening(parent: TokenRights, child: TokenRights): string | null {
  if (child.accountId !== parent.accountId && parent.role !== "operator") return "the token would belong to another account";
  if (child.scope === "dns") {
    // A dns token reads every zone of every account: only an unrestricted operator token may mint one.
    if (parent.role !== "operator" || parent.scope !== "write" || isNarrow(parent) || parent.records !== null) {
      return "scope dns (every account's zones) can be minted only by an unrestricted operator token";
    }
  } else if (parent.scope === "dns" || SCOPE_RANK[child.scope] > SCOPE_RANK[parent.scope]) {
    return `scope ${child.scope} is wider than this token's scope ${parent.scope}`;
  }
  if (isNarrow(parent)) {
    const parentZones = visibleZoneNames(parent) ?? [];
    const parentDomains = visibleDomainNames(parent) ?? [];
    if (!isNarrow(child)) return "the token would not be restricted to zones or domains, and this one is";
    const extraZones = subset(child.zones ?? [], parentZones);
    if (extraZones.length > 0) return `zones ${extraZones.join(", ")} are not among this token's zones`;
    const extraDomains = subset(child.domains ?? [], parentDomains);
    if (extraDomains.length > 0) return `domains ${extraDomains.join(", ")} are not among this token's domains`;
  }
  if (parent.records !== null) {
    if (child.records === null) return `the token would write records at any name, and this one only at ${describeRules(parent.records)}`;
    const uncovered = child.records.find((rule) => !parent.records!.some((outer) => ruleCovers(outer, rule)));
    if (uncovered) return `records rule ${uncovered.name} ${uncovered.types.join("/")} is not covered by this token's rules (${describeRules(parent.records)})`;
  }
  if (parent.allowedIps !== null) {
    if (child.allowedIps === null) return `the token would be usable from any address, and this one only from ${parent.allowedIps.join(", ")}`;
    const outside = child.allowedIps.find((text) => {
      const inner = parseCidr(text);
      return (
        !inner ||
        !parent.allowedIps!.some((outerText) => {
          const outer = parseCidr(outerText);
          return outer !== null && contains(outer, inner);
        })
      );
    });
    if (outside) return `allowed_ips ${outside} is not inside this token's ${parent.allowedIps.join(", ")}`;
  }
  if (parent.expiresAt !== null) {
    if (child.expiresAt === null) return `the token would never expire, and this one expires at ${parent.expiresAt}`;
    if (child.expiresAt > parent.expiresAt) return `expires_at ${child.expiresAt} is later than this token's ${parent.expiresAt}`;
  }
  return null;
}

/**
 * Whether a narrow token reaches an object found across accounts (a transfer's domain,
 * which the requesting account cannot see yet): only when it is one of the zones or
 * domains the token names. Unrestricted tokens reach what their route allows.
 */
export function narrowReaches(rights: Pick<TokenRights, "zones" | "domains"> | null, type: string, name: string | undefined): boolean {
  if (rights === null || !isNarrow(rights)) return true;
  const names = type === "zone" ? visibleZoneNames(rights) : type === "domain" ? visibleDomainNames(rights) : [];
  return name !== undefined && (names ?? []).includes(name);
}
