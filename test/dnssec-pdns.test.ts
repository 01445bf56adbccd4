// PowerDNS signs online (docs/dnssec.md): the connector hands a signed zone's key to
// PowerDNS with getDomainKeys (BIND's v1.2 private-key format), no CDS/CDNSKEY settings
// in getDomainMetadata (lookup serves the engine's: test/dnssec-leave.test.ts), the neighbours of each NSEC with getBeforeAndAfterNamesAbsolute,
// and marks a delegation's records not authoritative. scripts/dnssec-e2e.mjs validates the
// result with delv and checks a transfer with dnssec-verify.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { api, apiRaw, createZone, exportZone } from "./helpers";

const DNS_TOKEN = { id: "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8B0A", secret: "test-dnssec-dns-secret-0123456789ab" };
const base = `/v1/pdns/${DNS_TOKEN.id}.${DNS_TOKEN.secret}`;
const pdns = (path: string) => api("GET", `${base}${path}`, { auth: false });

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

beforeAll(async () => {
  await env.DB.prepare("INSERT INTO api_tokens (id, name, scope, secret_hash, created_at) VALUES (?, 'test-dnssec-dns', 'dns', ?, '2026-01-01T00:00:00.000Z')")
    .bind(DNS_TOKEN.id, await sha256Hex(DNS_TOKEN.secret))
    .run();
});

describe("getDomainKeys hands PowerDNS the signed zone's key, and only to a dns token", () => {
  it("answers the key in BIND's v1.2 format, whose private key signs what the published DNSKEY verifies", async () => {
    await createZone("pdns-signed.com");
    const state = (await api("POST", "/v1/zones/pdns-signed.com/dnssec")).body;
    const response = await pdns("/getDomainKeys/pdns-signed%2ecom%2e");
    expect(response.status, response.text).toBe(200);
    expect(response.body.result).toEqual([
      {
        id: state.keys[0].key_tag,
        flags: 257,
        active: true,
        published: true,
        content: expect.stringMatching(/^Private-key-format: v1\.2\nAlgorithm: 13 \(ECDSAP256SHA256\)\nPrivateKey: [A-Za-z0-9+/]{43}=\n$/),
      },
    ]);
    const d = Uint8Array.from(atob(response.body.result[0].content.match(/PrivateKey: (\S+)/)[1]), (ch) => ch.charCodeAt(0));
    const publicKey = Uint8Array.from(atob(state.keys[0].dnskey.split(" ")[3]), (ch) => ch.charCodeAt(0));
    const curve = { name: "ECDSA", namedCurve: "P-256" };
    const signer = await crypto.subtle.importKey(
      "jwk",
      { kty: "EC", crv: "P-256", x: base64Url(publicKey.slice(0, 32)), y: base64Url(publicKey.slice(32)), d: base64Url(d) },
      curve,
      false,
      ["sign"],
    );
    const verifier = await crypto.subtle.importKey("raw", new Uint8Array([4, ...publicKey]), curve, false, ["verify"]);
    const data = new TextEncoder().encode("pdns-signed.com");
    const signature = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, signer, data);
    expect(await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, verifier, signature, data)).toBe(true);
  });
  it.each([
    // [role, state, pre-published?] → flags, published, active (docs/dnssec-rollovers.md "Key states")
    ["csk", "published", false, 257, true, false],
    ["csk", "ready", false, 257, true, false],
    ["csk", "active", false, 257, true, true],
    ["csk", "retired", false, 257, true, false],
    ["ksk", "active", false, 257, true, true],
    ["zsk", "active", false, 256, true, true],
    ["zsk", "retired", false, 256, true, false],
    ["csk", "pre-published", true, 257, false, true],
    ["csk", "published", true, 257, true, true],
    ["csk", "post-active", false, 257, false, true],
  ] as const)(
    "a %s key in state %s (pre-published before: %s) is handed with flags %i, published %s, active %s",
    async (role, state, pre, flags, published, active) => {
      const zone = `pdns-${role}-${state}-${pre}.com`;
      await createZone(zone);
      const on = (await api("POST", `/v1/zones/${zone}/dnssec`)).body;
      await env.DB.prepare("UPDATE zone_keys SET role = ?, state = ?, pre_published_at = ? WHERE id = ?")
        .bind(role, state, pre ? "2026-01-01T00:00:00.000Z" : null, on.keys[0].id)
        .run();
      const response = await pdns(`/getDomainKeys/${zone.replaceAll(".", "%2e")}%2e`);
      expect(response.status, response.text).toBe(200);
      expect(response.body.result).toEqual([
        { id: on.keys[0].key_tag, flags, published, active, content: expect.stringMatching(/^Private-key-format: v1\.2\n/) },
      ]);
    },
  );
  it("answers false (no keys) for an unsigned zone and an unknown one", async () => {
    await createZone("pdns-unsigned.com");
    expect((await pdns("/getDomainKeys/pdns-unsigned%2ecom%2e")).body).toEqual({ result: false });
    expect((await pdns("/getDomainKeys/pdns-nowhere%2ecom%2e")).body).toEqual({ result: false });
  });
  it("answers 401 to a write token: private keys are a dns token's business only", async () => {
    await createZone("pdns-guarded.com");
    await api("POST", "/v1/zones/pdns-guarded.com/dnssec");
    const response = await api("GET", "/v1/pdns/tok_01JD3Q6Y4T8N0V4W5X6Y7Z8ZZZ.nope/getDomainKeys/pdns-guarded%2ecom%2e", { auth: false });
    expect(response.status).toBe(401);
    expect(response.text).not.toContain("PrivateKey");
  });
});

