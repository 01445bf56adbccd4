// `npm start`'s local credential (src/http/auth.ts): the run's secret, whose SHA-256 the
// Worker gets as LOCAL_CREDENTIAL_SHA256, is the local principal's for a request to a
// loopback host, as AUTH_DISABLED is honoured; anywhere else, or not this run's, it is an
// unknown token. `npm run token` uses it to go through a running server
// (scripts/lib/local-server.mjs; end to end: scripts/safety-e2e.mjs).
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import type { Env } from "../src/env";
import { type ApiResponse, expectProblem } from "./helpers";

const CREDENTIAL = `local_${"k".repeat(43)}`;
const OTHER_RUN = `local_${"o".repeat(43)}`;

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A request to a Worker started with `vars` (as wrangler dev --var gives them), to `url`, presenting `credential`. */
async function call(
  url: string,
  credential: string,
  vars: Partial<Env>,
  init: { method?: string; json?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const headers = new Headers({ authorization: `Bearer ${credential}`, ...init.headers });
  if (init.json !== undefined) headers.set("content-type", "application/json");
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(url, { method: init.method ?? "GET", headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) }),
    { ...env, ...vars } as Env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: text && /json/.test(response.headers.get("content-type") ?? "") ? JSON.parse(text) : undefined,
  };
}

describe("the local credential of npm start is the operator's, unrestricted, for loopback requests only", () => {
  it("this run's credential, to 127.0.0.1: the local principal, which mints a token with no parent (201)", async () => {
    const vars = { LOCAL_CREDENTIAL_SHA256: await sha256Hex(CREDENTIAL) };
    const listed = await call("http://127.0.0.1:8787/v1/tokens?limit=1", CREDENTIAL, vars);
    expect(listed.status, listed.text).toBe(200);
    const minted = await call("http://127.0.0.1:8787/v1/tokens", CREDENTIAL, vars, { method: "POST", json: { name: "via-local-credential", scope: "write" } });
    expect(minted.status, minted.text).toBe(201);
    expect(minted.body).toMatchObject({ name: "via-local-credential", scope: "write", parent: null, account: "acc_00000000000000000000000000" });
    expect(minted.body.secret).toMatch(/^tok_[0-9A-HJKMNP-TV-Z]{26}\.[A-Za-z0-9_-]{43}$/);
  });

  it("another run's credential is 401 unauthorized, authentication off or on: the tool learns the server is not its own", async () => {
    const hash = await sha256Hex(CREDENTIAL);
    for (const vars of [{ LOCAL_CREDENTIAL_SHA256: hash }, { LOCAL_CREDENTIAL_SHA256: hash, AUTH_DISABLED: "true" }]) {
      const refused = await call("http://127.0.0.1:8787/v1/tokens?limit=1", OTHER_RUN, vars);
      expect(expectProblem(refused, 401, "unauthorized").detail).toBe("The bearer token is unknown.");
    }
  });

  it("a server started without one (no LOCAL_CREDENTIAL_SHA256) answers any credential 401", async () => {
    const refused = await call("http://127.0.0.1:8787/v1/tokens?limit=1", CREDENTIAL, { AUTH_DISABLED: "true" });
    expectProblem(refused, 401, "unauthorized");
  });

  it("not honoured beyond loopback: to a deployed host, or from a non-loopback address, the right credential is 401", async () => {
    const vars = { LOCAL_CREDENTIAL_SHA256: await sha256Hex(CREDENTIAL) };
    expectProblem(await call("https://domain-api.example.workers.dev/v1/tokens?limit=1", CREDENTIAL, vars), 401, "unauthorized");
    expectProblem(
      await call("http://127.0.0.1:8787/v1/tokens?limit=1", CREDENTIAL, vars, { headers: { "cf-connecting-ip": "203.0.113.9" } }),
      401,
      "unauthorized",
    );
  });
});
