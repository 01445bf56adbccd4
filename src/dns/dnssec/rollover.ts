// DNSSEC key rollovers as pure knowledge (contract §22, docs/dnssec-rollovers.md): which
// state each key of a zone is in, what it does in that state, and when it may take its next
// step. No clock, no I/O: every function takes the zone's keys and `now` and returns the
// transitions due, the DS set the parent must show, the CDS set to publish and the events.
//
// The methods (RFC 6781 §4.1, RFC 7583 §3):
// - a ZSK rolls by pre-publication (RFC 7583 §3.2.1): the new key is published, then signs;
//   the old one stays published until its signatures are gone from every cache;
// - a KSK, and a combined key (CSK), roll by double-DS (§3.3.2): the new key is published
//   (not signing) and its DS added beside the old one; once every cache holds both DS, the
//   new key signs and the old stops; once no cache holds what only the old key signed, the
//   old key and its DS go. The new key is published with its DS (not after it, as §3.3.2
//   has it) because a parent that reads CDS takes only a DS whose key the zone publishes;
// - an algorithm rolls as RFC 6781 §4.1.4 says: the new keys' signatures first, then their
//   DNSKEYs, then the DS; the old DNSKEYs go before the old signatures.
// Key states are RFC 7583 §3.1's (published, ready, active, retired, removed) with Knot's
// two for algorithm rolls: pre-published (signing, not yet in the DNSKEY RRset) and
// post-active (out of the DNSKEY RRset, still signing).
import {
  DEFAULT_POLL_INTERVAL,
  DEFAULT_STALL_AFTER,
  REST_POLL_INTERVAL,
  type KeyIntervals,
  keyIntervals,
  type ParentTiming,
  type ZoneTiming,
} from "./key-timing";
import { isSigningAlgorithm, type SigningAlgorithm, type SigningPolicy } from "./signing-policy";

/** A combined signing key signs everything; a KSK the DNSKEY RRset (and CDS, CDNSKEY); a ZSK the rest. */
export type KeyRole = "ksk" | "zsk" | "csk";

export const KEY_STATES = ["pre-published", "published", "ready", "active", "retired", "post-active", "removed"] as const;
export type KeyState = (typeof KEY_STATES)[number];

/**
 * Where the key's DS stands at the parent: `absent` (not there, as far as known), `submitted`
 * (wanted, not yet seen there), `seen` (wanted and seen there), `withdrawn` (not wanted, still
 * seen there last).
 */
export type DsState = "absent" | "submitted" | "seen" | "withdrawn";

/** One key of a zone and its timeline (RFC 7583 §3.1's times; ISO 8601, null until reached). */
export interface SigningKey {
  id: string;
  role: KeyRole;
  algorithm: SigningAlgorithm;
  state: KeyState;
  pre_published_at: string | null;
  published_at: string | null;
  ready_at: string | null;
  active_at: string | null;
  /** When it stopped being used as before: retired, or post-active in an algorithm roll. */
  retired_at: string | null;
  removed_at: string | null;
  ds: DsState;
  ds_since: string | null;
  /** When the key's next step is due, if it waits for time (null when it waits for the parent, or for nothing). */
  next_step_at: string | null;
}

export type RolloverKind = "zsk" | "ksk" | "csk" | "algorithm";
/** What a zone's keys are going through: a roll, the first signing, or the way out of DNSSEC. */
export type SigningProcessKind = RolloverKind | "sign" | "unsign";

export interface SigningProcess {
  kind: SigningProcessKind;
  started_at: string;
  /** When `dnssec.rollover.stalled` was reported for the parent step it waits for (once per step). */
  stalled_at: string | null;
}

export interface SigningZone {
  policy: SigningPolicy;
  keys: readonly SigningKey[];
  /** The process running, at most one per zone; null when the keys are at rest. */
  rollover: SigningProcess | null;
  timing: ZoneTiming;
  parent: ParentTiming;
  now: Date;
}

export const DNSSEC_EVENT_TYPES = [
  "dnssec.key.published",
  "dnssec.key.ready",
  "dnssec.key.active",
  "dnssec.key.retired",
  "dnssec.key.removed",
  "dnssec.ds.submitted",
  "dnssec.ds.seen",
  "dnssec.rollover.stalled",
] as const;
export type DnssecEventType = (typeof DNSSEC_EVENT_TYPES)[number];

/**
 * One step seen from outside. Key events name the key and the state it entered (a
 * pre-published key is `dnssec.key.published` with state `pre-published`, a post-active one
 * `dnssec.key.retired` with state `post-active`); DS events carry the DS set, as key ids.
 */
export interface DnssecEvent {
  type: DnssecEventType;
  at: string;
  key: string | null;
  state: KeyState | null;
  ds: string[] | null;
}

export interface KeyChange {
  key: string;
  from: KeyState | null;
  to: KeyState;
  at: string;
}

/**
 * The CDS and CDNSKEY RRsets to publish at the apex (RFC 7344 §4): those of the wanted DS set,
 * RFC 8078 §4's delete ("CDS 0 0 0 00", "CDNSKEY 0 3 0 AA==") while the zone leaves DNSSEC, or
 * none.
 */
