// Names no customer may hold (docs/accounts.md, "Names no customer may hold"), beside the
// ownership rules of src/registry/zone-ownership.ts. Each is a name where a customer's
// zone would take what is not the customer's to take:
//
//   0. the catalog zone's name and every name under it (DNS_CATALOG_ZONE): the DNS
//      primary answers them from the catalog, which lists every account's zones. Nobody's
//      zone, an operator's included;
//   1. a special-use name (src/dns/special-use-names.ts: `localhost`, `invalid`, `test`,
//      `local`, `onion`, `home.arpa`) or a name under one. `test` is a customer's on a
//      deployment made for tests (RFC 6761 §6.2: "unless explicitly configured");
//   2. a name under `arpa`: reverse zones follow the delegation of the addresses, which an
//      operator makes by creating the zone for the account that holds them;
//   3. a name AT a public suffix (src/dns/public-suffixes.ts, both sections of the list):
//      `ac.uk` would squat `cam.ac.uk`, `github.io` every `*.github.io`.
//
// An operator's token may create the names of rules 1–3, for its own account or for a
// customer's (`account` in the body): a zone an operator placed in an account is the
// delegation, and the account manages it as any other. Inside a zone its account already
// holds, the names are the account's (rule 2 of zone-ownership.ts): rules 1–3 do not bind
// its zones there (`2.0.192.in-addr.arpa` under an operator-delegated `0.192.in-addr.arpa`).
// Pure: the caller reads the zones above the name.
import { isWithin } from "../dns/name";
import { publicSuffixRuleAt } from "../dns/public-suffixes";
import { isUnderArpa, specialUseName } from "../dns/special-use-names";
import type { HeldName } from "./zone-ownership";

export interface ReservedNameClaim {
  /** The zone's name (normalised). */
  name: string;
  /** The account that would hold it. */
  accountId: string;
  /** The caller acts for the operator (its token's account is the operator's). */
  byOperator: boolean;
  /** The catalog zone's name (src/dns/catalog-zone.ts). */
  catalogZone: string;
  /** This deployment takes customers' zones under `test` (src/http/test-zones.ts). */
  testNamesAllowed: boolean;
  /** Zones at names above `name` (any account). */
  zonesAbove: readonly HeldName[];
}

/** Why the claim's name is refused (422 policy_violation, `name`), or null. */
export function reservedNameRefusal(claim: ReservedNameClaim): string | null {
  const { name } = claim;
  if (isWithin(name, claim.catalogZone)) {
    return `${name === claim.catalogZone ? `${name} is` : `${name} lies under`} the catalog zone ${claim.catalogZone}, whose names the DNS primary answers from the catalog of every account's zones: nobody's zone may be there`;
  }
  if (claim.byOperator) return null;
  if (claim.zonesAbove.some((zone) => zone.accountId === claim.accountId)) return null;
  const special = specialUseName(name);
  if (special && !(special.name === "test" && claim.testNamesAllowed)) {
    return `${name === special.name ? `${name} is` : `${name} lies under`} the special-use name ${special.name} (${special.why}); an operator may create it`;
  }
  if (isUnderArpa(name)) {
    return `${name} lies under arpa, the Internet's infrastructure domain (RFC 3172): a reverse zone is delegated with the addresses it maps, so an operator creates it for the account that holds them`;
  }
  const suffix = publicSuffixRuleAt(name);
  if (suffix) {
    return `${name} is a public suffix (the Public Suffix List's ${suffix.section} section, rule ${suffix.rule}): a zone there would take the names its registry hands out to others; an operator may create it for the account that runs it`;
  }
  return null;
}
