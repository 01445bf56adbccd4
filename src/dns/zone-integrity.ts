// The integrity checks BIND runs when it loads a primary zone (named-checkzone -i local
// -M fail -S fail: lib/dns/zone.c zone_check_ns, zone_check_mx, zone_check_srv), as pure
// functions over a zone's records, so that the service never holds a zone BIND refuses:
//
// - every name server of the zone's apex that lies inside the zone must have an address
//   record there (directly or through a wildcard), unless it lies at or below a
//   delegation; it must not be an alias (RFC 2181 §10.3) nor lie below a DNAME;
// - the exchange of an MX and the target of an SRV, where they lie inside the zone, must
//   not be an alias (RFC 2181 §10.3, RFC 2782) nor lie below a DNAME (RFC 6672 §2.3).
//   Records below a delegation or a DNAME are not the zone's own data and go unchecked.
//
// A name is looked up as BIND's database does: going down from the apex, the first
// delegation (NS below the apex; NS wins over a DNAME at the same name) or DNAME met
// above the name decides; then the name's own records; a name that does not exist
// matches the wildcard of its closest encloser (RFC 4592).
import { isWithin } from "./name";
import { rdataNames, recordTypeOf } from "./rdata";

export interface ZoneRecordRef {
  /** Owner: absolute, lower case, no trailing dot. */
  fqdn: string;
  type: string;
  /** Canonical RDATA. */
  content: string;
}

export interface IntegrityProblem<R extends ZoneRecordRef = ZoneRecordRef> {
  /** The record whose target is at fault. */
  record: R;
  message: string;
}

type Lookup = { kind: "address" | "delegation" | "missing" } | { kind: "cname"; at: string } | { kind: "dname"; at: string };

/** The first zone cut met going down from the apex: a delegation (NS below the apex) or a DNAME. */
type Cut = { kind: "delegation" } | { kind: "dname"; at: string } | null;

interface ZoneIndex {
  zone: string;
  /** Types present at each name. */
  types: Map<string, Set<string>>;
  /** Every name that exists: owners and the empty non-terminals above them (RFC 4592 §2.2.2). */
  existing: Set<string>;
  /** Per name, the first cut strictly between the apex and it (memoised: names share their ancestors). */
  cutsAbove: Map<string, Cut>;
  /** Per name that does not exist, its closest encloser (memoised likewise). */
  enclosers: Map<string, string>;
  /** Map probes made, for the tests of cost: linear in the records, whatever the names' depth. */
  probes: number;
}

function parentOf(name: string): string {
  return name.slice(name.indexOf(".") + 1);
}

function indexZone(zone: string, records: readonly ZoneRecordRef[], alsoExisting: Iterable<string> = []): ZoneIndex {
  const types = new Map<string, Set<string>>();
  const existing = new Set<string>([zone]);
  const owners = [...records.map((r) => r.fqdn), ...alsoExisting];
  // Each name is added once, and the walk up stops at the first name already there.
  for (const owner of owners) {
    for (let name = owner; name !== zone && !existing.has(name); name = parentOf(name)) existing.add(name);
  }
  for (const record of records) {
    let set = types.get(record.fqdn);
    if (!set) types.set(record.fqdn, (set = new Set()));
    set.add(record.type);
  }
  return { zone, types, existing, cutsAbove: new Map(), enclosers: new Map(), probes: 0 };
}

function has(index: ZoneIndex, name: string, type: string): boolean {
  index.probes++;
  return index.types.get(name)?.has(type) ?? false;
}

/** The cut a name itself makes for the names below it (NS wins over a DNAME at the same name). */
function cutAt(index: ZoneIndex, name: string): Cut {
  if (has(index, name, "NS")) return { kind: "delegation" };
  if (has(index, name, "DNAME")) return { kind: "dname", at: name };
  return null;
}

/**
 * The first cut going down from the apex strictly above `name` (the apex's own DNAME
 * aside). Walks up only to the nearest name already known, then fills the answers in on
 * the way down: every name is worked out once per index, so deep names cost what
 * shallow ones do (a name of 120 labels is not 120 walks of 120 labels).
 */
