// A zone, its tier, its parent and every resolver cache they can produce, on a clock that
// jumps from step to step (test/unit/dnssec-rollover.test.ts). The engine under test
// (src/dns/dnssec/rollover.ts) decides the steps; this world publishes them with the delays
// the engine was told of (or others, to show the model catches a wrong wait), and a model
// validator checks, at every instant where anything a resolver may hold changes (and a
// second and a millisecond either side), every combination of a cached DS RRset, a cached
// DNSKEY RRset with its RRSIGs and a cached RRSIG over zone data.
import type { ParentTiming, ZoneTiming } from "../../src/dns/dnssec/key-timing";
import {
  dsSeen,
  nextSteps,
  type NewKeyId,
  type SigningKey,
  type SigningProcess,
  type SigningView,
  type StepResult,
  type Started,
  type SigningZone,
  signingView,
  type CdsSet,
  type DnssecEvent,
  type KeyChange,
} from "../../src/dns/dnssec/rollover";
import type { SigningPolicy } from "../../src/dns/dnssec/signing-policy";

/** The parent as it really behaves: how late it publishes, and how late we see it. */
export interface RealParent {
  /** Seconds from a DS set's submission to its first publication; null: never (a parent that does not follow). */
  publishAfter: number | null;
  /** Seconds until every server of the parent has it (DprpP). */
  propagationDelay: number;
  dsTtl: number;
  /** Seconds from publication until the engine is told (0: a managed parent reports it as set; more: an external parent polled). */
  observeAfter: number;
}

export interface WorldSetup {
  policy: SigningPolicy;
  /** What the tier really does (TTLs, propagation, signing delay). */
  zone: ZoneTiming;
  parent: RealParent;
  parentKind: "managed" | "external";
  /** What the engine is told, when it differs from the truth (a wrong wait the model must catch). */
  engineZone?: ZoneTiming;
  engineParent?: Partial<ParentTiming>;
  start?: Date;
  /** Lets `nextSteps` start the rolls the policy and the keys' lifetimes ask for. */
  autoRoll?: boolean;
}

interface Version {
  at: number;
  view: SigningView;
  cds: CdsSet;
}

interface ParentSet {
  at: number;
  ds: string[];
}

export interface Violation {
  at: number;
  rule: string;
  detail: string;
}

const SECOND = 1000;

export class World {
  now: number;
  readonly start: number;
  keys: SigningKey[] = [];
  rollover: SigningProcess | null = null;
  policy: SigningPolicy;
  /** The primary's versions: what the DNSKEY RRset is and who signs what, from `at` on. */
  readonly versions: Version[] = [{ at: Number.NEGATIVE_INFINITY, view: { dnskey: [], signsDnskey: [], signsZone: [] }, cds: { kind: "none" } }];
  /** The DS sets the parent published, each from `at` on. */
  readonly parentSets: ParentSet[] = [{ at: Number.NEGATIVE_INFINITY, ds: [] }];
  readonly events: DnssecEvent[] = [];
  readonly changes: KeyChange[] = [];
  readonly algorithms = new Map<string, number>();
  private pendingPublications: { at: number; ds: string[] }[] = [];
  private pendingObservations: number[] = [];
  private counter = 0;
  readonly newKeyId: NewKeyId = (role) => `${role}-${++this.counter}`;
  nextStepAt: number | null = null;
  /** The keys after every engine call. */
  readonly snapshots: SigningKey[][] = [];

  constructor(readonly setup: WorldSetup) {
    this.start = (setup.start ?? new Date("2027-01-04T00:00:00Z")).getTime();
    this.now = this.start;
    this.policy = setup.policy;
  }

  /** From now on the engine is told these timings (a wrong wait for the model to catch). */
  tell(engine: { zone?: ZoneTiming; parent?: Partial<ParentTiming> }) {
    this.setup.engineZone = engine.zone;
    this.setup.engineParent = engine.parent;
  }

  engineParent(): ParentTiming {
    const real = this.setup.parent;
    return {
      kind: this.setup.parentKind,
      dsTtl: real.dsTtl,
      registrationDelay: real.publishAfter ?? 0,
      propagationDelay: real.propagationDelay,
      ...this.setup.engineParent,
    };
  }

  zoneAt(now: number): SigningZone {
    return {
      policy: this.policy,
      keys: this.keys,
      rollover: this.rollover,
      timing: this.setup.engineZone ?? this.setup.zone,
      parent: this.engineParent(),
      now: new Date(now),
    };
  }

