// `awaiting_parent` (src/dns/dnssec/rollover.ts `awaitingParent`, what GET /zones/{zone}/dnssec
// shows): at every step of every roll, for each kind of parent, it is non-null exactly when the
// zone's next step waits for the parent, that is when no amount of time moves the keys and
// something is still asked of the parent (a DS to add, `submitted`, or to drop, `withdrawn`).
// Each roll is walked with the engine alone: the parent follows only when the zone waits for it.
import { describe, expect, it } from "vitest";
import type { ParentTiming } from "../../src/dns/dnssec/key-timing";
import {
  awaitingParent,
  dsSeen,
  nextSteps,
  type RolloverRequest,
  type SigningKey,
  type SigningProcess,
  type SigningZone,
  type StepResult,
  startRollover,
  startUnsigning,
} from "../../src/dns/dnssec/rollover";
import { DEFAULT_SIGNING_POLICY, type SigningPolicy } from "../../src/dns/dnssec/signing-policy";
import { SERVICE_ZONE } from "./dnssec-rollover-world";

const DAY = 86_400_000;
const SPLIT: SigningPolicy = { ...DEFAULT_SIGNING_POLICY, single_key: false };
const EXTERNAL: ParentTiming = { kind: "external", dsTtl: 86_400, registrationDelay: 0 };
const CONNECTED: ParentTiming = { kind: "managed", dsTtl: 86_400, registrationDelay: 900, propagationDelay: 300 };
const START = Date.parse("2027-01-04T00:00:00Z");

/** A zone signed and settled: its keys active, the entry point's DS seen at the parent. */
function signedKeys(policy: SigningPolicy): SigningKey[] {
  const at = new Date(START - 30 * DAY).toISOString();
  const key = (id: string, role: SigningKey["role"]): SigningKey => ({
    id,
    role,
    algorithm: 13,
    state: "active",
    pre_published_at: null,
    published_at: at,
    ready_at: at,
    active_at: at,
    retired_at: null,
    removed_at: null,
    ds: role === "zsk" ? "absent" : "seen",
    ds_since: role === "zsk" ? null : at,
    next_step_at: null,
  });
  return policy.single_key ? [key("csk-0", "csk")] : [key("ksk-0", "ksk"), key("zsk-0", "zsk")];
}

type Start = { roll: RolloverRequest } | { unsign: true };

interface Row {
  step: number;
  keys: string;
  awaiting: boolean;
}

/**
 * Walks a process from its start to its end: at each stand of the keys, `awaitingParent` is
 * compared with what the zone really does when left alone for 30 days (longer than any wait
 * of these timings); then the parent follows if the zone waits for it, else the run is taken
 * when due. Returns a row per stand: the keys (role, state, DS state) and whether it awaits.
 */
function walk(policy: SigningPolicy, parent: ParentTiming, start: Start, signedBy: SigningPolicy = policy): Row[] {
  let counter = 0;
  const newKeyId = (role: string) => `${role}-${++counter}`;
  let now = START;
  let keys = signedKeys(signedBy);
  let rollover: SigningProcess | null = null;
  const zone = (at: number): SigningZone => ({ policy, keys, rollover, timing: SERVICE_ZONE, parent, now: new Date(at) });
  const take = (result: StepResult) => {
    keys = result.keys.filter((k) => k.state !== "removed" || k.ds !== "absent");
    rollover = result.rollover;
    return result;
  };
  const started = "roll" in start ? startRollover(zone(now), start.roll, newKeyId) : startUnsigning(zone(now));
  if (!started.ok) throw new Error(started.message);
  policy = started.policy;
  take(started.result);
  const rows: Row[] = [];
  for (let step = 0; step < 20 && (rollover !== null || keys.some((k) => k.ds === "submitted" || k.ds === "withdrawn")); step++) {
    const awaiting = awaitingParent(zone(now));
    const pending = keys.some((k) => k.ds === "submitted" || k.ds === "withdrawn");
    const alone = nextSteps(zone(now + 30 * DAY));
    const waitsForParent = alone.changes.length === 0 && alone.dsWanted === null && pending;
    const label = keys.map((k) => `${k.role} ${k.state} ${k.ds}`).join(", ");
    expect(awaiting !== null, `${label}: awaiting_parent ${JSON.stringify(awaiting)}, left alone ${alone.changes.length} changes`).toBe(waitsForParent);
    if (awaiting) {
      // Since the earliest DS change not followed, Dreg for it, the stall 7 days past that (a process runs).
      const since = Math.min(...keys.filter((k) => k.ds === "submitted" || k.ds === "withdrawn").map((k) => Date.parse(k.ds_since!)));
      const expected = since + parent.registrationDelay * 1000;
      expect(awaiting).toEqual({
        since: new Date(since).toISOString(),
        expected_at: new Date(expected).toISOString(),
        stalls_at: new Date(expected + 7 * DAY).toISOString(),
      });
    }
    rows.push({ step, keys: label, awaiting: awaiting !== null });
    if (waitsForParent) {
      // The parent follows when it should: exactly the wanted DS set.
      now = Math.max(now, Date.parse(awaiting!.expected_at)) + 60_000;
      const wanted = keys.filter((k) => k.ds === "submitted" || k.ds === "seen").map((k) => k.id);
      take(dsSeen(zone(now), { keys: wanted }));
    } else {
      const result = nextSteps(zone(now));
      if (result.next_step_at === null) throw new Error(`${label}: nothing to wait for, yet the process runs`);
      now = Date.parse(result.next_step_at);
      take(nextSteps(zone(now)));
    }
  }
  expect(rollover, "the process ended").toBeNull();
  return rows;
}

