// Hostile input, proven by generation (fast-check): thousands of requests with generated
// methods, paths, query strings, headers and bodies — wrong types, huge strings, odd
// Unicode, injection strings, deep nesting — against every route. For each: never a 5xx,
// every error is problem+json, and a rejected write leaves the database as it was.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import worker from "../src/index";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { OPERATOR_ACCOUNT_ID } from "../src/db/schema";
import { adaAddress, api } from "./helpers";
import { bearer } from "./tokens";

const seed: Record<string, string> = {};

beforeAll(async () => {
  const contact = await api("POST", "/v1/contacts", { json: { name: "Seed Contact", email: "seed@example.org", address: adaAddress } });
  seed.contact = contact.body.id;
  const domain = await api("POST", "/v1/domains", { json: { name: "seed.com", registrant: seed.contact, nameservers: ["ns1.seed-dns.net"] } });
  seed.domain = domain.body.id;
  const host = await api("POST", "/v1/hosts", { json: { name: "ns1.seed.com", addresses: ["192.0.2.53"] } });
  seed.host = host.body.id;
  const zone = await api("POST", "/v1/zones", { json: { name: "seed.com" } });
  seed.zone = zone.body.id;
  const record = await api("POST", "/v1/records", { json: { zone: "seed.com", name: "www", type: "A", content: "192.0.2.10" } });
  seed.record = record.body.id;
  expect(Object.values(seed).every(Boolean)).toBe(true);
});

/** A cheap fingerprint of everything a write could touch (not idempotency keys or events). */
async function fingerprint(): Promise<string> {
  const tables = ["contacts", "domains", "hosts", "zones", "records"];
  const parts = tables.map((t) => `select '${t}', count(*), coalesce(sum(version), 0), coalesce(max(updated_at), '') from ${t}`);
  parts.push(
    "select 'links', (select count(*) from domain_nameservers), (select count(*) from host_addresses), (select coalesce(sum(soa_serial + record_count), 0) from zones)",
  );
  const results = await env.DB.batch(parts.map((sql) => env.DB.prepare(sql)));
  return JSON.stringify(results.map((r) => r.results));
}

const nasty = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "'; DROP TABLE domains; --",
    '" OR 1=1 --',
    "%00",
    "\u0000",
    "../../etc/passwd",
    "%2e%2e%2f",
    "<script>alert(1)</script>",
    "${jndi:ldap://x}",
    "xn--",
    "xn--zz",
    "a".repeat(300),
    "é".repeat(100),
    "\u202e\u200b\ufeff",
    "😀.com",
    "münchen.de",
    "EXAMPLE.COM.",
    "*.*",
    "..",
    ".",
    "-",
    "__proto__",
    "constructor",
    "NaN",
    "1e309",
    "-0",
    "null",
    "true",
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
);

const segment = fc.oneof(
  nasty,
  fc.constantFrom("con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B", "dom_", "hst_x", "zon_%", "rec_", "com", "co.uk", "verisign", "nope"),
  fc.constant(null).map(() => seed.contact!),
  fc.constant(null).map(() => seed.domain!),
  fc.constant(null).map(() => seed.host!),
  fc.constant(null).map(() => seed.zone!),
  fc.constant(null).map(() => seed.record!),
);

const path = fc.oneof(
  fc.constantFrom(
    "/v1",
    "/v1/",
    "/v1/contacts",
    "/v1/domains",
    "/v1/hosts",
    "/v1/zones",
    "/v1/records",
    "/v1/extensions",
    "/v1/repositories",
    "/v1/accounts",
    "/v1/tokens",
    "/v1/me",
    "/v1/events",
    "/v1/openapi.json",
    "/v1/docs",
    "/v1/problems",
    "/",
    "/v2/domains",
    "//v1//domains",
  ),
  fc
    .tuple(
      fc.constantFrom("contacts", "domains", "hosts", "zones", "records", "extensions", "repositories", "accounts", "tokens", "events", "problems"),
      segment,
    )
    .map(([collection, id]) => `/v1/${collection}/${encodeURIComponent(id)}`),
  fc.tuple(fc.constantFrom("contacts", "domains", "hosts"), fc.constantFrom("verisign", "pir", "nope", "")).map(([c, r]) => `/v1/repositories/${r}/${c}`),
  segment.map((z) => `/v1/zones/${encodeURIComponent(z)}/records`),
  segment.map((z) => `/v1/zones/${encodeURIComponent(z)}/changes`),
  fc.constant("/v1/zones/seed.com/changes"),
  fc.string({ maxLength: 60 }).map((s) => `/v1/${s.replace(/[?#]/g, "")}`),
  fc.constantFrom("/v1/domains/%", "/v1/domains/%E0%A4%A", "/v1/zones/%FF%FE", "/v1/hosts/a%2Fb"),
);