describe("getDomainMetadata: a signed zone denies with NSEC (no NSEC3PARAM), and its CDS and CDNSKEY are lookup's, not PowerDNS's (no PUBLISH-CDS)", () => {
  it("answers no DNSSEC setting for a signed zone nor for an unsigned one", async () => {
    await createZone("pdns-meta.com");
    await createZone("pdns-meta-off.com");
    await api("POST", "/v1/zones/pdns-meta.com/dnssec");
    // PowerDNS would publish CDS and CDNSKEY of every published entry point (an algorithm
    // roll's new KSK too early): with direct-dnskey it reads the engine's from lookup.
    const kinds = {};
    for (const kind of ["PUBLISH-CDS", "PUBLISH-CDNSKEY", "NSEC3PARAM", "NSEC3NARROW", "SOA-EDIT"]) {
      expect((await pdns(`/getDomainMetadata/pdns-meta%2ecom%2e/${kind}`)).body).toEqual({ result: [] });
      expect((await pdns(`/getDomainMetadata/pdns-meta-off%2ecom%2e/${kind}`)).body).toEqual({ result: [] });
    }
    // Beside the tier's secondaries to NOTIFY, every zone's (wrangler.toml's DNS_TIER_SECONDARIES).
    const tier = { "ALSO-NOTIFY": ["127.0.0.1:5300"] };
    expect((await pdns("/getAllDomainMetadata/pdns-meta%2ecom%2e")).body).toEqual({ result: { ...kinds, ...tier } });
    expect((await pdns("/getAllDomainMetadata/pdns-meta-off%2ecom%2e")).body).toEqual({ result: tier });
  });
});

/** The zone's number, as getDomainInfo gives it to PowerDNS. */
async function domainId(zone: string): Promise<number> {
  const response = await pdns(`/getDomainInfo/${zone.replaceAll(".", "%2e")}%2e`);
  expect(response.status, response.text).toBe(200);
  return response.body.result.id;
}

