// WIP (issue 41, slice 3): POST /v1/zones/{zone}/dnssec/rollover and POST /v1/dnssec/run,
// a roll walked through its days with `as_of` on a loopback deployment.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { api, createContact, createDomain, createZone, expectProblem } from "./helpers";
import { bearer } from "./tokens";

const LOCAL = "http://localhost:8787";

async function runAt(asOf: string) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`${LOCAL}/v1/dnssec/run`, {
      method: "POST",
      headers: { authorization: bearer("write"), "content-type": "application/json" },
      body: JSON.stringify({ as_of: asOf }),
    }),
    { ...env, CLOCK_OVERRIDE: "true" },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text);
}

async function signed(zone: string) {
  await createZone(zone);
  const on = await api("POST", `/v1/zones/${zone}/dnssec`);
  expect(on.status, on.text).toBe(201);
  return on.body;
}

const roll = (zone: string, json: unknown) => api("POST", `/v1/zones/${zone}/dnssec/rollover`, { json });
const read = async (zone: string) => (await api("GET", `/v1/zones/${zone}/dnssec`)).body;

describe("starting a roll", () => {
  it("a CSK roll publishes a second combined key beside the active one, its DS submitted, and the roll shows", async () => {
    const on = await signed("roll-csk.com");
    const response = await roll("roll-csk.com", { kind: "csk" });
    expect(response.status, response.text).toBe(200);
    expect(response.body.rollover).toMatchObject({ kind: "csk", stalled_at: null });
    expect(response.body.keys).toEqual([
      expect.objectContaining({ id: on.keys[0].id, role: "csk", state: "active" }),
      expect.objectContaining({ role: "csk", state: "published", ds_state: "submitted" }),
    ]);
    expect(response.body.next_step_at).toEqual(expect.any(String));
  });

  it("a second roll while one runs is 409 rollover_running", async () => {
    await signed("roll-twice.com");
    expect((await roll("roll-twice.com", { kind: "csk" })).status).toBe(200);
    const body = expectProblem(await roll("roll-twice.com", { kind: "csk" }), 409, "rollover_running");
    expect(body.detail).toMatch(/^roll-twice\.com: /);
  });

  it("a ZSK roll of a zone with one combined key is 422, as is an algorithm the service does not sign with", async () => {
    await signed("roll-wrong.com");
    const zsk = expectProblem(await roll("roll-wrong.com", { kind: "zsk" }), 422, "validation_failed");
    expect(zsk.errors).toEqual([{ field: expect.any(String), message: expect.any(String) }]);
    expectProblem(await roll("roll-wrong.com", { kind: "algorithm", algorithm: 7 }), 422, "validation_failed");
    expectProblem(await roll("roll-wrong.com", { kind: "rsa" }), 422, "validation_failed");
    expect((await read("roll-wrong.com")).rollover).toBeNull();
  });

  it("a token narrowed to the zone rolls it with the parent any token sees: a domain here takes the new DS at once, not through CDS", async () => {
    await createDomain("roll-narrow.com");
    await signed("roll-narrow.com");
    const minted = await api("POST", "/v1/tokens", { json: { name: "roll-narrow", scope: "write", zones: ["roll-narrow.com"] } });
    expect(minted.status, minted.text).toBe(201);
    const narrow = `Bearer ${minted.body.secret}`;
    // The token sees the zone, not the same-named domain.
    expect((await api("GET", "/v1/domains/roll-narrow.com", { headers: { authorization: narrow } })).status).toBe(404);
    const started = await api("POST", "/v1/zones/roll-narrow.com/dnssec/rollover", { json: { kind: "csk" }, headers: { authorization: narrow } });
    expect(started.status, started.text).toBe(200);
    const fresh = started.body.keys.find((k: { state: string }) => k.state === "published");
    // The managed parent's stored DS took the new key's DS in the same write: seen, as for any token.
    expect(fresh).toMatchObject({ role: "csk", ds_state: "seen" });
    const domain = await api("GET", "/v1/domains/roll-narrow.com");
    expect(domain.body.ds).toEqual(expect.arrayContaining([expect.objectContaining({ key_tag: fresh.key_tag })]));
    expect(domain.body.ds).toHaveLength(2);
  });

  it("a roll of an unsigned zone is 409", async () => {
    await createZone("roll-unsigned.com");
    expectProblem(await roll("roll-unsigned.com", { kind: "csk" }), 409, "status_prohibits");
  });
});

