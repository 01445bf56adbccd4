// TSIG keys (docs/dns-update.md) as an account's collection, declared secondaries of a
// zone (docs/serving.md), and what the DNS backend tells PowerDNS about them: transfer
// keys' secrets only to the dns-scope connector, who may transfer each zone, and that no
// key may update any zone through PowerDNS (updates come through the update gateway:
// test/dns-update.test.ts). scripts/update-e2e.mjs runs the same with PowerDNS, BIND and
// Knot's clients.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { api, type ApiResponse, errorFields, expectProblem } from "./helpers";
import { bearer } from "./tokens";

const KEY_ID = /^tsk_[0-9A-HJKMNP-TV-Z]{26}$/;

function ok(response: ApiResponse, status: number) {
  expect(response.status, response.text).toBe(status);
  return response.body;
}

let zones = 0;
async function zone(name = `z${++zones}.tsig.test`, authorization = bearer("write")) {
  return ok(await api("POST", "/v1/zones", { json: { name, nameservers: ["ns1.example.net"] }, headers: { authorization } }), 201);
}

let keys = 0;
function createKey(fields: Record<string, unknown>, authorization = bearer("write")) {
  return api("POST", "/v1/tsig-keys", { json: { name: `key${++keys}.tsig.test`, allow: ["transfer"], ...fields }, headers: { authorization } });
}

/** A customer account with a write token. */
let customers = 0;
async function customer() {
  const account = ok(await api("POST", "/v1/accounts", { json: { name: `TSIG Customer ${++customers}` } }), 201);
  const token = ok(await api("POST", "/v1/tokens", { json: { name: "w", scope: "write", account: account.id } }), 201);
  return { account, authorization: `Bearer ${token.secret}` };
}

let dnsBase = "";
beforeAll(async () => {
  const dns = ok(await api("POST", "/v1/tokens", { json: { name: "tsig-test-dns", scope: "dns" } }), 201);
  dnsBase = `/v1/pdns/${dns.secret}`;
});

const pdns = (method: string, path: string, options: { body?: string; headers?: Record<string, string> } = {}) =>
  api(method, `${dnsBase}${path}`, {
    auth: false,
    ...options,
    headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8", ...options.headers },
  });
const encodeName = (name: string) => [...name].map((ch) => (/[A-Za-z0-9]/.test(ch) ? ch : `%${ch.charCodeAt(0).toString(16).padStart(2, "0")}`)).join("");

