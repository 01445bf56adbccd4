// Leaving DNSSEC through a parent this service does not manage (RFC 8078, docs/dnssec-rollovers.md
// "Leaving DNSSEC"): DELETE …/dnssec publishes the delete as the zone's CDS and CDNSKEY and
// keeps it signed until the parent shows no DS and no cache can hold one; and the apex's CDS
// and CDNSKEY the tier serves are the keys' roll's, from lookup and list (docs/dnssec.md).
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../src/index";
import { api, createDomain, createZone, exportZone } from "./helpers";
import { bearer } from "./tokens";

const LOCAL = "http://localhost:8787";
const DNS_TOKEN = { id: "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8C0A", secret: "test-dnssec-leave-dns-secret-0123456" };
const pdns = (path: string) => api("GET", `/v1/pdns/${DNS_TOKEN.id}.${DNS_TOKEN.secret}${path}`, { auth: false });
const DAY = 86_400_000;
/** IpubP with an external parent: DprpP (0) + TTLds (86 400 s). */
const IPUB_P = DAY;

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

beforeAll(async () => {
  await env.DB.prepare(
    "INSERT INTO api_tokens (id, name, scope, secret_hash, created_at) VALUES (?, 'test-dnssec-leave-dns', 'dns', ?, '2026-01-01T00:00:00.000Z')",
  )
    .bind(DNS_TOKEN.id, await sha256Hex(DNS_TOKEN.secret))
    .run();
});

/**
 * Where the run's lookup of a parent not managed here starts: an address that refuses
 * connections (the tests reach no network either way: the runtime refuses `connect()` there).
 */
const ROOTS_REFUSING = "127.0.0.1:1";

/** A request as on a loopback deployment, where `as_of` is honoured. */
async function local(method: string, path: string, json?: unknown, vars: Record<string, string> = {}) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`${LOCAL}${path}`, {
      method,
      headers: { authorization: bearer("write"), ...(json === undefined ? {} : { "content-type": "application/json" }) },
      body: json === undefined ? undefined : JSON.stringify(json),
    }),
    { ...env, CLOCK_OVERRIDE: "true", ...vars },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  return { status: response.status, text, body: text ? JSON.parse(text) : undefined };
}

const runAt = async (asOf: number, roots = ROOTS_REFUSING) => {
  const run = await local("POST", "/v1/dnssec/run", { as_of: new Date(asOf).toISOString() }, { DNSSEC_ROOT_SERVERS: roots });
  expect(run.status, run.text).toBe(200);
  return run.body;
};
const read = async (zone: string) => (await api("GET", `/v1/zones/${zone}/dnssec`)).body;
const apexOf = async (zone: string) =>
  (await api("GET", `/v1/zones/${zone}`)).body.dnssec.records.map((r: { type: string; content: string }) => `${r.type} ${r.content}`);

async function signed(zone: string) {
  await createZone(zone);
  const on = await api("POST", `/v1/zones/${zone}/dnssec`);
  expect(on.status, on.text).toBe(201);
  return on.body;
}