const queryKey = fc.oneof(
  fc.constantFrom(
    "limit",
    "cursor",
    "q",
    "name",
    "email",
    "sort",
    "status",
    "extension",
    "repository",
    "registrant",
    "contact",
    "nameserver",
    "expires_before",
    "expires_after",
    "domain",
    "address",
    "zone",
    "type",
    "content",
    "idn",
    "resource",
    "token",
    "since",
    "operation",
  ),
  fc.string({ maxLength: 10 }),
);
const queryValue = fc.oneof(
  nasty,
  fc.constantFrom(
    "0",
    "-1",
    "201",
    "50",
    "1.5",
    "abc",
    "created_at",
    "-expires_at",
    "clientHold",
    "inactive",
    "2026-13-45T99:99:99Z",
    "2026-11-22T09:30:00Z",
    "A",
    "SOA",
    "true",
    "maybe",
  ),
  fc.integer().map(String),
);
const query = fc.array(fc.tuple(queryKey, queryValue), { maxLength: 4 }).map((pairs) => {
  if (pairs.length === 0) return "";
  return `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&")}`;
});

const deep = (depth: number): unknown => (depth === 0 ? "bottom" : { nested: deep(depth - 1) });
const fieldValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  nasty,
  fc.integer(),
  fc.double(),
  fc.constant(deep(200)),
  fc.array(nasty, { maxLength: 20 }),
  fc.constant("x".repeat(70_000)),
);
const fieldName = fc.oneof(
  fc.constantFrom(
    "name",
    "email",
    "phone",
    "fax",
    "address",
    "organization",
    "privacy",
    "registrant",
    "contacts",
    "nameservers",
    "status",
    "period",
    "auth_info",
    "auto_renew",
    "addresses",
    "zone",
    "type",
    "content",
    "ttl",
    "comment",
    "default_ttl",
    "soa",
    "changes",
    "id",
    "created_at",
    "__proto__",
  ),
  fc.string({ maxLength: 12 }),
);
const jsonObjectBody = fc.dictionary(fieldName, fieldValue, { maxKeys: 6 }).map((o) => JSON.stringify(o));
const body = fc.oneof(
  jsonObjectBody,
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.constant(`${'{"name":'.repeat(10_000)}1${"}".repeat(10_000)}`),
  fc.constant(`${"[".repeat(10_000)}${"]".repeat(10_000)}`),
  nasty,
  fc.constantFrom("{", '{"name":', "[]", "null", '{"a":1}{', "\uFEFF{}", "$ORIGIN x.\n@ IN SOA (", "@ IN A 1.2.3.4\n".repeat(50)),
);

const headers = fc.record(
  {
    "content-type": fc.constantFrom(
      "application/json",
      "application/merge-patch+json",
      "text/dns",
      "text/plain",
      "application/json; charset=latin1",
      "multipart/form-data",
      "",
      "application/x-www-form-urlencoded",
    ),
    "if-match": fc.oneof(fc.constantFrom("*", '"1-abc"', 'W/"x"', "garbage", '""'), nasty),
    "if-none-match": fc.oneof(fc.constantFrom("*", '"1-abc"'), nasty),
    accept: fc.constantFrom("text/dns", "application/json", "*/*", "text/dns;q=0", "application/rdap+json", "garbage/;;"),
    "idempotency-key": fc.oneof(fc.string({ maxLength: 300 }), fc.constant("k".repeat(256))),
    "x-request-id": nasty,
    authorization: fc.constantFrom(bearer("write"), bearer("read"), bearer("revoked"), "Bearer", "Bearer tok_x.y", "Basic abc", ""),
  },
  { requiredKeys: [] },
);

const method = fc.constantFrom("GET", "HEAD", "POST", "PATCH", "DELETE", "PUT", "OPTIONS", "TRACE", "PROPFIND");

/**
 * Thousands of requests go straight to the Worker's fetch handler (the same function the
 * runtime calls): vitest-pool-workers' entrypoint wrapper nests a Proxy per call and
 * overflows the stack after a few thousand, which would be the harness failing, not us.
 */
async function send(m: string, url: string, headers: Record<string, string>, body: string | undefined) {
  const h = new Headers(headers);
  if (!h.has("authorization")) h.set("authorization", bearer("write"));
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`http://api.test${url}`, { method: m, headers: h, body }), env, ctx);
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  const json = /json/.test(response.headers.get("content-type") ?? "") && text ? JSON.parse(text) : undefined;
  return { status: response.status, headers: response.headers, text, body: json };
}

function sanitizeHeaders(h: Record<string, string>): Record<string, string> {
  // Header values cannot hold line breaks or NULs at all: the HTTP layer refuses them
  // before any server sees them.
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (/^[\x20-\x7e\t]*$/.test(v)) out[k] = v;
  return out;
}

