// Host objects (RFC 5732). A host whose name lies inside a domain managed here is
// subordinate (in-bailiwick): it needs glue addresses, and the registry is the only place
// they can come from. An external host is resolved through its own zone, so glue for it
// would be ignored at best (RFC 5732 §1.1) and is refused.

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

/** The superordinate domain of a host: the longest managed domain name that contains it. */
export function superordinateName(hostName: string, managedDomains: ReadonlySet<string>): string | null {
  if (managedDomains.has(hostName)) return hostName;
  for (let dot = hostName.indexOf("."); dot !== -1; dot = hostName.indexOf(".", dot + 1)) {
    const candidate = hostName.slice(dot + 1);
    if (managedDomains.has(candidate)) return candidate;
  }
  return null;
}
