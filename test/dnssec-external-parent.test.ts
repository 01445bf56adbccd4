// The DNSSEC run and a parent not managed here (docs/dnssec-rollovers.md "The parent"): the
// run asks the parent's name servers for the zone's DS set, from the root servers down, and
// records what all of them show. The servers are the small authoritative ones of
// test/unit/dns-world.ts, reached through the run's transport (the tests reach no network:
// the real TCP transport is tried end to end by scripts/dnssec-rollover-e2e.mjs); the run,
// the engine and D1 are the real ones.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { database } from "../src/db/client";
import { zoneKeys } from "../src/db/schema";
import { DEFAULT_DS_TTL, EXTERNAL_PARENT_PROPAGATION_DELAY } from "../src/db/zone-keys";
import { writeContextAt } from "../src/db/write";
import type { DsFields } from "../src/dns/dnssec/parent-ds";
import type { ServerAddress } from "../src/dns/dnssec/parent-servers";
import { type ExternalParents, externalParents, PARENT_ASKS_PER_RUN, PARENT_QUERIES_PER_RUN } from "../src/jobs/dnssec-parent";
import { runDnssec } from "../src/jobs/dnssec-run";
import { configuredLimits } from "../src/registry/limits";
import { authoritative, type Server, world, type Zone } from "./unit/dns-world";
import { api, createZone } from "./helpers";

const DAY = 86_400_000;
const ROOTS: ServerAddress[] = [{ ip: "192.0.2.1", port: 53 }];
const ROOT: Zone = {
  apex: "",
  ns: ["a.root.test"],
  delegations: {
    test: [
      ["ns1.nic.test", "192.0.2.10"],
      ["ns2.nic.test", "192.0.2.11"],
    ],
  },
};

/** `test.` as its two servers serve it, each with the DS sets it shows. */
function testTld(ns1: Record<string, DsFields[]>, ns2: Record<string, DsFields[]> = ns1) {
  const zone = (ds: Record<string, DsFields[]>): Zone => ({ apex: "test", ns: ["ns1.nic.test", "ns2.nic.test"], ds });
  const servers: Record<string, Server> = {
    "192.0.2.1:53": authoritative(ROOT),
    "192.0.2.10:53": authoritative(zone(ns1)),
    "192.0.2.11:53": authoritative(zone(ns2)),
  };
  const { ask, asked } = world(servers);
  const external: ExternalParents = {
    roots: { ok: true, addresses: ROOTS },
    asksLeft: PARENT_ASKS_PER_RUN,
    queriesLeft: PARENT_QUERIES_PER_RUN,
    ask: () => ask,
  };
  /** The zones whose DS was asked of the root: one lookup each. */
  const looked = () => [...new Set(asked.filter((a) => a.server === "192.0.2.1:53" && a.type === 43).map((a) => a.name))];
  return { external, looked, asked };
}

async function runAt(at: number, external: ExternalParents) {
  const db = database(env.DB);
  const ctx = writeContextAt(db, new Date(at), "test", configuredLimits(env as unknown as Record<string, unknown>), db);
  return runDnssec(ctx, env.DNSSEC_KEY_SECRET ?? null, { link: null, external });
}

/** A signed zone: its key's SHA-256 DS as fields, and when the run first looks at its parent. */
async function signed(zone: string) {
  await createZone(zone);
  const on = await api("POST", `/v1/zones/${zone}/dnssec`);
  expect(on.status, on.text).toBe(201);
  const [tag, algorithm, digestType, digest] = (on.body.keys[0].ds as string[]).find((d) => d.split(" ")[2] === "2")!.split(" ");
  const ds: DsFields = { key_tag: Number(tag), algorithm: Number(algorithm), digest_type: Number(digestType), digest: digest! };
  return { ds, due: Date.parse(on.body.next_step_at) };
}

const keysOf = async (zone: string) => (await api("GET", `/v1/zones/${zone}/dnssec`)).body;

