// DNSSEC for hosted zones (docs/dnssec.md): POST|GET|DELETE /v1/zones/{zone}/dnssec, the
// one-click DS on the same-named domain, and private keys kept out of every answer.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { dsText } from "../src/dns/dnssec/keys";
import { parseRdata } from "../src/dns/rdata";
import worker from "../src/index";
import { api, createContact, createDomain, createZone, expectProblem, exportZone } from "./helpers";
import { bearer } from "./tokens";

const KEY_ID = /^key_[0-9A-HJKMNP-TV-Z]{26}$/;

/** The default signing policy (docs/dnssec-rollovers.md), and a zone unsigned under it. */
const DEFAULT_POLICY = { algorithm: 13, ksk_lifetime_days: null, zsk_lifetime_days: null, single_key: true };
const UNSIGNED = { enabled: false, keys: [], policy: DEFAULT_POLICY, rollover: null, next_step_at: null, awaiting_parent: null };

async function enable(zone: string) {
  const response = await api("POST", `/v1/zones/${zone}/dnssec`);
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function domainDs(name: string) {
  const response = await api("GET", `/v1/domains/${name}`);
  expect(response.status, response.text).toBe(200);
  return response.body.ds;
}

/** The sealed private keys as stored: what must never appear in an answer. */
async function storedSecrets(): Promise<string[]> {
  const { results } = await env.DB.prepare("SELECT id, private_key_sealed FROM zone_keys").all<{ private_key_sealed: string }>();
  return results.flatMap((r) => [r.private_key_sealed, ...r.private_key_sealed.split(".").slice(1)]);
}

describe("turning DNSSEC on answers 201 with one ECDSA P-256 combined signing key", () => {
  it("gives the key's tag, DNSKEY and the SHA-256 and SHA-384 DS computed from that DNSKEY", async () => {
    await createZone("signed-one.com");
    const body = await enable("signed-one.com");
    expect(body).toEqual({
      enabled: true,
      denial: "nsec",
      keys: [
        {
          id: expect.stringMatching(KEY_ID),
          key_tag: expect.any(Number),
          algorithm: 13,
          flags: 257,
          active: true,
          role: "csk",
          state: "active",
          ds_state: "submitted",
          next_step_at: null,
          dnskey: expect.stringMatching(/^257 3 13 [A-Za-z0-9+/]{86}==$/),
          ds: [expect.stringMatching(/^\d+ 13 2 [0-9A-F]{64}$/), expect.stringMatching(/^\d+ 13 4 [0-9A-F]{96}$/)],
          created_at: expect.any(String),
        },
      ],
      policy: DEFAULT_POLICY,
      rollover: null,
      // No domain here: the parent is asked for the DS by the CDS, and looked at a day later.
      next_step_at: new Date(Date.parse(body.keys[0].created_at) + 86_400_000).toISOString(),
      // Keys at rest wait for the parent to publish the DS: no roll, so no stall.
      awaiting_parent: { since: body.keys[0].created_at, expected_at: body.keys[0].created_at, stalls_at: null },
    });
    const [key] = body.keys;
    const parsed = parseRdata("DNSKEY", key.dnskey, null);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(key.ds).toEqual([await dsText("signed-one.com", parsed.value, 2), await dsText("signed-one.com", parsed.value, 4)]);
    expect(key.ds[0].split(" ")[0]).toBe(String(key.key_tag));
    const read = await api("GET", "/v1/zones/signed-one.com/dnssec");
    expect(read.status).toBe(200);
    expect(read.body).toEqual(body);
  });
  it("raises the zone's serial: the apex gained records", async () => {
    const zone = await createZone("signed-serial.com");
    await enable("signed-serial.com");
    const after = await api("GET", "/v1/zones/signed-serial.com");
    expect(after.body.soa.serial).toBeGreaterThan(zone.soa.serial);
  });
  it("answers 409 already_exists when signing is already on", async () => {
    await createZone("signed-twice.com");
    await enable("signed-twice.com");
    expectProblem(await api("POST", "/v1/zones/signed-twice.com/dnssec"), 409, "already_exists");
    expect((await api("GET", "/v1/zones/signed-twice.com/dnssec")).body.keys).toHaveLength(1);
  });
  it("answers 404 for an unknown zone", async () => {
    expectProblem(await api("POST", "/v1/zones/no-such-zone.com/dnssec"), 404, "not_found");
    expectProblem(await api("GET", "/v1/zones/no-such-zone.com/dnssec"), 404, "not_found");
    expectProblem(await api("DELETE", "/v1/zones/no-such-zone.com/dnssec"), 404, "not_found");
  });
});

describe("the apex DNSKEY, CDS and CDNSKEY in the zone's JSON and its master-file export (RFC 7344)", () => {
  it("shows them in dnssec.records of GET /v1/zones/{zone}, read-only, with the SOA minimum as TTL, and none when off", async () => {
    const zone = await createZone("apex-json.com");
    expect(zone.dnssec).toEqual({ enabled: false, records: [] });
    const state = await enable("apex-json.com");
    const [key] = state.keys;
    const read = await api("GET", "/v1/zones/apex-json.com");
    expect(read.status, read.text).toBe(200);
    const ttl = read.body.soa.minimum;
    expect(read.body.dnssec).toEqual({
      enabled: true,
      records: [
        { name: "@", type: "DNSKEY", ttl, content: key.dnskey },
        { name: "@", type: "CDS", ttl, content: key.ds[0] },
        { name: "@", type: "CDNSKEY", ttl, content: key.dnskey },
      ],
    });
    // The list shows the same, and the records collection keeps none of them.
    const listed = await api("GET", "/v1/zones?name=apex-json.com");
    expect(listed.body.data[0].dnssec).toEqual(read.body.dnssec);
    const stored = await api("GET", `/v1/records?zone=apex-json.com&limit=200`);
    expect(stored.body.data.map((r: any) => r.type)).not.toContain("DNSKEY");
    // dnssec is the service's: a PATCH naming it is refused like any read-only field.
    expect((await api("PATCH", "/v1/zones/apex-json.com", { json: { dnssec: { enabled: false } } })).status).toBe(422);
    expect((await api("DELETE", "/v1/zones/apex-json.com/dnssec?force=true")).status).toBe(204);
    expect((await api("GET", "/v1/zones/apex-json.com")).body.dnssec).toEqual({ enabled: false, records: [] });
  });
  it("writes them at the apex of the export, and turning signing on or off changes the zone's version, serial and ETags", async () => {
    const zone = await createZone("apex-export.com");
    const before = await exportZone("apex-export.com");
    const jsonBefore = await api("GET", "/v1/zones/apex-export.com");
    expect(before.text).not.toMatch(/DNSKEY|CDS/);
    const [key] = (await enable("apex-export.com")).keys;
    const after = await exportZone("apex-export.com");
    expect(after.status).toBe(200);
    const ttl = zone.soa.minimum;
    const lines = after.text.split("\n");
    expect(lines).toContain(`@ ${ttl} IN DNSKEY ${key.dnskey}`);
    expect(lines).toContain(`@ ${ttl} IN CDS ${key.ds[0]}`);
    expect(lines).toContain(`@ ${ttl} IN CDNSKEY ${key.dnskey}`);
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
    const jsonAfter = await api("GET", "/v1/zones/apex-export.com");
    expect(jsonAfter.headers.get("etag")).not.toBe(jsonBefore.headers.get("etag"));
    expect(jsonAfter.body.soa.serial).toBeGreaterThan(jsonBefore.body.soa.serial);
    expect((await api("DELETE", "/v1/zones/apex-export.com/dnssec?force=true")).status).toBe(204);
    const off = await exportZone("apex-export.com");
    expect(off.text).not.toMatch(/DNSKEY|CDS/);
    expect(off.headers.get("etag")).not.toBe(after.headers.get("etag"));
  });
});

describe("an unsigned zone reads as off", () => {
  it('answers {"enabled": false, "keys": []}', async () => {
    await createZone("unsigned.com");
    const response = await api("GET", "/v1/zones/unsigned.com/dnssec");
    expect(response.status).toBe(200);
    expect(response.body).toEqual(UNSIGNED);
  });
});

describe("private keys are sealed and never in an answer or an event", () => {
  it("stores the private key sealed (AES-256-GCM) and shows none of it", async () => {
    await createZone("sealed.com");
    const body = await enable("sealed.com");
    const { results } = await env.DB.prepare("SELECT private_key_sealed FROM zone_keys WHERE id = ?")
      .bind(body.keys[0].id)
      .all<{ private_key_sealed: string }>();
    expect(results[0]!.private_key_sealed).toMatch(/^v1\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
    const secrets = await storedSecrets();
    const answers = [
      JSON.stringify(body),
      (await api("GET", "/v1/zones/sealed.com/dnssec")).text,
      (await api("GET", "/v1/zones/sealed.com")).text,
      (await exportZone("sealed.com")).text,
      (await api("GET", "/v1/zones?name=sealed.com")).text,
      (await api("GET", "/v1/events?limit=200")).text,
    ];
    for (const text of answers) {
      for (const secret of secrets) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/private/i);
    }
  });
  it("records the change as the zone's update event with the public DNSSEC state", async () => {
    await createZone("evented.com");
    const body = await enable("evented.com");
    const events = await api("GET", "/v1/events?type=zone&limit=200");
    expect(events.status, events.text).toBe(200);
    const event = events.body.data.find((e: any) => e.operation === "update" && e.after?.name === "evented.com");
    expect(event?.after?.dnssec).toEqual({ enabled: body.enabled, denial: body.denial, keys: body.keys });
    expect(event?.before?.dnssec).toEqual({ enabled: false, keys: [] });
  });
});

describe("one-click with the registry: the same-named domain of the account gets the DS", () => {
  it("sets the domain's DS to the key's SHA-256 DS in the same step, and a forced turn-off clears it", async () => {
    const contact = await createContact();
    await createDomain("oneclick.com", { registrant: contact.id });
    await createZone("oneclick.com");
    const body = await enable("oneclick.com");
    const [tag, algorithm, digestType, digest] = body.keys[0].ds[0].split(" ");
    expect(await domainDs("oneclick.com")).toEqual([{ key_tag: Number(tag), algorithm: Number(algorithm), digest_type: Number(digestType), digest }]);

    const refused = expectProblem(await api("DELETE", "/v1/zones/oneclick.com/dnssec"), 409, "status_prohibits");
    expect(refused.detail).toContain("oneclick.com publishes a DS");
    expect((await api("GET", "/v1/zones/oneclick.com/dnssec")).body.enabled).toBe(true);

    const forced = await api("DELETE", "/v1/zones/oneclick.com/dnssec?force=true");
    expect(forced.status, forced.text).toBe(204);
    expect(await domainDs("oneclick.com")).toEqual([]);
    expect((await api("GET", "/v1/zones/oneclick.com/dnssec")).body).toEqual(UNSIGNED);
  });
  it("leaves the DS alone under an extension without DNSSEC", async () => {
    const contact = await createContact();
    await createDomain("nodnssec.org", { registrant: contact.id });
    await createZone("nodnssec.org");
    await env.DB.prepare("UPDATE extensions SET dnssec = 0 WHERE id = 'org'").run();
    try {
      await enable("nodnssec.org");
      expect(await domainDs("nodnssec.org")).toEqual([]);
    } finally {
      await env.DB.prepare("UPDATE extensions SET dnssec = 1 WHERE id = 'org'").run();
    }
  });
});

describe("the domain written meanwhile: the key and the DS commit together or not at all", () => {
  /** A trigger that writes the domain inside every batch that adds or removes a key: the race, every time. */
  async function withRacingDomain(name: string, run: () => Promise<void>) {
    const bump = `UPDATE domains SET version = version + 1 WHERE name = '${name}';`;
    await env.DB.batch([
      env.DB.prepare(`CREATE TRIGGER race_on_insert AFTER INSERT ON zone_keys BEGIN ${bump} END`),
      env.DB.prepare(`CREATE TRIGGER race_on_delete AFTER DELETE ON zone_keys BEGIN ${bump} END`),
    ]);
    try {
      await run();
    } finally {
      await env.DB.batch([env.DB.prepare("DROP TRIGGER race_on_insert"), env.DB.prepare("DROP TRIGGER race_on_delete")]);
    }
  }
  it("turning on answers 409 write_conflict with Retry-After when the domain keeps changing, and writes nothing", async () => {
    const contact = await createContact();
    await createDomain("race-on.com", { registrant: contact.id });
    const zone = await createZone("race-on.com");
    const domainBefore = (await api("GET", "/v1/domains/race-on.com")).body;
    await withRacingDomain("race-on.com", async () => {
      const response = await api("POST", "/v1/zones/race-on.com/dnssec");
      expectProblem(response, 409, "write_conflict");
      expect(response.headers.get("retry-after")).toBe("1");
    });
    expect((await api("GET", "/v1/zones/race-on.com/dnssec")).body).toEqual(UNSIGNED);
    const domainAfter = (await api("GET", "/v1/domains/race-on.com")).body;
    expect(domainAfter.ds).toEqual([]);
    expect(domainAfter.updated_at).toBe(domainBefore.updated_at);
    expect((await api("GET", "/v1/zones/race-on.com")).body.soa.serial).toBe(zone.soa.serial);
  });
  it("a forced turn-off answers 409 write_conflict likewise, and keeps both the key and the DS", async () => {
    const contact = await createContact();
    await createDomain("race-off.com", { registrant: contact.id });
    await createZone("race-off.com");
    const state = await enable("race-off.com");
    const ds = await domainDs("race-off.com");
    expect(ds).toHaveLength(1);
    await withRacingDomain("race-off.com", async () => {
      expectProblem(await api("DELETE", "/v1/zones/race-off.com/dnssec?force=true"), 409, "write_conflict");
    });
    expect((await api("GET", "/v1/zones/race-off.com/dnssec")).body).toEqual(state);
    expect(await domainDs("race-off.com")).toEqual(ds);
  });
});

describe("turning DNSSEC off", () => {
  it("with ?force=true answers 204 and removes the key at once, whatever the parent (no domain here publishes its DS)", async () => {
    await createZone("off.com");
    await enable("off.com");
    const response = await api("DELETE", "/v1/zones/off.com/dnssec?force=true");
    expect(response.status, response.text).toBe(204);
    expect((await api("GET", "/v1/zones/off.com/dnssec")).body).toEqual(UNSIGNED);
    const { results } = await env.DB.prepare("SELECT count(*) AS n FROM zone_keys z JOIN zones ON zones.id = z.zone_id WHERE zones.name = 'off.com'").all<{
      n: number;
    }>();
    expect(results[0]!.n).toBe(0);
  });
  it("answers 204 when signing is already off (DELETE is idempotent)", async () => {
    await createZone("already-off.com");
    expect((await api("DELETE", "/v1/zones/already-off.com/dnssec")).status).toBe(204);
  });
  it("refuses a force that is not true or false with 400", async () => {
    await createZone("force-bad.com");
    expect((await api("DELETE", "/v1/zones/force-bad.com/dnssec?force=yes")).status).toBe(400);
  });
});

describe("a deployed Worker without DNSSEC_KEY_SECRET fails closed", () => {
  async function withSecret(secret: string | undefined, method: string) {
    const request = new Request("https://api.example.com/v1/zones/closed.com/dnssec", { method, headers: { authorization: bearer("write") } });
    const ctx = createExecutionContext();
    const response = await worker.fetch(request, { ...env, DNSSEC_KEY_SECRET: secret } as never, ctx);
    await waitOnExecutionContext(ctx);
    return { status: response.status, headers: response.headers, text: await response.clone().text(), body: await response.json<any>() };
  }
  it("answers 503 not_configured to turning signing on, naming the command that fixes it", async () => {
    await createZone("closed.com");
    const missing = expectProblem(await withSecret(undefined, "POST"), 503, "not_configured");
    expect(missing.detail).toContain("wrangler secret put DNSSEC_KEY_SECRET");
    const short = expectProblem(await withSecret("too-short", "POST"), 503, "not_configured");
    expect(short.detail).toContain("too short");
    expect((await api("GET", "/v1/zones/closed.com/dnssec")).body).toEqual(UNSIGNED);
  });
});