describe("POST /v1/tsig-keys answers the generated secret once", () => {
  it("201 with the key and `secret` (32 random bytes, base64); GET, lists and events never show it; the database holds it sealed", async () => {
    const z = await zone();
    const key = ok(
      await createKey({ name: "Acme-Writer.TSIG.test.", allow: ["update"], zones: [z.name], records: [{ name: "_acme-challenge", types: ["txt"] }] }),
      201,
    );
    expect(key).toEqual({
      id: expect.stringMatching(KEY_ID),
      account: "acc_00000000000000000000000000",
      name: "acme-writer.tsig.test.",
      algorithm: "hmac-sha256",
      allow: ["update"],
      zones: [z.name],
      records: [{ name: "_acme-challenge", types: ["TXT"] }],
      expires_at: null,
      created_at: expect.any(String),
      updated_at: key.created_at,
      secret: expect.any(String),
    });
    expect(atob(key.secret)).toHaveLength(32);
    const read = ok(await api("GET", `/v1/tsig-keys/${key.id}`), 200);
    expect(read).toEqual({ ...key, secret: undefined });
    expect(JSON.stringify(ok(await api("GET", "/v1/tsig-keys"), 200))).not.toContain(key.secret);
    const events = ok(await api("GET", `/v1/events?resource=${key.id}`), 200);
    expect(events.data.map((e: { operation: string }) => e.operation)).toEqual(["create"]);
    expect(JSON.stringify(events)).not.toContain(key.secret);
    const stored = await env.DB.prepare("select secret_sealed from tsig_keys where id = ?").bind(key.id).first<{ secret_sealed: string }>();
    expect(stored!.secret_sealed).toMatch(/^v1\./);
    expect(stored!.secret_sealed).not.toContain(key.secret);
  });

  it("hmac-sha512 keys get 64 random bytes", async () => {
    const z = await zone();
    const key = ok(await createKey({ algorithm: "hmac-sha512", zones: [z.name] }), 201);
    expect(atob(key.secret)).toHaveLength(64);
  });

  it("a bad body is 422 naming every field: zones required, allow, algorithm, records, expires_at", async () => {
    const problem = expectProblem(
      await api("POST", "/v1/tsig-keys", {
        json: { name: "bad..name", allow: ["query"], algorithm: "hmac-md5", records: [{ name: "www.", types: [] }], expires_at: "2001-01-01T00:00:00Z" },
      }),
      422,
      "validation_failed",
    );
    expect(errorFields(problem).sort()).toEqual(["algorithm", "allow[0]", "expires_at", "name", "records[0].name", "records[0].types", "zones"].sort());
  });

  it("zones must be zones of the key's account: an unknown one, or another account's, is 422 naming it", async () => {
    const other = await customer();
    const theirs = await zone(undefined, other.authorization);
    const problem = expectProblem(await createKey({ zones: ["nowhere.tsig.test", theirs.name] }), 422, "validation_failed");
    expect(problem.errors).toEqual([
      { field: "zones[0]", message: "no zone nowhere.tsig.test exists in the key's account" },
      { field: "zones[1]", message: `no zone ${theirs.name} exists in the key's account` },
    ]);
  });

  it("a PATCH's zones must be zones of the key's account, whoever patches: another account's is 422 naming it, the key unchanged", async () => {
    const owner = await customer();
    const own = await zone(undefined, owner.authorization);
    const key = ok(await createKey({ zones: [own.name] }, owner.authorization), 201);
    const operators = await zone();
    // The operator patches the customer's key with a zone of the operator's own account.
    const problem = expectProblem(
      await api("PATCH", `/v1/tsig-keys/${key.id}`, { json: { zones: [own.name, operators.name, "nowhere.tsig.test"] } }),
      422,
      "validation_failed",
    );
    expect(problem.errors).toEqual([
      { field: "zones[1]", message: `no zone ${operators.name} exists in the key's account` },
      { field: "zones[2]", message: "no zone nowhere.tsig.test exists in the key's account" },
    ]);
    expect(ok(await api("GET", `/v1/tsig-keys/${key.id}`, { headers: { authorization: owner.authorization } }), 200)).toMatchObject({
      zones: [own.name],
      updated_at: key.updated_at,
    });
  });

  it("names are one namespace in the service: a taken name is 409 already_exists, whoever holds it", async () => {
    const z = await zone();
    ok(await createKey({ name: "taken.tsig.test", zones: [z.name] }), 201);
    const other = await customer();
    const theirs = await zone(undefined, other.authorization);
    expectProblem(await createKey({ name: "TAKEN.tsig.test.", zones: [theirs.name] }, other.authorization), 409, "already_exists");
  });

  it("a zone takes any number of update keys: a second and a third key allowing update of it are 201, and PATCH may add `update` to another", async () => {
    const z = await zone();
    const first = ok(await createKey({ allow: ["update"], zones: [z.name], records: [{ name: "_acme-challenge", types: ["TXT"] }] }), 201);
    const second = ok(await createKey({ allow: ["update", "transfer"], zones: [z.name], records: [{ name: "home", types: ["A", "AAAA"] }] }), 201);
    const third = ok(await createKey({ allow: ["transfer"], zones: [z.name] }), 201);
    const patched = ok(await api("PATCH", `/v1/tsig-keys/${third.id}`, { json: { allow: ["update"] } }), 200);
    expect([first.allow, second.allow, patched.allow]).toEqual([["update"], ["update", "transfer"], ["update"]]);
    const listed = ok(await api("GET", `/v1/tsig-keys?zone=${z.name}`), 200).data;
    expect(listed.filter((k: { allow: string[] }) => k.allow.includes("update"))).toHaveLength(3);
  });

  it("an account holds at most its tsig_keys limit: the next key is 422 quota_exceeded naming the limit, and nothing is written", async () => {
    const { account, authorization } = await customer();
    ok(await api("PATCH", `/v1/accounts/${account.id}`, { json: { limits: { tsig_keys: 3 } } }), 200);
    const z = await zone(undefined, authorization);
    for (let i = 0; i < 3; i++) ok(await createKey({ zones: [z.name] }, authorization), 201);
    const problem = expectProblem(await createKey({ name: "one-too-many.tsig.test", zones: [z.name] }, authorization), 422, "quota_exceeded");
    expect(problem.errors).toEqual([{ field: "tsig_keys", message: expect.stringContaining("at most 3 tsig keys (limit tsig_keys), and holds 3") }]);
    const list = ok(await api("GET", "/v1/tsig-keys?limit=100", { headers: { authorization } }), 200);
    expect(list.data).toHaveLength(3);
  });
});

