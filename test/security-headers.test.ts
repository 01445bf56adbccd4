import { describe, expect, it } from "vitest";
import { api, apiRaw } from "./helpers";

describe("security headers on every response", () => {
  it.each([
    ["a resource list", "/v1/contacts", 200],
    ["a problem", "/v1/contacts/con_nope", 404],
    ["an unknown route", "/v1/nowhere", 404],
  ])("%s carries nosniff, a restrictive CSP and Referrer-Policy", async (_what, path, status) => {
    const response = await api("GET", path);
    expect(response.status).toBe(status);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
  });
  it("the reference page may load only its own script, style and API description", async () => {
    const response = await apiRaw("GET", "/v1/docs", { auth: false });
    expect(response.headers.get("content-type")).toContain("text/html");
    const csp = response.headers.get("content-security-policy")!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(response.text).toContain('<script src="/v1/docs/reference.js"></script>');
    expect((await apiRaw("GET", "/v1/docs/reference.js", { auth: false })).headers.get("content-type")).toBe("text/javascript; charset=utf-8");
  });
  it("the reference is Swagger UI served by the Worker itself: no other host, on /v1/openapi.json", async () => {
    const page = (await apiRaw("GET", "/v1/docs", { auth: false })).text;
    expect(page).toContain('<div id="swagger-ui"></div>');
    expect(page).toContain('<script src="/v1/docs/swagger-ui-bundle.js"></script>');
    expect(page).toContain('<link rel="stylesheet" href="/v1/docs/swagger-ui.css">');
    // Every script and stylesheet of the page is a path on this origin.
    const urls = [...page.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url).toMatch(/^(\/v1\/|data:)/);
    expect(page).not.toMatch(/https?:\/\//);
    const script = await apiRaw("GET", "/v1/docs/reference.js", { auth: false });
    expect(script.text).toContain('url: "/v1/openapi.json"');
    expect(script.text).toContain("validatorUrl: null");
    const bundle = await apiRaw("GET", "/v1/docs/swagger-ui-bundle.js", { auth: false });
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(bundle.text.length).toBeGreaterThan(500_000);
    expect(bundle.text).toContain("SwaggerUIBundle");
    const style = await apiRaw("GET", "/v1/docs/swagger-ui.css", { auth: false });
    expect(style.status).toBe(200);
    expect(style.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(style.text).toContain(".swagger-ui");
  });
});

describe("CORS", () => {
  it("is off by default: no Access-Control headers, preflight answers 204 with Allow only", async () => {
    const response = await api("GET", "/v1/contacts", { headers: { origin: "https://app.example.com" } });
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    const preflight = await apiRaw("OPTIONS", "/v1/contacts", {
      auth: false,
      headers: { origin: "https://app.example.com", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("CORS when configured", () => {
  // The policy reads CORS_ORIGINS from the bindings of each request; a small app with the
  // real middleware shows both settings without redeploying the Worker under test.
  async function corsApp() {
    const { Hono } = await import("hono");
    const { corsPolicy } = await import("../src/http/security");
    const app = new Hono<any>();
    app.use("*", corsPolicy);
    app.get("/v1/contacts", (c) => c.json({ data: [] }));
    return app;
  }
  it("allows exactly the listed origins and exposes the API's headers", async () => {
    const app = await corsApp();
    const bindings = { CORS_ORIGINS: "https://app.example.com, https://admin.example.com" };
    const allowed = await app.request("/v1/contacts", { headers: { origin: "https://app.example.com" } }, bindings);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect(allowed.headers.get("access-control-expose-headers")).toContain("ETag");
    const refused = await app.request("/v1/contacts", { headers: { origin: "https://evil.example" } }, bindings);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    const preflight = await app.request(
      "/v1/contacts",
      {
        method: "OPTIONS",
        headers: { origin: "https://app.example.com", "access-control-request-method": "PATCH", "access-control-request-headers": "authorization, if-match" },
      },
      bindings,
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("PATCH");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("If-Match");
  });
  it("`*` allows any origin", async () => {
    const app = await corsApp();
    const response = await app.request("/v1/contacts", { headers: { origin: "https://any.example" } }, { CORS_ORIGINS: "*" });
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
  });
});
