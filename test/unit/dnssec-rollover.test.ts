// Key rollovers proved against a model validator (src/dns/dnssec/rollover.ts,
// docs/dnssec-rollovers.md). Each roll runs on a clock that jumps from step to step; at every
// instant where anything a resolver may hold changes (and a second and a millisecond either
// side), every combination of a cached DS set, a cached DNSKEY RRset and a cached RRSIG over
// zone data must validate (test/unit/dnssec-rollover-world.ts says exactly how).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type ParentTiming, rollDuration, type ZoneTiming } from "../../src/dns/dnssec/key-timing";
import { type RolloverRequest, startRollover, startSigning, startUnsigning } from "../../src/dns/dnssec/rollover";
import { DEFAULT_SIGNING_POLICY, type SigningPolicy } from "../../src/dns/dnssec/signing-policy";
import { BUILTIN_PARENT, type RealParent, SERVICE_ZONE, World } from "./dnssec-rollover-world";

const SPLIT_8: SigningPolicy = { algorithm: 8, ksk_lifetime_days: null, zsk_lifetime_days: null, single_key: false };
const SPLIT_13: SigningPolicy = { ...SPLIT_8, algorithm: 13 };

interface Setting {
  name: string;
  zone: ZoneTiming;
  parent: RealParent;
  parentKind: "managed" | "external";
}

/** The zones and parents every roll is proved with. */
const SETTINGS: Setting[] = [
  { name: "the service's defaults, builtin registry", zone: SERVICE_ZONE, parent: BUILTIN_PARENT, parentKind: "managed" },
  {
    name: "long TTLs (DNSKEY 3600 s, max 86 400 s), an EPP registry (Dreg 900 s, DprpP 300 s)",
    zone: { dnskeyTtl: 3600, maxZoneTtl: 86_400, propagationDelay: 60, signingDelay: 0 },
    parent: { publishAfter: 900, propagationDelay: 300, dsTtl: 86_400, observeAfter: 0 },
    parentKind: "managed",
  },
  {
    name: "an external parent reading CDS daily, polled hourly, DS TTL 3600 s",
    zone: SERVICE_ZONE,
    parent: { publishAfter: 86_400, propagationDelay: 600, dsTtl: 3600, observeAfter: 3600 },
    parentKind: "external",
  },
  {
    name: "a signing delay of an hour (RRSIGs of the keys before linger), DNSKEY TTL above the DS TTL",
    zone: { dnskeyTtl: 7200, maxZoneTtl: 7200, propagationDelay: 5, signingDelay: 3600 },
    parent: { publishAfter: 0, propagationDelay: 0, dsTtl: 600, observeAfter: 0 },
    parentKind: "managed",
  },
];

/** A world whose zone was signed under `policy` and whose first DS is up; then the engine is told `engine` (a wrong wait). */
function signedWorld(policy: SigningPolicy, setting: Setting, engine: { zone?: ZoneTiming; parent?: Partial<ParentTiming> } = {}): World {
  const world = new World({ policy, zone: setting.zone, parent: setting.parent, parentKind: setting.parentKind });
  world.started(startSigning(world.zoneAt(world.now), world.newKeyId));
  world.settle();
  world.tell(engine);
  return world;
}

/** Starts `request` on a signed world and runs it to the end; returns when it started (ms). */
function roll(world: World, request: RolloverRequest): number {
  const from = world.now;
  world.started(startRollover(world.zoneAt(from), request, world.newKeyId));
  world.settle();
  expect(world.rollover).toBeNull();
  return from;
}

function rules(world: World): string[] {
  return [...new Set(world.violations().map((v) => v.rule))];
}