const NSEC_ZONE = `$ORIGIN nsec-chain.com.
$TTL 3600
@ IN SOA ns1.nsec-chain.com. hostmaster.nsec-chain.com. 1 7200 900 1209600 300
@ NS ns1.nsec-chain.com.
ns1 A 192.0.2.53
www A 192.0.2.10
*.wild A 192.0.2.99
leaf.deep.ent A 192.0.2.30
ent-y A 192.0.2.31
child NS ns.child.nsec-chain.com.
ns.child A 192.0.2.77
other.child A 192.0.2.78
secure NS ns.secure.nsec-chain.com.
secure DS 12345 13 2 0C72AC70B745AC19998811B131D662C9AC69DBDBE7CB23E5B514B56664C5D3D6
ns.secure A 192.0.2.79
zzz TXT "last"
`;

describe("getBeforeAndAfterNamesAbsolute gives each NSEC's neighbours in canonical order (RFC 4034 §6.1)", () => {
  let id = 0;
  const neighbours = async (qname: string) => {
    const response = await pdns(`/getBeforeAndAfterNamesAbsolute/${id}/${qname}`);
    expect(response.status, response.text).toBe(200);
    return response.body.result;
  };
  it("answers the name itself and the next one for an existing name, the covering pair for a missing one", async () => {
    const created = await apiRaw("POST", "/v1/zones", { body: NSEC_ZONE, headers: { "content-type": "text/dns" } });
    expect(created.status, created.text).toBe(201);
    id = await domainId("nsec-chain.com");
    // Chain: @ child leaf.deep.ent ent-y ns1 secure *.wild www zzz (canonical order compares
    // labels from the right, a shorter label first: `ent` sorts before `ent-y`).
    expect(await neighbours("www%2e")).toEqual({ before: "www.", after: "zzz.", unhashed: "www." });
    expect(await neighbours("x%2ewww%2e")).toEqual({ before: "www.", after: "zzz.", unhashed: "x.www." });
    expect(await neighbours("a%2e")).toEqual({ before: ".", after: "child.", unhashed: "a." });
    expect(await neighbours("deep%2eent%2e")).toEqual({ before: "child.", after: "leaf.deep.ent.", unhashed: "deep.ent." });
    expect(await neighbours("ent-z%2e")).toEqual({ before: "ent-y.", after: "ns1.", unhashed: "ent-z." });
    expect(await neighbours("%2a%2ewild%2e")).toEqual({ before: "*.wild.", after: "www.", unhashed: "*.wild." });
  });
  it("wraps from the last name to the apex, and answers the apex sent as %2e (which URL parsing drops)", async () => {
    expect(await neighbours("zzzz%2e")).toEqual({ before: "zzz.", after: ".", unhashed: "zzzz." });
    for (const path of [`/getBeforeAndAfterNamesAbsolute/${id}/%2e`, `/getBeforeAndAfterNamesAbsolute/${id}/`, `/getBeforeAndAfterNamesAbsolute/${id}`]) {
      const response = await pdns(path);
      expect(response.status, `${path}: ${response.text}`).toBe(200);
      expect(response.body.result).toMatchObject({ before: ".", after: "child." });
    }
  });
  it("leaves names below a delegation out of the chain (RFC 4035 §2.3): the delegation point stands for them", async () => {
    expect(await neighbours("child%2e")).toEqual({ before: "child.", after: "leaf.deep.ent.", unhashed: "child." });
    expect(await neighbours("ns%2echild%2e")).toEqual({ before: "child.", after: "leaf.deep.ent.", unhashed: "ns.child." });
    expect(await neighbours("secure%2e")).toEqual({ before: "secure.", after: "*.wild.", unhashed: "secure." });
    expect(await neighbours("ns%2esecure%2e")).toEqual({ before: "secure.", after: "*.wild.", unhashed: "ns.secure." });
  });
  it("places a name with octets no stored name holds where canonical order does, so the NSEC covers it", async () => {
    const created = await apiRaw("POST", "/v1/zones", {
      body: '$ORIGIN nsec-octets.com.\n@ 3600 IN SOA ns1.nsec-octets.com. h.nsec-octets.com. 1 7200 900 1209600 300\n@ NS ns1.example.net.\na_b TXT "x"\nb TXT "y"\n',
      headers: { "content-type": "text/dns" },
    });
    expect(created.status, created.text).toBe(201);
    const octetsId = await domainId("nsec-octets.com");
    const ask = async (qname: string) => (await pdns(`/getBeforeAndAfterNamesAbsolute/${octetsId}/${qname}`)).body.result;
    // `~` (0x7e) sorts after `_` (0x5f); its escape `\126` would sort before it.
    expect(await ask("a%7e%2e")).toMatchObject({ before: "a_b.", after: "b." });
    // A space (0x20, sent as `\032`) sorts before `_`, and below the key's label separator.
    expect(await ask("a%5c032b%2e")).toMatchObject({ before: ".", after: "a_b." });
    expect(await ask("a_b%5c000%2e")).toMatchObject({ before: "a_b.", after: "b." });
  });
  it("answers false for a zone number that is no zone, and 422 for one that is not a number", async () => {
    expect((await pdns("/getBeforeAndAfterNamesAbsolute/999999/www%2e")).body).toEqual({ result: false });
    const bad = await pdns("/getBeforeAndAfterNamesAbsolute/x1/www%2e");
    expect(bad.status).toBe(422);
  });
});

