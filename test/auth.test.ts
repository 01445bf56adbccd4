import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { authDisabled, isLocalDevelopment } from "../src/http/local-development";
import { api, apiRaw, expectProblem } from "./helpers";
import { bearer, TEST_TOKENS } from "./tokens";
import worker from "../src/index";

describe("requests without a valid bearer token", () => {
  it("answer 401 unauthorized with WWW-Authenticate: Bearer when no token is sent", async () => {
    const response = await api("GET", "/v1/contacts", { auth: false });
    expectProblem(response, 401, "unauthorized");
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="domain-api"');
  });
  it("answer 401 invalid_request for an Authorization header that is not Bearer", async () => {
    const response = await api("GET", "/v1/contacts", { headers: { authorization: "Basic YWxhZGRpbjpvcGVuc2VzYW1l" } });
    expectProblem(response, 401, "unauthorized");
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="domain-api", error="invalid_request"');
  });
  it.each([
    ["a malformed token", "Bearer nonsense"],
    ["an unknown token id", "Bearer tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9Z.test-write-secret-0123456789abcdef"],
    ["a known id with the wrong secret", `Bearer ${TEST_TOKENS.write.id}.wrong-secret-0123456789abcdefgh`],
  ])("answer 401 invalid_token for %s", async (_what, authorization) => {
    const response = await api("GET", "/v1/contacts", { headers: { authorization } });
    const problem = expectProblem(response, 401, "unauthorized");
    expect(problem.detail).toBe("The bearer token is unknown.");
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="domain-api", error="invalid_token"');
  });
  it("answer 401 for a revoked token", async () => {
    const response = await api("GET", "/v1/contacts", { headers: { authorization: bearer("revoked") } });
    const problem = expectProblem(response, 401, "unauthorized");
    expect(problem.detail).toBe("The bearer token has been revoked.");
  });
  it("never reach the database write: nothing is created", async () => {
    const response = await api("POST", "/v1/contacts", { auth: false, json: { name: "Eve", email: "eve@example.org" } });
    expectProblem(response, 401, "unauthorized");
    const list = await api("GET", "/v1/contacts");
    expect(list.body.data).toEqual([]);
  });
});

describe("token scopes", () => {
  it("a read token may GET and HEAD", async () => {
    const get = await api("GET", "/v1/contacts", { headers: { authorization: bearer("read") } });
    expect(get.status).toBe(200);
    expect(get.body).toEqual({ data: [], next_cursor: null });
    const head = await api("HEAD", "/v1/contacts", { headers: { authorization: bearer("read") } });
    expect(head.status).toBe(200);
  });
  it("a read token answers 403 forbidden for writes", async () => {
    const response = await api("POST", "/v1/contacts", { headers: { authorization: bearer("read") }, json: { name: "Ada", email: "ada@example.org" } });
    const problem = expectProblem(response, 403, "forbidden");
    expect(problem.detail).toContain("read scope");
  });
  it("a write token may write", async () => {
    const response = await api("POST", "/v1/contacts", { headers: { authorization: bearer("write") }, json: { name: "Ada", email: "ada@example.org" } });
    expect(response.status).toBe(201);
  });
});

describe("public documents", () => {
  it.each(["/v1", "/v1/openapi.json", "/v1/docs", "/v1/problems", "/v1/problems/not_found"])("%s needs no token", async (path) => {
    const response = await apiRaw("GET", path, { auth: false });
    expect(response.status).toBe(200);
  });
});

describe("failing closed", () => {
  afterEach(async () => {
    await env.DB.prepare("UPDATE api_tokens SET revoked_at = NULL WHERE name <> 'test-revoked'").run();
  });
  it("with no active token configured, every request is refused with a problem saying why", async () => {
    await env.DB.prepare("UPDATE api_tokens SET revoked_at = '2026-01-01T00:00:00.000Z'").run();
    const response = await api("GET", "/v1/domains", { auth: false });
    const problem = expectProblem(response, 401, "unauthorized");
    expect(problem.detail).toContain("no API token configured");
    expect(problem.detail).toContain("npm run token -- create");
  });
});

