// The DNS serving backend (docs/serving.md): PowerDNS's remote-backend HTTP connector under
// /v1/pdns/<dns token>/…, as PowerDNS 4.7 calls it (names percent-encoded with dots as
// %2e, trailing dot, any letter case). scripts/dns-e2e.mjs runs a real PowerDNS on it.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import type { SQL } from "drizzle-orm";
import { allDomainsQuery, domainInfoQuery, listQuery, lookupQuery } from "../src/serving/queries";
import { enclosingNames, parseQueryName } from "../src/serving/names";
import { ownerOrder } from "../src/dns/name-order";
import worker from "../src/index";
import { api, expectProblem } from "./helpers";
import { bearer, TEST_TOKENS } from "./tokens";

// A dns token of this file's own (the shared test tokens are read, write and revoked).
const DNS_TOKEN = {
  id: "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9E",
  secret: "test-dns-secret-0123456789abcdef",
  secretHash: "", // filled in beforeAll
};
const REVOKED_DNS_TOKEN = { id: "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9F", secret: "test-dns-revoked-0123456789abcd" };
const dnsToken = () => `${DNS_TOKEN.id}.${DNS_TOKEN.secret}`;
const base = () => `/v1/pdns/${dnsToken()}`;

/** A name as PowerDNS's connector puts it in a URL: every non-alphanumeric byte as %xx (dots as %2e). */
function encodeName(name: string): string {
  return [...name].map((ch) => (/[A-Za-z0-9]/.test(ch) ? ch : `%${ch.charCodeAt(0).toString(16).padStart(2, "0")}`)).join("");
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function pdns(path: string) {
  return api("GET", `${base()}${path}`, { auth: false });
}

async function lookup(name: string, type: string) {
  const response = await pdns(`/lookup/${encodeName(name)}/${type}`);
  expect(response.status, response.text).toBe(200);
  return response.body.result as false | { qtype: string; qname: string; content: string; ttl: number; domain_id: number }[];
}

function sorted(result: false | { qtype: string; content: string }[]) {
  return result === false ? false : result.map((r) => `${r.qtype} ${r.content}`).sort();
}

async function record(zone: string, name: string, type: string, content: string, ttl?: number) {
  const response = await api("POST", "/v1/records", { json: { zone, name, type, content, ...(ttl ? { ttl } : {}) } });
  expect(response.status, response.text).toBe(201);
}

beforeAll(async () => {
  DNS_TOKEN.secretHash = await sha256Hex(DNS_TOKEN.secret);
  await env.DB.batch([
    env.DB.prepare("INSERT INTO api_tokens (id, name, scope, secret_hash, created_at) VALUES (?, 'test-dns', 'dns', ?, '2026-01-01T00:00:00.000Z')").bind(
      DNS_TOKEN.id,
      DNS_TOKEN.secretHash,
    ),
    env.DB.prepare(
      "INSERT INTO api_tokens (id, name, scope, secret_hash, created_at, revoked_at) VALUES (?, 'test-dns-revoked', 'dns', ?, '2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z')",
    ).bind(REVOKED_DNS_TOKEN.id, await sha256Hex(REVOKED_DNS_TOKEN.secret)),
  ]);
  // A zone's first name servers lie outside it; an in-zone one follows its address record.
  const zone = await api("POST", "/v1/zones", { json: { name: "rb.test", default_ttl: 3600, nameservers: ["ns2.example.net"] } });
  expect(zone.status, zone.text).toBe(201);
  await record("rb.test", "ns1", "A", "192.0.2.53");
  await record("rb.test", "@", "NS", "ns1.rb.test");
  await record("rb.test", "www", "A", "192.0.2.10", 300);
  await record("rb.test", "www", "A", "192.0.2.11", 300);
  await record("rb.test", "www", "AAAA", "2001:db8::10", 300);
  await record("rb.test", "@", "MX", "10 mail.rb.test");
  await record("rb.test", "@", "TXT", '"v=spf1 -all"');
  await record("rb.test", "*", "TXT", '"wildcard"');
  await record("rb.test", "leaf.ent", "A", "192.0.2.20"); // ent.rb.test is an empty non-terminal
  await record("rb.test", "sub", "NS", "ns.sub.rb.test"); // a delegation with in-bailiwick glue
  await record("rb.test", "ns.sub", "A", "192.0.2.54");
  const child = await api("POST", "/v1/zones", { json: { name: "deep.rb.test", nameservers: ["ns1.example.net"] } });
  expect(child.status, child.text).toBe(201);
  await record("deep.rb.test", "www", "A", "198.51.100.1");
});

describe("the DNS backend is served only at /v1/pdns/<token>/… as written; any other spelling is 404 and never echoes the token", () => {
  it("letter case, percent-encoding and doubled slashes: 404 not_found naming no token, with or without a bearer", async () => {
    const canonical = await api("GET", `${base()}/getAllDomains`, { auth: false });
    expect(canonical.status, canonical.text).toBe(200);
    const token = dnsToken();
    for (const path of [
      `/v1//pdns/${token}/getAllDomains`,
      `/v1/pdns//${token}/getAllDomains`,
      `/v1/PDNS/${token}/getAllDomains`,
      `/V1/pdns/${token}/getAllDomains`,
      `/v1/%70dns/${token}/getAllDomains`,
      `/v1/pdns%2f${token}/getAllDomains`,
      `/v1/pdns/${token.replace(".", "%2E")}/getAllDomains`,
      `/v1/pdns/${token}//getAllDomains`,
    ]) {
      for (const auth of [{ auth: false }, { headers: { authorization: bearer("write") } }]) {
        const response = await api("GET", path, auth);
        const problem = expectProblem(response, 404, "not_found");
        expect(problem.detail, path).toMatch(/^No route matches GET \/v1\/pdns\/…/);
        expect(response.text, path).not.toContain(DNS_TOKEN.secret);
        expect(response.text, path).not.toContain(DNS_TOKEN.id);
      }
    }
  });

  it("dot segments are removed by the URL parser before the Worker sees the path: it is the canonical path (RFC 3986 §5.2.4)", async () => {
    const request = new Request(`http://api.test/v1/pdns/./${dnsToken()}/getAllDomains`);
    expect(new URL(request.url).pathname).toBe(`/v1/pdns/${dnsToken()}/getAllDomains`);
  });
});

describe("only a dns token, in the path, opens the DNS backend", () => {
  it("no token, a malformed one, an unknown one: 401", async () => {
    expectProblem(await api("GET", "/v1/pdns/getAllDomains", { auth: false }), 401, "unauthorized");
    expectProblem(await api("GET", "/v1/pdns/not-a-token/getAllDomains", { auth: false }), 401, "unauthorized");
    expectProblem(await api("GET", `/v1/pdns/${DNS_TOKEN.id}.wrong-secret-0123456789abcdef/getAllDomains`, { auth: false }), 401, "unauthorized");
  });

  it("a revoked dns token: 401", async () => {
    expectProblem(await api("GET", `/v1/pdns/${REVOKED_DNS_TOKEN.id}.${REVOKED_DNS_TOKEN.secret}/getAllDomains`, { auth: false }), 401, "unauthorized");
  });

  it("a read or write token in the path: 401 (the backend needs scope dns)", async () => {
    for (const scope of ["read", "write"] as const) {
      const token = TEST_TOKENS[scope];
      const problem = expectProblem(await api("GET", `/v1/pdns/${token.id}.${token.secret}/getAllDomains`, { auth: false }), 401, "unauthorized");
      expect(problem.detail).toMatch(/scope dns/);
    }
  });

  it("a write token as a bearer does not open it either", async () => {
    expectProblem(await api("GET", "/v1/pdns/getAllDomains", { headers: { authorization: bearer("write") } }), 401, "unauthorized");
  });

  it("a dns token anywhere else: 403", async () => {
    expectProblem(await api("GET", "/v1/zones", { headers: { authorization: `Bearer ${dnsToken()}` } }), 403, "forbidden");
  });
});

describe("lookup answers the records of a name in the deepest zone that holds it", () => {
  it("the apex SOA is built from the zone row, TTL the zone's default TTL", async () => {
    const zone = (await api("GET", "/v1/zones/rb.test")).body;
    const result = await lookup("rb.test.", "SOA");
    expect(result).toEqual([
      {
        qtype: "SOA",
        qname: "rb.test.",
        content: `ns1.example.net. hostmaster.rb.test. ${zone.soa.serial} ${zone.soa.refresh} ${zone.soa.retry} ${zone.soa.expire} ${zone.soa.minimum}`.replace(
          "ns1.example.net. hostmaster.rb.test.",
          `${zone.soa.mname}. ${zone.soa.rname}.`,
        ),
        ttl: 3600,
        domain_id: expect.any(Number),
      },
    ]);
  });

  it("ANY at the apex gives the SOA and every apex record", async () => {
    expect(sorted(await lookup("rb.test.", "ANY"))).toEqual(
      ["MX 10 mail.rb.test.", "NS ns1.rb.test.", "NS ns2.example.net.", 'TXT "v=spf1 -all"', expect.stringMatching(/^SOA /)].sort(),
    );
  });

  it("one type, an RRset with its TTL, absolute names with the dot", async () => {
    const result = await lookup("www.rb.test.", "A");
    expect(result).toEqual([
      { qtype: "A", qname: "www.rb.test.", content: "192.0.2.10", ttl: 300, domain_id: expect.any(Number) },
      { qtype: "A", qname: "www.rb.test.", content: "192.0.2.11", ttl: 300, domain_id: expect.any(Number) },
    ]);
  });

  it("names in any letter case are found, and echoed in the case asked", async () => {
    const result = await lookup("WwW.Rb.TEST.", "AAAA");
    expect(result).toEqual([{ qtype: "AAAA", qname: "WwW.Rb.TEST.", content: "2001:db8::10", ttl: 300, domain_id: expect.any(Number) }]);
    expect(sorted(await lookup("www.rb.test.", "any"))).toEqual(["A 192.0.2.10", "A 192.0.2.11", "AAAA 2001:db8::10"]);
  });

  it("a type the name does not hold, a name that does not exist, a name in no zone: false", async () => {
    expect(await lookup("www.rb.test.", "MX")).toBe(false);
    expect(await lookup("nothing.rb.test.", "ANY")).toBe(false);
    expect(await lookup("www.example.org.", "A")).toBe(false);
    expect(await lookup("test.", "SOA")).toBe(false);
  });

  it("SOA below the apex is false: PowerDNS finds zones by asking SOA at each name", async () => {
    expect(await lookup("www.rb.test.", "SOA")).toBe(false);
  });

  it("the wildcard is a name of its own: PowerDNS asks for *.rb.test itself (RFC 4592 is PowerDNS's to apply)", async () => {
    expect(sorted(await lookup("*.rb.test.", "ANY"))).toEqual(['TXT "wildcard"']);
  });

  it("an empty non-terminal answers ANY with one record of empty type (PowerDNS's ENT)", async () => {
    expect(await lookup("ent.rb.test.", "ANY")).toEqual([{ qtype: "", qname: "ent.rb.test.", content: "", ttl: 3600, domain_id: expect.any(Number) }]);
    expect(await lookup("ent.rb.test.", "A")).toBe(false);
    expect(await lookup("leaf.ent.rb.test.", "A")).toEqual([expect.objectContaining({ qtype: "A", content: "192.0.2.20" })]);
    // "nt.rb.test" is a suffix of "ent" as text, not as labels: it does not exist.
    expect(await lookup("nt.rb.test.", "ANY")).toBe(false);
  });

  it("a delegation's NS and its glue are records of the parent zone", async () => {
    expect(sorted(await lookup("sub.rb.test.", "NS"))).toEqual(["NS ns.sub.rb.test."]);
    expect(sorted(await lookup("ns.sub.rb.test.", "A"))).toEqual(["A 192.0.2.54"]);
  });

  it("below a delegation nothing is authoritative (auth 0), as PowerDNS's own backends mark glue, so a DS question there is referred", async () => {
    const zone = await api("POST", "/v1/zones", { json: { name: "below.rb-extra.test", nameservers: ["ns1.example.net"] } });
    expect(zone.status, zone.text).toBe(201);
    await record("below.rb-extra.test", "sub", "NS", "ns.sub.below.rb-extra.test");
    await record("below.rb-extra.test", "ns.sub", "A", "192.0.2.54");
    await record("below.rb-extra.test", "deeper.hidden.sub", "TXT", '"hidden by the delegation"');
    await record("below.rb-extra.test", "www", "A", "192.0.2.1");
    expect(await lookup("ns.sub.below.rb-extra.test.", "ANY")).toEqual([expect.objectContaining({ qtype: "A", content: "192.0.2.54", auth: 0 })]);
    expect(await lookup("deeper.hidden.sub.below.rb-extra.test.", "TXT")).toEqual([expect.objectContaining({ qtype: "TXT", auth: 0 })]);
    // Beside it, and in a child zone (deep.rb.test: its own apex), records are authoritative.
    for (const [name, type] of [
      ["www.below.rb-extra.test.", "A"],
      ["www.rb.test.", "A"],
      ["leaf.ent.rb.test.", "A"],
      ["www.deep.rb.test.", "A"],
    ]) {
      const result = await lookup(name!, type!);
      expect(result === false ? result : result[0], name).not.toHaveProperty("auth");
    }
  });

  it("CERT reaches PowerDNS with its type and algorithm as numbers (PowerDNS 4.7 parses no mnemonics there)", async () => {
    const zone = await api("POST", "/v1/zones", { json: { name: "cert.rb-extra.test", nameservers: ["ns1.example.net"] } });
    expect(zone.status, zone.text).toBe(201);
    await record("cert.rb-extra.test", "pgp", "CERT", "PGP 0 0 mDMEXEcE6RYJKwYBBAHaRw8BAQdArjWwk3FAqyiFbFBKT4TzXcVBqPTB3gmzlC/Ub7O1u10=");
    await record("cert.rb-extra.test", "pkix", "CERT", "PKIX 12345 ECDSAP256SHA256 mDMEXEcE6RYJ");
    expect(sorted(await lookup("pgp.cert.rb-extra.test.", "CERT"))).toEqual([
      "CERT 3 0 0 mDMEXEcE6RYJKwYBBAHaRw8BAQdArjWwk3FAqyiFbFBKT4TzXcVBqPTB3gmzlC/Ub7O1u10=",
    ]);
    expect(sorted(await lookup("pkix.cert.rb-extra.test.", "ANY"))).toEqual(["CERT 1 12345 13 mDMEXEcE6RYJ"]);
    const list = (await pdns(`/list/-1/${encodeName("cert.rb-extra.test.")}`)).body.result as { qtype: string; content: string }[];
    expect(
      list
        .filter((r) => r.qtype === "CERT")
        .map((r) => r.content.split(" ").slice(0, 3).join(" "))
        .sort(),
    ).toEqual(["1 12345 13", "3 0 0"]);
  });

  it("the deepest zone wins: deep.rb.test is a zone of its own", async () => {
    const deep = await lookup("www.deep.rb.test.", "A");
    const parent = await lookup("rb.test.", "SOA");
    expect(deep).toEqual([expect.objectContaining({ qtype: "A", content: "198.51.100.1" })]);
    expect(await lookup("deep.rb.test.", "SOA")).toEqual([expect.objectContaining({ qtype: "SOA", qname: "deep.rb.test." })]);
    expect(deep && parent && deep[0]!.domain_id).not.toBe(parent && parent[0]!.domain_id);
  });

  it("escaped bytes in a label never match a stored name", async () => {
    expect(await lookup("www\\.rb.test.", "ANY")).toBe(false); // one label "www.rb", then "test"
    expect(await lookup("w\\119w.rb.test.", "A")).toEqual([expect.objectContaining({ content: "192.0.2.10" }), expect.anything()]); // \119 is "w"
  });

  it("a name with characters no stored name holds (+, ~, =, %, !, a space) answers false, as for any name that does not exist", async () => {
    for (const name of ["a+b.rb.test.", "a~b.rb.test.", "a=b.rb.test.", "a%b.rb.test.", "a!b.rb.test.", "a\\032b.rb.test."]) {
      expect(await lookup(name, "ANY"), name).toBe(false);
      expect(await lookup(name, "SOA"), name).toBe(false);
    }
  });

  it("a name that is not a name: 422 naming qname", async () => {
    const problem = expectProblem(await pdns(`/lookup/${encodeName("a..rb.test.")}/A`), 422, "validation_failed");
    expect(problem.errors[0].field).toBe("qname");
    expectProblem(await pdns(`/lookup/${encodeName(`${"a".repeat(64)}.rb.test.`)}/A`), 422, "validation_failed");
  });
});

describe("list gives the whole zone (AXFR)", () => {
  it("the SOA first, then every record, owners absolute", async () => {
    const response = await pdns(`/list/-1/${encodeName("rb.test.")}`);
    expect(response.status).toBe(200);
    const result = response.body.result as { qtype: string; qname: string; content: string; ttl: number }[];
    expect(result[0]).toMatchObject({ qtype: "SOA", qname: "rb.test.", ttl: 3600 });
    expect(
      result
        .slice(1)
        .map((r) => `${r.qname} ${r.ttl} ${r.qtype} ${r.content}`)
        .sort(),
    ).toEqual(
      [
        '*.rb.test. 3600 TXT "wildcard"',
        "leaf.ent.rb.test. 3600 A 192.0.2.20",
        "ns.sub.rb.test. 3600 A 192.0.2.54",
        "ns1.rb.test. 3600 A 192.0.2.53",
        "rb.test. 3600 MX 10 mail.rb.test.",
        "rb.test. 3600 NS ns1.rb.test.",
        "rb.test. 3600 NS ns2.example.net.",
        'rb.test. 3600 TXT "v=spf1 -all"',
        "sub.rb.test. 3600 NS ns.sub.rb.test.",
        "www.rb.test. 300 A 192.0.2.10",
        "www.rb.test. 300 A 192.0.2.11",
        "www.rb.test. 300 AAAA 2001:db8::10",
      ].sort(),
    );
  });

  it("a zone that does not exist: false", async () => {
    expect((await pdns(`/list/-1/${encodeName("nope.test.")}`)).body).toEqual({ result: false });
  });
});

describe("a zone of a suspended account is no longer served", () => {
  it("lookup, list, getDomainInfo and getAllDomains leave it out while the account is suspended, and serve it again after", async () => {
    const account = "acc_01M8188MZ3N4D5RW2QKJ7H8SUS";
    await env.DB.prepare(
      "insert into accounts (id, name, role, status, version, created_at, updated_at) values (?, 'Suspendable', 'customer', 'active', 1, ?, ?)",
    )
      .bind(account, "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z")
      .run();
    const zone = await api("POST", "/v1/zones", { json: { name: "suspended.test", nameservers: ["ns1.rb.test"], account } });
    expect(zone.status, zone.text).toBe(201);
    expect(sorted(await lookup("suspended.test.", "SOA"))).toHaveLength(1);
    await env.DB.prepare("update accounts set status = 'suspended' where id = ?").bind(account).run();
    expect(await lookup("suspended.test.", "SOA")).toBe(false);
    expect((await pdns(`/list/-1/${encodeName("suspended.test.")}`)).body).toEqual({ result: false });
    expect((await pdns(`/getDomainInfo/${encodeName("suspended.test.")}`)).body).toEqual({ result: false });
    const all = (await pdns("/getAllDomains?includeDisabled=true")).body.result as { zone: string }[];
    expect(all.map((d) => d.zone)).not.toContain("suspended.test.");
    await env.DB.prepare("update accounts set status = 'active' where id = ?").bind(account).run();
    expect(sorted(await lookup("suspended.test.", "SOA"))).toHaveLength(1);
  });
});

describe("zones: getDomainInfo and getAllDomains", () => {
  it("one zone by name, kind master, with its serial and the serial last notified", async () => {
    const zone = (await api("GET", "/v1/zones/rb.test")).body;
    const response = await pdns(`/getDomainInfo/${encodeName("RB.test.")}`);
    expect(response.body).toEqual({
      result: { id: expect.any(Number), zone: "rb.test.", kind: "master", serial: zone.soa.serial, notified_serial: 0, last_check: 0, masters: [] },
    });
    expect((await pdns(`/getDomainInfo/${encodeName("nope.test.")}`)).body).toEqual({ result: false });
  });

  it("every zone, each as getDomainInfo gives it", async () => {
    const response = await pdns("/getAllDomains?includeDisabled=true");
    expect(response.status).toBe(200);
    const names = (response.body.result as { zone: string }[]).map((d) => d.zone);
    expect(names).toEqual(expect.arrayContaining(["rb.test.", "deep.rb.test."]));
    expectProblem(await pdns("/getAllDomains?surprise=1"), 400, "invalid_query");
  });
});

describe("what the service does not keep answers empty, and what does not apply answers false", () => {
  it("metadata: none but the tier's secondaries to NOTIFY (wrangler.toml's DNS_TIER_SECONDARIES)", async () => {
    expect((await pdns(`/getAllDomainMetadata/${encodeName("rb.test.")}`)).body).toEqual({ result: { "ALSO-NOTIFY": ["127.0.0.1:5300"] } });
    expect((await pdns(`/getDomainMetadata/${encodeName("rb.test.")}/SOA-EDIT`)).body).toEqual({ result: [] });
  });

  it("any other method, verb or argument count: {result: false}", async () => {
    for (const path of ["/getDomainKeys/rb%2etest%2e", "/getTSIGKeys", "/getUnfreshSlaveInfos", "/lookup/SOA"]) {
      const response = await pdns(path);
      expect(response.status, path).toBe(200);
      expect(response.body, path).toEqual({ result: false });
    }
    for (const method of ["POST", "PATCH", "PUT", "DELETE"]) {
      const response = await api(method, `${base()}/setDomainMetadata/rb%2etest%2e/SOA-EDIT`, { auth: false, body: "value[]=x" });
      expect(response.status, method).toBe(200);
      expect(response.body, method).toEqual({ result: false });
    }
  });

  it("OPTIONS answers 204 with Allow, as on every path", async () => {
    const response = await api("OPTIONS", `${base()}/lookup/www%2erb%2etest%2e/A`, { auth: false });
    expect(response.status).toBe(204);
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  it("the root (%2e, folded away by URL parsing) is no zone: false", async () => {
    expect((await pdns("/lookup/%2e/SOA")).body).toEqual({ result: false });
  });
});

// Cost: PowerDNS calls the backend on every cache miss.
let trips = 0;
function counted<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, key) {
      const value = Reflect.get(object, key, object);
      if (key === "prepare") return (sql: string) => countedStatement((value as (s: string) => D1PreparedStatement).call(object, sql));
      if (key === "batch") {
        return (statements: D1PreparedStatement[]) => {
          trips++;
          return (value as (s: D1PreparedStatement[]) => Promise<unknown>).call(
            object,
            statements.map((s) => real.get(s) ?? s),
          );
        };
      }
      if (key === "withSession") return (constraint?: string) => counted((value as (c?: string) => D1DatabaseSession).call(object, constraint));
      return typeof value === "function" ? value.bind(object) : value;
    },
  });
}
const real = new WeakMap<object, D1PreparedStatement>();
function countedStatement(statement: D1PreparedStatement): D1PreparedStatement {
  const proxy = new Proxy(statement, {
    get(object, key) {
      const value = Reflect.get(object, key, object);
      if (key === "bind") return (...args: unknown[]) => countedStatement((value as (...a: unknown[]) => D1PreparedStatement).apply(object, args));
      if (key === "all" || key === "run" || key === "raw" || key === "first") {
        return (...args: unknown[]) => {
          trips++;
          return (value as (...a: unknown[]) => unknown).apply(object, args);
        };
      }
      return typeof value === "function" ? value.bind(object) : value;
    },
  });
  real.set(proxy, statement);
  return proxy;
}