describe("the run asks a parent not managed here of its name servers, and records what all of them show", () => {
  it("the key's DS that every name server of the parent shows is seen", async () => {
    const { ds, due } = await signed("all-show.test");
    const { external, looked } = testTld({ "all-show.test": [ds] });
    expect(await runAt(due, external)).toMatchObject({ failed: 0 });
    expect(looked()).toContain("all-show.test");
    expect((await keysOf("all-show.test")).keys).toEqual([expect.objectContaining({ ds_state: "seen", state: "active" })]);
  });

  it("the DS is recorded as seen when the lookup concluded, not at the run's time: the real time the lookups took is added", async () => {
    const { ds, due } = await signed("seen-late.test");
    const { external } = testTld({ "seen-late.test": [ds] });
    // Each query answered 150 ms late: the parent's set is known only after them.
    const slow: ExternalParents = {
      ...external,
      ask: (budget) => async (server, query) => {
        await new Promise((resolve) => setTimeout(resolve, 150));
        return external.ask(budget)(server, query);
      },
    };
    const before = Date.now();
    expect(await runAt(due, slow)).toMatchObject({ failed: 0 });
    const took = Date.now() - before;
    const [key] = await database(env.DB)
      .select()
      .from(zoneKeys)
      .where(eq(zoneKeys.zoneId, (await api("GET", "/v1/zones/seen-late.test")).body.id));
    expect(key).toMatchObject({ dsState: "seen" });
    const seen = Date.parse(key!.dsSince!);
    expect(seen).toBeGreaterThanOrEqual(due + 4 * 150);
    expect(seen).toBeLessThanOrEqual(due + took);
  });

  it("while one name server of the parent does not show it yet, nothing is concluded: the DS stays submitted and the parent is looked at again a day later", async () => {
    const { ds, due } = await signed("one-behind.test");
    const { external } = testTld({ "one-behind.test": [ds] }, {});
    expect(await runAt(due, external)).toMatchObject({ failed: 0 });
    const after = await keysOf("one-behind.test");
    expect(after.keys).toEqual([expect.objectContaining({ ds_state: "submitted", state: "active" })]);
    expect(after.next_step_at).toBe(new Date(due + DAY).toISOString());
  });

  it(`one run looks up at most ${PARENT_ASKS_PER_RUN} parents: a zone past the bound is left due, unwritten, and the next run looks at it first`, async () => {
    const zones = Array.from({ length: PARENT_ASKS_PER_RUN + 1 }, (_, i) => `bound-${i}.test`);
    const made = await Promise.all(zones.map(signed));
    const shown = Object.fromEntries(zones.map((z, i) => [z, [made[i]!.ds]]));
    const at = Math.max(...made.map((m) => m.due));
    // The first run: one of the parent's servers is behind, so no zone looked at concludes
    // and each is looked at again a day later, as every zone of the second run is due.
    const first = testTld(shown, {});
    first.external.queriesLeft = PARENT_ASKS_PER_RUN * 30; // the lookups, not the queries, are the bound here
    expect(await runAt(at, first.external)).toMatchObject({ failed: 0 });
    expect(first.looked()).toHaveLength(PARENT_ASKS_PER_RUN);
    const left = zones.filter((z) => !first.looked().includes(z));
    expect(left).toHaveLength(1);
    for (const zone of zones) {
      const state = await keysOf(zone);
      expect(state.keys[0].ds_state, zone).toBe("submitted");
      const due = made[zones.indexOf(zone)]!.due;
      expect(state.next_step_at, zone).toBe(new Date(zone === left[0] ? due : at + DAY).toISOString());
    }
    // The second run, with all 11 due and the parent's servers in step: the zone left is looked at.
    const second = testTld(shown);
    second.external.queriesLeft = PARENT_ASKS_PER_RUN * 30;
    expect(await runAt(at + DAY, second.external)).toMatchObject({ failed: 0 });
    expect(second.looked()).toHaveLength(PARENT_ASKS_PER_RUN);
    expect(second.looked()).toContain(left[0]);
    expect((await keysOf(left[0]!)).keys[0].ds_state).toBe("seen");
  });

  it(`one run's lookups make at most ${PARENT_QUERIES_PER_RUN} queries together: a lookup cut short by them leaves its zone due, unwritten, for the next run`, async () => {
    const zones = ["queries-0.test", "queries-1.test"];
    const made = await Promise.all(zones.map(signed));
    const shown = Object.fromEntries(zones.map((z, i) => [z, [made[i]!.ds]]));
    const at = Math.max(...made.map((m) => m.due));
    // What one lookup takes in this world (the root's referral, the parent's NS set, its two servers).
    const probe = testTld(shown);
    probe.external.asksLeft = 1;
    expect(await runAt(at, probe.external)).toMatchObject({ failed: 0 });
    const cost = probe.asked.length;
    expect(cost).toBeGreaterThan(1);
    const lookedFirst = probe.looked()[0]!;
    const other = zones.find((z) => z !== lookedFirst)!;
    // A run with one query fewer left than the lookup needs: it is cut short, and the zone stays as it was, due.
    const short = testTld(shown);
    short.external.queriesLeft = cost - 1;
    expect(await runAt(at, short.external)).toMatchObject({ failed: 0 });
    expect(short.asked).toHaveLength(cost - 1);
    expect(await keysOf(other)).toMatchObject({
      next_step_at: new Date(made[zones.indexOf(other)]!.due).toISOString(),
      keys: [expect.objectContaining({ ds_state: "submitted" })],
    });
    // With none left, no lookup starts; with enough, it concludes.
    const none = testTld(shown);
    none.external.queriesLeft = 0;
    expect(await runAt(at, none.external)).toMatchObject({ failed: 0 });
    expect(none.asked).toHaveLength(0);
    const enough = testTld(shown);
    enough.external.queriesLeft = cost;
    expect(await runAt(at, enough.external)).toMatchObject({ failed: 0 });
    expect((await keysOf(other)).keys).toEqual([expect.objectContaining({ ds_state: "seen" })]);
  });

  it(`a DS the parent's servers show is waited on for DprpP (${EXTERNAL_PARENT_PROPAGATION_DELAY} s, the instances not asked) beside its TTL before the roll goes on`, async () => {
    const { ds } = await signed("dprp.test");
    const started = await api("POST", "/v1/zones/dprp.test/dnssec/rollover", { json: { kind: "csk" } });
    expect(started.status, started.text).toBe(200);
    const fresh = started.body.keys.find((k: { state: string }) => k.state === "published");
    const [tag, algorithm, digestType, digest] = (fresh.ds as string[]).find((d) => d.split(" ")[2] === "2")!.split(" ");
    const freshDs: DsFields = { key_tag: Number(tag), algorithm: Number(algorithm), digest_type: Number(digestType), digest: digest! };
    const { external } = testTld({ "dprp.test": [ds, freshDs] });
    expect(await runAt(Date.parse(started.body.rollover.started_at) + 7_200_000, external)).toMatchObject({ failed: 0 });
    const [key] = await database(env.DB).select().from(zoneKeys).where(eq(zoneKeys.id, fresh.id));
    expect(key).toMatchObject({ dsState: "seen" });
    const after = await keysOf("dprp.test");
    expect(Date.parse(after.next_step_at) - Date.parse(key!.dsSince!)).toBe((EXTERNAL_PARENT_PROPAGATION_DELAY + DEFAULT_DS_TTL) * 1000);
  });
});

describe("DNSSEC_PARENT_QUERIES_PER_RUN sets a run's queries to parents' servers (each a subrequest)", () => {
  it("unset, or not a whole number from 1 to 9 000, the run makes at most 40 queries in 10 lookups", () => {
    for (const value of [undefined, "", "0", "-5", "12.5", "forty", "9001", "1e3"]) {
      expect(externalParents({ DNSSEC_PARENT_QUERIES_PER_RUN: value }), String(value)).toMatchObject({ queriesLeft: 40, asksLeft: 10 });
    }
  });

  it("raised on a plan with more subrequests, the run makes that many queries, and as many lookups as they allow whole (30 each)", () => {
    expect(externalParents({ DNSSEC_PARENT_QUERIES_PER_RUN: "900" })).toMatchObject({ queriesLeft: 900, asksLeft: 30 });
    expect(externalParents({ DNSSEC_PARENT_QUERIES_PER_RUN: " 9000 " })).toMatchObject({ queriesLeft: 9000, asksLeft: 300 });
    expect(externalParents({ DNSSEC_PARENT_QUERIES_PER_RUN: "20" })).toMatchObject({ queriesLeft: 20, asksLeft: 10 });
  });
});