describe("TSIG keys are their account's: visibility and route access", () => {
  it("another account's key is 404 on every route and absent from lists; the operator sees it", async () => {
    const other = await customer();
    const theirs = await zone(undefined, other.authorization);
    const key = ok(await createKey({ zones: [theirs.name] }, other.authorization), 201);
    const mine = await customer();
    for (const [method, json] of [["GET"], ["PATCH", { expires_at: null }], ["DELETE"]] as const) {
      expectProblem(await api(method, `/v1/tsig-keys/${key.id}`, { json, headers: { authorization: mine.authorization } }), 404, "not_found");
    }
    expect(ok(await api("GET", "/v1/tsig-keys", { headers: { authorization: mine.authorization } }), 200).data).toEqual([]);
    expect(ok(await api("GET", `/v1/tsig-keys/${key.id}`), 200).account).toBe(other.account.id);
  });

  it("tokens restricted to zones, domains or records rules are 403 on these routes", async () => {
    const z = await zone();
    for (const restriction of [{ zones: [z.name] }, { domains: ["x.tsig.test"] }, { records: [{ name: "_acme-challenge", types: ["TXT"] }] }]) {
      const token = ok(
        await api("POST", "/v1/tokens", { json: { name: `narrow-${JSON.stringify(restriction).length}-${++keys}`, scope: "write", ...restriction } }),
        201,
      );
      const authorization = `Bearer ${token.secret}`;
      expectProblem(await api("GET", "/v1/tsig-keys", { headers: { authorization } }), 403, "forbidden");
      expectProblem(await createKey({ zones: [z.name] }, authorization), 403, "forbidden");
    }
  });
});

describe("PATCH and DELETE /v1/tsig-keys/{key}", () => {
  it("PATCH changes allow, zones, records and expires_at with an update event; name and algorithm are read-only", async () => {
    const z = await zone();
    const z2 = await zone();
    const key = ok(await createKey({ zones: [z.name] }), 201);
    const patched = ok(
      await api("PATCH", `/v1/tsig-keys/${key.id}`, {
        json: { zones: [z.name, z2.name], records: [{ name: "@", types: ["A"] }], expires_at: "2099-01-01T00:00:00Z" },
      }),
      200,
    );
    expect(patched).toMatchObject({ zones: [z.name, z2.name], records: [{ name: "@", types: ["A"] }], expires_at: "2099-01-01T00:00:00.000Z" });
    const problem = expectProblem(
      await api("PATCH", `/v1/tsig-keys/${key.id}`, { json: { name: "renamed.tsig.test", algorithm: "hmac-sha512" } }),
      422,
      "read_only_field",
    );
    expect(errorFields(problem).sort()).toEqual(["algorithm", "name"]);
    ok(await api("DELETE", `/v1/tsig-keys/${key.id}`), 204);
    expectProblem(await api("GET", `/v1/tsig-keys/${key.id}`), 404, "not_found");
    const events = ok(await api("GET", `/v1/events?resource=${key.id}`), 200);
    expect(events.data.map((e: { operation: string }) => e.operation)).toEqual(["create", "update", "delete"]);
    expect(JSON.stringify(events)).not.toContain(key.secret);
  });
});