export type CdsSet = { kind: "none" } | { kind: "keys"; keys: string[] } | { kind: "delete" };

/**
 * The CDS set a zone publishes for these keys: RFC 8078 §4's delete while it leaves DNSSEC
 * (keys still live), else the keys whose DS the parent must show (submitted or seen) that
 * the DNSKEY RRset holds (RFC 7344 §4.1: a CDS names only a key the zone publishes), or none.
 * What the tier serves at the apex (src/serving/dnssec.ts) and the zone's JSON shows.
 */
export function cdsOf(keys: readonly Pick<SigningKey, "id" | "state" | "ds">[], rollover: Pick<SigningProcess, "kind"> | null): CdsSet {
  if (rollover?.kind === "unsign" && keys.some((k) => k.state !== "removed")) return { kind: "delete" };
  const wanted = keys.filter((k) => (k.ds === "submitted" || k.ds === "seen") && isPublished(k)).map((k) => k.id);
  return wanted.length > 0 ? { kind: "keys", keys: wanted } : { kind: "none" };
}

export const CDS_DELETE = "0 0 0 00";
export const CDNSKEY_DELETE = "0 3 0 AA==";

/**
 * The parent step a zone waits for: the DS change it must follow (a DS to add, or one to
 * drop) sent at `since`, due by `expected_at` (Dreg later), the roll stalled at `stalls_at`
 * (`stallAfter` past that); `stalls_at` null for keys at rest, where no roll waits to stall.
 */
export interface AwaitingParent {
  since: string;
  expected_at: string;
  stalls_at: string | null;
}

export interface RolloverRequest {
  kind: RolloverKind;
  algorithm?: number;
}

export interface StepResult {
  /** Every key after the step, removed ones included (state `removed`). */
  keys: SigningKey[];
  /** Keys this call created (a process started): the caller makes their key material. */
  created: SigningKey[];
  changes: KeyChange[];
  /** The DS set (key ids) the parent must show, when this call changed it; null when unchanged. */
  dsWanted: string[] | null;
  cds: CdsSet;
  events: DnssecEvent[];
  rollover: SigningProcess | null;
  /** The earliest moment the zone may have something to do: run `nextSteps` again then. */
  next_step_at: string | null;
  /** A roll the policy or a key's lifetime asks for, due at `at` (started by `nextSteps` itself when given `newKeyId`). */
  due: (RolloverRequest & { at: string }) | null;
  awaiting_parent: AwaitingParent | null;
}

export interface RolloverRefusal {
  ok: false;
  /** 409: the zone's state forbids it now; 422: the request names what the zone cannot do. */
  status: 409 | 422;
  reason: "rollover_running" | "not_signed" | "already_signed" | "wrong_kind" | "wrong_algorithm";
  field: string | null;
  message: string;
}

export type Started = { ok: true; result: StepResult; policy: SigningPolicy } | RolloverRefusal;

/** Makes the id of a key a process creates (the caller's id scheme; deterministic in tests). */
export type NewKeyId = (role: KeyRole, algorithm: SigningAlgorithm) => string;

const EVENT_OF_STATE: Record<KeyState, DnssecEventType> = {
  "pre-published": "dnssec.key.published",
  published: "dnssec.key.published",
  ready: "dnssec.key.ready",
  active: "dnssec.key.active",
  retired: "dnssec.key.retired",
  "post-active": "dnssec.key.retired",
  removed: "dnssec.key.removed",
};

type KeyTime = "pre_published_at" | "published_at" | "ready_at" | "active_at" | "retired_at" | "removed_at";

const TIME_OF_STATE: Record<KeyState, KeyTime> = {
  "pre-published": "pre_published_at",
  published: "published_at",
  ready: "ready_at",
  active: "active_at",
  retired: "retired_at",
  "post-active": "retired_at",
  removed: "removed_at",
};

/** A KSK or a CSK: the key a DS points at (Secure Entry Point, RFC 4034 §2.1.1). */
export function isEntryPoint(key: Pick<SigningKey, "role">): boolean {
  return key.role !== "zsk";
}

function signsZoneData(key: Pick<SigningKey, "role">): boolean {
  return key.role !== "ksk";
}

/** Whether the key is in the zone's DNSKEY RRset. */
export function isPublished(key: Pick<SigningKey, "state">): boolean {
  return key.state === "published" || key.state === "ready" || key.state === "active" || key.state === "retired";
}

/**
 * Whether the key makes signatures: when active; in an algorithm roll also before it is
 * published (pre-published, and published or ready after that: RFC 6781 §4.1.4's new
 * signatures come first) and after it left the DNSKEY RRset (post-active).
 */
export function isSigning(key: Pick<SigningKey, "state" | "pre_published_at">): boolean {
  switch (key.state) {
    case "active":
    case "pre-published":
    case "post-active":
      return true;
    case "published":
    case "ready":
      return key.pre_published_at !== null;
    default:
      return false;
  }
}