function cutAbove(index: ZoneIndex, name: string): Cut {
  const { zone, cutsAbove } = index;
  const pending: string[] = [];
  let at = name;
  let known: Cut = null;
  while (at !== zone) {
    index.probes++;
    const memo = cutsAbove.get(at);
    if (memo !== undefined) {
      known = memo;
      break;
    }
    pending.push(at);
    at = parentOf(at);
  }
  // From the highest name not yet known down to `name`: the highest cut wins.
  for (let i = pending.length - 1; i >= 0; i--) {
    const child = pending[i]!;
    const parent = parentOf(child);
    if (known === null && parent !== zone) known = cutAt(index, parent);
    cutsAbove.set(child, known);
  }
  return known;
}

/** The closest encloser of a name that does not exist (RFC 4592 §3.3.1), memoised per index. */
function closestEncloser(index: ZoneIndex, name: string): string {
  const { zone, existing, enclosers } = index;
  const pending: string[] = [];
  let at = parentOf(name);
  let found = zone;
  for (; at !== zone; at = parentOf(at)) {
    index.probes++;
    const memo = enclosers.get(at);
    if (memo !== undefined) {
      found = memo;
      break;
    }
    if (existing.has(at)) {
      found = at;
      break;
    }
    pending.push(at);
  }
  for (const missing of pending) enclosers.set(missing, found);
  enclosers.set(name, found);
  return found;
}

/** What BIND's dns_db_find answers for an address lookup of `target` inside the zone. */
function lookup(index: ZoneIndex, target: string): Lookup {
  const { zone, types } = index;
  if (has(index, zone, "DNAME") && target !== zone) return { kind: "dname", at: zone };
  if (target !== zone) {
    const cut = cutAbove(index, target);
    if (cut) return cut;
    if (has(index, target, "NS")) return { kind: "delegation" };
  }
  let node = target;
  index.probes++;
  if (!index.existing.has(target)) {
    // The closest encloser's wildcard stands in for a name that does not exist (RFC 4592 §3.3.1).
    const wildcard = `*.${closestEncloser(index, target)}`;
    index.probes++;
    if (!types.has(wildcard)) return { kind: "missing" };
    node = wildcard;
  }
  if (has(index, node, "CNAME")) return { kind: "cname", at: node };
  return has(index, node, "A") || has(index, node, "AAAA") ? { kind: "address" } : { kind: "missing" };
}

/** True when the owner's data is the zone's own: not at or below a delegation, not below a DNAME. */
function visible(index: ZoneIndex, owner: string): boolean {
  const { zone } = index;
  if (owner === zone) return true;
  if (has(index, zone, "DNAME")) return false;
  return cutAbove(index, owner) === null && !has(index, owner, "NS");
}

function what(record: ZoneRecordRef): string {
  return record.type === "NS" ? "the zone's name server" : record.type === "MX" ? "the mail exchanger" : "the SRV target";
}

function targetProblem(index: ZoneIndex, record: ZoneRecordRef, target: string): string | null {
  const found = lookup(index, target);
  const whose = `${what(record)} ${target}`;
  switch (found.kind) {
    case "address":
    case "delegation":
      return null;
    case "missing":
      // BIND warns, and loads the zone, when an MX or SRV target has no address (-m/-S warn).
      return record.type === "NS"
        ? `${whose} lies inside the zone but has no address record (A or AAAA) there; add one before naming it (RFC 1034 §4.2.2)`
        : null;
    case "cname":
      return `${whose} is an alias (CNAME at ${found.at}); ${record.type} records must name a canonical name (RFC 2181 §10.3${record.type === "SRV" ? ", RFC 2782" : ""})`;
    case "dname":
      return `${whose} lies below the DNAME at ${found.at}, which redirects it out of the zone (RFC 6672 §2.3)`;
  }
}

export interface IntegrityScope<R> {
  /** Check only these records (the others are context). */
  only?: (record: R) => boolean;
  /** Names known to exist (records below them were not loaded). */
  existing?: Iterable<string>;
}

/**
 * The records whose target breaks BIND's integrity checks, with why. `records` is every
 * record of the zone, or at least every record at the names the checked targets and owners
 * pass through (`neighbourhood`) and at the targets.
 */
