// requests_per_minute (docs/safety.md, "Rate limits"): an account's tokens share one
// request budget a minute, beside each token's own; the operator's override in
// accounts.limits applies; the DNS backend's token is exempt. This file runs in a project
// of its own (vitest.config.ts) with ACCOUNT_RATE_LIMITER at its wrangler.toml figures.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { OPERATOR_ACCOUNT_ID } from "../src/db/schema";
import { addDnsToken, api, expectProblem } from "./helpers";

async function accountWithTokens(name: string, limits: Record<string, number>, tokens = 2) {
  const account = await api("POST", "/v1/accounts", { json: { name, limits } });
  expect(account.status, account.text).toBe(201);
  const headers: { authorization: string }[] = [];
  for (let i = 0; i < tokens; i++) {
    const token = await api("POST", "/v1/tokens", { json: { name: `${name}-${i}`, scope: "read", account: account.body.id } });
    expect(token.status, token.text).toBe(201);
    headers.push({ authorization: `Bearer ${token.body.secret}` });
  }
  return { id: account.body.id as string, headers };
}

/**
 * The binding counts in windows of a whole minute: a test that counts requests starts with
 * at least 20 s of its window left, so that no window ends among its requests.
 */
async function freshWindow() {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 20_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

describe("an account's tokens share its requests_per_minute", () => {
  it("past the limit, every token of the account gets 429 rate_limited with Retry-After naming the limit; another account is not held back", async () => {
    const limited = await accountWithTokens("rpm-twenty", { requests_per_minute: 20 });
    const other = await accountWithTokens("rpm-other", {}, 1);
    await freshWindow();
    // 20 requests, alternating the account's two tokens (each token alone is far under its own limit).
    for (let i = 0; i < 20; i++) {
      const response = await api("GET", "/v1/me", { headers: limited.headers[i % 2]! });
      expect(response.status, `request ${i + 1}: ${response.text}`).toBe(200);
    }
    for (const headers of limited.headers) {
      const refused = expectProblem(await api("GET", "/v1/me", { headers }), 429, "rate_limited");
      expect(refused.detail).toBe(
        "Too many requests for this token's account (limit requests_per_minute: 20 a minute over all its tokens); retry after 60 seconds.",
      );
      expect(refused.errors).toEqual([{ field: "requests_per_minute", message: "at most 20 requests a minute" }]);
    }
    const refused = await api("GET", "/v1/zones", { headers: limited.headers[0]! });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect((await api("GET", "/v1/me", { headers: other.headers[0]! })).status).toBe(200);
  });

  it("the operator's override applies: an account whose requests_per_minute is 0 is refused at once, and shows the limit", async () => {
    const stopped = await accountWithTokens("rpm-zero", { requests_per_minute: 0 }, 1);
    const refused = expectProblem(await api("GET", "/v1/me", { headers: stopped.headers[0]! }), 429, "rate_limited");
    expect(refused.errors).toEqual([{ field: "requests_per_minute", message: "at most 0 requests a minute" }]);
    expect((await api("GET", `/v1/accounts/${stopped.id}`)).body.limits.requests_per_minute).toBe(0);
  });

  it("the default comes from the configuration (LIMIT_REQUESTS_PER_MINUTE) when the operator set none", async () => {
    const plain = await accountWithTokens("rpm-default", {}, 1);
    const me = await api("GET", "/v1/me", { headers: plain.headers[0]! });
    expect(me.status).toBe(200);
    expect(me.body.account.limits.requests_per_minute).toBe(Number(env.LIMIT_REQUESTS_PER_MINUTE));
  });

  it("the DNS backend's token is exempt from its account's limit, as from the per-token one", async () => {
    // The connector's token is the operator's (it serves every account's zones): the operator
    // account at 0 a minute, as the token reads it.
    await env.DB.prepare("update accounts set limits = '{\"requests_per_minute\":0}' where id = ?").bind(OPERATOR_ACCOUNT_ID).run();
    try {
      const base = await addDnsToken("tok_01JD3Q6Y4T8N0V4W5X6Y7Z8R01", "rpm-dns-backend", "rpm-dns-secret-0123456789abcdef");
      for (let i = 0; i < 3; i++) {
        const response = await api("GET", `${base}/getAllDomains`, { auth: false });
        expect(response.status, response.text).toBe(200);
      }
    } finally {
      await env.DB.prepare("update accounts set limits = null where id = ?").bind(OPERATOR_ACCOUNT_ID).run();
    }
  });
});