describe("signing a zone: the DS goes up only once no cache holds an unsigned RRset (RFC 7583 §3.3.5)", () => {
  for (const setting of SETTINGS) {
    it(`every cached combination validates, or is insecure, from the first key to the DS (${setting.name})`, () => {
      const world = signedWorld(DEFAULT_SIGNING_POLICY, setting);
      expect(world.rollover).toBeNull();
      expect(world.parentSets.at(-1)!.ds).toEqual(["csk-1"]);
      expect(world.violations()).toEqual([]);
    });
  }
  it("a DS submitted a second early meets an unsigned RRset in a cache (the model catches it)", () => {
    const world = new World({ policy: DEFAULT_SIGNING_POLICY, zone: SERVICE_ZONE, parent: BUILTIN_PARENT, parentKind: "managed" });
    world.tell({ zone: { ...SERVICE_ZONE, maxZoneTtl: SERVICE_ZONE.maxZoneTtl - 1 } });
    world.started(startSigning(world.zoneAt(world.now), world.newKeyId));
    world.settle();
    expect(rules(world)).toEqual(["RFC 4035 §5.3: a cached RRSIG of zone data is made by no key in the cached DNSKEY RRset"]);
  });
});

describe("a ZSK roll (pre-publication, RFC 7583 §3.2.1)", () => {
  for (const setting of SETTINGS) {
    it(`never leaves a resolver holding an RRSIG from a key missing in its cached DNSKEY set (${setting.name})`, () => {
      const world = signedWorld(SPLIT_13, setting);
      roll(world, { kind: "zsk" });
      expect(world.violations()).toEqual([]);
    });
  }
  it("a new ZSK signing a second before Ipub, or the old one removed a second before Iret, is caught", () => {
    const early = signedWorld(SPLIT_13, SETTINGS[0]!, { zone: { ...SERVICE_ZONE, dnskeyTtl: SERVICE_ZONE.dnskeyTtl - 1 } });
    roll(early, { kind: "zsk" });
    expect(rules(early)).toEqual(["RFC 4035 §5.3: a cached RRSIG of zone data is made by no key in the cached DNSKEY RRset"]);
    const late = signedWorld(SPLIT_13, SETTINGS[0]!, { zone: { ...SERVICE_ZONE, maxZoneTtl: SERVICE_ZONE.maxZoneTtl - 1 } });
    roll(late, { kind: "zsk" });
    expect(rules(late)).toEqual(["RFC 4035 §5.3: a cached RRSIG of zone data is made by no key in the cached DNSKEY RRset"]);
  });
});

describe("a KSK roll (double-DS, RFC 7583 §3.3.2)", () => {
  for (const setting of SETTINGS) {
    it(`always leaves a DS in every cached DS set that matches a key signing every cached DNSKEY RRset (${setting.name})`, () => {
      const world = signedWorld(SPLIT_13, setting);
      roll(world, { kind: "ksk" });
      expect(world.parentSets.at(-1)!.ds).toEqual(["ksk-3"]);
      expect(world.violations()).toEqual([]);
    });
  }
  it("a swap a second before the new DS is in every cache, or the old DS withdrawn a second early, is caught", () => {
    const swap = signedWorld(SPLIT_13, SETTINGS[0]!, { parent: { dsTtl: 86_399 } });
    roll(swap, { kind: "ksk" });
    expect(rules(swap)).toEqual(["RFC 4035 §5.2: no DS in the cached DS set matches a key that signs the cached DNSKEY RRset"]);
    const withdraw = signedWorld(SPLIT_13, SETTINGS[0]!, { zone: { ...SERVICE_ZONE, dnskeyTtl: SERVICE_ZONE.dnskeyTtl - 1 } });
    roll(withdraw, { kind: "ksk" });
    expect(rules(withdraw)).toEqual(["RFC 4035 §5.2: no DS in the cached DS set matches a key that signs the cached DNSKEY RRset"]);
  });
});