describe("turning DNSSEC off for a zone whose parent is not managed here publishes RFC 8078's delete first (202)", () => {
  it("DELETE answers 202 with the roll `unsign`: the key's DS withdrawn, the zone still signed, its CDS 0 0 0 00 and CDNSKEY 0 3 0 AA==, a dnssec.ds.submitted of no key", async () => {
    const on = await signed("leave-202.test");
    const response = await api("DELETE", "/v1/zones/leave-202.test/dnssec");
    expect(response.status, response.text).toBe(202);
    expect(response.body).toMatchObject({ enabled: true, rollover: { kind: "unsign", stalled_at: null } });
    expect(response.body.keys).toEqual([expect.objectContaining({ id: on.keys[0].id, state: "active", ds_state: "withdrawn" })]);
    expect(await read("leave-202.test")).toEqual(response.body);
    expect(await apexOf("leave-202.test")).toEqual([on.keys[0].dnskey ? `DNSKEY ${on.keys[0].dnskey}` : "", "CDS 0 0 0 00", "CDNSKEY 0 3 0 AA=="]);
    const zone = (await api("GET", "/v1/zones/leave-202.test")).body;
    const events = (await api("GET", `/v1/events?resource=${zone.id}`)).body.data.filter((e: { type: string }) => e.type === "dnssec.ds");
    expect(events.map((e: { operation: string; after: { keys: string[]; parent: string } }) => [e.operation, e.after.keys, e.after.parent])).toContainEqual([
      "submitted",
      [],
      "external",
    ]);
  });

  it("the keys stay until the parent shows no DS: a run before that is a wait, and so is one within IpubP of it", async () => {
    await signed("leave-wait.test");
    const started = Date.now();
    expect((await api("DELETE", "/v1/zones/leave-wait.test/dnssec")).status).toBe(202);
    await runAt(started + 2 * DAY);
    expect(await read("leave-wait.test")).toMatchObject({ enabled: true, rollover: { kind: "unsign" } });
    // An operator has seen the parent without a DS.
    const seenAt = started + 2 * DAY + 60_000;
    const seen = await local("POST", "/v1/zones/leave-wait.test/dnssec/ds-seen", { ds: [] });
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.keys).toEqual([expect.objectContaining({ state: "active", ds_state: "absent" })]);
    expect(Date.parse(seen.body.next_step_at)).toBeGreaterThanOrEqual(Date.now() + IPUB_P - 60_000);
    await runAt(Date.parse(seen.body.next_step_at) - 1000);
    expect((await read("leave-wait.test")).enabled).toBe(true);
    expect(seenAt).toBeGreaterThan(started);
  });

  it("once no cache can hold a DS (IpubP after the parent showed none) the run unsigns the zone: no keys, no apex records, no next step", async () => {
    await signed("leave-done.test");
    expect((await api("DELETE", "/v1/zones/leave-done.test/dnssec")).status).toBe(202);
    const seen = await local("POST", "/v1/zones/leave-done.test/dnssec/ds-seen", { ds: [] });
    expect(seen.status, seen.text).toBe(200);
    await runAt(Date.parse(seen.body.next_step_at));
    expect(await read("leave-done.test")).toEqual({
      enabled: false,
      keys: [],
      policy: { algorithm: 13, ksk_lifetime_days: null, zsk_lifetime_days: null, single_key: true },
      rollover: null,
      next_step_at: null,
      awaiting_parent: null,
    });
    expect(await apexOf("leave-done.test")).toEqual([]);
    expect((await pdns("/getDomainKeys/leave-done.test.")).body).toEqual({ result: false });
  });

  it("a parent still showing the DS keeps the zone signed: ds-seen naming the key records it seen again (withdrawn), nothing goes", async () => {
    const on = await signed("leave-still.test");
    expect((await api("DELETE", "/v1/zones/leave-still.test/dnssec")).status).toBe(202);
    const seen = await local("POST", "/v1/zones/leave-still.test/dnssec/ds-seen", { ds: [on.keys[0].ds[0]] });
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body).toMatchObject({ enabled: true, rollover: { kind: "unsign" } });
    expect(seen.body.keys).toEqual([expect.objectContaining({ ds_state: "withdrawn" })]);
    await runAt(Date.now() + 10 * DAY);
    expect((await read("leave-still.test")).enabled).toBe(true);
  });

  it("a parent showing a DS of no key of ours keeps the zone signed (the key withdrawn, awaiting the parent); once an operator says it shows none, the zone is unsigned after IpubP", async () => {
    const on = await signed("leave-unknown.test");
    const started = Date.now();
    expect((await api("DELETE", "/v1/zones/leave-unknown.test/dnssec")).status).toBe(202);
    // A previous operator's DS (no key of this zone's), left at the parent.
    const foreign = `4711 13 2 ${"AB".repeat(32)}`;
    const unknown = await local("POST", "/v1/zones/leave-unknown.test/dnssec/ds-seen", { ds: [foreign] });
    expect(unknown.status, unknown.text).toBe(200);
    expect(unknown.body).toMatchObject({ enabled: true, rollover: { kind: "unsign" } });
    expect(unknown.body.keys).toEqual([expect.objectContaining({ id: on.keys[0].id, state: "active", ds_state: "withdrawn" })]);
    expect(unknown.body.awaiting_parent).toEqual({ since: expect.any(String), expected_at: expect.any(String), stalls_at: expect.any(String) });
    await runAt(started + 3 * DAY);
    const held = await read("leave-unknown.test");
    expect(held).toMatchObject({ enabled: true, rollover: { kind: "unsign" } });
    expect(held.keys).toEqual([expect.objectContaining({ state: "active", ds_state: "withdrawn" })]);
    expect(held.awaiting_parent).not.toBeNull();
    expect(await apexOf("leave-unknown.test")).toEqual(expect.arrayContaining(["CDS 0 0 0 00", "CDNSKEY 0 3 0 AA=="]));
    const none = await local("POST", "/v1/zones/leave-unknown.test/dnssec/ds-seen", { ds: [] });
    expect(none.status, none.text).toBe(200);
    expect(none.body.keys).toEqual([expect.objectContaining({ state: "active", ds_state: "absent" })]);
    expect(none.body.awaiting_parent).toBeNull();
    expect(Date.parse(none.body.next_step_at)).toBeGreaterThanOrEqual(Date.now() + IPUB_P - 60_000);
    await runAt(Date.parse(none.body.next_step_at) - 1000);
    expect((await read("leave-unknown.test")).enabled).toBe(true);
    await runAt(Date.parse(none.body.next_step_at));
    expect(await read("leave-unknown.test")).toMatchObject({ enabled: false, keys: [], rollover: null, next_step_at: null, awaiting_parent: null });
  });

  it("DELETE again while it leaves answers 202 with the state as it stands; ?force=true stops signing at once (204)", async () => {
    await signed("leave-force.test");
    const first = await api("DELETE", "/v1/zones/leave-force.test/dnssec");
    expect(first.status).toBe(202);
    const again = await api("DELETE", "/v1/zones/leave-force.test/dnssec");
    expect(again.status, again.text).toBe(202);
    expect(again.body).toEqual(first.body);
    const forced = await api("DELETE", "/v1/zones/leave-force.test/dnssec?force=true");
    expect(forced.status, forced.text).toBe(204);
    expect(await read("leave-force.test")).toMatchObject({ enabled: false, keys: [], rollover: null, next_step_at: null });
  });

  it("a roll or a second signing while it leaves is 409", async () => {
    await signed("leave-no-roll.test");
    expect((await api("DELETE", "/v1/zones/leave-no-roll.test/dnssec")).status).toBe(202);
    const roll = await api("POST", "/v1/zones/leave-no-roll.test/dnssec/rollover", { json: { kind: "csk" } });
    expect([roll.status, roll.body.code]).toEqual([409, "rollover_running"]);
    const again = await api("POST", "/v1/zones/leave-no-roll.test/dnssec");
    expect([again.status, again.body.code]).toEqual([409, "already_exists"]);
  });

  it("a zone whose parent is managed here stops signing at once (204) once its domain no longer publishes the DS", async () => {
    await createDomain("leave-managed.com");
    await signed("leave-managed.com");
    expect((await api("PATCH", "/v1/domains/leave-managed.com", { json: { ds: [] } })).status).toBe(200);
    const off = await api("DELETE", "/v1/zones/leave-managed.com/dnssec");
    expect(off.status, off.text).toBe(204);
    expect((await read("leave-managed.com")).enabled).toBe(false);
  });
});

