// Who may hold a zone of a name (docs/accounts.md, "Names are owned"). A zone answers for
// every name below it that no deeper zone holds (RFC 1034 §4.3.2: the deepest enclosing
// zone is authoritative), so a zone is a claim on a whole subtree of names. The rules:
//
//   1. a customer's account holds no zone at or above an extension of the catalog (`org`,
//      `co.uk`, `uk`), nor at a top-level name: such a zone would answer for every name
//      under it that no zone here holds. An operator's account may (to serve an
//      extension itself), and only an operator's token creates zones for it.
//   2. nobody holds a zone inside or above another account's zone: the names of a zone
//      are its account's, and a zone above it would take them over wherever the deeper
//      zone does not answer (a suspended account, a name it does not hold);
//   3. a domain registered here belongs to its sponsor (RFC 5731 §2.4, the sponsoring
//      client), and so does every name in it: only that account holds a zone at or
//      inside it.
//
// The same rules decide which stored zones the DNS backend serves (src/resources/pdns/):
// a zone made before the rules existed, or left behind by a transfer, that breaks one is
// not served, and `npm run zone-conflicts` lists it for the operator (docs/accounts.md).
// Pure: the caller reads the zones and domains around the name.
import { ancestorNames } from "../dns/name";

/** A zone or a domain, as far as ownership goes: its name and its account. */
export interface HeldName {
  name: string;
  accountId: string;
}

export interface ZoneClaim {
  /** The zone's name (normalised). */
  name: string;
  /** The account that would hold it (the sponsor). */
  accountId: string;
  /** The account that would hold it is an operator's (rule 1 binds customers only). */
  operatorAccount: boolean;
  /** The catalog's extensions, by name. */
  extensions: ReadonlyMap<string, unknown> | ReadonlySet<string>;
  /** Zones at names above `name` (any account). */
  zonesAbove: readonly HeldName[];
  /** Zones at names below `name` (any account; the caller may stop at the first of another account). */
  zonesBelow: readonly HeldName[];
  /** Domains registered here at `name` or at a name above it (any account). */
  domainsAtOrAbove: readonly HeldName[];
}

export type ClaimRefusal =
  /** Rule 1: a name only an operator's zone may have (422 policy_violation). */
  | { kind: "reserved"; message: string }
  /** Rules 2 and 3: a name another account holds (409 already_exists; which object holds it is not said). */
  | { kind: "held" };

/** Rule 1's reason, or null when a customer may hold a zone of this name. */
export function reservedZoneName(name: string, extensions: ZoneClaim["extensions"]): string | null {
  if (extensions.has(name)) return `${name} is an extension offered here; a zone at an extension or above one is an operator's`;
  if (!name.includes(".")) return `${name} is a top-level name; a zone there is an operator's`;
  for (const extension of extensions.keys()) {
    if (extension.endsWith(`.${name}`)) return `${name} is above the extension ${extension}; a zone at an extension or above one is an operator's`;
  }
  return null;
}

/** Why `claim` may not be made, or null when it may. */
export function zoneClaimRefusal(claim: ZoneClaim): ClaimRefusal | null {
  if (!claim.operatorAccount) {
    const reserved = reservedZoneName(claim.name, claim.extensions);
    if (reserved) return { kind: "reserved", message: reserved };
  }
  const foreign = (held: HeldName) => held.accountId !== claim.accountId;
  if (claim.zonesAbove.some(foreign) || claim.zonesBelow.some(foreign) || claim.domainsAtOrAbove.some(foreign)) return { kind: "held" };
  return null;
}

/** The name and every name above it: where a zone or a domain that holds it may be. */
export function nameAndAncestors(name: string): string[] {
  return [name, ...ancestorNames(name)];
}
