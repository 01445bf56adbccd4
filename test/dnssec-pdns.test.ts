// PowerDNS signs online (contract §14): the connector hands a signed zone's key to
// PowerDNS with getDomainKeys (BIND's v1.2 private-key format) and its NSEC3 narrow and
// CDS/CDNSKEY settings with getDomainMetadata. scripts/dnssec-e2e.mjs validates the result with delv.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { api, createZone } from "./helpers";

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

describe("getDomainMetadata: a signed zone is NSEC3 narrow, with CDS (SHA-256) and CDNSKEY", () => {
  it("answers the DNSSEC settings for a signed zone and none for an unsigned one", async () => {
    await createZone("pdns-meta.com");
    await createZone("pdns-meta-off.com");
    await api("POST", "/v1/zones/pdns-meta.com/dnssec");
    const kinds = { NSEC3PARAM: ["1 0 0 -"], NSEC3NARROW: ["1"], "PUBLISH-CDS": ["2"], "PUBLISH-CDNSKEY": ["1"] };
    for (const [kind, values] of Object.entries(kinds)) {
      expect((await pdns(`/getDomainMetadata/pdns-meta%2ecom%2e/${kind}`)).body).toEqual({ result: values });
      expect((await pdns(`/getDomainMetadata/pdns-meta-off%2ecom%2e/${kind}`)).body).toEqual({ result: [] });
    }
    expect((await pdns("/getDomainMetadata/pdns-meta%2ecom%2e/SOA-EDIT")).body).toEqual({ result: [] });
    expect((await pdns("/getAllDomainMetadata/pdns-meta%2ecom%2e")).body).toEqual({ result: kinds });
    expect((await pdns("/getAllDomainMetadata/pdns-meta-off%2ecom%2e")).body).toEqual({ result: {} });
  });
});
