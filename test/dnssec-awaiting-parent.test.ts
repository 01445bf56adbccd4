// What GET /zones/{zone}/dnssec says a roll waits for (docs/dnssec-rollovers.md "The parent"):
// the keys, with a removed key listed while the parent must still drop its DS, and
// `awaiting_parent` non-null exactly when the next step waits for the parent. Rolls under a
// parent this service does not manage, walked by POST /v1/dnssec/run with `as_of` (on a
// loopback deployment) and the parent's answers given by an operator's POST …/ds-seen; the
// run's own lookups of the parent go to an address that refuses them, so it learns nothing.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { api, createDomain, createZone } from "./helpers";
import { bearer } from "./tokens";

const LOCAL = "http://localhost:8787";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function runAt(asOf: number) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`${LOCAL}/v1/dnssec/run`, {
      method: "POST",
      headers: { authorization: bearer("write"), "content-type": "application/json" },
      body: JSON.stringify({ as_of: new Date(asOf).toISOString() }),
    }),
    { ...env, CLOCK_OVERRIDE: "true", DNSSEC_ROOT_SERVERS: "127.0.0.1:1" },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text);
}

interface Key {
  id: string;
  role: string;
  state: string;
  ds_state: string;
  active: boolean;
  next_step_at: string | null;
}
interface State {
  enabled: boolean;
  keys: Key[];
  rollover: { kind: string; started_at: string; stalled_at: string | null } | null;
  next_step_at: string | null;
  awaiting_parent: { since: string; expected_at: string; stalls_at: string | null } | null;
}

async function read(zone: string): Promise<State> {
  const response = await api("GET", `/v1/zones/${zone}/dnssec`);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** The parent shows exactly the DS set the zone asks for (an operator has seen it). */
async function parentFollows(zone: string): Promise<State> {
  const seen = await api("POST", `/v1/zones/${zone}/dnssec/ds-seen`, { json: {} });
  expect(seen.status, seen.text).toBe(200);
  expect(await read(zone)).toEqual(seen.body);
  return seen.body;
}

/** A zone signed under a parent not managed here, the parent showing its DS. */
async function signed(zone: string, policy: Record<string, unknown> = {}) {
  await createZone(zone);
  if (Object.keys(policy).length > 0) expect((await api("PATCH", `/v1/zones/${zone}/dnssec`, { json: { policy } })).status).toBe(200);
  const on = await api("POST", `/v1/zones/${zone}/dnssec`);
  expect(on.status, on.text).toBe(201);
  return parentFollows(zone);
}

const keysOf = (state: State) => state.keys.map((k) => `${k.role} ${k.state} ${k.ds_state}`).sort();

describe("while the parent must drop a removed key's DS, GET …/dnssec says so", () => {
  it("a CSK roll: the old key, removed, stays listed (inactive, ds_state withdrawn) and awaiting_parent says since when, Dreg, and the stall 7 days on; gone once the parent drops the DS", async () => {
    const on = await signed("await-drop.test");
    const old = on.keys[0]!;
    const started = await api("POST", "/v1/zones/await-drop.test/dnssec/rollover", { json: { kind: "csk" } });
    expect(started.status, started.text).toBe(200);
    await parentFollows("await-drop.test");
    // The swap (IpubP after the new DS was seen), then the old key's removal (Iret later): its DS withdrawn.
    let state = await read("await-drop.test");
    let clock = Date.now();
    for (let i = 0; i < 4 && !state.keys.some((k) => k.state === "removed"); i++) {
      clock = Math.max(clock, Date.parse(state.next_step_at!));
      await runAt(clock);
      state = await read("await-drop.test");
    }
    const removedAt = new Date(clock).toISOString();
    expect(state.rollover).toMatchObject({ kind: "csk", stalled_at: null });
    expect(state.keys).toEqual([
      expect.objectContaining({ id: old.id, role: "csk", state: "removed", ds_state: "withdrawn", active: false, next_step_at: null }),
      expect.objectContaining({ role: "csk", state: "active", ds_state: "seen", active: true }),
    ]);
    expect(state.awaiting_parent).toEqual({ since: removedAt, expected_at: removedAt, stalls_at: new Date(clock + 7 * DAY).toISOString() });
    // The parent keeps showing it: the run looks again hourly, and nothing moves.
    expect(state.next_step_at).toBe(new Date(clock + HOUR).toISOString());
    await runAt(clock + 2 * HOUR);
    const still = await read("await-drop.test");
    expect([keysOf(still), still.rollover?.kind, still.awaiting_parent]).toEqual([keysOf(state), "csk", state.awaiting_parent]);
    // The parent drops it: the key goes from the list, the roll ends, nothing is awaited.
    const done = await parentFollows("await-drop.test");
    expect(done.keys).toEqual([expect.objectContaining({ role: "csk", state: "active", ds_state: "seen" })]);
    expect([done.rollover, done.awaiting_parent]).toEqual([null, null]);
  });

  it("the stall: 7 days past Dreg the roll is reported stalled, and GET shows it beside the same awaiting_parent", async () => {
    await signed("await-stall.test");
    expect((await api("POST", "/v1/zones/await-stall.test/dnssec/rollover", { json: { kind: "csk" } })).status).toBe(200);
    const waiting = await read("await-stall.test");
    expect(waiting.awaiting_parent).not.toBeNull();
    const stallsAt = Date.parse(waiting.awaiting_parent!.stalls_at!);
    await runAt(stallsAt);
    const stalled = await read("await-stall.test");
    expect(stalled.rollover).toMatchObject({ kind: "csk", stalled_at: new Date(stallsAt).toISOString() });
    expect(stalled.awaiting_parent).toEqual(waiting.awaiting_parent);
  });

  it("keys at rest whose DS the parent has not published: awaiting_parent with no stall (no roll waits), null once it shows the DS", async () => {
    await createZone("await-rest.test");
    const on = await api("POST", "/v1/zones/await-rest.test/dnssec");
    expect(on.status, on.text).toBe(201);
    const at = on.body.keys[0].created_at;
    expect([on.body.rollover, on.body.awaiting_parent]).toEqual([null, { since: at, expected_at: at, stalls_at: null }]);
    expect(await read("await-rest.test")).toEqual(on.body);
    expect((await parentFollows("await-rest.test")).awaiting_parent).toBeNull();
  });
});

/** pir (.org) connected to a registry gateway on a loopback port nothing listens on (as test/dnssec-rollover-api.test.ts). */
const PIR_CONNECTED = {
  REGISTRY_CONNECTORS: JSON.stringify({ pir: { host: "epp.example", client_id: "domain-api", password: "local-pw-1" } }),
  REGISTRY_GATEWAY_URL: "http://127.0.0.1:9",
  REGISTRY_GATEWAY_SECRET: "a-gateway-secret-of-32-characters-or-more",
};

async function readConnected(zone: string): Promise<State> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`${LOCAL}/v1/zones/${zone}/dnssec`, { headers: { authorization: bearer("write") } }),
    { ...env, ...PIR_CONNECTED } as never,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text);
}