export function integrityProblems<R extends ZoneRecordRef>(zone: string, records: readonly R[], scope: IntegrityScope<R> = {}): IntegrityProblem<R>[] {
  return integrityCheck(zone, records, scope).problems;
}

/** The problems, and the map probes the check made (for the tests of its cost). */
export function integrityCheck<R extends ZoneRecordRef>(
  zone: string,
  records: readonly R[],
  scope: IntegrityScope<R> = {},
): { problems: IntegrityProblem<R>[]; probes: number } {
  const { only } = scope;
  const index = indexZone(zone, records, scope.existing);
  const problems: IntegrityProblem<R>[] = [];
  for (const record of records) {
    if (only && !only(record)) continue;
    const apexNs = record.type === "NS" && record.fqdn === zone;
    if (!apexNs && ((record.type !== "MX" && record.type !== "SRV") || !visible(index, record.fqdn))) continue;
    const type = recordTypeOf(record.type);
    if (!type.ok) continue;
    for (const target of rdataNames(type.type, record.content)) {
      if (!isWithin(target, zone)) continue;
      const message = targetProblem(index, record, target);
      if (message) problems.push({ record, message });
    }
  }
  return { problems, probes: index.probes };
}

/** The names a lookup of `name` passes through: itself, its ancestors in the zone, and the wildcards beside them. */
export function neighbourhood(zone: string, name: string): string[] {
  if (!isWithin(name, zone)) return [];
  const names = [name];
  for (let at = name; at !== zone; ) {
    at = at.slice(at.indexOf(".") + 1);
    names.push(at, `*.${at}`);
  }
  names.push(`*.${name}`);
  return names;
}

/** The types whose targets the check follows (NS at the apex only): they must name a canonical, present name. */
export const TARGET_CHECKED_TYPES: readonly string[] = ["NS", "MX", "SRV"];
/** The types whose addition changes the zone's structure (`changesStructure`). */
export const ALIAS_TYPES: readonly string[] = ["CNAME", "DNAME"];

/** The in-zone names the record's lookups start from: an apex NS, MX or SRV target. */
export function checkedTargets(zone: string, record: ZoneRecordRef): string[] {
  if (!TARGET_CHECKED_TYPES.includes(record.type) || (record.type === "NS" && record.fqdn !== zone)) return [];
  const type = recordTypeOf(record.type);
  return type.ok ? rdataNames(type.type, record.content).filter((name) => isWithin(name, zone)) : [];
}

/**
 * True when a change can break the check of a record other than itself and the apex name
 * servers: an alias or DNAME added (every MX and SRV pointing there or below), a
 * delegation or DNAME removed (the records below it become the zone's own again).
 */
export function changesStructure(zone: string, removed: ZoneRecordRef | null, added: ZoneRecordRef | null): boolean {
  if (added && ALIAS_TYPES.includes(added.type)) return true;
  return removed !== null && (removed.type === "DNAME" || (removed.type === "NS" && removed.fqdn !== zone));
}

const problemKey = (p: IntegrityProblem) => `${p.record.fqdn} ${p.record.type} ${p.record.content} ${p.message}`;

/** The problems `after` has that `before` had not: what a change brings (a zone's old faults are not its fault). */
export function newIntegrityProblems<R extends ZoneRecordRef>(
  zone: string,
  before: readonly R[],
  after: readonly R[],
  scope: IntegrityScope<R> = {},
): IntegrityProblem<R>[] {
  const old = new Set(integrityProblems(zone, before, scope).map(problemKey));
  return integrityProblems(zone, after, scope).filter((problem) => !old.has(problemKey(problem)));
}

/**
 * Why a new zone, which starts with no records but its apex NS, cannot name `nameserver`
 * (absolute, no dot): one inside the zone would have no address there (BIND refuses it).
 */
export function newZoneNameserverProblem(zone: string, nameserver: string): string | null {
  if (!isWithin(nameserver, zone)) return null;
  return `${nameserver} lies inside the zone, which would start with no address record for it (RFC 1034 §4.2.2): create the zone with outside name servers, add the A or AAAA record of ${nameserver}, then its NS record`;
}