  apply(result: StepResult) {
    this.keys = result.keys;
    this.snapshots.push(result.keys);
    this.rollover = result.rollover;
    for (const k of result.created) this.algorithms.set(k.id, k.algorithm);
    this.events.push(...result.events);
    this.changes.push(...result.changes);
    this.nextStepAt = result.next_step_at === null ? null : Date.parse(result.next_step_at);
    const view = signingView(this.keys);
    const last = this.versions[this.versions.length - 1]!;
    if (JSON.stringify(last.view) !== JSON.stringify(view) || JSON.stringify(last.cds) !== JSON.stringify(result.cds)) {
      // One engine call is one commit: two at the same instant are one version.
      if (last.at === this.now) this.versions.pop();
      this.versions.push({ at: this.now, view, cds: result.cds });
    }
    if (result.dsWanted !== null && this.setup.parent.publishAfter !== null) {
      this.pendingPublications.push({ at: this.now + this.setup.parent.publishAfter * SECOND, ds: [...result.dsWanted].sort() });
    }
  }

  /** Applies a process start (startSigning, startRollover, startUnsigning) made on `zoneAt(now)`. */
  started(started: Started): StepResult {
    if (!started.ok) throw new Error(`refused: ${started.reason} ${started.message}`);
    this.policy = started.policy;
    this.apply(started.result);
    return started.result;
  }

  private parentShows(): string[] {
    return this.parentSets[this.parentSets.length - 1]!.ds;
  }

  /** Moves the clock to the next thing that happens and lets it happen; false when nothing is left. */
  tick(limit: number): boolean {
    const times = [...this.pendingPublications.map((p) => p.at), ...this.pendingObservations].filter((t) => t >= this.now);
    if (this.nextStepAt !== null && this.nextStepAt > this.now) times.push(this.nextStepAt);
    const next = Math.min(...times);
    if (!Number.isFinite(next) || next > limit) return false;
    this.now = next;
    for (const p of this.pendingPublications.filter((p) => p.at === next)) {
      this.parentSets.push({ at: next, ds: p.ds });
      this.pendingObservations.push(next + this.setup.parent.observeAfter * SECOND);
    }
    this.pendingPublications = this.pendingPublications.filter((p) => p.at !== next);
    if (this.pendingObservations.includes(next)) {
      this.pendingObservations = this.pendingObservations.filter((t) => t !== next);
      this.apply(dsSeen(this.zoneAt(next), { keys: this.parentShows() }, new Date(next)));
    }
    this.steps();
    return true;
  }

  /** The engine's steps due now. */
  steps() {
    this.apply(nextSteps(this.zoneAt(this.now), this.setup.autoRoll ? { newKeyId: this.newKeyId } : {}));
  }

  /** The parent publishes `ds` now (whatever was submitted) and the engine is told at once. */
  parentPublishes(ds: string[]) {
    this.parentSets.push({ at: this.now, ds: [...ds].sort() });
    this.apply(dsSeen(this.zoneAt(this.now), { keys: ds }, new Date(this.now)));
  }

  /** Runs until the keys are at rest and the parent has nothing pending (or `limitSeconds` passed). */
  settle(limitSeconds = 60 * 86_400) {
    const limit = this.now + limitSeconds * SECOND;
    this.steps();
    while (this.rollover !== null || this.pendingPublications.length > 0 || this.pendingObservations.length > 0) {
      if (!this.tick(limit)) break;
    }
  }

  /** Runs to `at` (ms), taking every step on the way. */
  runUntil(at: number) {
    while (this.tick(at)) {
      /* each tick takes one instant's steps */
    }
    this.now = Math.max(this.now, at);
  }

  // ---- the model validator -------------------------------------------------------------

  /** Every instant at which what a resolver may hold changes, from `from` (ms) to `to`. */
  boundaries(from: number, to: number): number[] {
    const z = this.setup.zone;
    const p = this.setup.parent;
    const edges = new Set<number>();
    for (const v of this.versions.slice(1)) {
      edges.add(v.at);
      edges.add(v.at + (z.propagationDelay + z.dnskeyTtl) * SECOND);
      edges.add(v.at + (z.propagationDelay + z.signingDelay + z.maxZoneTtl) * SECOND);
    }
    for (const q of this.parentSets.slice(1)) {
      edges.add(q.at);
      edges.add(q.at + (p.propagationDelay + p.dsTtl) * SECOND);
    }
    const samples = new Set<number>();
    for (const e of edges) for (const d of [-SECOND, -1, 0, 1, SECOND]) if (e + d >= from && e + d <= to) samples.add(e + d);
    return [...samples].sort((a, b) => a - b);
  }

