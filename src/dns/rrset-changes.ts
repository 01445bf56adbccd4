// Changes to a zone's RRsets, applied in order to what the zone holds: an RRset is the
// records of one owner name and type (RFC 2181 §5), sharing one TTL (§5.2), its records
// distinct (an identical record is the same record, §5). Pure: the caller gives the
// records the changes touch and gets back each touched RRset as it ends up, and what in
// the result breaks the rules between the records of one name (RFC 1034 §3.6.2, RFC 2181
// §10.1, RFC 6672 §2.4) or leaves the apex without name servers (RFC 1034 §4.2.1).
import { rdataWire, type StoredType } from "./rdata";
import { coexistenceProblem, rrsetSizeProblem, rrsetWireOctets } from "./rrset-rules";

/**
 * `add` puts contents into the RRset (those already there stay, once); `replace` makes
 * the RRset exactly these contents; `remove` takes contents out (absent ones are
 * ignored); `delete` removes the whole RRset.
 */
export type RrsetAction = "add" | "replace" | "remove" | "delete";

export interface RrsetChange {
  action: RrsetAction;
  /** Owner relative to the zone, `@` for the apex. */
  name: string;
  /** Stored type (upper case, or TYPEnnn). */
  type: string;
  /** Canonical RDATA; empty for `delete`. */
  contents: readonly string[];
  /** The RRset's new TTL (`add`, `replace`); absent: the RRset keeps its own, a new one takes the zone's default. */
  ttl?: number | undefined;
}

/** A record of the zone, as the rules need it. */
export interface RrsetMember {
  name: string;
  type: string;
  content: string;
  ttl: number;
}

/** One RRset after the changes: its contents in order (those kept first, then those added). */
export interface RrsetOutcome {
  name: string;
  type: string;
  /** Null once the RRset is empty. */
  ttl: number | null;
  contents: string[];
  /** Index of the last change that touched it (errors name it). */
  lastChange: number;
  /** For each content added by a change: that change's index and the content's index in it. */
  addedBy: Map<string, { change: number; content: number }>;
}

/** A rule the outcome breaks, and the change that brought it (the last one to touch the name). */
export interface RrsetProblem {
  change: number;
  message: string;
}

export function rrsetKey(name: string, type: string): string {
  return `${name} ${type}`;
}

/** The items by key, each list in the items' order: one pass, so a zone of 25 000 records is not searched once per change. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/**
 * Each touched RRset as the changes leave it, in the order the changes first touch them.
 * `current` holds at least every record of the touched RRsets; `defaultTtl` is the TTL of
 * an RRset that a change creates without one.
 */
export function applyRrsetChanges(current: readonly RrsetMember[], changes: readonly RrsetChange[], defaultTtl: number): RrsetOutcome[] {
  const outcomes = new Map<string, RrsetOutcome>();
  const rrsets = groupBy(current, (r) => rrsetKey(r.name, r.type));
  for (const [index, change] of changes.entries()) {
    const key = rrsetKey(change.name, change.type);
    let rrset = outcomes.get(key);
    if (!rrset) {
      const members = rrsets.get(key) ?? [];
      rrset = {
        name: change.name,
        type: change.type,
        ttl: members[0]?.ttl ?? null,
        contents: members.map((r) => r.content),
        lastChange: index,
        addedBy: new Map(),
      };
      outcomes.set(key, rrset);
    }
    rrset.lastChange = index;
    // Sets, so that an RRset of thousands of records replaced by thousands of contents is not quadratic.
    const given = new Set(change.contents);
    switch (change.action) {
      case "add":
      case "replace": {
        if (change.action === "replace") rrset.contents = rrset.contents.filter((content) => given.has(content));
        const present = new Set(rrset.contents);
        for (const [at, content] of change.contents.entries()) {
          if (!present.has(content)) {
            present.add(content);
            rrset.contents.push(content);
            rrset.addedBy.set(content, { change: index, content: at });
          }
        }
        rrset.ttl = rrset.contents.length === 0 ? null : (change.ttl ?? rrset.ttl ?? defaultTtl);
        break;
      }
      case "remove":
        rrset.contents = rrset.contents.filter((content) => !given.has(content));
        if (rrset.contents.length === 0) rrset.ttl = null;
        break;
      case "delete":
        rrset.contents = [];
        rrset.ttl = null;
        break;
    }
  }
  return [...outcomes.values()];
}

/**
 * What the outcome breaks at the names it touches: a CNAME beside other data or twice, a
 * second DNAME (the coexistence rules, each record against the others at its name), and
 * an apex left without NS records. `current` holds every record at the touched names.
 */
export function rrsetOutcomeProblems(current: readonly RrsetMember[], outcomes: readonly RrsetOutcome[]): RrsetProblem[] {
  const problems: RrsetProblem[] = [];
  const atName = groupBy(current, (r) => r.name);
  for (const [name, touched] of groupBy(outcomes, (o) => o.name)) {
    const touchedTypes = new Set(touched.map((o) => o.type));
    // Every record at the name afterwards: the untouched RRsets as they are, the touched ones as they end up.
    const types = [
      ...(atName.get(name) ?? []).filter((r) => !touchedTypes.has(r.type)).map((r) => r.type),
      ...touched.flatMap((o) => o.contents.map(() => o.type)),
    ];
    const change = Math.max(...touched.map((o) => o.lastChange));
    // An alias is checked first, so the message speaks of it ("a CNAME cannot share its name").
    types.sort((a, b) => Number(b === "CNAME") - Number(a === "CNAME"));
    for (const [i, type] of types.entries()) {
      const problem = coexistenceProblem(
        type,
        types.filter((_, j) => j !== i),
      );
      if (problem) {
        problems.push({ change, message: `${name}: ${problem}` });
        break;
      }
    }
  }
  const apexNs = outcomes.find((o) => o.name === "@" && o.type === "NS");
  if (apexNs && apexNs.contents.length === 0) {
    problems.push({ change: apexNs.lastChange, message: "the zone apex must keep at least one NS record (RFC 1034 §4.2.1)" });
  }
  return problems;
}

/**
 * The RRsets the changes leave too large for one DNS message (RFC 1035 §4.2.2,
 * `rrsetSizeProblem`), each naming the last change that touched it. `zone` is the zone's
 * name, for the owner's octets.
 */
export function rrsetSizeProblems(zone: string, outcomes: readonly RrsetOutcome[]): RrsetProblem[] {
  const problems: RrsetProblem[] = [];
  for (const outcome of outcomes) {
    if (outcome.contents.length === 0) continue;
    const octets = rrsetWireOctets(
      outcome.name === "@" ? zone : `${outcome.name}.${zone}`,
      outcome.contents.map((content) => {
        const wire = rdataWire(outcome.type as StoredType, content);
        return wire.ok ? wire.value.length : 0;
      }),
    );
    const problem = rrsetSizeProblem(outcome.name, outcome.type, octets);
    if (problem) problems.push({ change: outcome.lastChange, message: problem });
  }
  return problems;
}
