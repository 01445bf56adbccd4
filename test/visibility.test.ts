// No account sees another's data (docs/accounts.md), proven over every route of the OpenAPI
// document: account B's token can neither read, list, change nor detect account A's
// contact, domain, host, zone, record, event, token or account — each is 404 on every
// route that names it and absent from every list — while an operator's token sees them.
// Visibility is enforced in one place (src/access/visibility.ts), so this test enumerates
// the routes instead of trusting each handler.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "./helpers";

const ACCOUNT_A = "acc_01M8188MZ3N4D5RW2QKJ7H8VAA";
const ACCOUNT_B = "acc_01M8188MZ3N4D5RW2QKJ7H8VBB";

async function mintToken(account: string, suffix: string, scope = "write"): Promise<string> {
  const id = `tok_01M8188MZ3N4D5RW2QKJ7H8${suffix}`;
  const secret = `visibility-${suffix}-secret-0123456789abcdef`;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret)));
  const hash = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  await env.DB.prepare("insert into api_tokens (id, account_id, name, scope, secret_hash, created_at) values (?, ?, ?, ?, ?, '2026-01-01T00:00:00.000Z')")
    .bind(id, account, `visibility-${suffix}`, scope, hash)
    .run();
  return `Bearer ${id}.${secret}`;
}

const as = (authorization: string) => ({ headers: { authorization } });

let tokenA = "";
let tokenB = "";
/** A's objects: path parameter name → the values that name them (id, and name where there is one). */
const own: Record<string, string[]> = {};
/** Every id and name of A's objects, which must never appear in B's answers. */
const secrets: string[] = [];
let fingerprintOfA = "";

async function fingerprint(): Promise<string> {
  const rows = await Promise.all(
    ["contacts", "domains", "hosts", "zones", "api_tokens", "accounts"].map((table) =>
      env.DB.prepare(`select * from ${table} where ${table === "accounts" ? "id" : "account_id"} = ? order by id`)
        .bind(ACCOUNT_A)
        .all(),
    ),
  );
  const records = await env.DB.prepare("select r.* from records r join zones z on z.id = r.zone_id where z.account_id = ? order by r.id").bind(ACCOUNT_A).all();
  return JSON.stringify([...rows.map((r) => r.results), records.results]);
}

beforeAll(async () => {
  for (const [id, name] of [
    [ACCOUNT_A, "Visibility A"],
    [ACCOUNT_B, "Visibility B"],
  ]) {
    await env.DB.prepare("insert into accounts (id, name, role, status, version, created_at, updated_at) values (?, ?, 'customer', 'active', 1, ?, ?)")
      .bind(id, name, "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z")
      .run();
  }
  tokenA = await mintToken(ACCOUNT_A, "TKA");
  tokenB = await mintToken(ACCOUNT_B, "TKB");

  const contact = await api("POST", "/v1/contacts", {
    ...as(tokenA),
    json: { name: "Alice Secret", email: "alice@vis-a.example", address: { city: "Paris", country_code: "FR" } },
  });
  expect(contact.status, contact.text).toBe(201);
  expect(contact.body.account).toBe(ACCOUNT_A);
  const domain = await api("POST", "/v1/domains", {
    ...as(tokenA),
    json: { name: "vis-a-secret.com", registrant: contact.body.id, nameservers: ["ns1.vis-a-dns.net"] },
  });
  expect(domain.status, domain.text).toBe(201);
  const host = await api("POST", "/v1/hosts", { ...as(tokenA), json: { name: "ns1.vis-a-secret.com", addresses: ["192.0.2.77"] } });
  expect(host.status, host.text).toBe(201);
  const zone = await api("POST", "/v1/zones", { ...as(tokenA), json: { name: "vis-a-secret.com", nameservers: ["ns1.vis-a-dns.net"] } });
  expect(zone.status, zone.text).toBe(201);
  const record = await api("POST", "/v1/records", { ...as(tokenA), json: { zone: "vis-a-secret.com", name: "www", type: "A", content: "192.0.2.78" } });
  expect(record.status, record.text).toBe(201);
  const events = await api("GET", "/v1/events?limit=1", as(tokenA));
  expect(events.body.data.length).toBe(1);

  Object.assign(own, {
    contact: [contact.body.id],
    domain: [domain.body.id, "vis-a-secret.com"],
    host: [host.body.id, "ns1.vis-a-secret.com"],
    zone: [zone.body.id, "vis-a-secret.com"],
    record: [record.body.id],
    account: [ACCOUNT_A],
    token: ["tok_01M8188MZ3N4D5RW2QKJ7H8TKA"],
  });
  secrets.push(contact.body.id, domain.body.id, host.body.id, zone.body.id, record.body.id, "vis-a-secret", "alice@vis-a.example", events.body.data[0].id);
  fingerprintOfA = await fingerprint();
});

interface Operation {
  method: string;
  path: string;
  params: string[];
}

async function operations(): Promise<Operation[]> {
  const document = (await api("GET", "/v1/openapi.json")).body as { paths: Record<string, Record<string, unknown>> };
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    if (path.startsWith("/pdns/")) continue; // the DNS backend takes a dns token in the path, not B's
    for (const method of Object.keys(item)) {
      if (!["get", "post", "patch", "delete"].includes(method)) continue;
      out.push({ method: method.toUpperCase(), path, params: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!) });
    }
  }
  return out;
}

const CATALOG_PARAMS: Record<string, string> = { repository: "verisign", extension: "com", code: "not_found" };

/** A's ids and names in an answer to B — but for those B itself sent (a 404 names the id asked for). */
function leaks(text: string, sent = ""): string[] {
  return secrets.filter((secret) => text.includes(secret) && !sent.includes(secret));
}