describe("a CSK roll (double-DS with the new key pre-published, RFC 7583 §3.3.2 and §3.2.1)", () => {
  for (const setting of SETTINGS) {
    it(`keeps every cached DS set, DNSKEY RRset and RRSIG validating together (${setting.name})`, () => {
      const world = signedWorld(DEFAULT_SIGNING_POLICY, setting);
      roll(world, { kind: "csk" });
      expect(world.parentSets.at(-1)!.ds).toEqual(["csk-2"]);
      expect(world.violations()).toEqual([]);
    });
  }
  it("the old CSK removed a second before its last RRSIG can leave caches is caught", () => {
    const world = signedWorld(DEFAULT_SIGNING_POLICY, SETTINGS[0]!, { zone: { ...SERVICE_ZONE, maxZoneTtl: SERVICE_ZONE.maxZoneTtl - 1 } });
    roll(world, { kind: "csk" });
    expect(rules(world)).toEqual(["RFC 4035 §5.3: a cached RRSIG of zone data is made by no key in the cached DNSKEY RRset"]);
  });
});

describe("an algorithm roll 8 → 13 (RFC 6781 §4.1.4)", () => {
  for (const setting of SETTINGS) {
    it(`signs with every algorithm a cached DS set or DNSKEY RRset names, at every instant (${setting.name})`, () => {
      const world = signedWorld(SPLIT_8, setting);
      roll(world, { kind: "algorithm", algorithm: 13 });
      expect(world.policy.algorithm).toBe(13);
      expect(world.parentSets.at(-1)!.ds).toEqual(["ksk-3"]);
      expect(world.keys.filter((k) => k.state !== "removed").map((k) => `${k.role} ${k.algorithm} ${k.state}`)).toEqual(["ksk 13 active", "zsk 13 active"]);
      expect(world.violations()).toEqual([]);
    });
  }
  it("publishing the new DNSKEYs a second before every cached RRset has the new signatures is caught only by the strict rule", () => {
    const world = signedWorld(SPLIT_8, SETTINGS[0]!, { zone: { ...SERVICE_ZONE, maxZoneTtl: SERVICE_ZONE.maxZoneTtl - 1 } });
    roll(world, { kind: "algorithm", algorithm: 13 });
    expect(rules(world)).toEqual(["RFC 4035 §2.2: cached zone data lacks an RRSIG of an algorithm the validator expects"]);
  });
  it("old DNSKEYs removed a second before the old DS leaves caches, or the DS swapped and the old signatures dropped a second early, are caught", () => {
    const ds = signedWorld(SPLIT_8, SETTINGS[0]!, { parent: { dsTtl: 86_399 } });
    roll(ds, { kind: "algorithm", algorithm: 13 });
    expect(rules(ds)).toEqual(["RFC 4035 §5.2: no DS in the cached DS set matches a key that signs the cached DNSKEY RRset"]);
    const sigs = signedWorld(SPLIT_8, SETTINGS[0]!, { zone: { ...SERVICE_ZONE, dnskeyTtl: SERVICE_ZONE.dnskeyTtl - 1 } });
    roll(sigs, { kind: "algorithm", algorithm: 13 });
    expect(rules(sigs)).toEqual([
      "RFC 4035 §5.2: no DS in the cached DS set matches a key that signs the cached DNSKEY RRset",
      "RFC 4035 §2.2: cached zone data lacks an RRSIG of an algorithm the validator expects",
    ]);
  });
});

describe("leaving DNSSEC: the DS goes first, the keys once no cache holds it (RFC 8078 delete)", () => {
  for (const setting of SETTINGS) {
    it(`never leaves a cached DS pointing at keys that are gone (${setting.name})`, () => {
      const world = signedWorld(DEFAULT_SIGNING_POLICY, setting);
      world.started(startUnsigning(world.zoneAt(world.now)));
      expect(world.versions.at(-1)!.cds).toEqual({ kind: "delete" });
      world.settle();
      expect(world.keys.every((k) => k.state === "removed")).toBe(true);
      expect(world.versions.at(-1)!.cds).toEqual({ kind: "none" });
      expect(world.violations()).toEqual([]);
    });
  }
});

