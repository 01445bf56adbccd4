// The signing policy and the key states through the API (contract §22,
// docs/dnssec-rollovers.md): GET /v1/zones/{zone}/dnssec shows the policy, each key's role,
// state and next step and the roll running; PATCH sets the policy, checked against the
// zone's own timings, and a signed zone takes it by rolling from the next run.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createZone, expectProblem } from "./helpers";

const DEFAULT_POLICY = { algorithm: 13, ksk_lifetime_days: null, zsk_lifetime_days: null, single_key: true };

async function enable(zone: string) {
  const response = await api("POST", `/v1/zones/${zone}/dnssec`);
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function patchPolicy(zone: string, policy: unknown) {
  return api("PATCH", `/v1/zones/${zone}/dnssec`, { json: { policy } });
}

async function read(zone: string) {
  const response = await api("GET", `/v1/zones/${zone}/dnssec`);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

describe("GET /zones/{zone}/dnssec shows the policy, the keys' states and the roll", () => {
  it("an unsigned zone shows the default policy (one combined key, algorithm 13, never rolled), no roll and no step due", async () => {
    await createZone("policy-unsigned.com");
    expect(await read("policy-unsigned.com")).toEqual({
      enabled: false,
      keys: [],
      policy: DEFAULT_POLICY,
      rollover: null,
      next_step_at: null,
      awaiting_parent: null,
    });
  });

  it("a signed zone's key is an active combined key whose DS is submitted (its CDS asks for it) without a domain here; the parent is looked at a day later", async () => {
    await createZone("policy-signed.com");
    const on = await enable("policy-signed.com");
    const body = await read("policy-signed.com");
    expect(body).toEqual(on);
    const dayLater = new Date(Date.parse(body.keys[0].created_at) + 86_400_000).toISOString();
    expect(body).toMatchObject({ enabled: true, policy: DEFAULT_POLICY, rollover: null, next_step_at: dayLater });
    expect(body.keys).toEqual([
      expect.objectContaining({ role: "csk", state: "active", ds_state: "submitted", next_step_at: null, flags: 257, algorithm: 13 }),
    ]);
  });
});

describe("PATCH /zones/{zone}/dnssec sets the policy", () => {
  it("stores the fields given over the current policy and answers the state with it; GET shows it", async () => {
    await createZone("policy-set.com");
    const response = await patchPolicy("policy-set.com", { ksk_lifetime_days: 365 });
    expect(response.status, response.text).toBe(200);
    const policy = { ...DEFAULT_POLICY, ksk_lifetime_days: 365 };
    expect(response.body).toEqual({ enabled: false, keys: [], policy, rollover: null, next_step_at: null, awaiting_parent: null });
    expect(await read("policy-set.com")).toEqual(response.body);
    const split = await patchPolicy("policy-set.com", { single_key: false, zsk_lifetime_days: 90 });
    expect(split.status, split.text).toBe(200);
    expect(split.body.policy).toEqual({ algorithm: 13, ksk_lifetime_days: 365, zsk_lifetime_days: 90, single_key: false });
  });

  it("a signed zone takes a new policy from the next run: its next step is due at once, its keys unchanged", async () => {
    await createZone("policy-roll.com");
    const on = await enable("policy-roll.com");
    const before = Date.now();
    const response = await patchPolicy("policy-roll.com", { algorithm: 14 });
    expect(response.status, response.text).toBe(200);
    expect(response.body.policy).toEqual({ ...DEFAULT_POLICY, algorithm: 14 });
    expect(response.body.keys).toEqual(on.keys);
    expect(response.body.rollover).toBeNull();
    expect(Date.parse(response.body.next_step_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(response.body.next_step_at)).toBeLessThanOrEqual(Date.now());
    expect(await read("policy-roll.com")).toEqual(response.body);
  });

  it("an unsigned zone's new policy schedules nothing (next_step_at stays null)", async () => {
    await createZone("policy-later.com");
    const response = await patchPolicy("policy-later.com", { algorithm: 8 });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ policy: { ...DEFAULT_POLICY, algorithm: 8 }, next_step_at: null });
  });

  it('{"policy": null} sets the default policy back', async () => {
    await createZone("policy-reset.com");
    expect((await patchPolicy("policy-reset.com", { single_key: false, zsk_lifetime_days: 30 })).status).toBe(200);
    const response = await patchPolicy("policy-reset.com", null);
    expect(response.status, response.text).toBe(200);
    expect(response.body.policy).toEqual(DEFAULT_POLICY);
  });

  it("the change is the zone's update event, with the policy before and after", async () => {
    await createZone("policy-event.com");
    expect((await patchPolicy("policy-event.com", { ksk_lifetime_days: 400 })).status).toBe(200);
    const events = await api("GET", "/v1/events?type=zone&limit=200");
    expect(events.status, events.text).toBe(200);
    const event = events.body.data.find((e: any) => e.operation === "update" && e.after?.name === "policy-event.com");
    expect(event?.before?.dnssec).toEqual({ policy: DEFAULT_POLICY });
    expect(event?.after?.dnssec).toEqual({ policy: { ...DEFAULT_POLICY, ksk_lifetime_days: 400 } });
  });

  it("a policy equal to the current one writes nothing: no event, the zone's version stays", async () => {
    const zone = await createZone("policy-same.com");
    const response = await patchPolicy("policy-same.com", { algorithm: 13, single_key: true });
    expect(response.status, response.text).toBe(200);
    const row = await env.DB.prepare("SELECT version, dnssec_policy FROM zones WHERE id = ?").bind(zone.id).first();
    expect(row).toEqual({ version: 1, dnssec_policy: null });
  });
});

describe("a policy the zone cannot sign by is 422 naming each field, and nothing is stored", () => {
  it.each([
    [{ algorithm: 7 }, "policy.algorithm", /^must be one of 8, 13, 14, 15/],
    [{ algorithm: 5 }, "policy.algorithm", /^must be one of 8, 13, 14, 15/],
    [{ ksk_lifetime_days: 0 }, "policy.ksk_lifetime_days", /^must be a whole number of days from 1 to 3650/],
    [{ ksk_lifetime_days: 1.5 }, "policy.ksk_lifetime_days", /^must be a whole number of days from 1 to 3650/],
    [{ ksk_lifetime_days: 3651 }, "policy.ksk_lifetime_days", /^must be a whole number of days from 1 to 3650/],
    [{ ksk_lifetime_days: 1 }, "policy.ksk_lifetime_days", /^must be at least \d+ days: a CSK roll of this zone takes \d+ s/],
    [{ zsk_lifetime_days: 90 }, "policy.zsk_lifetime_days", /^must be null with single_key/],
  ])("%j → %s", async (policy, field, message) => {
    await createZone("policy-refused.com").catch(() => undefined);
    const response = await patchPolicy("policy-refused.com", policy);
    const body = expectProblem(response, 422, "validation_failed");
    expect(body.errors).toEqual([{ field, message: expect.stringMatching(message) }]);
    expect((await read("policy-refused.com")).policy).toEqual(DEFAULT_POLICY);
  });

  it("every field wrong at once is named at once", async () => {
    await createZone("policy-all-wrong.com");
    const response = await patchPolicy("policy-all-wrong.com", { algorithm: 3, ksk_lifetime_days: 0, zsk_lifetime_days: 10 });
    const body = expectProblem(response, 422, "validation_failed");
    expect(body.errors.map((e: { field: string }) => e.field)).toEqual(["policy.algorithm", "policy.ksk_lifetime_days", "policy.zsk_lifetime_days"]);
  });

  it("a field the policy does not have, or of the wrong type, is 422 before anything is read", async () => {
    await createZone("policy-shape.com");
    const unknown = expectProblem(await patchPolicy("policy-shape.com", { nsec3: true }), 422, "unknown_field");
    expect(unknown.errors).toEqual([{ field: "policy.nsec3", message: expect.any(String) }]);
    expectProblem(await patchPolicy("policy-shape.com", { single_key: "yes" }), 422, "validation_failed");
    expectProblem(await patchPolicy("policy-shape.com", "yearly"), 422, "validation_failed");
    expect((await read("policy-shape.com")).policy).toEqual(DEFAULT_POLICY);
  });

  it("the zone of another name is 404", async () => {
    expectProblem(await patchPolicy("policy-nowhere.com", { algorithm: 13 }), 404, "not_found");
  });
});