async function tripsOf(path: string): Promise<number> {
  const call = async () => {
    const ctx = createExecutionContext();
    const response = await worker.fetch(new Request(`http://api.test${base()}${path}`), { ...env, DB: counted(env.DB) }, ctx);
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(200);
  };
  await call(); // the token is then checked for this isolate
  trips = 0;
  await call();
  return trips;
}

describe("a name with no records is told from an empty non-terminal by one seek, whatever the zone's size", () => {
  const ZONE = "rows.rb-order.test";
  beforeAll(async () => {
    // 600 names below one empty non-terminal and 600 beside it; names that share a prefix
    // with it (`ent-y`, `en`) and a two-level one (`x.y.deep`), where text order and
    // canonical order differ.
    const lines = [`$ORIGIN ${ZONE}.`, "$TTL 300", `@ SOA ns1.example.net. hostmaster.example.net. 1 7200 900 1209600 300`, "@ NS ns1.example.net."];
    for (let i = 0; i < 600; i++) lines.push(`h${i}.ent A 192.0.2.1`, `n${i} A 192.0.2.2`);
    lines.push("leaf.ent-y A 192.0.2.3", 'x.y.deep TXT "deep"', '* TXT "wild"');
    const zone = await api("POST", "/v1/zones", { body: `${lines.join("\n")}\n`, headers: { "content-type": "text/dns" } });
    expect(zone.status, zone.text).toBe(201);
  });

  async function rowsRead(qname: string): Promise<number> {
    const name = parseQueryName(qname)!;
    const { sql: text, params } = dialect.sqlToQuery(lookupQuery(enclosingNames(name), name.key, "ANY"));
    const result = await env.DB.prepare(text)
      .bind(...params)
      .all();
    return result.meta.rows_read;
  }

  it.each([
    ["ent", true],
    ["ent-y", true],
    ["deep", true],
    ["y.deep", true],
    ["en", false],
    ["ent-", false],
    ["nothing", false],
    ["x.ent", false],
    ["h1.ent", null], // has records: not asked
  ] as const)("%s: an empty non-terminal is %s", async (owner, ent) => {
    const result = await lookup(`${owner}.${ZONE}.`, "ANY");
    if (ent === null) expect(sorted(result)).toEqual(["A 192.0.2.1"]);
    else if (ent) expect(result).toEqual([{ qtype: "", qname: `${owner}.${ZONE}.`, content: "", ttl: 300, domain_id: expect.any(Number) }]);
    else expect(result).toBe(false);
  });

  it("a missing name, an empty non-terminal, a name a wildcard covers and the wildcard each read a few rows per label, not the 1 204-record zone", async () => {
    for (const qname of [`nothing.${ZONE}.`, `ent.${ZONE}.`, `x.ent.${ZONE}.`, `a.b.nothing.${ZONE}.`, `*.${ZONE}.`, `h599.ent.${ZONE}.`]) {
      // Per enclosing name a json_each row and a zones_name_unique probe, and a json_each
      // row again for the NS probes of the names between the apex and it; for whether the
      // zone holds its names (an operator's zone: no catalog read) a json_each row and a
      // probe of domains and of zones per name at or above the apex, and one range of the
      // zones below it; then the account probes, the records at the name, and at most one
      // index entry below it (measured: 26 rows for nothing.rows.rb-order.test, 31 for
      // x.ent.rows.rb-order.test, 27 for the wildcard; 16 and 19 before the ownership rules).
      const labels = parseQueryName(qname)!.labels.length;
      expect(await rowsRead(qname), qname).toBeLessThanOrEqual(5 * labels + 8);
    }
  });
});