describe("the run takes a roll through its days", () => {
  it("an algorithm roll 13 → 14 of a domain here ends with one active key of algorithm 14, the old one and its DS gone", async () => {
    const contact = await createContact();
    await createDomain("roll-alg.com", { registrant: contact.id });
    const on = await signed("roll-alg.com");
    const started = await roll("roll-alg.com", { kind: "algorithm", algorithm: 14 });
    expect(started.status, started.text).toBe(200);
    expect(started.body.policy.algorithm).toBe(14);
    let state = started.body;
    for (let i = 0; i < 20 && state.rollover !== null; i++) {
      const due = state.next_step_at ?? new Date(Date.parse(state.rollover.started_at) + 86_400_000).toISOString();
      await runAt(due);
      state = await read("roll-alg.com");
    }
    expect(state.rollover, JSON.stringify(state)).toBeNull();
    expect(state.keys).toEqual([expect.objectContaining({ role: "csk", algorithm: 14, state: "active" })]);
    expect(state.keys[0].id).not.toBe(on.keys[0].id);
    const domain = await api("GET", "/v1/domains/roll-alg.com");
    expect(domain.body.ds).toEqual([expect.objectContaining({ key_tag: state.keys[0].key_tag, algorithm: 14, digest_type: 2 })]);
  });
});

/** Every event of a resource, in commit order. */
async function eventsOf(resource: string) {
  const response = await api("GET", `/v1/events?resource=${resource}&limit=200`);
  expect(response.status, response.text).toBe(200);
  return response.body.data as { type: string; operation: string; resource: string; before: any; after: any; at: string }[];
}