/** What the tier must serve for these keys: the DNSKEY RRset, and who signs it and the rest. */
export interface SigningView {
  /** The keys in the DNSKEY RRset. */
  dnskey: string[];
  /** The keys whose RRSIGs cover the DNSKEY RRset (and CDS, CDNSKEY). */
  signsDnskey: string[];
  /** The keys whose RRSIGs cover every other RRset, denial of existence included. */
  signsZone: string[];
}

export function signingView(keys: readonly SigningKey[]): SigningView {
  return {
    dnskey: keys.filter(isPublished).map((k) => k.id),
    signsDnskey: keys.filter((k) => isSigning(k) && isEntryPoint(k)).map((k) => k.id),
    signsZone: keys.filter((k) => isSigning(k) && signsZoneData(k)).map((k) => k.id),
  };
}

/**
 * The flags PowerDNS's `getDomainKeys` wants for a key: `published` (in the DNSKEY RRset) and
 * `active` (signs). PowerDNS decides per algorithm what an active key signs: where the
 * algorithm has an active key with flags 257 and one with 256, the 257 ones sign the DNSKEY
 * RRset and the 256 ones the rest; otherwise every active key of it signs everything. A KSK
 * and a CSK have flags 257, a ZSK 256, and no state of a roll has an active KSK without an
 * active ZSK of its algorithm, nor an active CSK beside one: so PowerDNS signs as `signingView`.
 */
export function powerDnsFlags(key: SigningKey): { flags: 256 | 257; published: boolean; active: boolean } {
  return { flags: isEntryPoint(key) ? 257 : 256, published: isPublished(key), active: isSigning(key) };
}

const iso = (ms: number) => new Date(ms).toISOString();
const ms = (text: string) => Date.parse(text);

function blankKey(id: string, role: KeyRole, algorithm: SigningAlgorithm): SigningKey {
  return {
    id,
    role,
    algorithm,
    state: "published",
    pre_published_at: null,
    published_at: null,
    ready_at: null,
    active_at: null,
    retired_at: null,
    removed_at: null,
    ds: "absent",
    ds_since: null,
    next_step_at: null,
  };
}

function rolesOf(policy: Pick<SigningPolicy, "single_key">): KeyRole[] {
  return policy.single_key ? ["csk"] : ["ksk", "zsk"];
}

/** Seconds to milliseconds. */
const s = (seconds: number) => seconds * 1000;

/** What the zone's keys do next: a step was taken, they wait for a time, for the parent to follow these keys' DS, or for nothing. */
type Phase = { kind: "changed" } | { kind: "wait"; at: number; keys: SigningKey[] } | { kind: "parent"; keys: SigningKey[] } | { kind: "done" };

/** One call's work on a copy of the zone's keys. */
class Stepper {
  readonly keys: SigningKey[];
  readonly created: SigningKey[] = [];
  readonly changes: KeyChange[] = [];
  readonly events: DnssecEvent[] = [];
  rollover: SigningProcess | null;
  dsChanged = false;
  readonly now: number;
  readonly at: string;
  readonly i: KeyIntervals;

  constructor(readonly zone: SigningZone) {
    this.keys = zone.keys.map((k) => ({ ...k, next_step_at: null }));
    this.rollover = zone.rollover ? { ...zone.rollover } : null;
    this.now = zone.now.getTime();
    this.at = iso(this.now);
    this.i = keyIntervals(zone.timing, zone.parent);
  }

  live(): SigningKey[] {
    return this.keys.filter((k) => k.state !== "removed");
  }

  move(key: SigningKey, to: KeyState, from: KeyState | null = key.state) {
    this.changes.push({ key: key.id, from, to, at: this.at });
    key.state = to;
    key[TIME_OF_STATE[to]] = this.at;
    this.events.push({ type: EVENT_OF_STATE[to], at: this.at, key: key.id, state: to, ds: null });
  }

  create(role: KeyRole, algorithm: SigningAlgorithm, newKeyId: NewKeyId, to: KeyState): SigningKey {
    const key = blankKey(newKeyId(role, algorithm), role, algorithm);
    this.keys.push(key);
    this.created.push(key);
    this.move(key, to, null);
    return key;
  }

  setDs(key: SigningKey, state: DsState) {
    key.ds = state;
    key.ds_since = this.at;
    this.dsChanged = true;
  }

  wanted(): string[] {
    return this.keys.filter((k) => k.ds === "submitted" || k.ds === "seen").map((k) => k.id);
  }

  submitted() {
    this.events.push({ type: "dnssec.ds.submitted", at: this.at, key: null, state: null, ds: this.wanted() });
    if (this.rollover) this.rollover.stalled_at = null;
  }

  /** Keys whose DS change the parent has not followed yet: a DS to add (`submitted`) or to drop (`withdrawn`). */
  pendingAtParent(): SigningKey[] {
    return this.keys.filter((k) => k.ds === "submitted" || k.ds === "withdrawn");
  }