describe("awaiting_parent counts the parent's delay the run counts", () => {
  it("a domain here is the parent: none at a builtin registry, 15 minutes (Dreg) once its repository has a connector", async () => {
    await createDomain("await-epp.org");
    await createZone("await-epp.org");
    const on = await api("POST", "/v1/zones/await-epp.org/dnssec");
    expect(on.status, on.text).toBe(201);
    expect([on.body.keys[0].ds_state, on.body.awaiting_parent]).toEqual(["seen", null]);
    // An operator says the parent shows no DS: the key's DS is wanted again, and the keys at rest wait for it.
    const lost = await api("POST", "/v1/zones/await-epp.org/dnssec/ds-seen", { json: { ds: [] } });
    expect(lost.status, lost.text).toBe(200);
    expect(lost.body.keys).toEqual([expect.objectContaining({ ds_state: "submitted" })]);
    const since = lost.body.awaiting_parent?.since;
    expect(lost.body.awaiting_parent).toEqual({ since: expect.any(String), expected_at: since, stalls_at: null });
    expect((await readConnected("await-epp.org")).awaiting_parent).toEqual({
      since,
      expected_at: new Date(Date.parse(since) + 900_000).toISOString(),
      stalls_at: null,
    });
  });
});

/**
 * Walks the zone's process to its end. At each stand of the keys: when `awaiting_parent` is
 * set, a run well past the time the parent should have followed moves nothing (the zone waits
 * for the parent), and the parent then follows; when it is null, the run when due moves the
 * keys without the parent. Returns each stand's keys and whether it awaited the parent.
 */