describe("each step is an event", () => {
  it("a CSK roll of a domain here: dnssec.key.published, dnssec.ds.submitted and .seen, the swap, the removal and the old DS withdrawn, each in order", async () => {
    await createDomain("roll-events.com");
    const on = await signed("roll-events.com");
    const old = on.keys[0];
    const started = await roll("roll-events.com", { kind: "csk" });
    expect(started.status, started.text).toBe(200);
    const fresh = started.body.keys.find((k: { id: string }) => k.id !== old.id);
    expect(fresh).toMatchObject({ role: "csk", state: "published", ds_state: "seen" });
    let state = started.body;
    for (let i = 0; i < 10 && state.rollover !== null; i++) {
      await runAt(state.next_step_at);
      state = await read("roll-events.com");
    }
    expect(state.rollover, JSON.stringify(state)).toBeNull();
    expect(state.keys).toEqual([expect.objectContaining({ id: fresh.id, state: "active", ds_state: "seen" })]);

    const zone = (await api("GET", "/v1/zones/roll-events.com")).body;
    const ds = (await eventsOf(zone.id)).filter((e) => e.type.startsWith("dnssec."));
    expect(ds.map((e) => `${e.type}.${e.operation}`)).toEqual([
      "dnssec.ds.seen", // the one-click DS of POST …/dnssec
      "dnssec.ds.submitted",
      "dnssec.ds.seen",
      "dnssec.ds.submitted",
      "dnssec.ds.seen",
    ]);
    expect(ds[1]!.after).toEqual({ zone: "roll-events.com", parent: "managed", keys: [old.id, fresh.id], ds: [old.ds[0], fresh.ds[0]] });
    expect(ds[4]!.after).toEqual({ zone: "roll-events.com", parent: "managed", keys: [fresh.id], ds: [fresh.ds[0]] });

    const newKey = await eventsOf(fresh.id);
    expect(newKey.map((e) => `${e.type}.${e.operation}`)).toEqual(["dnssec.key.published", "dnssec.key.ready", "dnssec.key.active"]);
    expect(newKey[0]!.before).toBeNull();
    expect(newKey[0]!.after).toMatchObject({ zone: "roll-events.com", id: fresh.id, state: "published", key_tag: fresh.key_tag, dnskey: fresh.dnskey });
    expect(newKey[2]!.before).toMatchObject({ state: "ready" });
    expect(newKey[2]!.after).toMatchObject({ state: "active" });
    const oldKey = await eventsOf(old.id);
    expect(oldKey.map((e) => `${e.type}.${e.operation}`)).toEqual(["dnssec.key.active", "dnssec.key.retired", "dnssec.key.removed"]);
    expect(oldKey[2]!.after).toMatchObject({ state: "removed", active: false });
    // Never the private half.
    for (const event of [...newKey, ...oldKey, ...ds]) expect(JSON.stringify(event)).not.toMatch(/Private|private_key/i);
    // The removed key's row is gone with its DS: nothing of it is kept.
    const rows = await env.DB.prepare("select id from zone_keys where zone_id = ?").bind(zone.id).all();
    expect(rows.results.map((r) => r.id)).toEqual([fresh.id]);
  });

  it("events are selected by type and operation, and a webhook's patterns name them as type.operation", async () => {
    const byType = await api("GET", "/v1/events?type=dnssec.key&operation=published&limit=5");
    expect(byType.status, byType.text).toBe(200);
    expect(byType.body.data.every((e: { type: string; operation: string }) => e.type === "dnssec.key" && e.operation === "published")).toBe(true);
    const hook = await api("POST", "/v1/webhooks", {
      json: { url: "https://hooks.example.net/dnssec", event_types: ["dnssec.key.*", "dnssec.rollover.stalled", "*.seen"] },
    });
    expect(hook.status, hook.text).toBe(201);
    expect(hook.body.event_types).toEqual(["dnssec.key.*", "dnssec.rollover.stalled", "*.seen"]);
    const wrong = expectProblem(
      await api("POST", "/v1/webhooks", { json: { url: "https://hooks.example.net/x", event_types: ["dnssec.*"] } }),
      422,
      "validation_failed",
    );
    expect(wrong.errors[0].field).toBe("event_types[0]");
  });
});

describe("keys follow the policy", () => {
  it("signing a zone whose policy asks for a KSK and a ZSK of algorithm 14 makes both, and the domain's DS names the KSK", async () => {
    await createDomain("policy-pair.com");
    await createZone("policy-pair.com");
    const patched = await api("PATCH", "/v1/zones/policy-pair.com/dnssec", { json: { policy: { single_key: false, algorithm: 14 } } });
    expect(patched.status, patched.text).toBe(200);
    const on = await api("POST", "/v1/zones/policy-pair.com/dnssec");
    expect(on.status, on.text).toBe(201);
    const roles = on.body.keys.map((k: { role: string; algorithm: number; flags: number; state: string }) => [k.role, k.algorithm, k.flags, k.state]).sort();
    expect(roles).toEqual([
      ["ksk", 14, 257, "active"],
      ["zsk", 14, 256, "active"],
    ]);
    const ksk = on.body.keys.find((k: { role: string }) => k.role === "ksk");
    const domain = await api("GET", "/v1/domains/policy-pair.com");
    expect(domain.body.ds).toEqual([expect.objectContaining({ key_tag: ksk.key_tag, algorithm: 14, digest_type: 2 })]);
    // The zone's apex: both DNSKEYs, the CDS and CDNSKEY of the KSK alone (PowerDNS's entry points).
    const zone = await api("GET", "/v1/zones/policy-pair.com");
    expect(zone.body.dnssec.records.map((r: { type: string }) => r.type)).toEqual(["DNSKEY", "DNSKEY", "CDS", "CDNSKEY"]);
  });

  it("a roll to Ed25519 (15) pre-publishes a combined key of algorithm 15 (RFC 8080: a 32-octet public key) and the policy takes it", async () => {
    await signed("roll-ed25519.com");
    const started = await roll("roll-ed25519.com", { kind: "algorithm", algorithm: 15 });
    expect(started.status, started.text).toBe(200);
    expect(started.body).toMatchObject({ rollover: { kind: "algorithm" }, policy: { algorithm: 15 } });
    const incoming = started.body.keys.find((k: { algorithm: number }) => k.algorithm === 15);
    expect(incoming).toMatchObject({ role: "csk", flags: 257, state: "pre-published", dnskey: expect.stringMatching(/^257 3 15 [A-Za-z0-9+/]{43}=$/) });
    expect(incoming.ds).toEqual([expect.stringMatching(/^\d+ 15 2 [0-9A-F]{64}$/), expect.stringMatching(/^\d+ 15 4 [0-9A-F]{96}$/)]);
    // Nothing left due for the runs of the other tests of this file.
    expect((await api("DELETE", "/v1/zones/roll-ed25519.com/dnssec?force=true")).status).toBe(204);
  });

  it("signing a zone whose policy names Ed25519 makes an Ed25519 combined key, which getDomainKeys hands PowerDNS as BIND's v1.2 text", async () => {
    await createZone("sign-ed25519.com");
    expect((await api("PATCH", "/v1/zones/sign-ed25519.com/dnssec", { json: { policy: { algorithm: 15 } } })).status).toBe(200);
    const on = await api("POST", "/v1/zones/sign-ed25519.com/dnssec");
    expect(on.status, on.text).toBe(201);
    expect(on.body.keys).toEqual([
      expect.objectContaining({ algorithm: 15, flags: 257, role: "csk", state: "active", dnskey: expect.stringMatching(/^257 3 15 /) }),
    ]);
  });
});

