// DNS UPDATE (RFC 2136) as pure rules over a zone's records: the zone section (§3.1), the
// prerequisites (§3.2), the prescan of the update section (§3.4.1) and its application
// (§3.4.2), giving each touched RRset as the update leaves it (src/dns/rrset-changes.ts's
// `RrsetOutcome`), which the caller then holds to the rules every record write obeys. Where
// the service decides otherwise than the RFC, it says so (docs/dns-update.md):
//
// - the SOA is the service's: an update of it is ignored, whatever its serial (§3.4.2.2
//   would take a higher one); the serial takes one step for the whole update instead;
// - a record the API would refuse (its RDATA, its owner, a type the service does not store)
//   refuses the whole update, REFUSED, rather than being silently skipped;
// - a CNAME beside other data, in the zone as the update leaves it, is REFUSED (§3.4.2.2
//   ignores such an add); a CNAME added where a CNAME is replaces it, as §3.4.2.2 says.
import { ancestorNames, isWithin } from "./name";
import { CLASS_ANY, CLASS_IN, CLASS_NONE, type MessageRecord, nameText, type RcodeName, TYPE_ANY } from "./message";
import { canonicalRdata, recordTypeOf, type StoredType } from "./rdata";
import { checkRecord } from "./record";
import type { RrsetMember, RrsetOutcome } from "./rrset-changes";
import { MAX_TTL } from "./ttl";

/** Why an update is answered with an rcode other than NOERROR, and the reason the service logs. */
export interface UpdateRefusal {
  rcode: RcodeName;
  reason: string;
}

const refusal = (rcode: RcodeName, reason: string): UpdateRefusal => ({ rcode, reason });

/** One RR of the update section, prescanned (§3.4.1.3): what it does, to which owner and type. */
export type UpdateOperation =
  /** Class IN: the record joins its RRset (§3.4.2.2). */
  | { kind: "add"; index: number; name: string; type: StoredType; content: string; ttl: number }
  /** Class ANY, type T: the RRset goes (§3.4.2.3). */
  | { kind: "deleteRrset"; index: number; name: string; type: StoredType }
  /** Class ANY, type ANY: every RRset at the name goes (§3.4.2.3). */
  | { kind: "deleteName"; index: number; name: string }
  /** Class NONE: the record goes (§3.4.2.4). */
  | { kind: "deleteRecord"; index: number; name: string; type: StoredType; content: string }
  /** What is ignored: the SOA (the service's own), and deletions of types the zone never holds. */
  | { kind: "ignored"; index: number; name: string };

/** An owner name from the wire, relative to `zone` (`@` the apex), or null when outside it. */
export function ownerIn(zone: string, record: Pick<MessageRecord, "name">): { fqdn: string; relative: string } | null {
  const fqdn = nameText(record.name);
  if (!isWithin(fqdn, zone)) return null;
  return { fqdn, relative: fqdn === zone ? "@" : fqdn.slice(0, -(zone.length + 1)) };
}

/** RDATA as RFC 3597's generic form, which every type's parser reads through its `fromWire`. */
export function genericRdata(rdata: Uint8Array): string {
  let hex = "";
  for (const octet of rdata) hex += octet.toString(16).padStart(2, "0");
  return `\\# ${rdata.length}${rdata.length > 0 ? ` ${hex}` : ""}`;
}

/** RFC 2181 §8: a TTL with its top bit set is read as 0. */
function ttlOf(ttl: number): number {
  return ttl > MAX_TTL ? 0 : ttl;
}

type TypeOf = { kind: "stored"; type: StoredType } | { kind: "soa" } | { kind: "any" } | { kind: "meta" } | { kind: "unstored"; why: string };

function typeOf(code: number): TypeOf {
  if (code === TYPE_ANY) return { kind: "any" };
  const found = recordTypeOf(`TYPE${code}`);
  if (found.ok) return { kind: "stored", type: found.type };
  if (found.kind === "soa") return { kind: "soa" };
  if (found.kind === "meta") return { kind: "meta" };
  return { kind: "unstored", why: found.error };
}

/** The canonical content of RDATA read from the wire, or why it is not valid RDATA of its type (FORMERR). */
function canonicalWireRdata(type: StoredType, rdata: Uint8Array): { ok: true; content: string } | { ok: false; error: string } {
  const content = canonicalRdata(type, genericRdata(rdata), null);
  return content.ok ? content : { ok: false, error: content.error };
}

/**
 * The update section read as operations (§3.4.1.3: a record outside the zone is NOTZONE;
 * a class, TTL or RDATA length the section does not allow is FORMERR), each record to add
 * checked as the API checks a created record (REFUSED naming the rule, FORMERR when its
 * RDATA does not read as its type).
 */