const awaitingSteps = (rows: Row[]) => rows.map((r) => [r.keys, r.awaiting]);

describe("awaiting_parent is non-null exactly when the next step waits for the parent (a parent not managed here)", () => {
  it("ZSK (pre-publication): never; the KSK's DS does not change", () => {
    expect(awaitingSteps(walk(SPLIT, EXTERNAL, { roll: { kind: "zsk" } }))).toEqual([
      ["ksk active seen, zsk active absent, zsk published absent", false],
      ["ksk active seen, zsk retired absent, zsk active absent", false],
    ]);
  });

  it("KSK (double-DS): while the parent must add the new DS, and while it must drop the old one (the removed key listed)", () => {
    expect(awaitingSteps(walk(SPLIT, EXTERNAL, { roll: { kind: "ksk" } }))).toEqual([
      ["ksk active seen, zsk active absent, ksk published submitted", true],
      ["ksk active seen, zsk active absent, ksk published seen", false],
      ["ksk retired seen, zsk active absent, ksk active seen", false],
      ["ksk removed withdrawn, zsk active absent, ksk active seen", true],
    ]);
  });

  it("CSK (double-DS): the same two parent steps", () => {
    expect(awaitingSteps(walk(DEFAULT_SIGNING_POLICY, EXTERNAL, { roll: { kind: "csk" } }))).toEqual([
      ["csk active seen, csk published submitted", true],
      ["csk active seen, csk published seen", false],
      ["csk retired seen, csk active seen", false],
      ["csk removed withdrawn, csk active seen", true],
    ]);
  });

  it("a combined key to a KSK and a ZSK (double-DS, every key swapped): the same two parent steps", () => {
    expect(awaitingSteps(walk(SPLIT, EXTERNAL, { roll: { kind: "csk" } }, DEFAULT_SIGNING_POLICY))).toEqual([
      ["csk active seen, ksk published submitted, zsk published absent", true],
      ["csk active seen, ksk published seen, zsk published absent", false],
      ["csk retired seen, ksk active seen, zsk active absent", false],
      ["csk removed withdrawn, ksk active seen, zsk active absent", true],
    ]);
  });

  it("algorithm (RFC 6781 §4.1.4): only while the parent must swap the DS set (add the new, drop the old at once)", () => {
    expect(awaitingSteps(walk(DEFAULT_SIGNING_POLICY, EXTERNAL, { roll: { kind: "algorithm", algorithm: 14 } }))).toEqual([
      ["csk active seen, csk pre-published absent", false],
      ["csk active seen, csk published absent", false],
      ["csk active withdrawn, csk ready submitted", true],
      ["csk active absent, csk ready seen", false],
      ["csk post-active absent, csk active seen", false],
    ]);
  });

  it("turning DNSSEC off (RFC 8078): while the parent must drop the DS, then no more", () => {
    expect(awaitingSteps(walk(DEFAULT_SIGNING_POLICY, EXTERNAL, { unsign: true }))).toEqual([
      ["csk active withdrawn", true],
      ["csk active absent", false],
    ]);
  });
});