describe("the apex's CDS and CDNSKEY are the keys' roll's, served by lookup and list (direct-dnskey)", () => {
  it("lookup of the apex answers the key's CDS (SHA-256) and CDNSKEY with the SOA minimum as TTL; the delete while the zone leaves", async () => {
    const on = await signed("cds-served.test");
    const ttl = (await api("GET", "/v1/zones/cds-served.test")).body.soa.minimum;
    const cds = await pdns("/lookup/cds-served.test./CDS");
    expect(cds.status, cds.text).toBe(200);
    expect(cds.body.result).toEqual([{ qtype: "CDS", qname: "cds-served.test.", content: on.keys[0].ds[0], ttl, domain_id: expect.any(Number) }]);
    const cdnskey = await pdns("/lookup/cds-served.test./CDNSKEY");
    expect(cdnskey.body.result).toEqual([{ qtype: "CDNSKEY", qname: "cds-served.test.", content: on.keys[0].dnskey, ttl, domain_id: expect.any(Number) }]);
    expect((await api("DELETE", "/v1/zones/cds-served.test/dnssec")).status).toBe(202);
    const any = await pdns("/lookup/cds-served.test./ANY");
    expect(
      any.body.result
        .filter((r: { qtype: string }) => r.qtype === "CDS" || r.qtype === "CDNSKEY")
        .map((r: { qtype: string; content: string }) => `${r.qtype} ${r.content}`),
    ).toEqual(["CDS 0 0 0 00", "CDNSKEY 0 3 0 AA=="]);
  });

  it("list (a transfer) carries the same CDS and CDNSKEY once, never a stored DNSKEY, CDS or CDNSKEY of the apex", async () => {
    await createZone("cds-list.test");
    // A signed zone's export imported elsewhere keeps these as records: the keys decide what is served.
    for (const [type, content] of [
      ["CDS", "12345 13 2 AB000000000000000000000000000000000000000000000000000000000000CD"],
      ["DNSKEY", "257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA=="],
    ]) {
      const record = await api("POST", "/v1/records", { json: { zone: "cds-list.test", name: "@", type, content } });
      expect(record.status, record.text).toBe(201);
    }
    // Unsigned: records like any others.
    const unsigned = await pdns("/list/-1/cds-list.test.");
    expect(unsigned.body.result.filter((r: { qtype: string }) => r.qtype === "CDS" || r.qtype === "DNSKEY")).toHaveLength(2);
    const on = (await api("POST", "/v1/zones/cds-list.test/dnssec")).body;
    const list = await pdns("/list/-1/cds-list.test.");
    expect(list.status, list.text).toBe(200);
    const apex = list.body.result.filter((r: { qtype: string }) => ["DNSKEY", "CDS", "CDNSKEY"].includes(r.qtype));
    expect(apex.map((r: { qtype: string; content: string }) => `${r.qtype} ${r.content}`)).toEqual([`CDS ${on.keys[0].ds[0]}`, `CDNSKEY ${on.keys[0].dnskey}`]);
    const lookup = await pdns("/lookup/cds-list.test./DNSKEY");
    expect(lookup.body).toEqual({ result: false });
    const exported = await exportZone("cds-list.test");
    expect(exported.text.match(/\sCDS\s.*/g)?.map((l: string) => l.trim())).toEqual([`CDS ${on.keys[0].ds[0]}`]);
  });

  it("during a CSK roll both DS are wanted: the CDS and CDNSKEY name both keys; after it, the new key alone", async () => {
    const on = await signed("cds-roll.test");
    const started = await api("POST", "/v1/zones/cds-roll.test/dnssec/rollover", { json: { kind: "csk" } });
    expect(started.status, started.text).toBe(200);
    const cds = await pdns("/lookup/cds-roll.test./CDS");
    const both = started.body.keys.map((k: { ds: string[] }) => k.ds[0]);
    expect(cds.body.result.map((r: { content: string }) => r.content).sort()).toEqual([...both].sort());
    expect(both).toContain(on.keys[0].ds[0]);
  });
});