describe("switching authentication off for local development", () => {
  const local = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers });
  it("takes AUTH_DISABLED=true and a host name npm start serves, from a loopback connection, together", () => {
    expect(authDisabled({ AUTH_DISABLED: "true" } as never, local("http://127.0.0.1:8787/v1/domains"))).toBe(true);
    expect(authDisabled({ AUTH_DISABLED: "true" } as never, local("http://localhost/v1"))).toBe(true);
    expect(authDisabled({ AUTH_DISABLED: "true" } as never, local("http://[::1]:8787/v1", { "cf-connecting-ip": "::1" }))).toBe(true);
    expect(authDisabled({ AUTH_DISABLED: "true" } as never, local("http://127.0.0.1:8787/v1", { "cf-connecting-ip": "127.0.0.1" }))).toBe(true);
  });
  it("is ignored on any other host, so a deployed Worker cannot be opened by it", () => {
    expect(authDisabled({ AUTH_DISABLED: "true" } as never, local("https://api.example.com/v1"))).toBe(false);
    expect(authDisabled({ AUTH_DISABLED: "1" } as never, local("http://localhost/v1"))).toBe(false);
    expect(authDisabled({} as never, local("http://localhost/v1"))).toBe(false);
  });
  it.each([
    ["127.1", "http://127.1:8787/v1"],
    ["2130706433", "http://2130706433:8787/v1"],
    ["LOCALHOST", "http://LOCALHOST:8787/v1"],
    ["0x7f000001", "http://0x7f000001/v1"],
    ["127.0.0.2", "http://127.0.0.2/v1"],
  ])("accepts only the exact names npm start uses: Host %s keeps authentication on", (_host, url) => {
    const hostHeader = url.replace(/^http:\/\//, "").replace(/\/.*$/, "");
    expect(isLocalDevelopment(local(url, { host: hostHeader }))).toBe(false);
    expect(authDisabled({ AUTH_DISABLED: "true" } as never, local(url, { host: hostHeader }))).toBe(false);
  });
  it("a proxy forwarding Host: 127.0.0.1 from a remote client does not open it (CF-Connecting-IP is not loopback)", () => {
    const forwarded = local("http://127.0.0.1/v1/domains", { host: "127.0.0.1", "cf-connecting-ip": "203.0.113.9" });
    expect(authDisabled({ AUTH_DISABLED: "true" } as never, forwarded)).toBe(false);
  });
  it("end to end: a request with Host 127.1 to a Worker with AUTH_DISABLED=true answers 401", async () => {
    const ctx = createExecutionContext();
    const response = await worker.fetch(
      new Request("http://127.1:8787/v1/contacts", { headers: { host: "127.1:8787" } }),
      { ...env, AUTH_DISABLED: "true" } as never,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    const text = await response.text();
    expectProblem({ status: response.status, headers: response.headers, text, body: JSON.parse(text) }, 401, "unauthorized");
  });
  it("the CURSOR_SECRET development key follows the same rule: Host 127.1 without the secret is 503 not_configured", async () => {
    const { CURSOR_SECRET: _secret, ...envWithoutSecret } = env as unknown as Record<string, unknown>;
    const ctx = createExecutionContext();
    const response = await worker.fetch(
      new Request("http://127.1:8787/v1/domains", { headers: { host: "127.1:8787", authorization: bearer("write") } }),
      envWithoutSecret as never,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    const text = await response.text();
    expectProblem({ status: response.status, headers: response.headers, text, body: JSON.parse(text) }, 503, "not_configured");
  });
});

describe("a deployed Worker without its CURSOR_SECRET secret", () => {
  const { CURSOR_SECRET: _secret, ...envWithoutSecret } = env as unknown as Record<string, unknown>;
  async function call(url: string, headers: Record<string, string> = {}) {
    const ctx = createExecutionContext();
    const response = await worker.fetch(new Request(url, { headers: { authorization: bearer("write"), ...headers } }), envWithoutSecret as never, ctx);
    await waitOnExecutionContext(ctx);
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
  }

  it("fails closed: every request is refused with 503 not_configured naming the command that sets it", async () => {
    for (const path of ["/v1/domains", "/v1/contacts/ct_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B", "/v1/zones"]) {
      const response = await call(`https://domain-api.example.workers.dev${path}`);
      const problem = expectProblem(response, 503, "not_configured");
      expect(problem.title).toBe("Service not configured");
      expect(problem.detail).toContain("CURSOR_SECRET");
      expect(problem.detail).toContain("wrangler secret put CURSOR_SECRET");
    }
  });
  it("treats a CURSOR_SECRET under 32 characters as no key: 503 not_configured saying it is too short", async () => {
    const ctx = createExecutionContext();
    const response = await worker.fetch(
      new Request("https://domain-api.example.workers.dev/v1/domains", { headers: { authorization: bearer("write") } }),
      { ...envWithoutSecret, CURSOR_SECRET: "short-secret" } as never,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    const text = await response.text();
    const problem = expectProblem({ status: response.status, headers: response.headers, text, body: JSON.parse(text) }, 503, "not_configured");
    expect(problem.detail).toContain("CURSOR_SECRET of 12 characters, too short");
  });
  it("still serves the public documents, so the problem's type can be looked up", async () => {
    const problem = await call("https://domain-api.example.workers.dev/v1/problems/not_configured");
    expect(problem.status).toBe(200);
    expect(problem.body).toMatchObject({ code: "not_configured", status: 503 });
    expect((await call("https://domain-api.example.workers.dev/v1/openapi.json")).status).toBe(200);
  });
  it("does not apply to a loopback host (npm start), which signs cursors with the development key", async () => {
    const response = await call("http://127.0.0.1:8787/v1/domains?limit=1");
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ data: expect.any(Array) });
  });
});