describe("turning DNSSEC off under a parent still showing a DS that names no key of ours", () => {
  it("awaits the parent (the CSK withdrawn, the stall 7 days on) for as long as it shows that DS; none once it shows no DS", () => {
    const zone = (at: number, from: Pick<StepResult, "keys" | "rollover">): SigningZone => ({
      policy: DEFAULT_SIGNING_POLICY,
      keys: from.keys,
      rollover: from.rollover,
      timing: SERVICE_ZONE,
      parent: EXTERNAL,
      now: new Date(at),
    });
    const started = startUnsigning(zone(START, { keys: signedKeys(DEFAULT_SIGNING_POLICY), rollover: null }));
    if (!started.ok) throw new Error(started.message);
    const unknown = dsSeen(zone(START + DAY, started.result), { keys: [], unknown: 1 });
    const expected = { since: new Date(START).toISOString(), expected_at: new Date(START).toISOString(), stalls_at: new Date(START + 7 * DAY).toISOString() };
    expect(unknown.awaiting_parent).toEqual(expected);
    for (const later of [DAY, 3 * DAY, 30 * DAY]) expect(awaitingParent(zone(START + later, unknown))).toEqual(expected);
    expect(unknown.keys.map((k) => `${k.role} ${k.state} ${k.ds}`)).toEqual(["csk active withdrawn"]);
    const none = dsSeen(zone(START + 4 * DAY, unknown), { keys: [] });
    expect(none.awaiting_parent).toBeNull();
    expect(awaitingParent(zone(START + 4 * DAY, none))).toBeNull();
  });
});

describe("a parent at a connected registry (Dreg 15 minutes): the same parent steps, expected Dreg after they were asked", () => {
  it.each([
    ["ksk", SPLIT, { roll: { kind: "ksk" } }, [true, false, false, true]],
    ["csk", DEFAULT_SIGNING_POLICY, { roll: { kind: "csk" } }, [true, false, false, true]],
    ["algorithm", DEFAULT_SIGNING_POLICY, { roll: { kind: "algorithm", algorithm: 15 } }, [false, false, true, false, false]],
    ["zsk", SPLIT, { roll: { kind: "zsk" } }, [false, false]],
    ["unsign", DEFAULT_SIGNING_POLICY, { unsign: true }, [true, false]],
  ] as [string, SigningPolicy, Start, boolean[]][])("%s", (_kind, policy, start, expected) => {
    expect(walk(policy, CONNECTED, start).map((r) => r.awaiting)).toEqual(expected);
  });
});

describe("keys at rest whose DS the parent has not followed", () => {
  it("are shown awaiting the parent with no stall (no roll waits to stall); none once it follows", () => {
    const since = new Date(START).toISOString();
    const keys = signedKeys(DEFAULT_SIGNING_POLICY).map((k) => ({ ...k, ds: "submitted" as const, ds_since: since }));
    const zone: SigningZone = { policy: DEFAULT_SIGNING_POLICY, keys, rollover: null, timing: SERVICE_ZONE, parent: CONNECTED, now: new Date(START + DAY) };
    const expected = { since, expected_at: new Date(START + 900_000).toISOString(), stalls_at: null };
    expect(awaitingParent(zone)).toEqual(expected);
    expect(nextSteps(zone).awaiting_parent).toEqual(expected);
    const seen = dsSeen(zone, { keys: ["csk-0"] });
    expect(awaitingParent({ ...zone, keys: seen.keys })).toBeNull();
  });

  it("a roll that stands still is not awaiting the parent when its next step is due by time (a run late)", () => {
    const keys = signedKeys(DEFAULT_SIGNING_POLICY);
    const zone: SigningZone = { policy: DEFAULT_SIGNING_POLICY, keys, rollover: null, timing: SERVICE_ZONE, parent: EXTERNAL, now: new Date(START) };
    const started = startRollover(zone, { kind: "csk" }, () => "csk-1");
    if (!started.ok) throw new Error(started.message);
    const seen = dsSeen({ ...zone, keys: started.result.keys, rollover: started.result.rollover }, { keys: ["csk-0", "csk-1"] });
    // The swap is due a day later; read two days later (no run took it yet), the zone still waits for nothing but its run.
    expect(awaitingParent({ ...zone, keys: seen.keys, rollover: seen.rollover, now: new Date(START + 2 * DAY) })).toBeNull();
  });
});
