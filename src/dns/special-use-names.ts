// Special-use domain names (RFC 6761 §3, and the names registered after it): names the
// DNS does not serve from the public tree, which an authoritative server is asked to
// answer negatively or not at all, so a zone there is nobody's to hold (docs/accounts.md,
// "Names no customer may hold"). `arpa` is the Internet's infrastructure domain (RFC 3172):
// its reverse-mapping zones (RFC 1035 §3.5, RFC 3596 §2.5) follow the address space's
// delegations, not a first-come claim.
//
// Not here, on purpose (docs/decisions.md): `example` and `example.com`/`.net`/`.org` —
// RFC 6761 §6.5 asks authoritative servers and their operators to treat example names as
// any other — and `alt` (RFC 9476), names outside the DNS that no query reaches.
import { isWithin } from "./name";

export interface SpecialUseName {
  /** The special-use name; every name under it is special too. */
  name: string;
  /** Where it is reserved, and what the reservation asks of an authoritative server. */
  why: string;
}

export const SPECIAL_USE_NAMES: readonly SpecialUseName[] = [
  { name: "localhost", why: "RFC 6761 §6.3: localhost names are the loopback address, never delegated" },
  { name: "invalid", why: "RFC 6761 §6.4: invalid names must not resolve" },
  { name: "test", why: "RFC 6761 §6.2: test names get negative answers unless a deployment is configured for tests" },
  { name: "local", why: "RFC 6762 §3: .local names are resolved by Multicast DNS on the local link" },
  { name: "onion", why: "RFC 7686 §2: .onion names are Tor's, and the DNS answers them NXDOMAIN" },
  { name: "home.arpa", why: "RFC 8375: home.arpa names are a home network's own, meaningful only inside it" },
];

/** The special-use name `name` is at or under, or null. */
export function specialUseName(name: string): SpecialUseName | null {
  return SPECIAL_USE_NAMES.find((special) => isWithin(name, special.name)) ?? null;
}

/** The infrastructure domain (RFC 3172); reverse zones lie under `in-addr.arpa` and `ip6.arpa`. */
export const ARPA = "arpa";

/** Whether `name` lies under `arpa` (a reverse zone, ENUM's `e164.arpa`, …). */
export function isUnderArpa(name: string): boolean {
  return name !== ARPA && isWithin(name, ARPA);
}