describe("hostile input", () => {
  it("never answers 5xx, always answers errors as problem+json, and never writes when it refuses", async () => {
    await fc.assert(
      fc.asyncProperty(method, path, query, headers, body, async (m, p, q, h, b) => {
        const before = m === "GET" || m === "HEAD" ? null : await fingerprint();
        const hasBody = !["GET", "HEAD"].includes(m);
        const response = await send(m, `${p}${q}`, sanitizeHeaders(h), hasBody ? b : undefined);
        expect(response.status, `${m} ${p}${q} → ${response.text.slice(0, 300)}`).toBeLessThan(500);
        if (response.status >= 400 && m !== "HEAD") {
          const type = response.headers.get("content-type");
          if (type?.startsWith("application/rdap+json")) {
            // A client that asked for RDAP gets its errors in RDAP form (RFC 9083 §6).
            expect(h.accept, `${m} ${p}${q}`).toBe("application/rdap+json");
            expect(response.body).toMatchObject({ errorCode: response.status });
          } else {
            expect(type, `${m} ${p}${q}`).toBe("application/problem+json; charset=utf-8");
            expect(response.body).toMatchObject({ status: response.status, code: expect.any(String), request_id: expect.any(String) });
          }
        }
        expect(response.headers.get("x-request-id")).toBeTruthy();
        if (before !== null && response.status >= 400) {
          expect(await fingerprint(), `${m} ${p}${q} was refused (${response.status}) but changed the database`).toBe(before);
        }
      }),
      // A failure prints the seed and path that reproduce it (fc.assert's report).
      { numRuns: 2500 },
    );
  }, 600_000);
});

// The same generated requests from a customer's tokens (docs/accounts.md): the customer's own
// token and one restricted to TXT records at _acme-challenge of one zone. Whatever they
// send, the operator account's objects (the seeds above) neither change nor appear in a
// successful answer.
const customer: { token: string; restricted: string } = { token: "", restricted: "" };

async function mintToken(authorization: string, json: Record<string, unknown>): Promise<string> {
  const response = await api("POST", "/v1/tokens", { headers: { authorization }, json });
  expect(response.status, response.text).toBe(201);
  return `Bearer ${response.body.secret}`;
}

beforeAll(async () => {
  const account = await api("POST", "/v1/accounts", { json: { name: "Hostile Customer" } });
  expect(account.status, account.text).toBe(201);
  customer.token = await mintToken(bearer("write"), { name: "hostile-customer", scope: "write", account: account.body.id });
  const zone = await api("POST", "/v1/zones", { headers: { authorization: customer.token }, json: { name: "customer-seed.example" } });
  expect(zone.status, zone.text).toBe(201);
  customer.restricted = await mintToken(customer.token, {
    name: "hostile-acme",
    scope: "write",
    zones: ["customer-seed.example"],
    records: [{ name: "_acme-challenge", types: ["TXT"] }],
  });
});

/** A fingerprint of the operator account's objects only (what a customer must never change). */
async function operatorFingerprint(): Promise<string> {
  const owned = ["contacts", "domains", "hosts", "zones"].map(
    (t) => `select '${t}', count(*), coalesce(sum(version), 0), coalesce(max(updated_at), '') from ${t} where account_id = '${OPERATOR_ACCOUNT_ID}'`,
  );
  owned.push(
    `select 'records', count(*), coalesce(sum(r.version), 0), coalesce(max(r.updated_at), '') from records r join zones z on z.id = r.zone_id where z.account_id = '${OPERATOR_ACCOUNT_ID}'`,
    `select 'links', (select count(*) from domain_nameservers dn join domains d on d.id = dn.domain_id where d.account_id = '${OPERATOR_ACCOUNT_ID}'), (select count(*) from host_addresses ha join hosts h on h.id = ha.host_id where h.account_id = '${OPERATOR_ACCOUNT_ID}'), 0`,
  );
  const results = await env.DB.batch(owned.map((sql) => env.DB.prepare(sql)));
  return JSON.stringify(results.map((r) => r.results));
}

describe("hostile input from a customer's tokens", () => {
  it("never answers 5xx, never changes another account's objects, and never shows one in a successful answer", async () => {
    const seedIds = () => Object.values(seed);
    await fc.assert(
      fc.asyncProperty(
        method,
        path,
        query,
        headers,
        body,
        fc.constantFrom("token", "restricted") as fc.Arbitrary<keyof typeof customer>,
        async (m, p, q, h, b, who) => {
          const before = m === "GET" || m === "HEAD" ? null : await operatorFingerprint();
          const hasBody = !["GET", "HEAD"].includes(m);
          const request = `${m} ${p}${q} as the customer's ${who} token`;
          const response = await send(m, `${p}${q}`, { ...sanitizeHeaders(h), authorization: customer[who] }, hasBody ? b : undefined);
          expect(response.status, `${request} → ${response.text.slice(0, 300)}`).toBeLessThan(500);
          if (response.status < 300) {
            const asked = `${p}${q}${hasBody ? b : ""}`;
            for (const id of seedIds()) if (!asked.includes(id)) expect(response.text, `${request} showed ${id}`).not.toContain(id);
          }
          if (before !== null) expect(await operatorFingerprint(), `${request} (${response.status}) changed the operator's objects`).toBe(before);
        },
      ),
      { numRuns: 800 },
    );
  }, 600_000);
});