export function prescanUpdates(
  zone: string,
  records: readonly MessageRecord[],
): { ok: true; operations: UpdateOperation[] } | { ok: false; refusal: UpdateRefusal } {
  const operations: UpdateOperation[] = [];
  for (const [index, record] of records.entries()) {
    const at = `update record ${index + 1}`;
    const owner = ownerIn(zone, record);
    if (!owner) return { ok: false, refusal: refusal("NOTZONE", `${at}: ${nameText(record.name) || "."} is not in the zone ${zone}`) };
    const type = typeOf(record.type);
    const name = owner.relative;
    if (record.class === CLASS_IN) {
      if (type.kind === "any" || type.kind === "meta")
        return { ok: false, refusal: refusal("FORMERR", `${at}: TYPE${record.type} cannot be added (a meta-type)`) };
      if (type.kind === "soa") {
        operations.push({ kind: "ignored", index, name });
        continue;
      }
      if (type.kind === "unstored") return { ok: false, refusal: refusal("REFUSED", `${at}: ${type.why}`) };
      const { record: checked, errors } = checkRecord(zone, { name: `${owner.fqdn}.`, type: type.type, content: genericRdata(record.rdata) });
      if (errors.length > 0) {
        const rdata = errors.find((e) => e.field === "content" && e.message.startsWith("generic "));
        return {
          ok: false,
          refusal: rdata
            ? refusal("FORMERR", `${at} (${owner.fqdn} ${type.type}): ${rdata.message}`)
            : refusal("REFUSED", `${at} (${owner.fqdn} ${type.type}): ${errors.map((e) => e.message).join("; ")}`),
        };
      }
      operations.push({ kind: "add", index, name: checked.name, type: checked.type, content: checked.content, ttl: ttlOf(record.ttl) });
    } else if (record.class === CLASS_ANY) {
      if (record.ttl !== 0 || record.rdata.length !== 0)
        return { ok: false, refusal: refusal("FORMERR", `${at}: a deletion (class ANY) has TTL 0 and no RDATA`) };
      if (type.kind === "meta") return { ok: false, refusal: refusal("FORMERR", `${at}: TYPE${record.type} names no RRset`) };
      if (type.kind === "any") operations.push({ kind: "deleteName", index, name });
      else if (type.kind === "stored") operations.push({ kind: "deleteRrset", index, name, type: type.type });
      else operations.push({ kind: "ignored", index, name });
    } else if (record.class === CLASS_NONE) {
      if (record.ttl !== 0) return { ok: false, refusal: refusal("FORMERR", `${at}: a deletion of a record (class NONE) has TTL 0`) };
      if (type.kind === "any" || type.kind === "meta") return { ok: false, refusal: refusal("FORMERR", `${at}: TYPE${record.type} names no record`) };
      if (type.kind !== "stored") {
        operations.push({ kind: "ignored", index, name });
        continue;
      }
      const content = canonicalWireRdata(type.type, record.rdata);
      if (!content.ok) return { ok: false, refusal: refusal("FORMERR", `${at} (${owner.fqdn} ${type.type}): ${content.error}`) };
      operations.push({ kind: "deleteRecord", index, name, type: type.type, content: content.content });
    } else {
      return { ok: false, refusal: refusal("FORMERR", `${at}: class ${record.class} is none of IN, ANY and NONE (RFC 2136 §3.4.1.3)`) };
    }
  }
  return { ok: true, operations };
}

/** What a prerequisite or update record names, inside the zone: the owners to read. */
export function namesNamed(zone: string, records: readonly MessageRecord[]): string[] {
  const names = new Set<string>();
  for (const record of records) {
    const owner = ownerIn(zone, record);
    if (owner) names.add(owner.relative);
  }
  return [...names];
}

/** The zone's records at the names the update reads, and its SOA (which is no record here). */
export interface ZoneState {
  zone: string;
  /** Every record at the names the prerequisites and updates name. */
  records: readonly RrsetMember[];
  /** The SOA's RDATA in canonical wire form, for a value-dependent prerequisite on it. */
  soaRdata: Uint8Array;
}

function sameOctets(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((octet, i) => octet === b[i]);
}

/**
 * The prerequisites (§3.2), in order: the first that fails decides the rcode (NXDOMAIN,
 * YXDOMAIN, NXRRSET, YXRRSET; NOTZONE outside the zone, FORMERR for a malformed one), and
 * the value-dependent ones (class IN) are compared RRset by RRset after the others
 * (§3.2.3: NXRRSET unless each equals the zone's). Null when they all hold.
 */