  /** The step waits for the parent to follow the pending DS changes (and these keys'). */
  parent(also: SigningKey[] = []): Phase {
    const pending = this.pendingAtParent();
    return { kind: "parent", keys: [...pending, ...also.filter((k) => !pending.includes(k))] };
  }

  /** `due` reached: the step may be taken now; otherwise wait for it. */
  due(at: number, keys: SigningKey[]): Phase | null {
    return this.now >= at ? null : { kind: "wait", at, keys };
  }

  phase(): Phase {
    switch (this.rollover?.kind) {
      case "sign":
        return this.signPhase();
      case "zsk":
        return this.zskPhase();
      case "ksk":
      case "csk":
        return this.doubleDsPhase();
      case "algorithm":
        return this.algorithmPhase();
      case "unsign":
        return this.unsignPhase();
      default:
        return { kind: "done" };
    }
  }

  // The first keys sign at once; their DS goes up once no cache holds an RRset signed before
  // them (RFC 7583 §3.3.5): a DS with unsigned data still cached is a bogus answer.
  signPhase(): Phase {
    const unsubmitted = this.live().filter((k) => isEntryPoint(k) && k.ds === "absent");
    if (unsubmitted.length > 0) {
      const since = Math.min(...unsubmitted.map((k) => ms(k.active_at!)));
      const wait = this.due(since + s(this.i.ipubSig), unsubmitted);
      if (wait) return wait;
      for (const k of unsubmitted) this.setDs(k, "submitted");
      this.submitted();
      return { kind: "changed" };
    }
    return this.pendingAtParent().length > 0 ? this.parent() : { kind: "done" };
  }

  // RFC 7583 §3.2.1, pre-publication: Tact(new) = Tpub(new) + Ipub, Trem(old) = Tret(old) + Iret.
  zskPhase(): Phase {
    const incoming = this.live().filter((k) => k.role === "zsk" && (k.state === "published" || k.state === "ready"));
    if (incoming.length > 0) {
      const outgoing = this.live().filter((k) => k.role === "zsk" && k.state === "active");
      const wait = this.due(Math.max(...incoming.map((k) => ms(k.published_at!) + s(this.i.ipubZsk))), [...incoming, ...outgoing]);
      if (wait) return wait;
      for (const k of incoming) {
        if (k.state === "published") this.move(k, "ready");
        this.move(k, "active");
      }
      for (const k of outgoing) this.move(k, "retired");
      return { kind: "changed" };
    }
    return this.removeRetired(this.i.iretZsk);
  }

  removeRetired(iret: number): Phase {
    const retired = this.live().filter((k) => k.state === "retired");
    if (retired.length === 0) return { kind: "done" };
    const wait = this.due(Math.max(...retired.map((k) => ms(k.retired_at!))) + s(iret), retired);
    if (wait) return wait;
    for (const k of retired) this.move(k, "removed");
    return { kind: "changed" };
  }

  // RFC 7583 §3.3.2, double-DS, for a KSK or a CSK (and for a change between one combined key
  // and a KSK with a ZSK, which swaps every key at once).
  doubleDsPhase(): Phase {
    const live = this.live();
    const incoming = live.filter((k) => k.state === "published" || k.state === "ready");
    if (incoming.length > 0) {
      const entry = incoming.find(isEntryPoint);
      const signsZone = incoming.some(signsZoneData);
      const outgoing = live.filter((k) => k.state === "active" && (signsZone || isEntryPoint(k)));
      // Trdy = Tpub(DS) + IpubP: every cached DS RRset holds the new DS. A new key that signs the
      // zone must also be in every cached DNSKEY RRset first: Tpub(DNSKEY) + IpubC (§3.3.1).
      if (entry && entry.ds !== "seen") return this.parent([entry]);
      const readyAt = Math.max(
        entry ? ms(entry.ds_since!) + s(this.i.ipubP) : this.now,
        ...(signsZone ? incoming.map((k) => ms(k.published_at!) + s(this.i.ipubC)) : []),
      );
      const wait = this.due(readyAt, [...incoming, ...outgoing]);
      if (wait) return wait;
      for (const k of incoming) {
        if (k.state === "published") this.move(k, "ready");
        this.move(k, "active");
      }
      for (const k of outgoing) this.move(k, "retired");
      return { kind: "changed" };
    }
    const retired = live.filter((k) => k.state === "retired");
    if (retired.length > 0) {
      // The old entry point goes only while the parent shows a DS of a key staying: a DS
      // naming no key of ours validates nothing, so with the new DS lost (submitted again)
      // the old key is all that still matches the parent's DS set, and it waits for the parent.
      if (retired.some(isEntryPoint) && !live.some((k) => isEntryPoint(k) && k.state !== "retired" && k.ds === "seen")) return this.parent();
      // Iret: the old DS stays while a cache may hold a DNSKEY RRset only the old key signed
      // (DprpC + TTLkey); a retired key that signed zone data stays published while its RRSIGs
      // may be cached (Dsgn + Dprp + TTLsig).
      const iret = retired.some(signsZoneData) ? this.i.iretCsk : this.i.iretKsk;
      const wait = this.due(Math.max(...retired.map((k) => ms(k.retired_at!))) + s(iret), retired);
      if (wait) return wait;
      let withdrawn = false;
      for (const k of retired) {
        this.move(k, "removed");
        if (k.ds === "seen" || k.ds === "submitted") {
          this.setDs(k, "withdrawn");
          withdrawn = true;
        }
      }
      if (withdrawn) this.submitted();
      return { kind: "changed" };
    }
    return this.pendingAtParent().length > 0 ? this.parent() : { kind: "done" };
  }

