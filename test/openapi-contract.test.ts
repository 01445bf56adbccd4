// The OpenAPI document is a contract the code must keep: every response the app gives to
// a representative set of requests (every operation, its success and its main errors) is
// checked against the document served at /v1/openapi.json — the status is documented for
// the operation, the media type is documented for that status, and the body is valid
// against the documented schema (OpenAPI 3.1 schemas are JSON Schema 2020-12). Every
// `example` in the document is checked against its schema too.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { Validator, type Schema } from "@cfworker/json-schema";
import { beforeAll, describe, expect, it } from "vitest";
import { signed, updateMessage } from "./dns-update-messages";
import { addDnsToken, api, apiRaw, createContact, type ApiResponse } from "./helpers";
import { bearer } from "./tokens";
import worker from "../src/index";

type Operation = { operationId?: string; summary?: string; description?: string; responses: Record<string, { content?: Record<string, { schema?: Schema }> }> };
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

let doc: Document;
/** Statuses seen per operation, as `operationId status media-type`. */
const seen = new Set<string>();
const problems: string[] = [];

function operationFor(method: string, path: string): { template: string; operation: Operation } | null {
  const pathname = new URL(path, "http://api.test").pathname.replace(/^\/v1/, "") || "/";
  for (const [template, operations] of Object.entries(doc.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`);
    const operation = operations[method.toLowerCase()];
    if (operation && pattern.test(pathname)) return { template, operation };
  }
  return null;
}

const validators = new Map<Schema, Validator>();
function validatorFor(schema: Schema): Validator {
  let validator = validators.get(schema);
  if (!validator) {
    // `$ref`s point at #/components/schemas/…: give the schema the document's components.
    validator = new Validator({ ...schema, components: doc.components } as Schema, "2020-12", false);
    validators.set(schema, validator);
  }
  return validator;
}

/** Checks one response against the document; records what it covers. */
function conforms(method: string, path: string, response: ApiResponse): ApiResponse {
  const where = `${method} ${path} → ${response.status}`;
  const found = operationFor(method, path);
  if (!found) {
    problems.push(`${where}: no operation documented`);
    return response;
  }
  const { operation } = found;
  const documented = operation.responses[String(response.status)] ?? operation.responses.default;
  if (!documented) {
    problems.push(`${where}: status not documented (${Object.keys(operation.responses).join(", ")}): ${response.text.slice(0, 200)}`);
    return response;
  }
  const contentType = response.headers.get("content-type")?.split(";")[0]?.trim();
  if (!contentType) {
    if (response.text !== "") problems.push(`${where}: a body with no Content-Type`);
    else if (documented.content && Object.keys(documented.content).length > 0) problems.push(`${where}: no body, but content is documented`);
  } else {
    const media = documented.content?.[contentType];
    if (!media) {
      problems.push(`${where}: media type ${contentType} not documented (${Object.keys(documented.content ?? {}).join(", ") || "none"})`);
    } else if (/json$/.test(contentType) && media.schema) {
      const result = validatorFor(media.schema).validate(response.body);
      if (!result.valid) {
        const errors = result.errors.filter(
          (e) => e.keyword !== "properties" && e.keyword !== "$ref" && e.keyword !== "items" && e.keyword !== "anyOf" && e.keyword !== "allOf",
        );
        problems.push(`${where} (${contentType}): body does not match the schema: ${JSON.stringify((errors.length ? errors : result.errors).slice(0, 5))}`);
      }
    }
  }
  seen.add(`${operation.operationId} ${response.status} ${contentType ?? "-"}`);
  return response;
}

type Options = Parameters<typeof api>[2];
const call = async (method: string, path: string, options?: Options) => conforms(method, path, await api(method, path, options));

/** A request with these settings beside the runtime's bindings (a connected repository), checked against the document. */
async function callWith(settings: Record<string, string>, method: string, path: string, options: { json?: unknown } = {}) {
  const headers = new Headers({ authorization: bearer("write") });
  if (options.json !== undefined) headers.set("content-type", "application/json");
  const request = new Request(`http://api.test${path}`, { method, headers, body: options.json === undefined ? undefined : JSON.stringify(options.json) });
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, { ...env, ...settings } as never, ctx);
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  return conforms(method, path, {
    status: response.status,
    headers: response.headers,
    body: text && /json/.test(response.headers.get("content-type") ?? "") ? JSON.parse(text) : undefined,
    text,
  });
}
const callRaw = async (method: string, path: string, options?: Parameters<typeof apiRaw>[2]) => conforms(method, path, await apiRaw(method, path, options));
const RDAP = { accept: "application/rdap+json" };

beforeAll(async () => {
  const response = await api("GET", "/v1/openapi.json", { auth: false });
  expect(response.status).toBe(200);
  doc = response.body;
});

describe("the OpenAPI document", () => {
  it("documents every operation with an id, a summary, a description and its problems", () => {
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(operation.operationId, where).toEqual(expect.any(String));
        expect(operation.summary, where).toEqual(expect.any(String));
        expect(operation.description, where).toEqual(expect.any(String));
        const errors = Object.entries(operation.responses).filter(([status]) => /^[45]/.test(status));
        expect(errors.length, where).toBeGreaterThan(0);
        for (const [status, response] of errors) expect(Object.keys(response.content ?? {}), `${where} ${status}`).toContain("application/problem+json");
      }
    }
  });

  it("gives an example for every request body and every response body of every operation", () => {
    const missing: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations) as [string, Operation & { requestBody?: { content: Record<string, object> } }][]) {
        const bodies = [
          ...Object.entries(operation.requestBody?.content ?? {}).map(([type, media]) => [`request ${type}`, media] as const),
          ...Object.entries(operation.responses).flatMap(([status, response]) =>
            Object.entries(response.content ?? {}).map(([type, media]) => [`${status} ${type}`, media] as const),
          ),
        ];
        for (const [what, media] of bodies) if (!("example" in media) && !("examples" in media)) missing.push(`${method.toUpperCase()} ${path} ${what}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("gives each problem response one example per problem code of its status", () => {
    const response = doc.paths["/contacts"]!.post!.responses["422"]!.content!["application/problem+json"] as {
      examples: Record<string, { value: { code: string; status: number } }>;
    };
    expect(Object.keys(response.examples).sort()).toEqual([
      "invalid_auth_info",
      "policy_violation",
      "price_mismatch",
      "quota_exceeded",
      "read_only_field",
      "unknown_field",
      "validation_failed",
    ]);
    expect(response.examples.validation_failed!.value).toMatchObject({
      code: "validation_failed",
      status: 422,
      type: "/v1/problems/validation_failed",
      errors: expect.any(Array),
    });
  });

  it("has only examples that are valid against their own schemas", () => {
    const bad: string[] = [];
    const visit = (node: unknown, at: string) => {
      if (!node || typeof node !== "object") return;
      const schema = node as Record<string, unknown>;
      if ("example" in schema && ("type" in schema || "$ref" in schema || "properties" in schema)) {
        const { example, ...rest } = schema;
        const result = validatorFor(rest as Schema).validate(example);
        if (!result.valid) bad.push(`${at}: ${JSON.stringify(example)} ${JSON.stringify(result.errors.slice(-1))}`);
      }
      // A media type object: its `example`, or each of its named `examples`, against its schema.
      if ("schema" in schema && ("example" in schema || "examples" in schema)) {
        const named = Object.entries((schema.examples ?? {}) as Record<string, { value: unknown }>).map(([name, { value }]) => [name, value] as const);
        for (const [name, value] of "example" in schema ? [["example", schema.example] as const, ...named] : named) {
          const result = validatorFor(schema.schema as Schema).validate(value);
          if (!result.valid) bad.push(`${at} (${name}): ${JSON.stringify(value).slice(0, 200)} ${JSON.stringify(result.errors.slice(-1))}`);
        }
      }
      for (const [key, value] of Object.entries(schema)) if (key !== "example" && key !== "examples") visit(value, `${at}/${key}`);
    };
    visit(doc.components.schemas, "#/components/schemas");
    visit(doc.paths, "#/paths");
    expect(bad).toEqual([]);
  });
});

describe("responses conform to the OpenAPI document", () => {
  it("service documents", async () => {
    await call("GET", "/v1", { auth: false });
    await call("GET", "/v1?unknown=1", { auth: false });
    await call("GET", "/v1/problems", { auth: false });
    await call("GET", "/v1/problems/validation_failed", { auth: false });
    await call("GET", "/v1/problems/no_such_problem", { auth: false });
  });

  it("authentication and scope", async () => {
    await call("GET", "/v1/contacts", { auth: false });
    await call("GET", "/v1/contacts", { headers: { authorization: "Bearer tok_nope" } });
    await call("POST", "/v1/contacts", { headers: { authorization: bearer("read") }, json: { name: "Read Only", email: "ro@example.org" } });
  });

  it("catalog", async () => {
    await call("GET", "/v1/extensions?limit=2");
    await call("GET", "/v1/extensions?type=country-code&idn=false");
    await call("GET", "/v1/extensions?type=nope");
    await call("GET", "/v1/extensions?cursor=forged.cursor");
    const com = await call("GET", "/v1/extensions/com");
    expect(com.status).toBe(200);
    await call("GET", "/v1/extensions/com", { headers: { "if-none-match": com.headers.get("etag")! } });
    await call("GET", "/v1/extensions/no-such-extension");
    const repositories = await call("GET", "/v1/repositories");
    expect(repositories.status).toBe(200);
    const repository = repositories.body.data[0].id as string;
    const one = await call("GET", `/v1/repositories/${repository}`);
    await call("GET", `/v1/repositories/${repository}`, { headers: { "if-none-match": one.headers.get("etag")! } });
    await call("GET", "/v1/repositories/no-such-repository");
    await call("GET", "/v1/repositories?limit=0");
  });

  it("contacts", async () => {
    const created = await call("POST", "/v1/contacts", {
      json: {
        name: "Contract Ada",
        email: "contract@example.org",
        phone: "+44.2071234567",
        address: { street: ["1 Row"], city: "London", country_code: "GB" },
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await call("POST", "/v1/contacts", { json: { name: "", email: "not-an-email" } });
    await call("POST", "/v1/contacts", { json: { name: "X", email: "x@example.org", id: "con_X" } });
    await call("POST", "/v1/contacts", { json: { name: "X", email: "x@example.org", surprise: true } });
    await call("POST", "/v1/contacts", { body: "{not json", headers: { "content-type": "application/json" } });
    await call("POST", "/v1/contacts", { body: "name=x", headers: { "content-type": "application/x-www-form-urlencoded" } });
    await call("POST", "/v1/contacts", {
      body: JSON.stringify({ name: "x".repeat(1_100_000), email: "big@example.org" }),
      headers: { "content-type": "application/json" },
    });
    await call("GET", "/v1/contacts?limit=1");
    await call("GET", "/v1/contacts?q=contract&email=contract@example.org");
    await call("GET", "/v1/contacts?limit=1000");
    const read = await call("GET", `/v1/contacts/${id}`);
    await call("GET", `/v1/contacts/${id}`, { headers: { "if-none-match": read.headers.get("etag")! } });
    await call("GET", `/v1/contacts/${id}`, { headers: RDAP });
    await call("GET", "/v1/contacts/con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B");
    await call("GET", "/v1/contacts/con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B", { headers: RDAP });
    await call("PATCH", `/v1/contacts/${id}`, { json: { organization: "Contract Ltd", fax: null } });
    await call("PATCH", `/v1/contacts/${id}`, { json: { privacy: true }, headers: { "content-type": "application/merge-patch+json" } });
    await call("GET", `/v1/contacts/${id}`, { headers: RDAP });
    await call("PATCH", `/v1/contacts/${id}`, { json: { name: "Stale" }, headers: { "if-match": '"stale"' } });
    await call("PATCH", `/v1/contacts/${id}`, { json: { email: "nope" } });
    await call("PATCH", "/v1/contacts/con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B", { json: { name: "Nobody" } });
    await call("DELETE", `/v1/contacts/${id}`, { headers: { "if-match": '"stale"' } });
    await call("DELETE", `/v1/contacts/${id}`);
    await call("DELETE", `/v1/contacts/${id}`);
  });

  it("domains and hosts", async () => {
    const registrant = await createContact({ email: "registrant@contract.example" });
    const domain = await call("POST", "/v1/domains", {
      json: {
        name: "contract-example.com",
        registrant: registrant.id,
        contacts: { admin: registrant.id, tech: registrant.id },
        nameservers: ["ns1.example.net", "ns2.example.net"],
      },
    });
    expect(domain.status, domain.text).toBe(201);
    await call("POST", "/v1/domains", { json: { name: "contract-example.com" } });
    await call("POST", "/v1/domains", { json: { name: "-bad-.com", period: 99 } });
    await call("POST", "/v1/domains", { json: { name: "contract.nosuchtld" } });
    await call("GET", "/v1/domains?limit=1");
    await call("GET", "/v1/domains?extension=com&registrant=" + registrant.id);
    await call("GET", "/v1/domains?sort=nope");
    const read = await call("GET", "/v1/domains/contract-example.com");
    await call("GET", `/v1/domains/${domain.body.id}`, { headers: { "if-none-match": read.headers.get("etag")! } });
    await call("GET", "/v1/domains/contract-example.com", { headers: RDAP });
    await call("GET", "/v1/domains/nothing-here.com");
    await call("GET", "/v1/domains/nothing-here.com", { headers: RDAP });
    await call("GET", "/v1/repositories/verisign/domains");
    await call("GET", "/v1/repositories/verisign/contacts");
    await call("GET", "/v1/repositories/verisign/hosts");
    await call("GET", "/v1/repositories/no-such-repository/domains");
    await call("PATCH", "/v1/domains/contract-example.com", { json: { auto_renew: false, status: ["clientUpdateProhibited"] } });
    await call("PATCH", "/v1/domains/contract-example.com", { json: { auto_renew: true } });
    await call("PATCH", "/v1/domains/contract-example.com", { json: { status: [] } });
    await call("PATCH", "/v1/domains/contract-example.com", { json: { nameservers: ["not a name"] } });
    await call("PATCH", "/v1/domains/contract-example.com", { json: { auto_renew: true }, headers: { "if-match": '"stale"' } });
    await call("PATCH", "/v1/domains/nothing-here.com", { json: { auto_renew: true } });
    await call("DELETE", `/v1/contacts/${registrant.id}`);

    const host = await call("POST", "/v1/hosts", { json: { name: "ns3.contract-example.com", addresses: ["192.0.2.53", "2001:db8::53"] } });
    expect(host.status, host.text).toBe(201);
    await call("POST", "/v1/hosts", { json: { name: "ns3.contract-example.com", addresses: ["192.0.2.99"] } });
    await call("POST", "/v1/hosts", { json: { name: "ns.contract-example.com", addresses: ["999.1.1.1"] } });
    await call("GET", "/v1/hosts?limit=1");
    await call("GET", "/v1/hosts?domain=contract-example.com");
    const readHost = await call("GET", `/v1/hosts/${host.body.id}`);
    await call("GET", `/v1/hosts/${host.body.id}`, { headers: { "if-none-match": readHost.headers.get("etag")! } });
    await call("GET", "/v1/hosts/ns3.contract-example.com", { headers: RDAP });
    await call("GET", "/v1/hosts/ns9.nothing-here.com");
    await call("GET", "/v1/hosts/ns9.nothing-here.com", { headers: RDAP });
    await call("PATCH", `/v1/hosts/${host.body.id}`, { json: { addresses: ["192.0.2.54"] } });
    await call("PATCH", `/v1/hosts/${host.body.id}`, { json: { name: "ns4.contract-example.com" } });
    await call("PATCH", `/v1/hosts/${host.body.id}`, { json: { addresses: ["nope"] } });
    await call("PATCH", `/v1/hosts/${host.body.id}`, { json: { addresses: [] }, headers: { "if-match": '"stale"' } });
    await call("PATCH", "/v1/hosts/ns9.nothing-here.com", { json: { addresses: [] } });
    await call("DELETE", "/v1/hosts/ns1.example.net");
    await call("DELETE", `/v1/hosts/${host.body.id}`, { headers: { "if-match": '"stale"' } });
    await call("DELETE", `/v1/hosts/${host.body.id}`);
    await call("DELETE", "/v1/hosts/ns9.nothing-here.com");

    // docs/lifecycle.md#availability-and-prices: availability and prices; a premium registration without and with its price.
    await call("GET", "/v1/domains/check?name=contract-example.com&name=contract-free.com&name=vacation.com&name=nic.com&name=bad_name.com&name=x.invalid");
    await call("GET", "/v1/domains/check");
    await call("POST", "/v1/domains", { json: { name: "chat.app" } });
    await call("POST", "/v1/domains", { json: { name: "chat.app", price: "3000.00" } });
    await call("POST", "/v1/domains", { json: { name: "nic.app" } });

    // docs/lifecycle.md: renew, delete into redemption and restore, a transfer's request, read and actions.
    const renewing = await call("GET", "/v1/domains/contract-example.com");
    await call("POST", "/v1/domains/contract-example.com/renew", { json: { period: 1, current_expires_at: renewing.body.expires_at } });
    await call("POST", "/v1/domains/contract-example.com/renew", { json: { period: 1, current_expires_at: renewing.body.expires_at } });
    const redeemed = await call("POST", "/v1/domains", { json: { name: "contract-redeem.de", nameservers: ["ns1.example.net", "ns2.example.net"] } });
    await call("DELETE", "/v1/domains/contract-redeem.de");
    await call("POST", "/v1/domains/contract-redeem.de/restore");
    await call("POST", "/v1/domains/contract-redeem.de/restore");
    const gaining = await call("POST", "/v1/accounts", { json: { name: "contract-gaining" } });
    const gainingToken = await call("POST", "/v1/tokens", { json: { name: "contract-gaining", scope: "write", account: gaining.body.id } });
    const asGaining = { authorization: `Bearer ${gainingToken.body.secret}` };
    await call("POST", "/v1/domains/contract-redeem.de/transfer", { json: { auth_info: "wrong-secret" }, headers: asGaining });
    for (const action of ["reject", "cancel", "approve"]) {
      await call("POST", "/v1/domains/contract-redeem.de/transfer", { json: { auth_info: redeemed.body.auth_info }, headers: asGaining });
      await call("GET", "/v1/domains/contract-redeem.de/transfer", { headers: asGaining });
      await call("POST", `/v1/domains/contract-redeem.de/transfer/${action}`, action === "cancel" ? { headers: asGaining } : {});
      await call("POST", `/v1/domains/contract-redeem.de/transfer/${action}`, action === "cancel" ? { headers: asGaining } : {});
    }

    await call("PATCH", "/v1/domains/contract-example.com", { json: { status: ["clientDeleteProhibited"] } });
    await call("DELETE", "/v1/domains/contract-example.com");
    await call("PATCH", "/v1/domains/contract-example.com", { json: { status: [] } });
    await call("DELETE", "/v1/domains/contract-example.com", { headers: { "if-match": '"stale"' } });
    await call("DELETE", "/v1/domains/contract-example.com");
    await call("DELETE", "/v1/domains/contract-example.com");
  });

  it("zones and records", async () => {
    const zone = await call("POST", "/v1/zones", { json: { name: "contract-zone.test", default_ttl: 3600 } });
    expect(zone.status, zone.text).toBe(201);
    await call("POST", "/v1/zones", { json: { name: "contract-zone.test" } });
    await call("POST", "/v1/zones", { json: { name: "bad..name" } });
    const master =
      "$ORIGIN imported-zone.test.\n$TTL 300\n@ SOA ns1.example.org. hostmaster.example.org. 1 7200 3600 1209600 300\n@ NS ns1.example.org.\n@ NS ns2.example.org.\nwww A 192.0.2.1\n";
    await call("POST", "/v1/zones", { body: master, headers: { "content-type": "text/dns" } });
    await call("POST", "/v1/zones?name=other.test", { body: "this is not a zone\n", headers: { "content-type": "text/dns" } });
    await call("GET", "/v1/zones?limit=1");
    await call("GET", "/v1/zones?q=contract");
    const read = await call("GET", "/v1/zones/contract-zone.test");
    await call("GET", "/v1/zones/contract-zone.test", { headers: { "if-none-match": read.headers.get("etag")! } });
    await call("GET", "/v1/zones/imported-zone.test", { headers: { accept: "text/dns" } });
    await call("GET", "/v1/zones/no-such-zone.test");
    await call("PATCH", "/v1/zones/contract-zone.test", { json: { default_ttl: 600, soa: { refresh: 7200 } } });
    await call("PATCH", "/v1/zones/contract-zone.test", { json: { default_ttl: -1 } });
    await call("PATCH", "/v1/zones/contract-zone.test", { json: { default_ttl: 600 }, headers: { "if-match": '"stale"' } });
    await call("PATCH", "/v1/zones/no-such-zone.test", { json: { default_ttl: 600 } });

    const record = await call("POST", "/v1/records", {
      json: { zone: "contract-zone.test", name: "www", type: "A", content: "192.0.2.10", ttl: 300, comment: "web" },
    });
    expect(record.status, record.text).toBe(201);
    await call("POST", "/v1/records", { json: { zone: "contract-zone.test", name: "www", type: "A", content: "192.0.2.10" } });
    await call("POST", "/v1/records", { json: { zone: "contract-zone.test", name: "www", type: "CNAME", content: "example.org" } });
    await call("POST", "/v1/records", { json: { zone: "contract-zone.test", name: "www", type: "A", content: "not-an-ip" } });
    await call("POST", "/v1/records", { json: { zone: "no-such-zone.test", name: "www", type: "A", content: "192.0.2.10" } });
    await call("GET", "/v1/records?limit=1");
    await call("GET", "/v1/records?zone=contract-zone.test&type=A&name=www");
    await call("GET", "/v1/records?type=NOPE");
    await call("GET", "/v1/zones/contract-zone.test/records");
    await call("GET", "/v1/zones/no-such-zone.test/records");
    const readRecord = await call("GET", `/v1/records/${record.body.id}`);
    await call("GET", `/v1/records/${record.body.id}`, { headers: { "if-none-match": readRecord.headers.get("etag")! } });
    await call("GET", "/v1/records/rec_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B");
    await call("PATCH", `/v1/records/${record.body.id}`, { json: { content: "192.0.2.11", comment: null } });
    await call("PATCH", `/v1/records/${record.body.id}`, { json: { content: "nope" } });
    await call("PATCH", `/v1/records/${record.body.id}`, { json: { ttl: 60 }, headers: { "if-match": '"stale"' } });
    await call("PATCH", "/v1/records/rec_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B", { json: { ttl: 60 } });
    const changed = await call("POST", "/v1/zones/contract-zone.test/changes", {
      json: {
        changes: [
          { action: "add", name: "_acme-challenge", type: "TXT", ttl: 60, contents: ['"token-1"'] },
          { action: "replace", name: "api", type: "A", contents: ["192.0.2.1", "192.0.2.2"] },
          { action: "delete", name: "legacy", type: "MX" },
        ],
      },
    });
    expect(changed.status, changed.text).toBe(200);
    await call("POST", "/v1/zones/contract-zone.test/changes", { json: { changes: [{ action: "add", name: "x", type: "A", contents: ["nope"] }] } });
    await call("POST", "/v1/zones/contract-zone.test/changes", {
      json: { changes: [{ action: "add", name: "_acme-challenge", type: "CNAME", contents: ["a.example."] }] },
    });
    await call("POST", "/v1/zones/contract-zone.test/changes", {
      json: { changes: [{ action: "delete", name: "x", type: "A" }] },
      headers: { "if-match": '"stale"' },
    });
    await call("POST", "/v1/zones/no-such-zone.test/changes", { json: { changes: [{ action: "delete", name: "x", type: "A" }] } });
    const apexNs = await call("GET", "/v1/records?zone=contract-zone.test&type=NS");
    for (const ns of apexNs.body.data) await call("DELETE", `/v1/records/${ns.id}`);
    await call("DELETE", `/v1/records/${record.body.id}`, { headers: { "if-match": '"stale"' } });
    await call("DELETE", `/v1/records/${record.body.id}`);
    await call("DELETE", `/v1/records/${record.body.id}`);

    await call("DELETE", "/v1/zones/contract-zone.test", { headers: { "if-match": '"stale"' } });
    await call("DELETE", "/v1/zones/contract-zone.test");
    await call("DELETE", "/v1/zones/contract-zone.test");
  });

  it("events", async () => {
    const page = await call("GET", "/v1/events?limit=5");
    await call("GET", "/v1/events?operation=create&type=contact");
    await call("GET", "/v1/events?since=yesterday");
    const event = await call("GET", `/v1/events/${page.body.data[0].id}`);
    await call("GET", `/v1/events/${page.body.data[0].id}`, { headers: { "if-none-match": event.headers.get("etag")! } });
    await call("GET", "/v1/events/evt_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B");
  });

  it("accounts and tokens", async () => {
    const account = await call("POST", "/v1/accounts", { json: { name: "Contract Reseller" } });
    expect(account.status, account.text).toBe(201);
    const id = account.body.id as string;
    await call("POST", "/v1/accounts", { json: { name: "Contract Reseller" } });
    await call("POST", "/v1/accounts", { json: { name: " ", role: "boss" } });
    await call("GET", "/v1/accounts?limit=1");
    await call("GET", "/v1/accounts?role=nope");
    const read = await call("GET", `/v1/accounts/${id}`);
    await call("GET", `/v1/accounts/${id}`, { headers: { "if-none-match": read.headers.get("etag")! } });
    await call("GET", "/v1/accounts/acc_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B");
    await call("PATCH", `/v1/accounts/${id}`, { json: { name: "Contract Reseller Ltd" } });
    await call("PATCH", `/v1/accounts/${id}`, { json: { role: "operator" } });
    await call("PATCH", `/v1/accounts/${id}`, { json: { status: "active" }, headers: { "if-match": '"stale"' } });
    await call("PATCH", "/v1/accounts/acc_00000000000000000000000000", { json: { status: "suspended" } });

    const token = await call("POST", "/v1/tokens", { json: { name: "contract-customer", scope: "write", account: id } });
    expect(token.status, token.text).toBe(201);
    const as = { authorization: `Bearer ${token.body.secret}` };
    await call("GET", "/v1/me");
    await call("GET", "/v1/me", { headers: as });
    await call("GET", "/v1/accounts", { headers: as });
    const acme = await call("POST", "/v1/tokens", {
      json: { name: "contract-acme", scope: "write", zones: ["example.com"], records: [{ name: "_acme-challenge", types: ["TXT"] }] },
      headers: as,
    });
    expect(acme.status, acme.text).toBe(201);
    await call("POST", "/v1/tokens", { json: { name: "contract-dns", scope: "dns" }, headers: as });
    await call("POST", "/v1/tokens", { json: { name: "contract-acme", scope: "read" }, headers: as });
    await call("POST", "/v1/tokens", { json: { name: "contract-other", scope: "read", account: id }, headers: as });
    await call("POST", "/v1/tokens", { json: { name: "contract bad", scope: "root", allowed_ips: ["nope"] } });
    await call("GET", "/v1/tokens?limit=1");
    await call("GET", "/v1/tokens?revoked=maybe");
    const readToken = await call("GET", `/v1/tokens/${acme.body.id}`, { headers: as });
    await call("GET", `/v1/tokens/${acme.body.id}`, { headers: { ...as, "if-none-match": readToken.headers.get("etag")! } });
    await call("GET", "/v1/tokens/tok_01JD3Q6Y4T8N0V4W5X6Y7Z8ZZZ");
    await call("DELETE", `/v1/tokens/${token.body.id}`, { headers: { "if-match": '"stale"' } });
    await call("DELETE", `/v1/tokens/${token.body.id}`);
    await call("DELETE", "/v1/accounts/acc_00000000000000000000000000");
    await call("DELETE", `/v1/accounts/${id}`);
    await call("DELETE", `/v1/accounts/${id}`);
  });

  it("DNS backend (PowerDNS remote backend, a dns token in the path)", async () => {
    const base = await addDnsToken("tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9G", "contract-dns", "contract-dns-secret-0123456789abcdef");
    expect((await call("POST", "/v1/zones", { json: { name: "contract-dns.test" } })).status).toBe(201);
    await call("POST", "/v1/records", { json: { zone: "contract-dns.test", name: "www", type: "A", content: "192.0.2.10" } });
    const zone = "contract-dns%2etest%2e";
    expect((await call("GET", `${base}/lookup/www%2e${zone}/ANY`, { auth: false })).body.result).toHaveLength(1);
    await call("GET", `${base}/lookup/nothing%2e${zone}/A`, { auth: false });
    await call("GET", `${base}/lookup/a%2e%2e${zone}/A`, { auth: false });
    await call("GET", `/v1/pdns/tok_nope/lookup/www%2e${zone}/A`, { auth: false });
    await call("GET", `${base}/list/1/${zone}`, { auth: false });
    const info = await call("GET", `${base}/getDomainInfo/${zone}`, { auth: false });
    await call("GET", `${base}/getBeforeAndAfterNamesAbsolute/${info.body.result.id}/www%2e`, { auth: false });
    await call("GET", `${base}/getBeforeAndAfterNamesAbsolute/x/www%2e`, { auth: false });
    await call("GET", `${base}/getAllDomains?includeDisabled=false`, { auth: false });
    await call("GET", `${base}/getAllDomains?surprise=1`, { auth: false });
    await call("GET", `${base}/getAllDomainMetadata/${zone}`, { auth: false });
    await call("GET", `${base}/getDomainMetadata/${zone}/SOA-EDIT`, { auth: false });
    // An unsigned zone has no keys (the DNSSEC test below signs one).
    await call("GET", `${base}/getDomainKeys/${zone}`, { auth: false });
    // The primary's NOTIFY bookkeeping (docs/serving.md, "The tier").
    const due = await call("GET", `${base}/getUpdatedMasters`, { auth: false });
    expect(due.body.result.length).toBeGreaterThan(0);
    const notifiedForm = { "content-type": "application/x-www-form-urlencoded; charset=utf-8" };
    await call("PATCH", `${base}/setNotified/${info.body.result.id}`, { auth: false, headers: notifiedForm, body: `serial=${info.body.result.serial}.000000` });
    await call("PATCH", `${base}/setNotified/${info.body.result.id}`, { auth: false, headers: notifiedForm, body: "serial=soon" });
    // TSIG keys, and a DNS UPDATE through the update gateway's route (docs/dns-update.md).
    const key = await call("POST", "/v1/tsig-keys", { json: { name: "contract.contract-dns.test", allow: ["update"], zones: ["contract-dns.test"] } });
    await call("POST", "/v1/tsig-keys", { json: { name: "bad..name", allow: [], zones: [] } });
    await call("GET", "/v1/tsig-keys?limit=1");
    const read = await call("GET", `/v1/tsig-keys/${key.body.id}`);
    await call("GET", `/v1/tsig-keys/${key.body.id}`, { headers: { "if-none-match": read.headers.get("etag")! } });
    await call("PATCH", `/v1/tsig-keys/${key.body.id}`, { json: { records: [{ name: "www", types: ["A"] }] } });
    await call("GET", `${base}/getTSIGKey/contract%2econtract-dns%2etest%2e`, { auth: false });
    await call("GET", `${base}/getTSIGKey/nothing%2e`, { auth: false });
    // A DNS UPDATE as the update gateway forwards it (docs/dns-update.md): answered as a DNS message, or 422.
    const message = await signed(updateMessage("contract-dns.test", [{ add: "u.contract-dns.test", type: "A", content: "192.0.2.13" }]), {
      name: key.body.name.replace(/\.$/, ""),
      algorithm: key.body.algorithm,
      secret: key.body.secret,
    });
    const updateHeaders = { "content-type": "application/dns-message", "dns-client": "127.0.0.1#53001" };
    expect((await callRaw("POST", `${base}/update`, { auth: false, body: message, headers: updateHeaders })).status).toBe(200);
    await callRaw("POST", `${base}/update`, { auth: false, body: Uint8Array.of(1, 2, 3), headers: updateHeaders });
    await callRaw("POST", `${base}/update`, { auth: false, body: message, headers: { ...updateHeaders, "dns-client": "nowhere" } });
    await call("DELETE", `/v1/tsig-keys/${key.body.id}`);
  });

  it("DNSSEC", async () => {
    expect((await call("POST", "/v1/zones", { json: { name: "contract-dnssec.test" } })).status).toBe(201);
    await call("GET", "/v1/zones/contract-dnssec.test/dnssec");
    expect((await call("POST", "/v1/zones/contract-dnssec.test/dnssec")).status).toBe(201);
    await call("POST", "/v1/zones/contract-dnssec.test/dnssec");
    await call("GET", "/v1/zones/contract-dnssec.test/dnssec");
    await call("GET", "/v1/zones/nope-dnssec.test/dnssec");
    expect((await call("PATCH", "/v1/zones/contract-dnssec.test/dnssec", { json: { policy: { ksk_lifetime_days: 365 } } })).status).toBe(200);
    await call("PATCH", "/v1/zones/contract-dnssec.test/dnssec", { json: { policy: { algorithm: 7 } } });
    expect((await call("POST", "/v1/zones/contract-dnssec.test/dnssec/rollover", { json: { kind: "csk" } })).status).toBe(200);
    await call("POST", "/v1/zones/contract-dnssec.test/dnssec/rollover", { json: { kind: "csk" } });
    expect((await call("POST", "/v1/zones/contract-dnssec.test/dnssec/ds-seen", { json: {} })).status).toBe(200);
    await call("POST", "/v1/zones/contract-dnssec.test/dnssec/ds-seen", { json: { ds: ["not a ds"] } });
    expect((await call("POST", "/v1/dnssec/run")).status).toBe(200);
    await call("DELETE", "/v1/zones/contract-dnssec.test/dnssec?force=maybe");
    await call("DELETE", "/v1/zones/contract-dnssec.test/dnssec");
  });

  it("a body with no Content-Type", async () => {
    await callRaw("POST", "/v1/contacts", { body: new TextEncoder().encode('{"name":"x","email":"x@example.org"}') });
  });

  it("the lifecycle sweep: its report, as_of refused away from npm start, a customer refused", async () => {
    await call("POST", "/v1/lifecycle/sweep");
    await call("POST", "/v1/lifecycle/sweep", { json: { as_of: "2030-01-01T00:00:00Z" } });
    await call("POST", "/v1/lifecycle/sweep", { json: { as_of: "soon" } });
    const customer = await call("POST", "/v1/accounts", { json: { name: "contract-sweep-customer" } });
    const token = await call("POST", "/v1/tokens", { json: { name: "contract-sweep", scope: "write", account: customer.body.id } });
    await call("POST", "/v1/lifecycle/sweep", { headers: { authorization: `Bearer ${token.body.secret}` } });
  });

  it("the registry jobs: a poll message kept, a bad one, a reconciliation run against a gateway out of reach, a builtin repository and an unknown one", async () => {
    const settings = {
      REGISTRY_CONNECTORS: JSON.stringify({ pir: { client_id: "domain-api" } }),
      REGISTRY_GATEWAY_URL: "http://127.0.0.1:9",
      REGISTRY_GATEWAY_SECRET: "a-gateway-secret-of-32-characters-or-more",
    };
    const message = {
      repository: "pir",
      client_id: "domain-api",
      message: { code: 1301, msgQ: { count: 1, id: "contract-1", msg: "Hello." }, resData: [], extensions: [] },
    };
    expect((await callWith(settings, "POST", "/v1/registry-messages", { json: message })).status).toBe(200);
    expect((await callWith(settings, "POST", "/v1/registry-messages", { json: { repository: "pir" } })).status).toBe(422);
    expect((await callWith(settings, "POST", "/v1/repositories/pir/reconcile/run", { json: { limit: 5 } })).status).toBe(200);
    expect((await callWith(settings, "POST", "/v1/repositories/verisign/reconcile/run")).status).toBe(422);
    expect((await callWith(settings, "POST", "/v1/repositories/nosuchregistry/reconcile/run")).status).toBe(404);
  });

  it("the events archive: a run, its objects, one object (gzip), 304 and 404, 410 for a cursor before it", async () => {
    const before = await call("GET", "/v1/events?limit=1");
    // An account's event from long ago, then a newer one (the newest is never archived).
    await env.DB.prepare(
      "insert into events (seq, id, account_id, at, actor, resource_type, resource_id, operation) select max(seq) + 1, 'evt_01E0000000C0NTRACTARCH1V', 'acc_01E0000000C0NTRACTACC0NT', '2020-01-01T00:00:00.000Z', 'local', 'zone', 'zon_x', 'update' from events",
    ).run();
    await createContact({ email: "contract-archive@example.org" });
    const run = await call("POST", "/v1/events/archive/run");
    expect(run.body).toMatchObject({ archived: 1, objects: 1 });
    await call("POST", "/v1/events/archive/run", { json: { as_of: "2030-01-01T00:00:00Z" } });
    const list = await call("GET", "/v1/events/archive?limit=1");
    await call("GET", "/v1/events/archive?cursor=forged.cursor");
    const object = await call("GET", `/v1/events/archive/${list.body.data[0].id}`);
    expect(object.status).toBe(200);
    await call("GET", `/v1/events/archive/${list.body.data[0].id}`, { headers: { "if-none-match": object.headers.get("etag")! } });
    await call("GET", "/v1/events/archive/arc_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B");
    expect((await call("GET", `/v1/events?cursor=${encodeURIComponent(before.body.resume_cursor)}`)).status).toBe(410);
  });

  it("webhooks: the collection, its deliveries, replay, ping, rotation and the operator's run", async () => {
    const webhook = await call("POST", "/v1/webhooks", { json: { url: "https://93.184.215.14/contract", event_types: ["zone.*"] } });
    expect(webhook.status, webhook.text).toBe(201);
    const id = webhook.body.id as string;
    // Pings and runs are refused at delivery time (a private address): no request leaves the test.
    await env.DB.prepare("update webhooks set url = 'https://10.0.0.1/contract' where id = ?").bind(id).run();
    await call("POST", "/v1/webhooks", { json: { url: "http://10.0.0.1/" } });
    await call("POST", "/v1/webhooks", { json: { url: "https://93.184.215.14/", secret: "x" } });
    await call("GET", "/v1/webhooks?limit=1");
    await call("GET", "/v1/webhooks?enabled=maybe");
    const read = await call("GET", `/v1/webhooks/${id}`);
    await call("GET", `/v1/webhooks/${id}`, { headers: { "if-none-match": read.headers.get("etag")! } });
    await call("GET", "/v1/webhooks/whk_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B");
    await call("PATCH", `/v1/webhooks/${id}`, { json: { description: "contract" } });
    await call("PATCH", `/v1/webhooks/${id}`, { json: { event_types: ["nope"] } });
    await call("PATCH", `/v1/webhooks/${id}`, { json: { enabled: false }, headers: { "if-match": '"stale"' } });
    await call("POST", `/v1/webhooks/${id}/rotate-secret`);
    await call("POST", `/v1/webhooks/${id}/ping`);
    await call("POST", `/v1/webhooks/${id}/replay`, { json: { since: "2020-01-01T00:00:00Z" } });
    await call("POST", `/v1/webhooks/${id}/replay`, { json: { since: "later" } });
    await call("POST", "/v1/webhooks/dispatch");
    await call("POST", "/v1/webhooks/dispatch", { json: { as_of: "2030-01-01T00:00:00Z" } });
    await call("GET", `/v1/webhooks/${id}/deliveries?limit=2`);
    await call("DELETE", `/v1/webhooks/${id}`, { headers: { "if-match": '"stale"' } });
    await call("DELETE", `/v1/webhooks/${id}`);
    await call("DELETE", `/v1/webhooks/${id}`);
  });

  it("every response so far matched the document, and every operation was exercised", () => {
    expect(problems).toEqual([]);
    const exercised = new Set([...seen].filter((s) => / 2\d\d /.test(s)).map((s) => s.split(" ")[0]));
    const operations = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
    expect(operations.filter((id) => !exercised.has(id))).toEqual([]);
  });
});