export function prerequisiteRefusal(state: ZoneState, records: readonly MessageRecord[]): UpdateRefusal | null {
  const { zone } = state;
  const atName = (name: string) => state.records.filter((r) => r.name === name);
  const rrsetExists = (name: string, type: TypeOf) =>
    type.kind === "soa" ? name === "@" : type.kind === "stored" && atName(name).some((r) => r.type === type.type);
  const wanted = new Map<string, { name: string; type: TypeOf; code: number; contents: Set<string>; soa: Uint8Array[] }>();
  for (const [index, record] of records.entries()) {
    const at = `prerequisite ${index + 1}`;
    const owner = ownerIn(zone, record);
    if (!owner) return refusal("NOTZONE", `${at}: ${nameText(record.name) || "."} is not in the zone ${zone}`);
    if (record.ttl !== 0) return refusal("FORMERR", `${at}: a prerequisite has TTL 0`);
    const name = owner.relative;
    const type = typeOf(record.type);
    // The apex always holds the SOA: the name is in use.
    const inUse = name === "@" || atName(name).length > 0;
    if (record.class === CLASS_ANY || record.class === CLASS_NONE) {
      if (record.rdata.length !== 0) return refusal("FORMERR", `${at}: class ANY and NONE prerequisites have no RDATA`);
      const exists = record.class === CLASS_ANY;
      if (type.kind === "any") {
        if (exists && !inUse) return refusal("NXDOMAIN", `${at}: ${owner.fqdn} holds no records (prerequisite: name in use)`);
        if (!exists && inUse) return refusal("YXDOMAIN", `${at}: ${owner.fqdn} holds records (prerequisite: name not in use)`);
        continue;
      }
      if (type.kind === "meta") return refusal("FORMERR", `${at}: TYPE${record.type} names no RRset`);
      const present = rrsetExists(name, type);
      if (exists && !present) return refusal("NXRRSET", `${at}: ${owner.fqdn} has no TYPE${record.type} RRset (prerequisite: RRset exists)`);
      if (!exists && present) return refusal("YXRRSET", `${at}: ${owner.fqdn} has a TYPE${record.type} RRset (prerequisite: RRset does not exist)`);
    } else if (record.class === CLASS_IN) {
      if (type.kind === "any" || type.kind === "meta") return refusal("FORMERR", `${at}: TYPE${record.type} names no RRset`);
      const key = `${name} ${record.type}`;
      const entry = wanted.get(key) ?? { name, type, code: record.type, contents: new Set<string>(), soa: [] };
      wanted.set(key, entry);
      if (type.kind === "soa") entry.soa.push(record.rdata);
      else if (type.kind === "stored") {
        const content = canonicalWireRdata(type.type, record.rdata);
        if (!content.ok) return refusal("FORMERR", `${at}: ${content.error}`);
        entry.contents.add(content.content);
      } else entry.contents.add(genericRdata(record.rdata));
    } else {
      return refusal("FORMERR", `${at}: class ${record.class} is none of IN, ANY and NONE (RFC 2136 §3.2.4)`);
    }
  }
  for (const { name, type, code, contents, soa } of wanted.values()) {
    const fqdn = name === "@" ? zone : `${name}.${zone}`;
    const mismatch = () => refusal("NXRRSET", `${fqdn} TYPE${code}: the RRset is not the one the prerequisites give (RFC 2136 §3.2.3)`);
    if (type.kind === "soa") {
      if (name !== "@" || !soa.every((rdata) => sameOctets(canonicalSoa(rdata), state.soaRdata))) return mismatch();
      continue;
    }
    const stored = type.kind === "stored" ? atName(name).filter((r) => r.type === type.type) : [];
    const storedContents = new Set(stored.map((r) => r.content));
    if (storedContents.size !== contents.size || [...contents].some((c) => !storedContents.has(c))) return mismatch();
  }
  return null;
}

/** An SOA's RDATA with its two names lower-cased (RFC 4034 §6.2), for comparison. */
function canonicalSoa(rdata: Uint8Array): Uint8Array {
  const out = rdata.slice();
  let at = 0;
  for (let name = 0; name < 2; name++) {
    while (at < out.length && out[at] !== 0) {
      const length = out[at]!;
      for (let i = at + 1; i <= at + length && i < out.length; i++) if (out[i]! >= 0x41 && out[i]! <= 0x5a) out[i]! += 0x20;
      at += length + 1;
    }
    at++;
  }
  return out;
}

interface RrsetState {
  name: string;
  type: string;
  ttl: number | null;
  contents: string[];
  lastChange: number;
  addedBy: Map<string, { change: number; content: number }>;
  original: Set<string>;
}

