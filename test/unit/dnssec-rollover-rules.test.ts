// The rules around the rolls (src/dns/dnssec/rollover.ts, signing-policy.ts): the policy's
// checks, what a roll refuses, the events in order, a parent that does not follow, what the
// parent's DS set says, rolls that the policy and the keys' lifetimes start, and the flags
// PowerDNS signs by. The rolls themselves are proved in dnssec-rollover.test.ts.
import { describe, expect, it } from "vitest";
import type { ParentTiming } from "../../src/dns/dnssec/key-timing";
import {
  awaitingParent,
  dsSeen,
  nextSteps,
  powerDnsFlags,
  type SigningKey,
  type SigningZone,
  signingView,
  type StepResult,
  startRollover,
  startSigning,
  startUnsigning,
} from "../../src/dns/dnssec/rollover";
import { cdsRecords, dsRecordsOf, parentDsKeys } from "../../src/dns/dnssec/parent-ds";
import { DEFAULT_SIGNING_POLICY, type SigningPolicy, signingPolicyErrors } from "../../src/dns/dnssec/signing-policy";
import { parseRdata } from "../../src/dns/rdata";
import type { DnsKey } from "../../src/dns/rdata/dnskey";
import { BUILTIN_PARENT, type RealParent, SERVICE_ZONE, World } from "./dnssec-rollover-world";

const SPLIT_8: SigningPolicy = { algorithm: 8, ksk_lifetime_days: null, zsk_lifetime_days: null, single_key: false };
const SPLIT_13: SigningPolicy = { ...SPLIT_8, algorithm: 13 };
const BUILTIN: ParentTiming = { kind: "managed", dsTtl: 86_400, registrationDelay: 0 };
const DAY = 86_400_000;