describe("lookup marks a delegation's records not authoritative (auth 0), so PowerDNS leaves them unsigned", () => {
  it("gives auth 0 to a delegation's NS and to other records at its name, and none to its DS or to the apex NS", async () => {
    const ns = await pdns("/lookup/secure%2ensec-chain%2ecom%2e/ANY");
    expect(ns.status, ns.text).toBe(200);
    const byType = Object.fromEntries(ns.body.result.map((r: any) => [r.qtype, r]));
    expect(byType.NS.auth).toBe(0);
    expect(byType.DS.auth).toBeUndefined();
    expect((await pdns("/lookup/child%2ensec-chain%2ecom%2e/NS")).body.result[0].auth).toBe(0);
    expect((await pdns("/lookup/nsec-chain%2ecom%2e/NS")).body.result[0].auth).toBeUndefined();
    expect((await pdns("/lookup/www%2ensec-chain%2ecom%2e/A")).body.result[0].auth).toBeUndefined();
  });
});

describe("key material is in no log line: the service's log of a failed write withholds bound values", () => {
  it("logs a 500 during turning signing on without the sealed key, and nothing else with the private key", async () => {
    const lines: string[] = [];
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        lines.push(args.map(String).join(" "));
      }),
    );
    try {
      await createZone("pdns-logged.com");
      await api("POST", "/v1/zones/pdns-logged.com/dnssec");
      await api("GET", "/v1/zones/pdns-logged.com");
      await exportZone("pdns-logged.com");
      const keys = await pdns("/getDomainKeys/pdns-logged%2ecom%2e");
      const privateKey = keys.body.result[0].content.match(/PrivateKey: (\S+)/)[1];
      // A write that fails inside D1 after the key is sealed: the 500's log line names the
      // failure, never the statement's values (src/http/error-log.ts).
      await createZone("pdns-failing.com");
      await env.DB.prepare("CREATE TRIGGER zone_keys_fail BEFORE INSERT ON zone_keys BEGIN SELECT RAISE(ABORT, 'storage unavailable'); END").run();
      try {
        expect((await api("POST", "/v1/zones/pdns-failing.com/dnssec")).status).toBe(500);
      } finally {
        await env.DB.prepare("DROP TRIGGER zone_keys_fail").run();
      }
      expect(lines.some((line) => line.includes('"level":"error"'))).toBe(true);
      const { results } = await env.DB.prepare("SELECT private_key_sealed FROM zone_keys").all<{ private_key_sealed: string }>();
      for (const line of lines) {
        expect(line).not.toContain(privateKey);
        for (const row of results) expect(line).not.toContain(row.private_key_sealed.split(".")[2]);
        expect(line).not.toMatch(/PrivateKey|Private-key-format|private_key_sealed|v1\.[A-Za-z0-9+/]{16}=*\.[A-Za-z0-9+/]{16}/);
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});