describe("no account sees another's data, on every route of the OpenAPI document", () => {
  it("B's token cannot tell A's objects from absent ones on any route (404 for every read), and A's objects are absent from every answer", async () => {
    const ops = await operations();
    expect(ops.length).toBeGreaterThan(30);
    let namedRoutes = 0;
    for (const op of ops) {
      const owned = op.params.filter((p) => own[p] !== undefined);
      const values = owned.length === 0 ? [undefined] : own[owned[0]!]!;
      for (const value of values) {
        let path = `/v1${op.path}`;
        for (const param of op.params)
          path = path.replace(`{${param}}`, own[param] ? (param === owned[0] ? value! : own[param]![0]!) : (CATALOG_PARAMS[param] ?? "x"));
        const body = op.method === "POST" || op.method === "PATCH" ? {} : undefined;
        const response = await api(op.method, path, { ...as(tokenB), ...(body ? { json: body } : {}) });
        const where = `${op.method} ${path} → ${response.status} ${response.text.slice(0, 200)}`;
        expect(response.status, where).toBeLessThan(500);
        expect(leaks(response.text, path), where).toEqual([]);
        if (owned.length > 0) {
          namedRoutes++;
          // B cannot detect A's object: it gets exactly what a name nobody holds gets (404,
          // or the same 4xx when the body is refused before any lookup).
          const nobody = path.replace(value!, value!.includes(".") ? "nobody-holds-this.example" : `${value!.slice(0, 4)}01M8188MZ3N4D5RW2QKJ7H8ZZZ`);
          const absent = await api(op.method, nobody, { ...as(tokenB), ...(body ? { json: body } : {}) });
          expect(response.status, where).toBe(absent.status);
          expect(response.body?.code, where).toBe(absent.body?.code);
          if (op.method === "GET") expect(response.status, where).toBe(404);
        }
      }
    }
    expect(namedRoutes).toBeGreaterThan(15);
  }, 300_000);

  it("B's filters naming A's objects find nothing and reveal nothing", async () => {
    const [contact] = own.contact!;
    const [domainId, domainName] = own.domain!;
    const [zoneId] = own.zone!;
    for (const path of [
      `/v1/domains?registrant=${contact}`,
      `/v1/domains?contact=${contact}`,
      `/v1/domains?name=${domainName}`,
      `/v1/domains?q=vis-a`,
      `/v1/domains?nameserver=ns1.vis-a-dns.net`,
      `/v1/hosts?domain=${domainId}`,
      `/v1/zones?domain=${domainName}`,
      `/v1/records?zone=${zoneId}`,
      `/v1/events?resource=${domainId}`,
      `/v1/contacts?email=alice@vis-a.example`,
      `/v1/domains?account=${ACCOUNT_A}`,
      "/v1/repositories/verisign/domains",
      "/v1/repositories/verisign/contacts",
    ]) {
      const response = await api("GET", path, as(tokenB));
      expect([200, 400, 404], `${path} → ${response.text}`).toContain(response.status);
      if (response.status === 200) expect(response.body.data, path).toEqual([]);
      expect(leaks(response.text, path), path).toEqual([]);
    }
  });

  it("B cannot use A's objects in its own writes: A's contact is as unknown as a wrong id, A's zone has no records for B", async () => {
    const domain = await api("POST", "/v1/domains", { ...as(tokenB), json: { name: "vis-b-own.com", registrant: own.contact![0] } });
    expect(domain.status).toBe(422);
    expect(domain.body.errors).toEqual([{ field: "registrant", message: expect.stringContaining(own.contact![0]!) }]);
    const record = await api("POST", "/v1/records", { ...as(tokenB), json: { zone: "vis-a-secret.com", name: "evil", type: "A", content: "192.0.2.66" } });
    expect([404, 422]).toContain(record.status);
    expect(leaks(record.text, "vis-a-secret.com")).toEqual([]);
  });

  it("names stay one namespace: B registering A's domain or zone name gets 409 already_exists without A's ids", async () => {
    const domain = await api("POST", "/v1/domains", { ...as(tokenB), json: { name: "vis-a-secret.com" } });
    expect(domain.status).toBe(409);
    expect(domain.body.code).toBe("already_exists");
    const zone = await api("POST", "/v1/zones", { ...as(tokenB), json: { name: "vis-a-secret.com", nameservers: ["ns1.vis-b.net"] } });
    expect(zone.status).toBe(409);
    expect(zone.body.code).toBe("already_exists");
    expect(leaks(domain.text + zone.text, "vis-a-secret.com")).toEqual([]);
  });

  it("nothing B sent changed any of A's objects", async () => {
    expect(await fingerprint()).toBe(fingerprintOfA);
  });

  it("an operator's token sees A's objects on the same routes", async () => {
    for (const [collection, key] of [
      ["contacts", "contact"],
      ["domains", "domain"],
      ["hosts", "host"],
      ["zones", "zone"],
      ["records", "record"],
      ["accounts", "account"],
    ] as const) {
      const response = await api("GET", `/v1/${collection}/${own[key]![0]}`);
      expect(response.status, `${collection}: ${response.text}`).toBe(200);
    }
    const list = await api("GET", `/v1/domains?account=${ACCOUNT_A}`);
    expect(list.body.data.map((d: { name: string }) => d.name)).toEqual(["vis-a-secret.com"]);
  });

  it("A's own token sees its objects, and only its own account", async () => {
    const domains = await api("GET", "/v1/domains", as(tokenA));
    expect(domains.body.data.map((d: { name: string }) => d.name)).toEqual(["vis-a-secret.com"]);
    const accounts = await api("GET", `/v1/accounts/${ACCOUNT_B}`, as(tokenA));
    expect(accounts.status).toBe(404);
  });
});
