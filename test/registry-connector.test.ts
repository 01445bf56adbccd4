// Connected repositories (docs/registries.md): what the API answers when a repository has a
// connector but its registry gateway cannot be reached — no network reaches workerd here,
// so the gateway is a closed loopback port. The registry's own answers are exercised end
// to end by scripts/registry-e2e.mjs against the local registry; the mapping of our objects
// to EPP and of EPP answers to ours by test/unit/connector.test.ts.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { type ApiResponse, api, createContact, customerAccount, expectProblem } from "./helpers";
import { bearer } from "./tokens";

/** pir (.org) connected to a gateway on a loopback port nothing listens on. */
const PIR_TO_A_CLOSED_GATEWAY = {
  REGISTRY_CONNECTORS: JSON.stringify({ pir: { host: "epp.example", client_id: "domain-api", password: "local-pw-1" } }),
  REGISTRY_GATEWAY_URL: "http://127.0.0.1:9",
  REGISTRY_GATEWAY_SECRET: "a-gateway-secret-of-32-characters-or-more",
};

/** What a gateway out of reach is, as the Worker finds it (workerd's outbound answers 500 for a refused connection here). */
const UNREACHABLE = expect.stringMatching(/^the registry gateway (could not be reached|answered HTTP 5\d\d)/);

/** A request to the Worker with these settings beside the runtime's bindings. */
async function apiWith(
  settings: Record<string, string>,
  method: string,
  path: string,
  options: { json?: unknown; authorization?: string } = {},
): Promise<ApiResponse> {
  const headers = new Headers({ authorization: options.authorization ?? bearer("write") });
  if (options.json !== undefined) headers.set("content-type", "application/json");
  const request = new Request(`http://api.test${path}`, { method, headers, body: options.json === undefined ? undefined : JSON.stringify(options.json) });
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, { ...env, ...settings } as never, ctx);
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text && /json/.test(response.headers.get("content-type") ?? "") ? JSON.parse(text) : undefined,
    text,
  };
}
const connected = (method: string, path: string, options: { json?: unknown; authorization?: string } = {}) =>
  apiWith(PIR_TO_A_CLOSED_GATEWAY, method, path, options);

describe("a repository without a connector is builtin", () => {
  it("GET /v1/repositories/{id} shows connector builtin, up since the repository exists", async () => {
    const response = await api("GET", "/v1/repositories/verisign");
    expect(response.status, response.text).toBe(200);
    expect(response.body.connector).toEqual({ kind: "builtin", state: "up", since: response.body.created_at, last_error: null });
  });

  it("its names are checked and registered here, as before", async () => {
    const check = await api("GET", "/v1/domains/check?name=builtin-free.org");
    expect(check.status, check.text).toBe(200);
    expect(check.body.data[0]).toMatchObject({ name: "builtin-free.org", available: true, reason: null, premium: false });
  });
});

describe("a connected repository whose gateway cannot be reached", () => {
  it("GET /v1/repositories/{id} shows connector epp down with the error, never a 500", async () => {
    const response = await connected("GET", "/v1/repositories/pir");
    expect(response.status, response.text).toBe(200);
    expect(response.body.connector).toMatchObject({ kind: "epp", state: "down", since: null, last_error: UNREACHABLE });
  });

  it("operators also see the greeting's objects and extensions and the sessions (none while down); customers do not", async () => {
    const operator = await connected("GET", "/v1/repositories/pir");
    expect(operator.body.connector).toEqual({
      kind: "epp",
      state: "down",
      since: null,
      last_error: UNREACHABLE,
      objects: [],
      extensions: [],
      sessions: { open: 0, configured: 0 },
    });
    const customer = await customerAccount("connector-viewer");
    const seen = await connected("GET", "/v1/repositories/pir", { authorization: customer.auth });
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.connector).toEqual({ kind: "epp", state: "down", since: null, last_error: UNREACHABLE });
  });

  it("other repositories stay builtin", async () => {
    expect((await connected("GET", "/v1/repositories/verisign")).body.connector).toMatchObject({ kind: "builtin", state: "up" });
    const check = await connected("GET", "/v1/domains/check?name=still-builtin.com");
    expect(check.body.data[0]).toMatchObject({ available: true });
  });

  it("a check of its names answers 503 registry_unavailable with Retry-After", async () => {
    const response = await connected("GET", "/v1/domains/check?name=gateway-down.org&name=gateway-down.com");
    const problem = expectProblem(response, 503, "registry_unavailable");
    expect(problem.detail).toMatch(/^The registry cannot be reached now \(the registry gateway (could not be reached|answered HTTP 5\d\d)/);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("registering one of its names answers 503 registry_unavailable with Retry-After, and nothing is written", async () => {
    const registrant = (await createContact({ name: "Gateway Down" })).id;
    const response = await connected("POST", "/v1/domains", {
      json: { name: "not-written.org", registrant, nameservers: ["ns1.example.net", "ns2.example.net"] },
    });
    expectProblem(response, 503, "registry_unavailable");
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    expectProblem(await connected("GET", "/v1/domains/not-written.org"), 404, "not_found");
  });

  it("a REGISTRY_CONNECTORS that is not JSON answers 503 not_configured, never a guess that the repository is builtin", async () => {
    const misconfigured = { ...PIR_TO_A_CLOSED_GATEWAY, REGISTRY_CONNECTORS: '{"pir": {"password": "local-pw-1"' };
    const problem = expectProblem(await apiWith(misconfigured, "GET", "/v1/domains/check?name=misconfigured.org"), 503, "not_configured");
    expect(problem.detail).toContain("REGISTRY_CONNECTORS is not JSON");
    expect(problem.detail).not.toContain("local-pw-1");
  });
});