  // RFC 6781 §4.1.4: new RRSIGs, new DNSKEY, new DS, DNSKEY removal, RRSIGs removal.
  algorithmPhase(): Phase {
    const live = this.live();
    const incoming = live.filter((k) => k.pre_published_at !== null && ["pre-published", "published", "ready"].includes(k.state));
    const prePublished = incoming.filter((k) => k.state === "pre-published");
    if (prePublished.length > 0) {
      const wait = this.due(Math.max(...prePublished.map((k) => ms(k.pre_published_at!))) + s(this.i.ipubSig), prePublished);
      if (wait) return wait;
      for (const k of prePublished) this.move(k, "published");
      return { kind: "changed" };
    }
    const published = incoming.filter((k) => k.state === "published");
    if (published.length > 0) {
      const wait = this.due(Math.max(...published.map((k) => ms(k.published_at!))) + s(this.i.ipubC), published);
      if (wait) return wait;
      for (const k of published) this.move(k, "ready");
      // The DS set changes to the new algorithm's in one step (RFC 6781 §4.1.4 "new DS"): the
      // old DS must be gone from every cache before the old keys leave the DNSKEY RRset.
      for (const k of published) if (isEntryPoint(k)) this.setDs(k, "submitted");
      for (const k of this.keys) if (!published.includes(k) && (k.ds === "seen" || k.ds === "submitted")) this.setDs(k, "withdrawn");
      this.submitted();
      return { kind: "changed" };
    }
    const ready = incoming.filter((k) => k.state === "ready");
    if (ready.length > 0) {
      if (this.pendingAtParent().length > 0) return this.parent();
      const outgoing = live.filter((k) => k.state === "active");
      const dsSince = this.keys.filter((k) => k.ds_since !== null && ms(k.ds_since) >= ms(this.rollover!.started_at)).map((k) => ms(k.ds_since!));
      const wait = this.due(Math.max(this.now - 1, ...dsSince.map((t) => t + s(this.i.ipubP))), [...ready, ...outgoing]);
      if (wait) return wait;
      for (const k of ready) this.move(k, "active");
      for (const k of outgoing) this.move(k, "post-active");
      return { kind: "changed" };
    }
    const postActive = live.filter((k) => k.state === "post-active");
    if (postActive.length > 0) {
      const wait = this.due(Math.max(...postActive.map((k) => ms(k.retired_at!))) + s(this.i.iretAlgorithm), postActive);
      if (wait) return wait;
      for (const k of postActive) this.move(k, "removed");
      return { kind: "changed" };
    }
    return { kind: "done" };
  }

  // Leaving DNSSEC (RFC 6781 §4.1.4's last case, an algorithm to none): the DS goes first, and
  // the keys only once no cache holds it. Any DS at the parent, ours or one naming no key of
  // ours, keeps a DS of ours `withdrawn` (`dsSeen`): the zone waits here while the parent shows one.
  unsignPhase(): Phase {
    const shown = this.keys.filter((k) => k.ds === "seen");
    if (this.pendingAtParent().length > 0 || shown.length > 0) return this.parent(shown);
    const live = this.live();
    if (live.length === 0) return { kind: "done" };
    const started = ms(this.rollover!.started_at);
    const dsSince = this.keys.filter((k) => k.ds_since !== null && ms(k.ds_since) >= started).map((k) => ms(k.ds_since!));
    const wait = this.due(Math.max(this.now - 1, ...dsSince.map((t) => t + s(this.i.ipubP))), live);
    if (wait) return wait;
    for (const k of live) this.move(k, "removed");
    return { kind: "changed" };
  }

  /**
   * The parent step `waiting` waits for: since the earliest DS change of its keys the parent
   * has not followed (at rest, of any key), Dreg for it, and the stall `stallAfter` past that
   * while a roll waits; null when the zone waits for something else.
   */
  awaiting(waiting: Phase): AwaitingParent | null {
    const atRest = waiting.kind === "done" && this.rollover === null;
    const keys = waiting.kind === "parent" ? waiting.keys : atRest ? this.pendingAtParent() : [];
    const times = keys.filter((k) => k.ds_since !== null).map((k) => ms(k.ds_since!));
    if (times.length === 0) return null;
    const since = Math.min(...times);
    const expected = since + s(this.zone.parent.registrationDelay);
    const stalls = atRest ? null : iso(expected + s(this.zone.parent.stallAfter ?? DEFAULT_STALL_AFTER));
    return { since: iso(since), expected_at: iso(expected), stalls_at: stalls };
  }