  /**
   * The versions a resolver may hold at `t` for a cached RRset of this TTL: a version is
   * served by some server of the tier from `at` until `propagation` after the next version
   * (RFC 7583's Dprp), and a copy fetched then lives `ttl` seconds.
   */
  private cachedVersions<T extends { at: number }>(list: T[], t: number, propagation: number, ttl: number): T[] {
    return list.filter((v, i) => {
      const next = list[i + 1]?.at ?? Number.POSITIVE_INFINITY;
      return v.at <= t && next + (propagation + ttl) * SECOND > t;
    });
  }

  private alg(id: string): number {
    return this.algorithms.get(id)!;
  }

  /** What a validator may conclude at `t`, for every combination of cached data; [] when all validate. */
  check(t: number): Violation[] {
    const z = this.setup.zone;
    const p = this.setup.parent;
    const violations: Violation[] = [];
    const dsSets = this.cachedVersions(this.parentSets, t, p.propagationDelay, p.dsTtl);
    const dnskeySets = this.cachedVersions(this.versions, t, z.propagationDelay, z.dnskeyTtl);
    const dataSigs = this.cachedVersions(this.versions, t, z.propagationDelay + z.signingDelay, z.maxZoneTtl);
    const algs = (ids: string[]) => new Set(ids.map((id) => this.alg(id)));
    for (const ds of dsSets) {
      // No DS: the delegation is insecure and anything validates as insecure.
      if (ds.ds.length === 0) continue;
      for (const key of dnskeySets) {
        const dnskey = new Set(key.view.dnskey);
        const trusted = ds.ds.filter((id) => dnskey.has(id) && key.view.signsDnskey.includes(id));
        const fail = (rule: string, detail: string) =>
          violations.push({
            at: t,
            rule,
            detail: `${detail} [DS ${ds.ds.join(",")}; DNSKEY ${key.view.dnskey.join(",")} signed by ${key.view.signsDnskey.join(",")}]`,
          });
        // RFC 4035 §5.2, RFC 6840 §5.11: one DS that matches a DNSKEY which signs the DNSKEY RRset.
        if (trusted.length === 0) {
          fail("RFC 4035 §5.2: no DS in the cached DS set matches a key that signs the cached DNSKEY RRset", "chain of trust broken");
          continue;
        }
        // RFC 4035 §2.2, as a validator hardened against algorithm downgrade applies it: every
        // algorithm of the DS set signs the DNSKEY RRset through a key the DS set names.
        for (const a of algs(ds.ds)) {
          if (!trusted.some((id) => this.alg(id) === a))
            fail("RFC 4035 §2.2: an algorithm of the cached DS set does not sign the cached DNSKEY RRset", `algorithm ${a}`);
        }
        // RFC 4035 §2.2: the DNSKEY RRset itself is signed with every algorithm it holds.
        for (const a of algs(key.view.dnskey)) {
          if (!key.view.signsDnskey.some((id) => dnskey.has(id) && this.alg(id) === a)) {
            fail("RFC 4035 §2.2: an algorithm of the cached DNSKEY RRset does not sign it", `algorithm ${a}`);
          }
        }
        for (const data of dataSigs) {
          const usable = data.view.signsZone.filter((id) => dnskey.has(id));
          const detail = `RRSIGs by ${data.view.signsZone.join(",") || "nobody"}`;
          // RFC 4035 §5.3 / RFC 6840 §5.11: one RRSIG by a key of the validated DNSKEY RRset.
          if (usable.length === 0) {
            fail("RFC 4035 §5.3: a cached RRSIG of zone data is made by no key in the cached DNSKEY RRset", detail);
            continue;
          }
          // RFC 4035 §2.2, strict: every algorithm of the DS set, and every algorithm of the DNSKEY
          // RRset (RFC 6781 §4.1.4's conservative validator), has an RRSIG on the data.
          for (const a of new Set([...algs(ds.ds), ...algs(key.view.dnskey)])) {
            if (!usable.some((id) => this.alg(id) === a))
              fail("RFC 4035 §2.2: cached zone data lacks an RRSIG of an algorithm the validator expects", `${detail}, algorithm ${a}`);
          }
        }
      }
    }
    // What the zone serves at `t`, against what the parent publishes at `t`.
    const served = this.versions.filter((v) => v.at <= t).at(-1)!;
    const parentNow = this.parentSets.filter((q) => q.at <= t).at(-1)!.ds;
    const zoneFail = (rule: string, detail: string) => violations.push({ at: t, rule, detail });
    for (const a of algs(served.view.dnskey)) {
      if (!served.view.signsZone.some((id) => this.alg(id) === a))
        zoneFail("RFC 4035 §2.2: the zone signs its data with every algorithm of its DNSKEY RRset", `algorithm ${a}`);
    }
    for (const a of algs(parentNow)) {
      if (!served.view.signsDnskey.some((id) => this.alg(id) === a)) {
        zoneFail("RFC 4035 §2.2: the DNSKEY RRset is signed by every algorithm of the parent's DS set", `algorithm ${a}`);
      }
    }
    if (served.cds.kind === "keys") {
      // RFC 7344 §4.1: the CDS set is signed by a key of the current DS set, and names keys the zone publishes.
      if (parentNow.length > 0 && !served.view.signsDnskey.some((id) => parentNow.includes(id))) {
        zoneFail("RFC 7344 §4.1: the CDS RRset is signed by a key in the parent's DS set", served.cds.keys.join(","));
      }
      for (const id of served.cds.keys) if (!served.view.dnskey.includes(id)) zoneFail("RFC 7344 §4.1: a CDS names a key the zone does not publish", id);
    }
    return violations;
  }