function signedWorld(policy: SigningPolicy, parent: RealParent = BUILTIN_PARENT, kind: "managed" | "external" = "managed", autoRoll = false): World {
  const world = new World({ policy, zone: SERVICE_ZONE, parent, parentKind: kind, autoRoll });
  world.started(startSigning(world.zoneAt(world.now), world.newKeyId));
  world.settle();
  return world;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

describe("a signing policy is checked field by field", () => {
  it("the default (one ECDSA P-256 combined key, never rolled) and a KSK/ZSK policy with lifetimes pass", () => {
    expect(DEFAULT_SIGNING_POLICY).toEqual({ algorithm: 13, ksk_lifetime_days: null, zsk_lifetime_days: null, single_key: true });
    expect(signingPolicyErrors(DEFAULT_SIGNING_POLICY, SERVICE_ZONE, BUILTIN)).toEqual([]);
    expect(signingPolicyErrors({ algorithm: 15, ksk_lifetime_days: 365, zsk_lifetime_days: 30, single_key: false }, SERVICE_ZONE, BUILTIN)).toEqual([]);
  });
  it("an algorithm the service does not sign with is refused (RSA/SHA-1, DSA, GOST)", () => {
    for (const algorithm of [1, 5, 7, 12, 16, 0]) {
      expect(signingPolicyErrors({ ...DEFAULT_SIGNING_POLICY, algorithm }, SERVICE_ZONE, BUILTIN)).toEqual([
        {
          field: "policy.algorithm",
          message: "must be one of 8, 13, 14, 15 (RSASHA256, ECDSAP256SHA256, ECDSAP384SHA384, ED25519: RFC 8624 §3.1)",
        },
      ]);
    }
  });
  it("a lifetime is a whole number of days from 1 to 3650", () => {
    for (const days of [0, -1, 1.5, 3651, Number.NaN]) {
      expect(signingPolicyErrors({ ...SPLIT_13, zsk_lifetime_days: days }, SERVICE_ZONE, BUILTIN)).toEqual([
        { field: "policy.zsk_lifetime_days", message: "must be a whole number of days from 1 to 3650, or null for a key that is never rolled" },
      ]);
    }
  });
  it("a ZSK lifetime with one combined key is refused: there is no ZSK", () => {
    expect(signingPolicyErrors({ ...DEFAULT_SIGNING_POLICY, zsk_lifetime_days: 30 }, SERVICE_ZONE, BUILTIN)).toEqual([
      { field: "policy.zsk_lifetime_days", message: "must be null with single_key: one combined key has no ZSK (ksk_lifetime_days is its lifetime)" },
    ]);
  });
  it("a lifetime shorter than the roll it starts is refused, with the days the zone's TTLs need", () => {
    // A KSK roll with a one-day DS TTL takes 86 702 s: a key living one day would roll for ever.
    expect(signingPolicyErrors({ ...SPLIT_13, ksk_lifetime_days: 1 }, SERVICE_ZONE, BUILTIN)).toEqual([
      { field: "policy.ksk_lifetime_days", message: "must be at least 2 days: a KSK roll of this zone takes 86702 s (its TTLs and its parent's)" },
    ]);
    expect(signingPolicyErrors({ ...DEFAULT_SIGNING_POLICY, ksk_lifetime_days: 3 }, SERVICE_ZONE, { ...BUILTIN, dsTtl: 5 * 86_400 })).toEqual([
      { field: "policy.ksk_lifetime_days", message: "must be at least 6 days: a CSK roll of this zone takes 435602 s (its TTLs and its parent's)" },
    ]);
    expect(signingPolicyErrors({ ...SPLIT_13, zsk_lifetime_days: 1 }, SERVICE_ZONE, BUILTIN)).toEqual([]);
  });
});

describe("one roll at a time, of a kind the zone has", () => {
  const world = signedWorld(SPLIT_13);
  const zone = () => world.zoneAt(world.now);
  it("a roll while another runs is refused with 409 rollover_running", () => {
    const running = startRollover(zone(), { kind: "zsk" }, world.newKeyId);
    expect(running.ok).toBe(true);
    const busy: SigningZone = { ...zone(), keys: running.ok ? running.result.keys : [], rollover: running.ok ? running.result.rollover : null };
    expect(startRollover(busy, { kind: "ksk" }, world.newKeyId)).toEqual({
      ok: false,
      status: 409,
      reason: "rollover_running",
      field: null,
      message: `a zsk process runs since ${new Date(world.now).toISOString()}: one roll at a time per zone`,
    });
  });
  it("a kind the zone's keys do not have is refused with 422 naming `kind`", () => {
    expect(startRollover(zone(), { kind: "csk" }, world.newKeyId)).toMatchObject({ ok: false, status: 422, field: "kind", reason: "wrong_kind" });
    const csk = signedWorld(DEFAULT_SIGNING_POLICY);
    expect(startRollover(csk.zoneAt(csk.now), { kind: "zsk" }, csk.newKeyId)).toEqual({
      ok: false,
      status: 422,
      reason: "wrong_kind",
      field: "kind",
      message: "the zone signs with one combined key: roll it with kind csk",
    });
    expect(startRollover(csk.zoneAt(csk.now), { kind: "ksk" }, csk.newKeyId)).toMatchObject({ status: 422, field: "kind" });
  });
  it("an algorithm roll to the zone's algorithm, or to one the service does not sign with, is refused with 422 naming `algorithm`", () => {
    expect(startRollover(zone(), { kind: "algorithm", algorithm: 13 }, world.newKeyId)).toEqual({
      ok: false,
      status: 422,
      reason: "wrong_algorithm",
      field: "algorithm",
      message: "the zone already signs with algorithm 13",
    });
    expect(startRollover(zone(), { kind: "algorithm", algorithm: 5 }, world.newKeyId)).toMatchObject({ status: 422, field: "algorithm" });
    expect(startRollover(zone(), { kind: "zsk", algorithm: 14 }, world.newKeyId)).toMatchObject({
      status: 422,
      field: "algorithm",
      message: "only an algorithm roll changes the algorithm (the zone signs with 13)",
    });
  });
  it("a key roll while the policy names another algorithm is refused with 409: the algorithm rolls first", () => {
    expect(startRollover({ ...zone(), policy: { ...SPLIT_13, algorithm: 15 } }, { kind: "ksk" }, world.newKeyId)).toMatchObject({
      ok: false,
      status: 409,
      reason: "wrong_algorithm",
    });
  });
  it("an unsigned zone has nothing to roll or leave, and a signed one cannot be signed again (409)", () => {
    const unsigned = new World({ policy: DEFAULT_SIGNING_POLICY, zone: SERVICE_ZONE, parent: BUILTIN_PARENT, parentKind: "managed" });
    expect(startRollover(unsigned.zoneAt(unsigned.now), { kind: "csk" }, unsigned.newKeyId)).toMatchObject({ status: 409, reason: "not_signed" });
    expect(startUnsigning(unsigned.zoneAt(unsigned.now))).toMatchObject({ status: 409, reason: "not_signed" });
    expect(startSigning(zone(), world.newKeyId)).toMatchObject({ status: 409, reason: "already_signed" });
  });
  it("an algorithm roll returns the policy with the new algorithm, for the caller to keep", () => {
    const started = startRollover(zone(), { kind: "algorithm", algorithm: 15 }, world.newKeyId);
    expect(started.ok && started.policy).toEqual({ ...SPLIT_13, algorithm: 15 });
    expect(started.ok && started.result.created.map((k) => `${k.role} ${k.algorithm} ${k.state}`)).toEqual(["ksk 15 pre-published", "zsk 15 pre-published"]);
  });
});

describe("each step is an event, in order", () => {
  it("a KSK roll with the builtin registry: published, DS submitted, seen, ready, active, retired, removed, DS submitted, seen", () => {
    const world = signedWorld(SPLIT_13);
    const from = world.events.length;
    world.started(startRollover(world.zoneAt(world.now), { kind: "ksk" }, world.newKeyId));
    world.settle();
    expect(world.events.slice(from).map((e) => [e.type, e.key ?? e.ds?.join("+")])).toEqual([
      ["dnssec.key.published", "ksk-3"],
      ["dnssec.ds.submitted", "ksk-1+ksk-3"],
      ["dnssec.ds.seen", "ksk-1+ksk-3"],
      ["dnssec.key.ready", "ksk-3"],
      ["dnssec.key.active", "ksk-3"],
      ["dnssec.key.retired", "ksk-1"],
      ["dnssec.key.removed", "ksk-1"],
      ["dnssec.ds.submitted", "ksk-3"],
      ["dnssec.ds.seen", "ksk-3"],
    ]);
  });
  it("an algorithm roll's pre-published key is `published` with state pre-published, a post-active one `retired` with state post-active", () => {
    const world = signedWorld(SPLIT_8);
    const from = world.events.length;
    world.started(startRollover(world.zoneAt(world.now), { kind: "algorithm", algorithm: 13 }, world.newKeyId));
    world.settle();
    const events = world.events.slice(from).filter((e) => e.key !== null);
    expect(events.filter((e) => e.state === "pre-published").map((e) => e.type)).toEqual(["dnssec.key.published", "dnssec.key.published"]);
    expect(events.filter((e) => e.state === "post-active").map((e) => e.type)).toEqual(["dnssec.key.retired", "dnssec.key.retired"]);
  });
});

describe("the zone says when it next has something to do", () => {
  it("a ZSK roll's new and old keys wait Ipub (Dprp + TTLkey = 302 s), then the old one Iret (Dsgn + Dprp + TTLsig = 3602 s)", () => {
    const world = signedWorld(SPLIT_13);
    const start = world.now;
    const result = world.started(startRollover(world.zoneAt(start), { kind: "zsk" }, world.newKeyId));
    const at = new Date(start + 302_000).toISOString();
    expect(result.next_step_at).toBe(at);
    expect(result.keys.map((k) => [k.id, k.state, k.next_step_at])).toEqual([
      ["ksk-1", "active", null],
      ["zsk-2", "active", at],
      ["zsk-3", "published", at],
    ]);
    const later = nextSteps(world.zoneAt(start + 302_000));
    expect(later.next_step_at).toBe(new Date(start + 302_000 + 3_602_000).toISOString());
    expect(later.keys.find((k) => k.id === "zsk-2")).toMatchObject({ state: "retired", next_step_at: later.next_step_at });
  });
  it("nextSteps is pure: it changes nothing it is given, and the same input gives the same answer", () => {
    const world = signedWorld(SPLIT_13);
    const started = startRollover(world.zoneAt(world.now), { kind: "ksk" }, world.newKeyId);
    if (!started.ok) throw new Error(started.message);
    const zone = deepFreeze({ ...world.zoneAt(world.now + DAY), keys: started.result.keys, rollover: started.result.rollover });
    expect(nextSteps(zone)).toEqual(nextSteps(zone));
    expect(dsSeen(zone, { keys: ["ksk-1", "ksk-3"] })).toEqual(dsSeen(zone, { keys: ["ksk-1", "ksk-3"] }));
  });
});

describe("keys at rest whose DS the parent has not followed are looked at: Dreg after it was sent, then daily", () => {
  it("a first DS a connected registry holds for review (submitted at rest): next look at Dreg, then every day, and none once seen", () => {
    const connected: ParentTiming = { kind: "managed", dsTtl: 86_400, registrationDelay: 900, propagationDelay: 300 };
    const at = Date.parse("2026-11-20T00:00:00.000Z");
    const key: SigningKey = {
      id: "csk-1",
      role: "csk",
      algorithm: 13,
      state: "active",
      pre_published_at: null,
      published_at: new Date(at).toISOString(),
      ready_at: new Date(at).toISOString(),
      active_at: new Date(at).toISOString(),
      retired_at: null,
      removed_at: null,
      ds: "submitted",
      ds_since: new Date(at).toISOString(),
      next_step_at: null,
    };
    const zone = (now: number, keys: SigningKey[] = [key]): SigningZone => ({
      policy: DEFAULT_SIGNING_POLICY,
      keys,
      rollover: null,
      timing: SERVICE_ZONE,
      parent: connected,
      now: new Date(now),
    });
    const first = nextSteps(zone(at));
    expect([first.next_step_at, first.awaiting_parent?.expected_at]).toEqual([new Date(at + 900_000).toISOString(), new Date(at + 900_000).toISOString()]);
    expect(nextSteps(zone(at + 900_000)).next_step_at).toBe(new Date(at + 900_000 + DAY).toISOString());
    const seen = dsSeen(zone(at + 900_000), { keys: ["csk-1"] });
    expect([seen.keys[0]!.ds, seen.next_step_at, seen.awaiting_parent, seen.events.map((e) => e.type)]).toEqual(["seen", null, null, ["dnssec.ds.seen"]]);
  });
});

describe("the CDS set follows the DS set the parent must show (RFC 7344)", () => {
  it("none before the first DS is due, both during a double-DS roll, the new one after", () => {
    const world = new World({ policy: SPLIT_13, zone: SERVICE_ZONE, parent: BUILTIN_PARENT, parentKind: "external" });
    expect(world.started(startSigning(world.zoneAt(world.now), world.newKeyId)).cds).toEqual({ kind: "none" });
    world.settle();
    expect(world.versions.at(-1)!.cds).toEqual({ kind: "keys", keys: ["ksk-1"] });
    const started = world.started(startRollover(world.zoneAt(world.now), { kind: "ksk" }, world.newKeyId));
    expect(started.cds).toEqual({ kind: "keys", keys: ["ksk-1", "ksk-3"] });
    expect(started.dsWanted).toEqual(["ksk-1", "ksk-3"]);
    world.settle();
    expect(world.versions.at(-1)!.cds).toEqual({ kind: "keys", keys: ["ksk-3"] });
  });
});

describe("a parent that does not follow stalls the roll, which waits", () => {
  const parent: RealParent = { publishAfter: null, propagationDelay: 0, dsTtl: 86_400, observeAfter: 0 };
  it("dnssec.rollover.stalled once, 7 days past the expected registration; the roll goes on when the parent follows", () => {
    const world = signedWorld(DEFAULT_SIGNING_POLICY);
    world.setup.parent = parent;
    world.setup.parentKind = "external";
    world.tell({ parent: { kind: "external", registrationDelay: 86_400 } });
    const start = world.now;
    const started = world.started(startRollover(world.zoneAt(start), { kind: "csk" }, world.newKeyId));
    expect(started.awaiting_parent).toEqual({
      since: new Date(start).toISOString(),
      expected_at: new Date(start + DAY).toISOString(),
      stalls_at: new Date(start + 8 * DAY).toISOString(),
    });
    expect(started.next_step_at).toBe(new Date(start + DAY).toISOString());
    const looks = world.snapshots.length;
    world.runUntil(start + 20 * DAY);
    // Looked at when the parent was due, then hourly: 7 days of hours, then the days to 20.
    expect(world.snapshots.length - looks).toBe(1 + 19 * 24);
    const stalled = world.events.filter((e) => e.type === "dnssec.rollover.stalled");
    expect(stalled).toEqual([{ type: "dnssec.rollover.stalled", at: new Date(start + 8 * DAY).toISOString(), key: null, state: null, ds: ["csk-1", "csk-2"] }]);
    expect(world.rollover).toMatchObject({ kind: "csk", stalled_at: new Date(start + 8 * DAY).toISOString() });
    expect(world.keys.map((k) => k.state)).toEqual(["active", "published"]);
    world.setup.parent = BUILTIN_PARENT;
    world.parentPublishes(["csk-1", "csk-2"]);
    expect(world.rollover?.stalled_at).toBeNull();
    world.settle();
    expect(world.rollover).toBeNull();
    expect(world.keys.map((k) => k.state)).toEqual(["removed", "active"]);
    expect(world.violations()).toEqual([]);
  });
});

describe("leaving DNSSEC in the middle of a roll", () => {
  for (const [policy, request] of [
    [SPLIT_13, { kind: "ksk" }],
    [SPLIT_8, { kind: "algorithm", algorithm: 13 }],
  ] as const) {
    it(`stops the ${request.kind} roll where it stands and takes every key out once no cache holds a DS`, () => {
      const world = signedWorld(policy);
      world.started(startRollover(world.zoneAt(world.now), request, world.newKeyId));
      world.runUntil(world.now + 3 * 3_600_000);
      world.started(startUnsigning(world.zoneAt(world.now)));
      world.settle();
      expect(world.keys.every((k) => k.state === "removed")).toBe(true);
      expect(world.parentSets.at(-1)!.ds).toEqual([]);
      expect(world.violations()).toEqual([]);
    });
  }
});

describe("leaving DNSSEC waits until the parent shows no DS at all, a DS naming no key of ours included", () => {
  const EXTERNAL: ParentTiming = { kind: "external", dsTtl: 86_400, registrationDelay: 0 };
  /** A settled zone under a parent not managed here: its CSK active, the CSK's DS seen. */
  function leaving(ds: SigningKey["ds"] = "seen") {
    const world = signedWorld(DEFAULT_SIGNING_POLICY);
    const keys = world.keys.map((k) => ({ ...k, ds, ds_since: ds === "absent" ? null : k.ds_since }));
    const zone: SigningZone = { ...world.zoneAt(world.now), keys, parent: EXTERNAL };
    const started = startUnsigning(zone);
    if (!started.ok) throw new Error(started.message);
    return {
      start: world.now,
      zone: (now: number, result: StepResult): SigningZone => ({ ...zone, keys: result.keys, rollover: result.rollover, now: new Date(now) }),
      started: started.result,
    };
  }
  const keys = (result: StepResult) => result.keys.map((k) => `${k.id} ${k.state} ${k.ds}`);

  it("a DS of no key of ours at the parent keeps the CSK withdrawn and signing, the delete published, awaiting the parent, for any time", () => {
    const { start, zone, started } = leaving();
    const unknown = dsSeen(zone(start + DAY, started), { keys: [], unknown: 1 });
    expect(keys(unknown)).toEqual(["csk-1 active withdrawn"]);
    expect(unknown.cds).toEqual({ kind: "delete" });
    expect(unknown.rollover).toMatchObject({ kind: "unsign" });
    expect(unknown.events).toEqual([]);
    expect(unknown.awaiting_parent).toEqual({
      since: new Date(start).toISOString(),
      expected_at: new Date(start).toISOString(),
      stalls_at: new Date(start + 7 * DAY).toISOString(),
    });
    expect(awaitingParent(zone(start + DAY, unknown))).toEqual(unknown.awaiting_parent);
    // The reviewer's case: 3 days on, and 30, the key is still there.
    for (const later of [3 * DAY, 30 * DAY]) {
      const run = nextSteps(zone(start + later, unknown));
      expect(run.changes).toEqual([]);
      expect(keys(run)).toEqual(["csk-1 active withdrawn"]);
    }
    // A DS of ours beside it changes nothing either.
    expect(keys(dsSeen(zone(start + 2 * DAY, unknown), { keys: ["csk-1"], unknown: 2 }))).toEqual(["csk-1 active withdrawn"]);
  });

  it("once the parent shows no DS the wait (IpubP, the DS TTL) starts, and the zone is unsigned after it", () => {
    const { start, zone, started } = leaving();
    const unknown = dsSeen(zone(start + DAY, started), { keys: [], unknown: 1 });
    const noneAt = start + 4 * DAY;
    const none = dsSeen(zone(noneAt, unknown), { keys: [] });
    expect(keys(none)).toEqual(["csk-1 active absent"]);
    expect(none.awaiting_parent).toBeNull();
    expect(none.next_step_at).toBe(new Date(noneAt + DAY).toISOString());
    expect(nextSteps(zone(noneAt + DAY - 1000, none)).changes).toEqual([]);
    const done = nextSteps(zone(noneAt + DAY, none));
    expect(keys(done)).toEqual(["csk-1 removed absent"]);
    expect(done.rollover).toBeNull();
    expect(done.cds).toEqual({ kind: "none" });
  });

  it("a DS the parent shows again during the wait, naming no key of ours, holds the entry point withdrawn and the wait starts over once it is gone", () => {
    const { start, zone, started } = leaving();
    const none = dsSeen(zone(start + DAY, started), { keys: [] });
    expect(keys(none)).toEqual(["csk-1 active absent"]);
    const againAt = start + DAY + 3_600_000;
    const again = dsSeen(zone(againAt, none), { keys: [], unknown: 1 });
    expect(keys(again)).toEqual(["csk-1 active withdrawn"]);
    expect(again.cds).toEqual({ kind: "delete" });
    expect(again.awaiting_parent).toMatchObject({ since: new Date(againAt).toISOString() });
    expect(nextSteps(zone(start + 10 * DAY, again)).changes).toEqual([]);
    const goneAt = start + 10 * DAY;
    const gone = dsSeen(zone(goneAt, again), { keys: [] });
    expect(gone.next_step_at).toBe(new Date(goneAt + DAY).toISOString());
    expect(keys(nextSteps(zone(goneAt + DAY, gone)))).toEqual(["csk-1 removed absent"]);
  });

  it("in a roll (not leaving) a DS of no key of ours holds nothing: the KSK roll drops the old key once its own DS is gone", () => {
    const world = signedWorld(SPLIT_13);
    world.started(startRollover(world.zoneAt(world.now), { kind: "ksk" }, world.newKeyId));
    const withUnknown = (): void => {
      world.apply(dsSeen(world.zoneAt(world.now), { keys: world.keys.filter((k) => k.ds === "submitted" || k.ds === "seen").map((k) => k.id), unknown: 1 }));
    };
    withUnknown();
    world.settle();
    withUnknown();
    expect(world.keys.map((k) => `${k.id} ${k.state} ${k.ds}`)).toEqual(["ksk-1 removed absent", "zsk-2 active absent", "ksk-3 active seen"]);
    expect(world.rollover).toBeNull();
  });

  it("a KSK roll keeps the old key while the parent lost the new key's DS: a DS of no key of ours beside the old validates nothing", () => {
    const world = signedWorld(SPLIT_13);
    world.started(startRollover(world.zoneAt(world.now), { kind: "ksk" }, world.newKeyId));
    world.parentPublishes(["ksk-1", "ksk-3"]);
    const swapAt = world.now + DAY;
    const swapped = nextSteps(world.zoneAt(swapAt));
    const at = (now: number, result: StepResult): SigningZone => ({ ...world.zoneAt(now), keys: result.keys, rollover: result.rollover });
    expect(keys(swapped)).toEqual(["ksk-1 retired seen", "zsk-2 active absent", "ksk-3 active seen"]);
    const lost = dsSeen(at(swapAt, swapped), { keys: ["ksk-1"], unknown: 1 });
    expect(keys(lost)).toEqual(["ksk-1 retired seen", "zsk-2 active absent", "ksk-3 active submitted"]);
    expect(lost.dsWanted).toEqual(["ksk-1", "ksk-3"]);
    const later = nextSteps(at(swapAt + 30 * DAY, lost));
    expect(later.changes).toEqual([]);
    expect(later.awaiting_parent).toMatchObject({ since: new Date(swapAt).toISOString() });
    const back = dsSeen(at(swapAt + 30 * DAY, lost), { keys: ["ksk-1", "ksk-3"], unknown: 1 });
    expect(keys(back)).toEqual(["ksk-1 removed withdrawn", "zsk-2 active absent", "ksk-3 active seen"]);
  });
});

describe("what the parent shows is recorded key by key", () => {
  const world = signedWorld(SPLIT_13);
  const started = startRollover(world.zoneAt(world.now), { kind: "ksk" }, world.newKeyId);
  if (!started.ok) throw new Error(started.message);
  const zone: SigningZone = { ...world.zoneAt(world.now), keys: started.result.keys, rollover: started.result.rollover };
  const ds = (keys: SigningKey[]) => keys.map((k) => `${k.id} ${k.ds}`);
  it("the new DS seen beside the old: ds.seen, and nothing to send", () => {
    const seen = dsSeen(zone, { keys: ["ksk-1", "ksk-3"] });
    expect(ds(seen.keys)).toEqual(["ksk-1 seen", "zsk-2 absent", "ksk-3 seen"]);
    expect(seen.events.map((e) => e.type)).toEqual(["dnssec.ds.seen"]);
    expect(seen.dsWanted).toBeNull();
  });
  it("an observation dated before the submission counts from the submission", () => {
    const early = dsSeen(zone, { keys: ["ksk-1", "ksk-3"] }, new Date(world.now - 3_600_000));
    expect(early.keys.find((k) => k.id === "ksk-3")).toMatchObject({ ds: "seen", ds_since: new Date(world.now).toISOString() });
  });
  it("a DS the parent lost is submitted again, and no ds.seen", () => {
    const lost = dsSeen(zone, { keys: ["ksk-3"] });
    expect(ds(lost.keys)).toEqual(["ksk-1 submitted", "zsk-2 absent", "ksk-3 seen"]);
    expect(lost.dsWanted).toEqual(["ksk-1", "ksk-3"]);
    expect(lost.events).toEqual([]);
  });
  it("a DS of ours the parent shows unasked is to be withdrawn, and a DS of no key of ours holds back ds.seen", () => {
    const unasked = dsSeen(zone, { keys: ["ksk-1", "zsk-2", "ksk-3"] });
    expect(ds(unasked.keys)).toEqual(["ksk-1 seen", "zsk-2 withdrawn", "ksk-3 seen"]);
    expect(unasked.dsWanted).toEqual(["ksk-1", "ksk-3"]);
    expect(dsSeen(zone, { keys: ["ksk-1", "ksk-3"], unknown: 1 }).events).toEqual([]);
  });
});

describe("the policy and the keys' lifetimes start rolls themselves", () => {
  it("a ZSK living 30 days and a KSK living 365 retire exactly at the end of their lifetimes, and a year of rolls never fails a resolver", () => {
    const world = signedWorld({ ...SPLIT_13, zsk_lifetime_days: 30, ksk_lifetime_days: 365 }, BUILTIN_PARENT, "managed", true);
    world.runUntil(world.start + 400 * DAY);
    const retired = world.changes.filter((c) => c.to === "retired");
    const activeAt = (id: string) => Date.parse(world.changes.find((c) => c.key === id && c.to === "active")!.at);
    expect(retired.map((c) => [c.key.split("-")[0], (Date.parse(c.at) - activeAt(c.key)) / DAY])).toEqual([
      ...Array.from({ length: 12 }, () => ["zsk", 30]),
      ["ksk", 365],
      ["zsk", 30],
    ]);
    expect(world.violations()).toEqual([]);
  });
  it("a policy of another algorithm rolls the algorithm at the next run (8 → 13)", () => {
    const world = signedWorld(SPLIT_8, BUILTIN_PARENT, "managed", true);
    world.policy = SPLIT_13;
    world.settle();
    expect(world.keys.filter((k) => k.state !== "removed").map((k) => `${k.role} ${k.algorithm}`)).toEqual(["ksk 13", "zsk 13"]);
    expect(world.violations()).toEqual([]);
  });
  for (const [from, to] of [
    [DEFAULT_SIGNING_POLICY, SPLIT_13],
    [SPLIT_13, DEFAULT_SIGNING_POLICY],
    [SPLIT_8, DEFAULT_SIGNING_POLICY],
  ] as const) {
    it(`a policy change from ${from.single_key ? "one combined key" : "a KSK and a ZSK"} (${from.algorithm}) to ${to.single_key ? "one combined key" : "a KSK and a ZSK"} (${to.algorithm}) takes effect by a roll no resolver notices`, () => {
      for (const [parent, kind] of [
        [BUILTIN_PARENT, "managed"],
        [{ publishAfter: 86_400, propagationDelay: 600, dsTtl: 3600, observeAfter: 3600 }, "external"],
      ] as const) {
        const world = signedWorld(from, parent, kind, true);
        world.policy = to;
        world.settle();
        expect(world.keys.filter((k) => k.state !== "removed").map((k) => `${k.role} ${k.algorithm}`)).toEqual(
          to.single_key ? [`csk ${to.algorithm}`] : [`ksk ${to.algorithm}`, `zsk ${to.algorithm}`],
        );
        expect(world.violations()).toEqual([]);
      }
    });
  }
});

describe("PowerDNS signs as the keys' states say (getDomainKeys' published and active flags)", () => {
  // PowerDNS (DNSSECKeeper::getKeys): per algorithm, if an active key has flags 257 and another
  // 256, the 257 ones sign the DNSKEY RRset and the 256 ones the rest; else every active key of
  // the algorithm signs everything. Published keys are the DNSKEY RRset.
  function powerDnsSigns(keys: SigningKey[]) {
    const flagged = keys.filter((k) => k.state !== "removed").map((k) => ({ key: k, ...powerDnsFlags(k) }));
    const split = (alg: number) => {
      const active = flagged.filter((f) => f.active && f.key.algorithm === alg);
      return active.some((f) => f.flags === 257) && active.some((f) => f.flags === 256);
    };
    const active = flagged.filter((f) => f.active);
    return {
      dnskey: flagged.filter((f) => f.published).map((f) => f.key.id),
      signsDnskey: active.filter((f) => !split(f.key.algorithm) || f.flags === 257).map((f) => f.key.id),
      signsZone: active.filter((f) => !split(f.key.algorithm) || f.flags === 256).map((f) => f.key.id),
    };
  }
  it("in every state every kind of roll passes through", () => {
    const snapshots: SigningKey[][] = [];
    for (const [policy, request] of [
      [SPLIT_13, { kind: "zsk" }],
      [SPLIT_13, { kind: "ksk" }],
      [DEFAULT_SIGNING_POLICY, { kind: "csk" }],
      [SPLIT_8, { kind: "algorithm", algorithm: 13 }],
      [DEFAULT_SIGNING_POLICY, { kind: "algorithm", algorithm: 8 }],
    ] as const) {
      const world = signedWorld(policy);
      world.started(startRollover(world.zoneAt(world.now), request, world.newKeyId));
      world.settle();
      world.started(startUnsigning(world.zoneAt(world.now)));
      world.settle();
      snapshots.push(...world.snapshots);
    }
    expect(snapshots.length).toBeGreaterThan(40);
    for (const keys of snapshots) expect(powerDnsSigns(keys)).toEqual(signingView(keys));
  });
});

describe("key ids to the records the parent and the apex carry", () => {
  const parsed = parseRdata("DNSKEY", "257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==", null);
  if (!parsed.ok) throw new Error(parsed.error);
  // RFC 6605 §6.1's key of example.net, and its DS.
  const keys = [{ id: "csk-1", dnskey: parsed.value as DnsKey }];
  const ds = { key_tag: 55648, algorithm: 13, digest_type: 2, digest: "b4c8c1fe2e7477127b27115656ad6256f424625bf5c1e2770ce6d6e37df61d17" };
  it("a wanted set becomes its SHA-256 DS records (RFC 6605 §6.1's example)", () => {
    expect(dsRecordsOf("example.net", ["csk-1", "gone"], keys)).toEqual([{ ...ds, digest: ds.digest.toUpperCase() }]);
  });
  it("a DS set at the parent names the keys whose tag, algorithm and digest match, and counts the rest", () => {
    expect(parentDsKeys("example.net", keys, [ds])).toEqual({ keys: ["csk-1"], unknown: 0 });
    expect(
      parentDsKeys("example.net", keys, [
        { ...ds, digest_type: 1 },
        { ...ds, key_tag: 1 },
        { ...ds, digest_type: 3 },
      ]),
    ).toEqual({ keys: [], unknown: 3 });
    expect(parentDsKeys("example.com", keys, [ds])).toEqual({ keys: [], unknown: 1 });
  });
  it("a CDS set becomes CDS and CDNSKEY records, or RFC 8078 §4's delete, or nothing", () => {
    expect(cdsRecords("example.net", { kind: "keys", keys: ["csk-1"] }, keys)).toEqual([
      { type: "CDS", content: "55648 13 2 B4C8C1FE2E7477127B27115656AD6256F424625BF5C1E2770CE6D6E37DF61D17" },
      { type: "CDNSKEY", content: "257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==" },
    ]);
    expect(cdsRecords("example.net", { kind: "delete" }, keys)).toEqual([
      { type: "CDS", content: "0 0 0 00" },
      { type: "CDNSKEY", content: "0 3 0 AA==" },
    ]);
    expect(cdsRecords("example.net", { kind: "none" }, keys)).toEqual([]);
    for (const record of cdsRecords("example.net", { kind: "delete" }, keys)) expect(parseRdata(record.type, record.content, null).ok).toBe(true);
  });
});
