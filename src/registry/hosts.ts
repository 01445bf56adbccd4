// Host objects (RFC 5732). A host whose name lies inside a domain managed here is
// subordinate (in-bailiwick): it needs glue addresses, and the registry is the only place
// they can come from. An external host is resolved through its own zone, so glue for it
// would be ignored at best (RFC 5732 §1.1) and is refused.
import { parseIp, unusableGlueReason } from "../dns/ip";
import { normalizeName, type NameResult } from "../dns/name";
import type { FieldError } from "./field-error";

export const MAX_GLUE_ADDRESSES = 13;

export function glueProblem(subordinate: boolean, addressCount: number, superordinate: string | null): string | null {
  if (subordinate) {
    if (addressCount === 0) return `a host subordinate to ${superordinate} needs 1 to ${MAX_GLUE_ADDRESSES} addresses (glue)`;
    if (addressCount > MAX_GLUE_ADDRESSES) return `a host has at most ${MAX_GLUE_ADDRESSES} addresses`;
    return null;
  }
  if (addressCount > 0) return "glue belongs to subordinate hosts only: an external host (outside every domain managed here) takes no addresses";
  return null;
}

/** The glue rule as the `addresses` field breaks it: none, or one error. */
export function glueErrors(subordinate: boolean, addressCount: number, superordinate: string | null): FieldError[] {
  const problem = glueProblem(subordinate, addressCount, superordinate);
  return problem ? [{ field: "addresses", message: problem }] : [];
}

/**
 * A subordinate host is sponsored by its superordinate domain's sponsor (RFC 5732 §3.2.1:
 * the host is created by the sponsoring client of its superordinate domain): another
 * account's host under the domain is refused, on the name.
 */
export function superordinateSponsorErrors(host: string, superordinate: { name: string; accountId: string } | null, accountId: string): FieldError[] {
  if (!superordinate || superordinate.accountId === accountId) return [];
  return [
    { field: "name", message: `${host} is under ${superordinate.name}, which another account sponsors; only that account may create or rename hosts under it` },
  ];
}

/** A host name (RFC 952/1123 LDH, at least two labels). */
export function normalizeHostName(input: string): NameResult {
  return normalizeName(input, { minLabels: 2 });
}

export interface AddressProblem {
  index: number;
  message: string;
}

/**
 * Glue addresses in canonical form (RFC 5952 for IPv6), refusing what cannot be a name
 * server's address (RFC 6890 special-purpose ranges) and duplicates after canonicalisation.
 */
export function canonicalAddresses(inputs: readonly string[]): { addresses: string[]; problems: AddressProblem[] } {
  const addresses: string[] = [];
  const problems: AddressProblem[] = [];
  inputs.forEach((input, index) => {
    const ip = parseIp(input);
    if (!ip) {
      problems.push({ index, message: `"${input}" is not an IPv4 or IPv6 address` });
      return;
    }
    const unusable = unusableGlueReason(ip);
    if (unusable) {
      problems.push({ index, message: `${ip.text} ${unusable}` });
      return;
    }
    if (addresses.includes(ip.text)) {
      problems.push({ index, message: `${ip.text} is listed twice` });
      return;
    }
    addresses.push(ip.text);
  });
  return { addresses, problems };
}

/** Glue addresses in canonical form, each refused one reported at its index (`addresses[2]`). */
export function glueAddresses(inputs: readonly string[]): { addresses: string[]; errors: FieldError[] } {
  const { addresses, problems } = canonicalAddresses(inputs);
  return { addresses, errors: problems.map((problem) => ({ field: `addresses[${problem.index}]`, message: problem.message })) };
}