const DURATION_KINDS = [
  ["zsk", SPLIT_13, { kind: "zsk" }],
  ["ksk", SPLIT_13, { kind: "ksk" }],
  ["csk", DEFAULT_SIGNING_POLICY, { kind: "csk" }],
  ["algorithm", SPLIT_8, { kind: "algorithm", algorithm: 13 }],
] as const;

describe("each roll takes exactly the time its formula says (docs/dnssec-rollovers.md)", () => {
  for (const setting of SETTINGS.filter((s) => s.parent.observeAfter === 0)) {
    it(`from its start to its last change (${setting.name})`, () => {
      const parent: ParentTiming = {
        kind: setting.parentKind,
        dsTtl: setting.parent.dsTtl,
        registrationDelay: setting.parent.publishAfter ?? 0,
        propagationDelay: setting.parent.propagationDelay,
      };
      const lines: string[] = [];
      for (const [kind, policy, request] of DURATION_KINDS) {
        const world = signedWorld(policy, setting);
        const from = roll(world, request);
        const seconds = world.lastChangeAfter(from);
        expect(seconds).toBe(rollDuration(kind, setting.zone, parent));
        lines.push(`${kind.padEnd(9)} ${String(seconds).padStart(7)} s  ${(seconds / 86_400).toFixed(3)} days`);
      }
      console.log(`roll durations, ${setting.name}:\n${lines.join("\n")}`);
    });
  }
});

/** The timelines docs/dnssec-rollovers.md shows: each drawn by the simulation, with the service's defaults. */
function timelines(): Record<string, string> {
  const drawn: Record<string, string> = {};
  const setting = SETTINGS[0]!;
  const signing = new World({ policy: DEFAULT_SIGNING_POLICY, zone: setting.zone, parent: setting.parent, parentKind: setting.parentKind });
  signing.started(startSigning(signing.zoneAt(signing.now), signing.newKeyId));
  signing.settle();
  drawn.sign = signing.timeline(signing.start);
  for (const [kind, policy, request] of DURATION_KINDS) {
    const world = signedWorld(policy, setting);
    drawn[kind] = world.timeline(roll(world, request));
  }
  const scheme = new World({ policy: DEFAULT_SIGNING_POLICY, zone: setting.zone, parent: setting.parent, parentKind: setting.parentKind, autoRoll: true });
  scheme.started(startSigning(scheme.zoneAt(scheme.now), scheme.newKeyId));
  scheme.settle();
  const from = scheme.now;
  scheme.policy = SPLIT_13;
  scheme.settle();
  drawn.scheme = scheme.timeline(from);
  const leaving = signedWorld(DEFAULT_SIGNING_POLICY, setting);
  const left = leaving.now;
  leaving.started(startUnsigning(leaving.zoneAt(left)));
  leaving.settle();
  drawn.unsign = leaving.timeline(left);
  return drawn;
}

describe("docs/dnssec-rollovers.md shows what the simulation does", () => {
  const doc = readFileSync(new URL("../../docs/dnssec-rollovers.md", import.meta.url), "utf8");
  for (const [name, drawn] of Object.entries(timelines())) {
    it(`the ${name} timeline is the one the engine runs`, () => {
      expect(doc).toContain(`\`\`\`text\n${drawn}\n\`\`\``);
    });
  }
  it("the durations table gives each roll's seconds for the default TTLs", () => {
    const parent: ParentTiming = { kind: "managed", dsTtl: BUILTIN_PARENT.dsTtl, registrationDelay: 0 };
    for (const kind of ["sign", "zsk", "ksk", "csk", "algorithm", "unsign"] as const) {
      const seconds = rollDuration(kind, SERVICE_ZONE, parent);
      const table = doc.slice(doc.indexOf("## How long each roll takes"));
      const row = table.split("\n").find((line) => line.startsWith(`| \`${kind}\``));
      expect(row).toContain(`| ${seconds.toLocaleString("en-US").replace(/,/g, " ")} s`);
      expect(row).toContain(`| ${(seconds / 86_400).toFixed(3)} |`);
    }
  });
});