  /** The roll the policy or a lifetime asks for, when the keys are at rest. */
  dueRoll(): (RolloverRequest & { at: number }) | null {
    if (this.rollover) return null;
    const active = this.live().filter((k) => k.state === "active");
    if (active.length === 0) return null;
    const policy = this.zone.policy;
    const entry = active.find(isEntryPoint);
    if (active.some((k) => k.algorithm !== policy.algorithm)) return { kind: "algorithm", algorithm: policy.algorithm, at: this.now };
    const roles = active.map((k) => k.role).sort();
    const wanted = rolesOf(policy).sort();
    if (entry && roles.join() !== wanted.join()) return { kind: entry.role === "csk" ? "csk" : "ksk", at: this.now };
    const rolls: (RolloverRequest & { at: number })[] = [];
    if (entry && policy.ksk_lifetime_days !== null) {
      // Started early enough that the old key retires at the end of its lifetime (RFC 7583
      // §3.3.2: Tret(old) = Tact(old) + L): the time to Trdy is Dreg + IpubP, and IpubC for a key
      // that signs the zone.
      const lead = Math.max(entry.role === "csk" ? this.i.ipubC : 0, this.zone.parent.registrationDelay + this.i.ipubP);
      rolls.push({ kind: entry.role === "csk" ? "csk" : "ksk", at: ms(entry.active_at!) + s(policy.ksk_lifetime_days * 86_400 - lead) });
    }
    const zsk = active.find((k) => k.role === "zsk");
    if (zsk && policy.zsk_lifetime_days !== null && !policy.single_key) {
      // RFC 7583 §3.2.1: Tpub(N+1) <= Tact(N) + Lzsk - Ipub.
      rolls.push({ kind: "zsk", at: ms(zsk.active_at!) + s(policy.zsk_lifetime_days * 86_400 - this.i.ipubZsk) });
    }
    rolls.sort((a, b) => a.at - b.at);
    return rolls[0] ?? null;
  }

  /** Takes every step due at `now` (a step whose wait is zero is due at once), then says what is next. */
  run(newKeyId: NewKeyId | undefined): StepResult {
    let waiting: Phase = { kind: "done" };
    for (let steps = 0; steps < 32; steps++) {
      const phase = this.phase();
      if (phase.kind === "changed") continue;
      if (phase.kind === "done") {
        if (this.rollover) {
          this.rollover = null;
          continue;
        }
        const due = this.dueRoll();
        if (due && due.at <= this.now && newKeyId) {
          const refused = this.start({ kind: due.kind, algorithm: due.algorithm }, newKeyId);
          if (!refused) continue;
        }
      }
      waiting = phase;
      break;
    }
    if (waiting.kind === "parent" && this.rollover) {
      const awaiting = this.awaiting(waiting);
      if (awaiting?.stalls_at && this.now >= ms(awaiting.stalls_at) && this.rollover.stalled_at === null) {
        this.rollover.stalled_at = this.at;
        this.events.push({ type: "dnssec.rollover.stalled", at: this.at, key: null, state: null, ds: this.wanted() });
      }
    }
    return this.result(waiting);
  }

  result(waiting: Phase): StepResult {
    // Keys at rest whose DS the parent has not followed (a first DS a registry holds for
    // review, or one an external parent has not published yet) are looked at too, less often.
    const atRest = waiting.kind === "done" && this.rollover === null;
    const awaiting = this.awaiting(waiting);
    const due = this.dueRoll();
    const times: number[] = [];
    if (waiting.kind === "wait") {
      times.push(waiting.at);
      for (const k of waiting.keys) k.next_step_at = iso(waiting.at);
    }
    if (awaiting) {
      // Look when the parent should have followed, then every poll interval (and at the stall).
      const expected = ms(awaiting.expected_at);
      const stalls = awaiting.stalls_at === null ? null : ms(awaiting.stalls_at);
      if (expected > this.now) times.push(expected);
      else if (atRest) times.push(this.now + s(REST_POLL_INTERVAL));
      else times.push(this.now + s(this.zone.parent.pollInterval ?? DEFAULT_POLL_INTERVAL), ...(stalls !== null && stalls > this.now ? [stalls] : []));
    }
    if (due) {
      times.push(due.at);
      // The keys the roll will replace wait for it.
      for (const k of this.live()) {
        const replaced = due.kind === "zsk" ? k.role === "zsk" : due.kind === "ksk" && !this.zone.policy.single_key ? k.role === "ksk" : true;
        if (k.state === "active" && replaced) k.next_step_at = iso(due.at);
      }
    }
    const wanted = this.wanted();
    return {
      keys: this.keys,
      created: this.created,
      changes: this.changes,
      dsWanted: this.dsChanged ? wanted : null,
      cds: cdsOf(this.keys, this.rollover),
      events: this.events,
      rollover: this.rollover,
      next_step_at: times.length > 0 ? iso(Math.min(...times)) : null,
      due: due ? { kind: due.kind, ...(due.algorithm === undefined ? {} : { algorithm: due.algorithm }), at: iso(due.at) } : null,
      awaiting_parent: awaiting,
    };
  }