describe("a parent not managed here is asked by the run of its own name servers, from DNSSEC_ROOT_SERVERS", () => {
  it("root servers that refuse the connection conclude nothing: the run does not fail, the key's DS stays submitted and the parent is looked at again a day later", async () => {
    const on = await signed("roots-down.test");
    const due = Date.parse(on.next_step_at);
    const report = await runAt(due);
    expect(report).toMatchObject({ failed: 0 });
    const after = await read("roots-down.test");
    expect(after.keys).toEqual([expect.objectContaining({ ds_state: "submitted", state: "active" })]);
    expect(after.next_step_at).toBe(new Date(due + DAY).toISOString());
  });

  it("a DNSSEC_ROOT_SERVERS that is not a list of addresses concludes nothing either, and the run does not fail", async () => {
    const on = await signed("roots-unreadable.test");
    const due = Date.parse(on.next_step_at);
    expect(await runAt(due, "a.root-servers.net")).toMatchObject({ failed: 0 });
    const after = await read("roots-unreadable.test");
    expect(after.keys).toEqual([expect.objectContaining({ ds_state: "submitted", state: "active" })]);
    expect(after.next_step_at).toBe(new Date(due + DAY).toISOString());
  });

  it("leaving DNSSEC with the parent's servers out of reach keeps the zone signed, its delete published, until an operator says what the parent shows", async () => {
    await signed("roots-down-leave.test");
    expect((await api("DELETE", "/v1/zones/roots-down-leave.test/dnssec")).status).toBe(202);
    await runAt(Date.now() + 3 * DAY);
    expect(await read("roots-down-leave.test")).toMatchObject({ enabled: true, rollover: { kind: "unsign" } });
    expect(await apexOf("roots-down-leave.test")).toEqual(expect.arrayContaining(["CDS 0 0 0 00", "CDNSKEY 0 3 0 AA=="]));
  });
});