/**
 * The update applied in order (§3.4.2) to the records at its names (`current` holds every
 * record at every name it touches): each touched RRset as it ends up, in the order first
 * touched. An RRset's records share the TTL of the last record added to it (RFC 2181
 * §5.2). At the apex, the NS RRset is never deleted whole and its last record stays
 * (§3.4.2.3, §3.4.2.4); the SOA is the service's (ignored).
 */
export function applyUpdates(current: readonly RrsetMember[], operations: readonly UpdateOperation[], defaultTtl: number): RrsetOutcome[] {
  const rrsets = new Map<string, RrsetState>();
  const byName = new Map<string, Set<string>>();
  for (const record of current) {
    const key = `${record.name} ${record.type}`;
    let rrset = rrsets.get(key);
    if (!rrset) {
      rrset = { name: record.name, type: record.type, ttl: record.ttl, contents: [], lastChange: -1, addedBy: new Map(), original: new Set() };
      rrsets.set(key, rrset);
      byName.set(record.name, (byName.get(record.name) ?? new Set()).add(record.type));
    }
    rrset.contents.push(record.content);
    rrset.original.add(record.content);
  }
  const touched: RrsetState[] = [];
  const rrsetOf = (name: string, type: string, index: number): RrsetState => {
    const key = `${name} ${type}`;
    let rrset = rrsets.get(key);
    if (!rrset) {
      rrset = { name, type, ttl: null, contents: [], lastChange: -1, addedBy: new Map(), original: new Set() };
      rrsets.set(key, rrset);
      byName.set(name, (byName.get(name) ?? new Set()).add(type));
    }
    if (rrset.lastChange < 0) touched.push(rrset);
    rrset.lastChange = index;
    return rrset;
  };
  const empty = (rrset: RrsetState) => {
    rrset.contents = [];
    rrset.ttl = null;
  };
  for (const op of operations) {
    switch (op.kind) {
      case "ignored":
        break;
      case "add": {
        // §3.4.2.2: a CNAME replaces the CNAME at its name (a name has one).
        const rrset = rrsetOf(op.name, op.type, op.index);
        if (op.type === "CNAME") rrset.contents = rrset.contents.filter((c) => c === op.content);
        if (!rrset.contents.includes(op.content)) {
          rrset.contents.push(op.content);
          if (!rrset.original.has(op.content)) rrset.addedBy.set(op.content, { change: op.index, content: 0 });
        }
        rrset.ttl = op.ttl;
        break;
      }
      case "deleteRrset":
        if (op.name === "@" && op.type === "NS") break;
        empty(rrsetOf(op.name, op.type, op.index));
        break;
      case "deleteName":
        for (const type of byName.get(op.name) ?? []) {
          if (op.name === "@" && type === "NS") continue;
          const rrset = rrsets.get(`${op.name} ${type}`)!;
          if (rrset.contents.length > 0) empty(rrsetOf(op.name, type, op.index));
        }
        break;
      case "deleteRecord": {
        const rrset = rrsets.get(`${op.name} ${op.type}`);
        if (!rrset?.contents.includes(op.content)) break;
        if (op.name === "@" && op.type === "NS" && rrset.contents.length === 1) break;
        rrsetOf(op.name, op.type, op.index).contents = rrset.contents.filter((c) => c !== op.content);
        if (rrset.contents.length === 0) rrset.ttl = null;
        break;
      }
    }
  }
  return touched.map((rrset) => ({
    name: rrset.name,
    type: rrset.type,
    ttl: rrset.contents.length === 0 ? null : (rrset.ttl ?? defaultTtl),
    contents: rrset.contents,
    lastChange: rrset.lastChange,
    addedBy: new Map([...rrset.addedBy].filter(([content]) => rrset.contents.includes(content))),
  }));
}

/**
 * The names whose records the rules of the zone as a whole look at, for an update that
 * writes at `owners` (relative) and adds records pointing at `targets` (absolute): each
 * name, its ancestors up to the apex and the wildcards beside them (the lookups BIND's
 * integrity checks make: src/dns/zone-integrity.ts `neighbourhood`), relative to the zone.
 */
export function namesAround(zone: string, fqdns: Iterable<string>): string[] {
  const names = new Set<string>(["@", "*"]);
  for (const fqdn of fqdns) {
    if (!isWithin(fqdn, zone)) continue;
    const relative = (name: string) => (name === zone ? "@" : name.slice(0, -(zone.length + 1)));
    names.add(relative(fqdn));
    names.add(relative(`*.${fqdn}`));
    for (const ancestor of ancestorNames(fqdn)) {
      if (!isWithin(ancestor, zone)) break;
      names.add(relative(ancestor));
      names.add(relative(`*.${ancestor}`));
    }
  }
  return [...names];
}