  /** Why `request` cannot start now, or null after starting it. */
  start(request: RolloverRequest, newKeyId: NewKeyId): RolloverRefusal | null {
    const refuse = (status: 409 | 422, reason: RolloverRefusal["reason"], field: string | null, message: string): RolloverRefusal => ({
      ok: false,
      status,
      reason,
      field,
      message,
    });
    if (this.rollover) {
      return refuse(409, "rollover_running", null, `a ${this.rollover.kind} process runs since ${this.rollover.started_at}: one roll at a time per zone`);
    }
    const active = this.live().filter((k) => k.state === "active");
    if (active.length === 0) return refuse(409, "not_signed", null, "the zone is not signed");
    const current = active[0]!.algorithm;
    const policy = this.zone.policy;
    const roles = new Set(active.map((k) => k.role));
    if (request.kind === "algorithm") {
      const target = request.algorithm ?? policy.algorithm;
      if (!isSigningAlgorithm(target)) return refuse(422, "wrong_algorithm", "algorithm", "must be one of 8, 13, 14, 15");
      if (target === current) return refuse(422, "wrong_algorithm", "algorithm", `the zone already signs with algorithm ${current}`);
      this.rollover = { kind: "algorithm", started_at: this.at, stalled_at: null };
      for (const role of rolesOf(policy)) this.create(role, target, newKeyId, "pre-published");
      return null;
    }
    if (request.algorithm !== undefined && request.algorithm !== current) {
      return refuse(422, "wrong_algorithm", "algorithm", `only an algorithm roll changes the algorithm (the zone signs with ${current})`);
    }
    if (policy.algorithm !== current) {
      return refuse(409, "wrong_algorithm", null, `the policy's algorithm is ${policy.algorithm} and the zone signs with ${current}: roll kind algorithm`);
    }
    if (request.kind === "zsk") {
      if (!roles.has("zsk")) return refuse(422, "wrong_kind", "kind", "the zone signs with one combined key: roll it with kind csk");
      if (policy.single_key) return refuse(409, "wrong_kind", "kind", "the policy asks for one combined key: roll kind ksk to change to it");
      this.rollover = { kind: "zsk", started_at: this.at, stalled_at: null };
      this.create("zsk", current, newKeyId, "published");
      return null;
    }
    const entryRole = roles.has("csk") ? "csk" : "ksk";
    if (request.kind !== entryRole) {
      return refuse(
        422,
        "wrong_kind",
        "kind",
        entryRole === "csk" ? "the zone signs with one combined key: roll it with kind csk" : "the zone signs with a KSK and a ZSK: roll kind ksk or zsk",
      );
    }
    // The new keys follow the policy: the same scheme (a KSK, or a CSK), or the other one (every
    // key swapped at once: the DS moves from the old entry point to the new one either way).
    const newRoles: KeyRole[] = policy.single_key ? ["csk"] : entryRole === "csk" ? ["ksk", "zsk"] : ["ksk"];
    this.rollover = { kind: request.kind, started_at: this.at, stalled_at: null };
    for (const role of newRoles) {
      const key = this.create(role, current, newKeyId, "published");
      if (isEntryPoint(key)) this.setDs(key, "submitted");
    }
    this.submitted();
    return null;
  }
}

/**
 * The steps due at `zone.now`: key transitions, DS changes, events, and when to look again.
 * With `newKeyId`, a roll the policy or a key's lifetime asks for starts in the same call.
 */
export function nextSteps(zone: SigningZone, options: { newKeyId?: NewKeyId } = {}): StepResult {
  return new Stepper(zone).run(options.newKeyId);
}

/**
 * The parent step the zone's keys wait for as they stand, no step taken (what GET
 * /zones/{zone}/dnssec shows): the `awaiting_parent` the step that left them so returned;
 * null when their next step is the zone's own (a wait for time, or a step due now).
 */
export function awaitingParent(zone: SigningZone): AwaitingParent | null {
  const stepper = new Stepper(zone);
  let phase = stepper.phase();
  if (phase.kind === "done" && stepper.rollover !== null) {
    // A process with nothing left to do ends at the next run: the keys are at rest.
    stepper.rollover = null;
    phase = stepper.phase();
  }
  return stepper.awaiting(phase);
}

/**
 * Starts a roll now (409 while another process runs: one at a time per zone). The new keys
 * follow the policy; an algorithm roll to `request.algorithm` returns the policy with that
 * algorithm, for the caller to keep (or the next run would roll back).
 */
export function startRollover(zone: SigningZone, request: RolloverRequest, newKeyId: NewKeyId): Started {
  const policy =
    request.kind === "algorithm" && request.algorithm !== undefined && isSigningAlgorithm(request.algorithm)
      ? { ...zone.policy, algorithm: request.algorithm }
      : zone.policy;
  const stepper = new Stepper({ ...zone, policy });
  const refused = stepper.start(request, newKeyId);
  if (refused) return refused;
  return { ok: true, result: stepper.run(undefined), policy };
}