  /** Every violation from `from` to `to` (ms), at every boundary and a second and a millisecond either side. */
  violations(from = this.start, to = this.now + 3 * 86_400 * SECOND): Violation[] {
    return this.boundaries(from, to).flatMap((t) => this.check(t));
  }

  /** Seconds from `from` (ms) to the last key change or parent publication. */
  lastChangeAfter(from: number): number {
    const times = [...this.changes.map((c) => Date.parse(c.at)), ...this.parentSets.map((q) => q.at)].filter((t) => t >= from);
    return (Math.max(...times) - from) / SECOND;
  }

  /**
   * The roll from `from` as a table: a column per instant something changed (seconds after
   * `from`), a row per key with its state, and the DS set the parent publishes.
   */
  timeline(from: number): string {
    const instants = [...new Set([...this.changes.map((c) => Date.parse(c.at)), ...this.parentSets.map((q) => q.at)])]
      .filter((t) => t >= from)
      .sort((a, b) => a - b);
    const ids = [...new Set(this.changes.map((c) => c.key))].filter((id) => this.stateAt(id, from - 1) !== "removed");
    const label = (id: string) => `${id.split("-")[0]!.toUpperCase()} ${id.split("-")[1]} (${this.alg(id)})`;
    const rows: string[][] = [["", ...instants.map((t) => `+${(t - from) / SECOND} s`)]];
    for (const id of ids) rows.push([label(id), ...instants.map((t) => this.stateAt(id, t) ?? "")]);
    const names = (ids: string[]) => (ids.length === 0 ? "none" : ids.map((id) => id.toUpperCase().replace("-", " ")).join(" + "));
    rows.push([
      "CDS at apex",
      ...instants.map((t) => {
        const cds = this.versions.filter((v) => v.at <= t).at(-1)!.cds;
        return cds.kind === "keys" ? names(cds.keys) : cds.kind === "delete" ? "delete" : "none";
      }),
    ]);
    rows.push(["DS at parent", ...instants.map((t) => names(this.parentSets.filter((q) => q.at <= t).at(-1)!.ds))]);
    const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)));
    return rows
      .map((r) =>
        r
          .map((cell, col) => cell.padEnd(widths[col]!))
          .join("  ")
          .trimEnd(),
      )
      .join("\n");
  }

  /** The key's state at `t` (after the changes of that instant). */
  stateAt(id: string, t: number): string | null {
    const last = this.changes.filter((c) => c.key === id && Date.parse(c.at) <= t).at(-1);
    return last ? last.to : null;
  }
}

/** The service's defaults (docs/dnssec-rollovers.md): PowerDNS serves DNSKEY with the SOA minimum (300), records default to 3600. */
export const SERVICE_ZONE: ZoneTiming = { dnskeyTtl: 300, maxZoneTtl: 3600, propagationDelay: 2, signingDelay: 0 };
/** A managed parent: the builtin registry publishes at once; DS TTL one day. */
export const BUILTIN_PARENT: RealParent = { publishAfter: 0, propagationDelay: 0, dsTtl: 86_400, observeAfter: 0 };