async function walk(zone: string, first: State): Promise<[string[], boolean][]> {
  const rows: [string[], boolean][] = [];
  let state = first;
  let clock = Date.now();
  for (let i = 0; i < 12 && state.rollover !== null; i++) {
    const awaiting = state.awaiting_parent;
    rows.push([keysOf(state), awaiting !== null]);
    if (awaiting) {
      expect(awaiting.expected_at, "Dreg is 0 for a parent that reads CDS").toBe(awaiting.since);
      expect(awaiting.stalls_at).toBe(new Date(Date.parse(awaiting.expected_at) + 7 * DAY).toISOString());
      expect(state.keys.every((k) => k.next_step_at === null)).toBe(true);
      clock = Math.max(clock, Date.parse(state.next_step_at!), Date.parse(awaiting.expected_at)) + 2 * HOUR;
      await runAt(clock);
      const alone = await read(zone);
      expect([keysOf(alone), alone.rollover?.kind, alone.awaiting_parent], "left alone, the zone waits for its parent").toEqual([
        keysOf(state),
        state.rollover.kind,
        awaiting,
      ]);
      state = await parentFollows(zone);
    } else {
      expect(state.next_step_at).not.toBeNull();
      clock = Math.max(clock, Date.parse(state.next_step_at!));
      await runAt(clock);
      const after = await read(zone);
      expect(keysOf(after), "the run moves the keys without the parent").not.toEqual(keysOf(state));
      state = after;
    }
  }
  expect(state.rollover).toBeNull();
  expect(state.awaiting_parent).toBeNull();
  return rows;
}

describe("awaiting_parent is non-null exactly when the next step waits for the parent, at every step of every kind of roll", () => {
  it("ZSK: never (the KSK's DS does not change)", async () => {
    await signed("walk-zsk.test", { single_key: false });
    const started = await api("POST", "/v1/zones/walk-zsk.test/dnssec/rollover", { json: { kind: "zsk" } });
    expect(started.status, started.text).toBe(200);
    expect(await walk("walk-zsk.test", started.body)).toEqual([
      [["ksk active seen", "zsk active absent", "zsk published absent"], false],
      [["ksk active seen", "zsk active absent", "zsk retired absent"], false],
    ]);
  });

  it("KSK (double-DS): while the parent must add the new DS, and while it must drop the old one", async () => {
    await signed("walk-ksk.test", { single_key: false });
    const started = await api("POST", "/v1/zones/walk-ksk.test/dnssec/rollover", { json: { kind: "ksk" } });
    expect(started.status, started.text).toBe(200);
    expect(await walk("walk-ksk.test", started.body)).toEqual([
      [["ksk active seen", "ksk published submitted", "zsk active absent"], true],
      [["ksk active seen", "ksk published seen", "zsk active absent"], false],
      [["ksk active seen", "ksk retired seen", "zsk active absent"], false],
      [["ksk active seen", "ksk removed withdrawn", "zsk active absent"], true],
    ]);
  });

  it("CSK (double-DS): the same two parent steps", async () => {
    await signed("walk-csk.test");
    const started = await api("POST", "/v1/zones/walk-csk.test/dnssec/rollover", { json: { kind: "csk" } });
    expect(started.status, started.text).toBe(200);
    expect(await walk("walk-csk.test", started.body)).toEqual([
      [["csk active seen", "csk published submitted"], true],
      [["csk active seen", "csk published seen"], false],
      [["csk active seen", "csk retired seen"], false],
      [["csk active seen", "csk removed withdrawn"], true],
    ]);
  });

  it("algorithm 13 → 14: only while the parent must swap the DS set", async () => {
    await signed("walk-alg.test");
    const started = await api("POST", "/v1/zones/walk-alg.test/dnssec/rollover", { json: { kind: "algorithm", algorithm: 14 } });
    expect(started.status, started.text).toBe(200);
    expect(await walk("walk-alg.test", started.body)).toEqual([
      [["csk active seen", "csk pre-published absent"], false],
      [["csk active seen", "csk published absent"], false],
      [["csk active withdrawn", "csk ready submitted"], true],
      [["csk active absent", "csk ready seen"], false],
      [["csk active seen", "csk post-active absent"], false],
    ]);
  });

  it("turning DNSSEC off (RFC 8078): while the parent must drop the DS; then the zone's own wait, and it is unsigned", async () => {
    await signed("walk-off.test");
    const leaving = await api("DELETE", "/v1/zones/walk-off.test/dnssec");
    expect(leaving.status, leaving.text).toBe(202);
    expect(await walk("walk-off.test", leaving.body)).toEqual([
      [["csk active withdrawn"], true],
      [["csk active absent"], false],
    ]);
    expect(await read("walk-off.test")).toMatchObject({ enabled: false, keys: [], rollover: null, awaiting_parent: null });
  });
});
