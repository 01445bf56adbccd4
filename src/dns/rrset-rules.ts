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
  return type === "CNAME" ? "a CNAME cannot be at the zone apex, which holds the SOA and NS records (RFC 1034 §3.6.2)" : null;
}

// RFC 1123 §2.1 / RFC 952: the owners of address and mail-exchanger records are host
// names (letters, digits, hyphens); BIND refuses anything else in a primary zone
// (check-names). Service labels (`_sip._tcp`) belong to SRV, TXT and the like.
const HOST_OWNER_TYPES = new Set(["A", "AAAA", "MX"]);

/** Why `fqdn` cannot own a record of `type`, or null. */
export function ownerNameProblem(type: string, fqdn: string): string | null {
  if (!HOST_OWNER_TYPES.has(type)) return null;
  const labels = fqdn.split(".");
  const bad = labels.find((label, index) => !(index === 0 && label === "*") && label.includes("_"));
  return bad
    ? `the owner of ${type === "A" || type === "AAAA" ? "an" : "a"} ${type} record must be a host name (RFC 1123 §2.1); label "${bad}" has an underscore`
    : null;
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