describe("records.owner_order is each owner's labels reversed, whatever wrote the record", () => {
  it("record create and rename, zone create and import, and the migration's backfill of stored rows agree with ownerOrder", async () => {
    const zone = await api("POST", "/v1/zones", { json: { name: "order.rb-order.test", nameservers: ["ns1.example.net"] } });
    expect(zone.status, zone.text).toBe(201);
    const created = await api("POST", "/v1/records", { json: { zone: "order.rb-order.test", name: "a.b.c", type: "A", content: "192.0.2.1" } });
    expect(created.status, created.text).toBe(201);
    await record("order.rb-order.test", "_sip._tcp", "SRV", "0 5 5060 sip.example.net.");
    const renamed = await api("PATCH", `/v1/records/${created.body.id}`, { json: { name: "deeper.x.b.c" } });
    expect(renamed.status, renamed.text).toBe(200);
    const stored = async () =>
      (
        await env.DB.prepare("SELECT r.name, r.owner_order FROM records r JOIN zones z ON z.id = r.zone_id WHERE z.name LIKE '%rb-order.test'").all<{
          name: string;
          owner_order: string;
        }>()
      ).results;
    const rows = await stored();
    expect(rows.length).toBeGreaterThan(1200);
    for (const row of rows) expect(row.owner_order, row.name).toBe(ownerOrder(row.name));
    expect(rows).toEqual(
      expect.arrayContaining([
        { name: "deeper.x.b.c", owner_order: "c b x deeper" },
        { name: "@", owner_order: "" },
      ]),
    );
    // drizzle/0013's backfill, run over these rows with wrong keys of the right length
    // (labels not reversed), writes the same keys.
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0013_"))!;
    const backfill = migration.queries.find((q) => /WITH RECURSIVE/.test(q))!;
    expect(backfill).toBeDefined();
    await env.DB.prepare("UPDATE records SET owner_order = replace(name, '.', ' ') WHERE name <> '@'").run();
    expect(await stored()).toEqual(expect.arrayContaining([{ name: "deeper.x.b.c", owner_order: "deeper x b c" }]));
    await env.DB.prepare(backfill).run();
    for (const row of await stored()) expect(row.owner_order, row.name).toBe(ownerOrder(row.name));
  });

  it("a write that leaves owner_order out is refused by the database", async () => {
    const zone = await api("GET", "/v1/zones/order.rb-order.test");
    await expect(
      env.DB.prepare(
        "INSERT INTO records (id, zone_id, name, type, content, ttl, created_at, updated_at) VALUES ('rec_01JD3Q6Y4T8N0V4W5X6Y7Z8A9G', ?, 'forgot', 'A', '192.0.2.9', 300, 'x', 'x')",
      )
        .bind(zone.body.id)
        .run(),
    ).rejects.toThrow(/owner_order/);
  });
});