describe("a parent this service does not manage", () => {
  it("the roll waits for the parent until an operator says POST …/ds-seen; a DS set naming another key does not count", async () => {
    const on = await signed("roll-external.net");
    const started = await roll("roll-external.net", { kind: "csk" });
    expect(started.status, started.text).toBe(200);
    const fresh = started.body.keys.find((k: { id: string }) => k.id !== on.keys[0].id);
    expect(fresh.ds_state).toBe("submitted");
    // The parent is late: the run looks again each hour and takes no step.
    const look = await runAt(new Date(Date.parse(started.body.rollover.started_at) + 7_200_000).toISOString());
    expect(look).toMatchObject({ zones: 1, steps: 0, failed: 0, more: false });
    expect((await read("roll-external.net")).keys.map((k: { state: string }) => k.state)).toEqual(["active", "published"]);

    const other = await api("POST", "/v1/zones/roll-external.net/dnssec/ds-seen", {
      json: { ds: ["12345 13 2 5CF0895FFC0F5544C1260E1F35ED9B80A648D87B8AA335312B552EC003D1D830"] },
    });
    expect(other.status, other.text).toBe(200);
    expect(other.body.keys.find((k: { id: string }) => k.id === fresh.id).ds_state).toBe("submitted");

    const seen = await api("POST", "/v1/zones/roll-external.net/dnssec/ds-seen", { json: { ds: [on.keys[0].ds[0], fresh.ds[0]] } });
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.keys.map((k: { ds_state: string }) => k.ds_state)).toEqual(["seen", "seen"]);
    // IpubP (the DS TTL, a day) after it was seen, the new key signs.
    expect(Date.parse(seen.body.next_step_at) - Date.now()).toBeGreaterThan(86_000_000);
  });

  it("a DS that is not DS data is 422 naming it", async () => {
    await signed("roll-badds.net");
    const bad = expectProblem(await api("POST", "/v1/zones/roll-badds.net/dnssec/ds-seen", { json: { ds: ["not a ds"] } }), 422, "validation_failed");
    expect(bad.errors).toEqual([{ field: "ds[0]", message: expect.any(String) }]);
  });
});