describe("zones' declared secondaries", () => {
  it("PATCH sets up to 10 secondaries, canonical, port 53 by default, with a key of the account that transfers the zone", async () => {
    const z = await zone();
    const key = ok(await createKey({ zones: [z.name] }), 201);
    const patched = ok(
      await api("PATCH", `/v1/zones/${z.name}`, {
        json: { secondaries: [{ address: "9.9.9.9" }, { address: "2a00:1450:4001:0::53", port: 5353, tsig_key: key.id }] },
      }),
      200,
    );
    expect(patched.secondaries).toEqual([
      { address: "9.9.9.9", port: 53, tsig_key: null },
      { address: "2a00:1450:4001::53", port: 5353, tsig_key: key.id },
    ]);
    expect(patched.soa.serial).toBeGreaterThan(z.soa.serial);
    expect(ok(await api("GET", `/v1/zones/${z.name}`), 200).secondaries).toEqual(patched.secondaries);
  });

  it("addresses must be global unicast: loopback, private, link-local, CGNAT, multicast and documentation ranges are 422 naming each", async () => {
    const z = await zone();
    const bad = [
      ["127.0.0.1", "10.1.2.3", "192.168.1.1", "169.254.0.1", "100.64.0.1", "224.0.0.1", "192.0.2.1"],
      ["198.51.100.53", "::1", "fd00::1", "fe80::1", "2001:db8::1", "not-an-ip"],
    ];
    for (const list of bad) {
      const problem = expectProblem(
        await api("PATCH", `/v1/zones/${z.name}`, { json: { secondaries: list.map((address) => ({ address })) } }),
        422,
        "validation_failed",
      );
      expect(errorFields(problem)).toEqual(list.map((_, i) => `secondaries[${i}].address`));
    }
    expect(ok(await api("GET", `/v1/zones/${z.name}`), 200).secondaries).toEqual([]);
  });

  it("more than 10, or the same address and port twice, is 422", async () => {
    const z = await zone();
    const eleven = Array.from({ length: 11 }, (_, i) => ({ address: `9.9.9.${i + 1}` }));
    expectProblem(await api("PATCH", `/v1/zones/${z.name}`, { json: { secondaries: eleven } }), 422, "validation_failed");
    const twice = expectProblem(
      await api("PATCH", `/v1/zones/${z.name}`, { json: { secondaries: [{ address: "9.9.9.9" }, { address: "9.9.9.9", port: 53 }] } }),
      422,
      "validation_failed",
    );
    expect(errorFields(twice)).toEqual(["secondaries[1]"]);
  });

  it("a key of another account is 422 exactly as an unknown key; a key that does not transfer the zone is 422", async () => {
    const z = await zone();
    const other = await customer();
    const theirs = await zone(undefined, other.authorization);
    const foreign = ok(await createKey({ zones: [theirs.name] }, other.authorization), 201);
    const updateOnly = ok(await createKey({ allow: ["update"], zones: [z.name] }), 201);
    const unknown = "tsk_01JD3Q6Y4T8N0V4W5X6Y7Z8ZZZ";
    const problem = expectProblem(
      await api("PATCH", `/v1/zones/${z.name}`, {
        json: {
          secondaries: [
            { address: "9.9.9.9", tsig_key: foreign.id },
            { address: "9.9.9.10", tsig_key: unknown },
            { address: "9.9.9.11", tsig_key: updateOnly.id },
          ],
        },
      }),
      422,
      "validation_failed",
    );
    expect(problem.errors).toEqual([
      { field: "secondaries[0].tsig_key", message: `no TSIG key ${foreign.id} exists in the zone's account` },
      { field: "secondaries[1].tsig_key", message: `no TSIG key ${unknown} exists in the zone's account` },
      { field: "secondaries[2].tsig_key", message: `${updateOnly.id} does not allow \`transfer\` of ${z.name} (its allow and zones say what it signs)` },
    ]);
  });

  it("a key a secondary transfers with cannot be deleted, nor lose `transfer` or the zone (409 object_linked)", async () => {
    const z = await zone();
    const other = await zone();
    const key = ok(await createKey({ zones: [z.name, other.name] }), 201);
    ok(await api("PATCH", `/v1/zones/${z.name}`, { json: { secondaries: [{ address: "9.9.9.9", tsig_key: key.id }] } }), 200);
    expectProblem(await api("DELETE", `/v1/tsig-keys/${key.id}`), 409, "object_linked");
    expectProblem(await api("PATCH", `/v1/tsig-keys/${key.id}`, { json: { allow: ["update"] } }), 409, "object_linked");
    const dropped = expectProblem(await api("PATCH", `/v1/tsig-keys/${key.id}`, { json: { zones: [other.name] } }), 409, "object_linked");
    expect(dropped.detail).toContain(`The declared secondaries of ${z.name} transfer with ${key.id}`);
    // A zone it keeps may go: only the zone whose secondary transfers with it holds it.
    expect(ok(await api("PATCH", `/v1/tsig-keys/${key.id}`, { json: { zones: [z.name] } }), 200).zones).toEqual([z.name]);
    ok(await api("PATCH", `/v1/zones/${z.name}`, { json: { secondaries: [] } }), 200);
    ok(await api("DELETE", `/v1/tsig-keys/${key.id}`), 204);
  });

  it("POST /v1/zones takes secondaries too", async () => {
    const created = ok(
      await api("POST", "/v1/zones", { json: { name: "with-secondaries.tsig.test", nameservers: ["ns1.example.net"], secondaries: [{ address: "9.9.9.9" }] } }),
      201,
    );
    expect(created.secondaries).toEqual([{ address: "9.9.9.9", port: 53, tsig_key: null }]);
  });
});

