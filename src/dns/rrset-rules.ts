// Which record types may share an owner name. A CNAME is alone at its name and there
// is only one (RFC 1034 §3.6.2, RFC 2181 §10.1); a name has at most one DNAME
// (RFC 6672 §2.4); a zone's apex holds its SOA and NS records, so never a CNAME.

/**
 * Why a record of `type` cannot join the records whose types are `typesAtName` (the
 * other records already at the same owner name), or null when it can. Identical records
 * are a separate matter (they are one record, RFC 2181 §5).
 */
export function coexistenceProblem(type: string, typesAtName: Iterable<string>): string | null {
  const others = [...typesAtName];
  if (type === "CNAME" && others.includes("CNAME")) return "a name has at most one CNAME record (RFC 2181 §10.1)";
  if (type === "CNAME" && others.length > 0) {
    return `a CNAME cannot share its name with other records (here ${[...new Set(others)].join(", ")}) (RFC 1034 §3.6.2)`;
  }
  if (others.includes("CNAME")) return "the name already has a CNAME record, which must be alone (RFC 1034 §3.6.2)";
  if (type === "DNAME" && others.includes("DNAME")) return "a name has at most one DNAME record (RFC 6672 §2.4)";
  return null;
}

/** Why a record of `type` cannot be at the zone apex, or null. */
export function apexProblem(type: string): string | null {
  if (type === "CNAME") return "a CNAME cannot be at the zone apex, which holds the SOA and NS records (RFC 1034 §3.6.2)";
  // The DS of a zone belongs in its parent, at the delegation (RFC 4034 §5; BIND refuses it).
  if (type === "DS") return "a DS record cannot be at the zone apex: it belongs in the parent zone, at the delegation (RFC 4035 §2.4)";
  return null;
}

// BIND's check-names (lib/dns/rdata: checkowner_in_a, checkowner_in_aaaa, checkowner_mx),
// which a primary zone fails on: the owners of A, AAAA and MX records are host names
// (RFC 952, RFC 1123 §2.1: letters, digits, hyphens; a leading "*" label is a wildcard),
// with two exceptions BIND makes on purpose: Active Directory's gc._msdcs.<forest> for A
// and AAAA, and, for A only, a "_spf", "_spf_verify" or "_spf_rate" label anywhere but the
// last (RFC 7208 §5.7, appendix D.1: the targets of SPF "exists" lookups).
const HOST_OWNER_TYPES = new Set(["A", "AAAA", "MX"]);
const SPF_LABELS = new Set(["_spf", "_spf_verify", "_spf_rate"]);

function isHostName(labels: readonly string[]): boolean {
  return labels.every((label, index) => (index === 0 && label === "*") || !label.includes("_"));
}

/** Why `fqdn` cannot own a record of `type`, or null. */
export function ownerNameProblem(type: string, fqdn: string): string | null {
  const labels = fqdn.split(".");
  // BIND: "invalid NS owner name (wildcard)"; a delegation cannot be synthesised (RFC 4592 §4.2).
  if (type === "NS" && labels[0] === "*") return "an NS record cannot be at a wildcard name (RFC 4592 §4.2)";
  if (!HOST_OWNER_TYPES.has(type) || isHostName(labels)) return null;
  if ((type === "A" || type === "AAAA") && labels.length >= 2 && labels[0] === "gc" && labels[1] === "_msdcs" && isHostName(labels.slice(2))) return null;
  if (type === "A" && labels.slice(0, -1).some((label) => SPF_LABELS.has(label))) return null;
  const bad = labels.find((label, index) => !(index === 0 && label === "*") && label.includes("_"));
  return `the owner of ${type === "A" || type === "AAAA" ? "an" : "a"} ${type} record must be a host name (RFC 1123 §2.1); label "${bad}" has an underscore`;
}

const REVERSE_TREES = ["in-addr.arpa", "ip6.arpa", "ip6.int"];
// DNS-SD's browsing names (RFC 6763 §11) point anywhere, in reverse trees too.
const DNS_SD_PREFIXES = ["b._dns-sd._udp", "db._dns-sd._udp", "r._dns-sd._udp", "dr._dns-sd._udp", "lb._dns-sd._udp"];

/**
 * Why the names inside a record cannot be what they are, for the checks that need its
 * owner: in a reverse tree a PTR names a host (BIND's check-names, checknames_ptr), unless
 * the owner is a DNS-SD browsing name. `names` are the RDATA's names, absolute, no dot.
 */
export function targetNameProblem(type: string, fqdn: string, names: readonly string[]): string | null {
  if (type !== "PTR" || !REVERSE_TREES.some((tree) => fqdn === tree || fqdn.endsWith(`.${tree}`))) return null;
  if (DNS_SD_PREFIXES.some((prefix) => fqdn.startsWith(`${prefix}.`))) return null;
  const bad = names.find((name) => name.split(".").some((label) => label.includes("_")));
  return bad ? `in a reverse zone a PTR record names a host, so ${bad} may not hold an underscore (RFC 1123 §2.1, BIND's check-names)` : null;
}

/**
 * What keeps a record from joining the records at its name: an identical record (RFC 2181
 * §5: they would be one record), or a coexistence rule above. Null when it can join.
 */
export function neighbourConflict(
  record: { name: string; type: string; content: string },
  others: Iterable<{ type: string; content: string }>,
): { kind: "duplicate" | "coexistence"; message: string } | null {
  const atName = [...others];
  if (atName.some((o) => o.type === record.type && o.content === record.content)) {
    return { kind: "duplicate", message: `An identical ${record.type} record (${record.name} ${record.content}) already exists.` };
  }
  const problem = coexistenceProblem(
    record.type,
    atName.map((o) => o.type),
  );
  return problem ? { kind: "coexistence", message: `${record.name}: ${problem}.` } : null;
}

/** RFC 1034 §4.2.1: a zone's apex keeps at least one NS record; null when `record` may leave the apex NS set. */
export function apexNsRemovalProblem(record: { name: string; type: string }, apexNsCount: number): string | null {
  if (record.name !== "@" || record.type !== "NS" || apexNsCount > 1) return null;
  return "This is the zone's last NS record at the apex, which must keep at least one (RFC 1034 §4.2.1).";
}

/**
 * The most an RRset's records may take on the wire: one DNS message is at most 65 535
 * octets (RFC 1035 §4.2.2, over TCP), and an answer holding the whole RRset also carries
 * the header (12), the question and room for a signature and an OPT record (512 kept
 * back). An RRset past it could never be answered whole; about 4 000 A records fit.
 */
export const MAX_RRSET_WIRE_OCTETS = 65_535 - 12 - 512;

/**
 * The octets an answer of the whole RRset takes: the owner once (question), then per
 * record a compressed owner (2), type, class, TTL and length (10) and its RDATA.
 * `rdataOctets` are the wire lengths of the records' RDATA.
 */
export function rrsetWireOctets(fqdn: string, rdataOctets: readonly number[]): number {
  const owner = fqdn === "" ? 1 : fqdn.length + 2;
  return owner + 4 + rdataOctets.reduce((sum, octets) => sum + 12 + octets, 0);
}

/** Why the RRset cannot hold these records (null when it can): too large for one DNS message. */
export function rrsetSizeProblem(shownName: string, type: string, octets: number): string | null {
  if (octets <= MAX_RRSET_WIRE_OCTETS) return null;
  return `the ${type} RRset at ${shownName} would take ${octets} octets on the wire, more than one DNS message carries (${MAX_RRSET_WIRE_OCTETS} for its records, RFC 1035 §4.2.2)`;
}