/**
 * Signs an unsigned zone (RFC 7583 §3.3.5): keys per the policy, published and signing at
 * once; their DS is submitted when no cache can hold an RRset from before the signatures.
 */
export function startSigning(zone: SigningZone, newKeyId: NewKeyId): Started {
  const stepper = new Stepper(zone);
  if (stepper.live().length > 0) return { ok: false, status: 409, reason: "already_signed", field: null, message: "the zone has keys already" };
  stepper.rollover = { kind: "sign", started_at: stepper.at, stalled_at: null };
  for (const role of rolesOf(zone.policy)) {
    const key = stepper.create(role, zone.policy.algorithm, newKeyId, "published");
    stepper.move(key, "ready");
    stepper.move(key, "active");
  }
  return { ok: true, result: stepper.run(undefined), policy: zone.policy };
}

/**
 * Leaves DNSSEC: every DS withdrawn and the RFC 8078 delete published as CDS and CDNSKEY; the
 * keys go (the zone unsigned) once the parent shows no DS and no cache can hold one. Stops a
 * roll that runs: its keys stay as they are until then.
 */
export function startUnsigning(zone: SigningZone): Started {
  const stepper = new Stepper(zone);
  if (stepper.live().length === 0) return { ok: false, status: 409, reason: "not_signed", field: null, message: "the zone is not signed" };
  if (stepper.rollover?.kind === "unsign")
    return { ok: false, status: 409, reason: "rollover_running", field: null, message: "the zone is leaving DNSSEC already" };
  stepper.rollover = { kind: "unsign", started_at: stepper.at, stalled_at: null };
  for (const k of stepper.keys) if (k.ds !== "absent") stepper.setDs(k, "withdrawn");
  stepper.submitted();
  return { ok: true, result: stepper.run(undefined), policy: zone.policy };
}

/** The parent's DS set as observed (or, for a managed parent, as set): the keys it names, and how many DS name none of them. */
export interface ParentDs {
  keys: readonly string[];
  unknown?: number;
}

/**
 * Records the parent's DS set at `at`: a wanted DS it shows is `seen`, a withdrawn one it no
 * longer shows is `absent`; a wanted one it lost is `submitted` again and an unwanted one it
 * shows `withdrawn` (both re-sent: `dsWanted`). While the zone leaves DNSSEC, a DS naming no
 * key of ours keeps our DS `withdrawn` (the live entry points, if none was): the keys go only
 * once the parent shows no DS at all. `dnssec.ds.seen` when the parent then shows exactly the
 * wanted set. Then takes the steps due at `at`, as `nextSteps` does.
 */
export function dsSeen(zone: SigningZone, observed: ParentDs, at: Date = zone.now): StepResult {
  const stepper = new Stepper({ ...zone, now: at });
  const shown = new Set(observed.keys);
  // Leaving DNSSEC, any DS at the parent holds the keys: one naming no key of ours (a previous
  // operator's, a digest type not computed here, a key no longer known) still tells resolvers
  // to expect signatures, and an unsigned zone under it is bogus. Our withdrawn DS stay
  // withdrawn (the parent has not followed the delete) until the parent shows no DS at all.
  const leavingUnderDs = stepper.rollover?.kind === "unsign" && (observed.unknown ?? 0) > 0;
  let progressed = false;
  for (const k of stepper.keys) {
    const present = shown.has(k.id);
    const before = k.ds;
    const next: DsState | null =
      before === "submitted" && present
        ? "seen"
        : before === "withdrawn" && !present && !leavingUnderDs
          ? "absent"
          : before === "seen" && !present
            ? "submitted"
            : before === "absent" && present
              ? "withdrawn"
              : null;
    if (next === null) continue;
    k.ds = next;
    // Never earlier than the change it answers: a wait counted from a stale observation would be short.
    k.ds_since = k.ds_since !== null && ms(k.ds_since) > stepper.now ? k.ds_since : stepper.at;
    progressed = true;
    // A DS the parent lost, or one it shows unasked, needs sending again.
    if (next === "submitted" || next === "withdrawn") stepper.dsChanged = true;
  }
  if (leavingUnderDs && stepper.pendingAtParent().length === 0) {
    // No DS of ours was asked to go (none was submitted when the zone began to leave): the
    // live entry points are held as withdrawn, so the zone waits for the parent to drop it.
    for (const k of stepper.live()) {
      if (!isEntryPoint(k)) continue;
      stepper.setDs(k, "withdrawn");
      progressed = true;
    }
  }
  if (progressed && stepper.rollover) stepper.rollover.stalled_at = null;
  if (progressed && stepper.pendingAtParent().length === 0 && (observed.unknown ?? 0) === 0) {
    stepper.events.push({ type: "dnssec.ds.seen", at: stepper.at, key: null, state: null, ds: stepper.wanted() });
  }
  return stepper.run(undefined);
}