describe("the DNS backend: transfer keys only to the connector, who may transfer, and no update through PowerDNS", () => {
  it("getTSIGKey answers a live transfer key's algorithm and secret by name; an expired or deleted key, or none, is false", async () => {
    const z = await zone();
    const key = ok(await createKey({ name: "Conn.TSIG.test", algorithm: "hmac-sha512", zones: [z.name] }), 201);
    expect(ok(await pdns("GET", `/getTSIGKey/${encodeName("CONN.tsig.test.")}`), 200)).toEqual({ result: { algorithm: "hmac-sha512", content: key.secret } });
    await env.DB.prepare("update tsig_keys set expires_at = '2020-01-01T00:00:00.000Z' where id = ?").bind(key.id).run();
    expect(ok(await pdns("GET", `/getTSIGKey/${encodeName("conn.tsig.test.")}`), 200)).toEqual({ result: false });
    const other = ok(await createKey({ name: "gone.tsig.test", zones: [z.name] }), 201);
    ok(await api("DELETE", `/v1/tsig-keys/${other.id}`), 204);
    expect(ok(await pdns("GET", `/getTSIGKey/${encodeName("gone.tsig.test.")}`), 200)).toEqual({ result: false });
    // An update-only key's secret never leaves the service: the service verifies updates itself.
    ok(await createKey({ name: "update-only.tsig.test", allow: ["update"], zones: [z.name] }), 201);
    expect(ok(await pdns("GET", `/getTSIGKey/${encodeName("update-only.tsig.test.")}`), 200)).toEqual({ result: false });
    // Any other token is refused there.
    expect((await api("GET", `/v1/pdns/${bearer("write").slice(7)}/getTSIGKey/x.`, { auth: false })).status).toBe(401);
  });

  it("metadata: ALLOW-AXFR-FROM for keyless secondaries, TSIG-ALLOW-AXFR for transfer keys, ALSO-NOTIFY for all (after the tier's own), TSIG-ALLOW-DNSUPDATE a key no one has", async () => {
    const z = await zone();
    const transfer = ok(await createKey({ name: "xfr.tsig.test", zones: [z.name] }), 201);
    ok(await createKey({ name: "upd.tsig.test", allow: ["update"], zones: [z.name] }), 201);
    ok(
      await api("PATCH", `/v1/zones/${z.name}`, {
        json: { secondaries: [{ address: "9.9.9.9" }, { address: "2a00:1450::53", port: 5300, tsig_key: transfer.id }] },
      }),
      200,
    );
    const meta = async (kind: string) => ok(await pdns("GET", `/getDomainMetadata/${encodeName(`${z.name}.`)}/${kind}`), 200).result;
    expect(await meta("ALLOW-AXFR-FROM")).toEqual(["9.9.9.9/32"]);
    expect(await meta("TSIG-ALLOW-AXFR")).toEqual(["xfr.tsig.test."]);
    // The tier's secondary first (wrangler.toml's DNS_TIER_SECONDARIES), then the zone's.
    expect(await meta("ALSO-NOTIFY")).toEqual(["127.0.0.1:5300", "9.9.9.9:53", "[2a00:1450::53]:5300"]);
    expect(await meta("TSIG-ALLOW-DNSUPDATE")).toEqual(["no-update-key.invalid."]);
    expect(await meta("ALLOW-DNSUPDATE-FROM")).toEqual([]);
    const all = ok(await pdns("GET", `/getAllDomainMetadata/${encodeName(`${z.name}.`)}`), 200).result;
    expect(all).toEqual({
      "ALLOW-AXFR-FROM": ["9.9.9.9/32"],
      "TSIG-ALLOW-AXFR": ["xfr.tsig.test."],
      "ALSO-NOTIFY": ["127.0.0.1:5300", "9.9.9.9:53", "[2a00:1450::53]:5300"],
    });
  });

  it("every zone names a key no one has as TSIG-ALLOW-DNSUPDATE, so that a PowerDNS run with dnsupdate=yes by mistake applies no update", async () => {
    const z = await zone();
    expect(ok(await pdns("GET", `/getDomainMetadata/${encodeName(`${z.name}.`)}/TSIG-ALLOW-DNSUPDATE`), 200).result).toEqual(["no-update-key.invalid."]);
    expect(ok(await pdns("GET", `/getDomainMetadata/${encodeName(`${z.name}.`)}/ALLOW-DNSUPDATE-FROM`), 200).result).toEqual([]);
  });
});