describe("a parent managed here", () => {
  it("a DS removed from the domain by hand during a roll is found by the next run and set again, with dnssec.ds.submitted and .seen", async () => {
    await createDomain("roll-lost.com");
    const on = await signed("roll-lost.com");
    const started = await roll("roll-lost.com", { kind: "csk" });
    const fresh = started.body.keys.find((k: { id: string }) => k.id !== on.keys[0].id);
    const domain = (await api("GET", "/v1/domains/roll-lost.com")).body;
    expect(domain.ds).toHaveLength(2);
    const patched = await api("PATCH", "/v1/domains/roll-lost.com", {
      json: { ds: domain.ds.filter((d: { key_tag: number }) => d.key_tag !== fresh.key_tag) },
    });
    expect(patched.status, patched.text).toBe(200);
    // The run at the swap finds the new DS gone: it is set again and seen, and the swap waits IpubP from then.
    const at = started.body.next_step_at;
    await runAt(at);
    const after = await read("roll-lost.com");
    expect(after.keys.map((k: { state: string; ds_state: string }) => [k.state, k.ds_state])).toEqual([
      ["active", "seen"],
      ["published", "seen"],
    ]);
    expect(Date.parse(after.next_step_at)).toBe(Date.parse(at) + 86_400_000);
    const again = (await api("GET", "/v1/domains/roll-lost.com")).body;
    expect(again.ds.map((d: { key_tag: number }) => d.key_tag).sort()).toEqual([on.keys[0].key_tag, fresh.key_tag].sort());
  });
});

/** pir (.org) connected to a registry gateway on a loopback port nothing listens on (as test/registry-connector.test.ts). */
const PIR_TO_A_CLOSED_GATEWAY = {
  REGISTRY_CONNECTORS: JSON.stringify({ pir: { host: "epp.example", client_id: "domain-api", password: "local-pw-1" } }),
  REGISTRY_GATEWAY_URL: "http://127.0.0.1:9",
  REGISTRY_GATEWAY_SECRET: "a-gateway-secret-of-32-characters-or-more",
};

async function connected(method: string, path: string, json?: unknown) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`${LOCAL}${path}`, {
      method,
      headers: { authorization: bearer("write"), ...(json === undefined ? {} : { "content-type": "application/json" }) },
      body: json === undefined ? undefined : JSON.stringify(json),
    }),
    { ...env, ...PIR_TO_A_CLOSED_GATEWAY, CLOCK_OVERRIDE: "true" } as never,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  return { status: response.status, text, body: text ? JSON.parse(text) : undefined };
}

describe("a parent at a connected registry", () => {
  it("the DS set goes to the registry first: out of reach, a KSK roll is 503 registry_unavailable and nothing is written; the run leaves the zone due", async () => {
    // Made while pir is builtin; then pir gets a connector whose gateway cannot be reached.
    await createDomain("roll-epp.org");
    await createZone("roll-epp.org");
    expect((await api("PATCH", "/v1/zones/roll-epp.org/dnssec", { json: { policy: { single_key: false } } })).status).toBe(200);
    const on = (await api("POST", "/v1/zones/roll-epp.org/dnssec")).body;
    const refused = await connected("POST", "/v1/zones/roll-epp.org/dnssec/rollover", { kind: "ksk" });
    expect(refused.status, refused.text).toBe(503);
    expect(refused.body.code).toBe("registry_unavailable");
    const state = await read("roll-epp.org");
    expect(state.rollover).toBeNull();
    expect(state.keys.map((k: { id: string }) => k.id)).toEqual(on.keys.map((k: { id: string }) => k.id));
    expect((await api("GET", "/v1/domains/roll-epp.org")).body.ds).toHaveLength(1);

    // A KSK lifetime that asks for a roll (due a day after the KSK began: Dreg + IpubP before its end): the run
    // cannot reach the registry either, and keeps the zone due.
    expect((await api("PATCH", "/v1/zones/roll-epp.org/dnssec", { json: { policy: { ksk_lifetime_days: 2 } } })).status).toBe(200);
    const asOf = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const run = await connected("POST", "/v1/dnssec/run", { as_of: asOf });
    expect(run.status, run.text).toBe(200);
    expect(run.body).toMatchObject({ failed: 1 });
    const after = await read("roll-epp.org");
    expect(after.rollover).toBeNull();
    expect(after.keys).toHaveLength(2);
    expect(Date.parse(after.next_step_at)).toBeLessThanOrEqual(Date.parse(asOf));
  });
});