describe("every call is one D1 round trip", () => {
  it.each([
    ["lookup of a name", `/lookup/${encodeName("www.rb.test.")}/A`],
    ["lookup ANY of an empty non-terminal", `/lookup/${encodeName("ent.rb.test.")}/ANY`],
    ["lookup ANY of a name that does not exist, several labels deep", `/lookup/${encodeName("a.b.nothing.rb.test.")}/ANY`],
    ["lookup of glue below a delegation", `/lookup/${encodeName("ns.sub.rb.test.")}/ANY`],
    ["lookup of a name in no zone", `/lookup/${encodeName("www.example.org.")}/A`],
    ["list", `/list/1/${encodeName("rb.test.")}`],
    ["getDomainInfo", `/getDomainInfo/${encodeName("rb.test.")}`],
    ["getAllDomains", "/getAllDomains?includeDisabled=false"],
  ])("%s", async (_name, path) => {
    expect(await tripsOf(path)).toBe(1);
  });
});

const dialect = new SQLiteSyncDialect();
async function plan(query: SQL): Promise<string[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${text}`)
    .bind(...params)
    .all<{ detail: string }>();
  return results.map((r) => r.detail.trim());
}

describe("the connector's queries are answered from indexes", () => {
  it("lookup finds the zone by zones_name_unique and the records by records_identity_unique", async () => {
    const name = parseQueryName("www.rb.test.")!;
    const details = await plan(lookupQuery(enclosingNames(name), name.key, "A"));
    expect(details.filter((d) => /^SCAN (z|r|zones|records)$/.test(d))).toEqual([]);
    expect(details).toEqual(expect.arrayContaining([expect.stringMatching(/^SEARCH z USING (COVERING )?INDEX zones_name_unique \(name=\?\)/)]));
    expect(details).toEqual(
      expect.arrayContaining([expect.stringMatching(/^SEARCH r USING INDEX records_identity_unique \(zone_id=\? AND name=\? AND type=\?\)/)]),
    );
  });

  // What PowerDNS asks on the way to NXDOMAIN, NODATA at an empty non-terminal, and a
  // wildcard answer: the name with ANY, then the source of synthesis (RFC 4592 §4.1).
  it.each([
    ["a name that does not exist", "nothing.rb.test."],
    ["an empty non-terminal", "ent.rb.test."],
    ["a missing name below an empty non-terminal", "x.ent.rb.test."],
    ["a name a wildcard covers, several labels below it", "a.b.nothing.rb.test."],
    ["the wildcard that covers it", "*.rb.test."],
  ])("lookup ANY of %s reads the name by (zone_id, name), and what lies below it by one seek of records_owner_order_idx", async (_case, qname) => {
    const name = parseQueryName(qname)!;
    const details = await plan(lookupQuery(enclosingNames(name), name.key, "ANY"));
    expect(
      details.filter((d) => /^SCAN (z|r|d|zones|records)\b/.test(d)),
      details.join("\n"),
    ).toEqual([]);
    expect(details).toEqual(expect.arrayContaining([expect.stringMatching(/^SEARCH r USING INDEX records_identity_unique \(zone_id=\? AND name=\?\)/)]));
    expect(details).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^SEARCH d USING COVERING INDEX records_owner_order_idx \(zone_id=\? AND owner_order>\? AND owner_order<\?\)/),
      ]),
    );
    // Whether a name above it (inside the zone) delegates: one probe of (zone_id, name, 'NS') per name.
    expect(details).toEqual(
      expect.arrayContaining([expect.stringMatching(/^SEARCH n USING (COVERING )?INDEX records_identity_unique \(zone_id=\? AND name=\? AND type=\?\)/)]),
    );
    expect(details.filter((d) => /^SCAN n\b/.test(d))).toEqual([]);
  });

  it("list, getDomainInfo and getAllDomains", async () => {
    const list = await plan(listQuery("rb.test"));
    expect(list).toEqual(expect.arrayContaining([expect.stringMatching(/^SEARCH z USING INDEX zones_name_unique \(name=\?\)/)]));
    expect(list).toEqual(
      expect.arrayContaining([expect.stringMatching(/^SEARCH r USING INDEX records_(zone_idx|identity_unique|owner_order_idx) \(zone_id=\?\)/)]),
    );
    // Whether the zone's account is suspended, and whether the zone holds its names
    // (src/registry/zone-ownership.ts): primary-key probes of accounts, domains and zones
    // by name for the zone and each name above it, one range of zones_reversed_name_idx
    // for the zones below it, and the catalog's few dozen extensions for a customer's zone.
    const accountProbe = expect.stringMatching(/^SEARCH a USING INDEX sqlite_autoindex_accounts_1 \(id=\?\)/);
    const info = await plan(domainInfoQuery("rb.test"));
    expect(info[0]).toMatch(/^SEARCH z USING INDEX zones_name_unique \(name=\?\)/);
    expect(info.filter((step) => /^SCAN /.test(step) && !/^SCAN (c VIRTUAL TABLE|e USING COVERING INDEX sqlite_autoindex_extensions_1)/.test(step))).toEqual(
      [],
    );
    expect(info).toEqual(
      expect.arrayContaining([
        accountProbe,
        expect.stringMatching(/^SEARCH d USING INDEX domains_name_unique \(name=\?\)/),
        expect.stringMatching(/^SEARCH p USING INDEX zones_name_unique \(name=\?\)/),
        expect.stringMatching(/^SEARCH b USING INDEX zones_reversed_name_idx \(reversed_name>\? AND reversed_name<\?\)/),
      ]),
    );
    // Every zone, and the zones that break the rules by the view of drizzle/0015: each
    // zone's names joined to zones and domains by their unique names.
    const all = await plan(allDomainsQuery());
    expect(all[0]).toMatch(/^SCAN z USING (COVERING )?INDEX zones_name_unique/);
    expect(all).toEqual(expect.arrayContaining([accountProbe, "CO-ROUTINE zone_ownership_conflicts"]));
    expect(all.filter((step) => /^SEARCH (d|p) /.test(step)).every((step) => / USING INDEX (domains|zones)_name_unique \(name=\?\)/.test(step))).toBe(true);
  });
});
