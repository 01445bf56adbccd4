// What a hostile request can cost the Worker (issue: hardening): bodies are bounded
// before anything buffers them, idempotency keys are stored only for authenticated write
// operations that exist, bad tokens cost one D1 read each and are rate limited per client
// address, principals are token ids, and problems stay small whatever the body.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { safeErrorSummary } from "../src/http/error-log";
import { TOKEN_CACHE_MS } from "../src/http/token-cache";
import { costOf } from "./d1-cost";
import { api, apiRaw, expectProblem, type ApiResponse } from "./helpers";
import { bearer, TEST_TOKENS } from "./tokens";

const MiB = 1024 * 1024;
const CHUNK = 64 * 1024;

/** A body stream of `total` bytes that counts how many bytes the Worker pulled from it. */
function countedStream(total: number, byte = 0x61) {
  const state = { pulled: 0 };
  const chunk = new Uint8Array(CHUNK).fill(byte);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled >= total) return controller.close();
      state.pulled += CHUNK;
      controller.enqueue(chunk);
    },
  });
  return { stream, state };
}

async function send(request: Request, extraEnv: Record<string, unknown> = {}): Promise<ApiResponse> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, { ...env, ...extraEnv } as never, ctx);
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: text && /json/.test(response.headers.get("content-type") ?? "") ? JSON.parse(text) : undefined,
  };
}

async function idempotencyRows(): Promise<number> {
  return (await env.DB.prepare("select count(*) as n from idempotency_keys").first<{ n: number }>())!.n;
}

describe("bodies are bounded before anything buffers them", () => {
  it.each([
    ["a public path with an Idempotency-Key and no token", "/v1/problems", { "idempotency-key": "k-public" }],
    ["a write path with no token", "/v1/contacts", { "idempotency-key": "k-anon" }],
    ["a write path with a write token", "/v1/contacts", { authorization: bearer("write"), "idempotency-key": "k-write" }],
    ["an unknown path", "/v1/nowhere", { authorization: bearer("write") }],
  ])("a declared Content-Length over 1 MiB is 413 at once on %s", async (_what, path, headers) => {
    const response = await send(
      new Request(`http://api.test${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": String(400 * MiB), ...headers },
      }),
    );
    const problem = expectProblem(response, 413, "payload_too_large");
    expect(problem.detail).toBe("application/json bodies are limited to 1 MiB here; nothing was read past that.");
  });

  it("a streamed JSON body with no declared size stops being read at the first byte over 1 MiB (413)", async () => {
    const { stream, state } = countedStream(300 * MiB);
    const response = await send(
      new Request("http://api.test/v1/contacts", {
        method: "POST",
        headers: { authorization: bearer("write"), "content-type": "application/json", "idempotency-key": "k-stream" },
        body: stream,
        duplex: "half",
      } as RequestInit),
    );
    expectProblem(response, 413, "payload_too_large");
    // The Worker read 1 MiB and one chunk more, plus what the stream had buffered ahead.
    expect(state.pulled).toBeLessThanOrEqual(MiB + 8 * CHUNK);
    expect(await idempotencyRows()).toBe(0);
  });

  it("a streamed body to a path that takes none is never read (405 for POST /v1/problems)", async () => {
    const { stream, state } = countedStream(400 * MiB);
    const response = await send(
      new Request("http://api.test/v1/problems", {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": "k" },
        body: stream,
        duplex: "half",
      } as RequestInit),
    );
    expectProblem(response, 405, "method_not_allowed");
    expect(state.pulled).toBeLessThanOrEqual(8 * CHUNK);
  });

  it("a master file over its limit is 413 the same way, streamed or declared", async () => {
    const { MAX_MASTER_FILE_BYTES } = await import("../src/resources/zones/master-file");
    const { stream, state } = countedStream(MAX_MASTER_FILE_BYTES + 4 * MiB);
    const response = await send(
      new Request("http://api.test/v1/zones", {
        method: "POST",
        headers: { authorization: bearer("write"), "content-type": "text/dns" },
        body: stream,
        duplex: "half",
      } as RequestInit),
    );
    expectProblem(response, 413, "payload_too_large");
    expect(state.pulled).toBeLessThanOrEqual(MAX_MASTER_FILE_BYTES + 8 * CHUNK);
  });
});

describe("idempotency applies only to authenticated write operations that exist", () => {
  it.each([
    ["a public path (405)", "POST", "/v1/problems", {}, 405],
    ["an unknown route (404)", "POST", "/v1/nowhere", { authorization: bearer("write") }, 404],
    ["a method the path does not take (405)", "POST", "/v1/extensions", { authorization: bearer("write") }, 405],
    ["a request without a token (401)", "POST", "/v1/contacts", {}, 401],
    ["a read token's POST (403)", "POST", "/v1/contacts", { authorization: bearer("read") }, 403],
  ])("stores no key for %s", async (_what, method, path, headers, status) => {
    const response = await apiRaw(method, path, {
      auth: false,
      headers: { "content-type": "application/json", "idempotency-key": `key-${path}-${status}`, ...headers },
      body: JSON.stringify({ name: "Eve", email: "eve@example.org" }),
    });
    expect(response.status, response.text).toBe(status);
    expect(await idempotencyRows()).toBe(0);
  });

  it("stores one for an authenticated POST that exists, and replays it", async () => {
    const request = { json: { name: "Ida", email: "ida@example.org" }, headers: { "idempotency-key": "real-key" } };
    const first = await api("POST", "/v1/contacts", request);
    expect(first.status).toBe(201);
    expect(await idempotencyRows()).toBe(1);
    const retry = await api("POST", "/v1/contacts", request);
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.body).toEqual(first.body);
    await env.DB.prepare("delete from idempotency_keys").run();
  });
});

describe("bad tokens cost the same, and are rate limited per client address before they reach D1", () => {
  const unknownId = `Bearer tok_01JD3Q6Y4T8N0V4W5X6Y7Z8Q9Q.${TEST_TOKENS.write.secret}`;
  const wrongSecret = `Bearer ${TEST_TOKENS.write.id}.wrong-secret-0123456789abcdefgh`;

  it("an unknown token id and a known id with a wrong secret each cost exactly one D1 read, the same query", async () => {
    const address = { "cf-connecting-ip": "198.51.100.1" };
    const unknown = await costOf("GET", "/v1/contacts", { headers: { authorization: unknownId, ...address } });
    const wrong = await costOf("GET", "/v1/contacts", { headers: { authorization: wrongSecret, ...address } });
    const wrongAgain = await costOf("GET", "/v1/contacts", { headers: { authorization: wrongSecret, ...address } });
    for (const response of [unknown, wrong, wrongAgain]) {
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ code: "unauthorized", detail: "The bearer token is unknown." });
      expect(response.cost.singles.length + response.cost.batches.length).toBe(1);
    }
    expect(wrong.cost.singles[0]!.sql).toBe(unknown.cost.singles[0]!.sql);
  });

  it("a malformed token costs no D1 read at all", async () => {
    const response = await costOf("GET", "/v1/contacts", { headers: { authorization: "Bearer tok_x.y", "cf-connecting-ip": "198.51.100.2" } });
    expect(response.status).toBe(401);
    expect(response.cost.singles.length + response.cost.batches.length).toBe(0);
  });

  it("a verified token is answered from the isolate's memory: no D1 read for authentication", async () => {
    await costOf("GET", "/v1/extensions/com");
    const warm = await costOf("GET", "/v1/extensions/com");
    expect(warm.status).toBe(200);
    expect(warm.cost.singles.every((s) => !s.sql.includes("api_tokens"))).toBe(true);
  });

  it("after the address's limit of unverified lookups, bad tokens answer 429 with Retry-After and no D1 read", async () => {
    const address = { "cf-connecting-ip": "203.0.113.77" };
    let limitedAt = -1;
    for (let i = 0; i < 250 && limitedAt < 0; i++) {
      const response = await costOf("GET", "/v1/contacts", { headers: { authorization: unknownId, ...address } });
      if (response.status === 429) limitedAt = i;
      else expect(response.status).toBe(401);
    }
    // vitest.config.ts sets the test limit to 100 a minute (wrangler.toml: 60); the limiter's
    // window may turn over once while this runs, so the first 429 comes after 100 to 200.
    expect(limitedAt).toBeGreaterThanOrEqual(100);
    expect(limitedAt).toBeLessThanOrEqual(200);
    for (const authorization of [unknownId, wrongSecret, undefined]) {
      const limited = await costOf("GET", "/v1/contacts", { headers: { ...(authorization ? { authorization } : { authorization: "" }), ...address } });
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ code: "rate_limited" });
      expect(limited.body.detail).toContain("from this address");
      expect(Number(limited.text && JSON.parse(limited.text).status)).toBe(429);
      expect(limited.cost.singles.length + limited.cost.batches.length).toBe(0);
    }
    // Another address is not affected, and neither is a valid token from the same one.
    const other = await costOf("GET", "/v1/contacts", { headers: { authorization: unknownId, "cf-connecting-ip": "203.0.113.78" } });
    expect(other.status).toBe(401);
    const valid = await costOf("GET", "/v1/contacts", { headers: { authorization: bearer("write"), ...address } });
    expect(valid.status).toBe(200);
  }, 120_000);
});

describe("principals are identified by token id, never by a name a user chose", () => {
  async function mint(name: string): Promise<string> {
    const id = `tok_01JD3Q6Y4T8N0V4W5X6Y7Z8${name === "local" ? "AAC" : "AAP"}`;
    const secret = `${name}-named-token-secret-0123456789`;
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret)));
    const hash = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
    await env.DB.prepare("insert into api_tokens (id, name, scope, secret_hash, created_at) values (?, ?, 'write', ?, '2026-01-01T00:00:00.000Z')")
      .bind(id, name, hash)
      .run();
    return `Bearer ${id}.${secret}`;
  }

  it("a token named local does not share idempotency keys with local development (auth off)", async () => {
    const authorization = await mint("local");
    const body = JSON.stringify({ name: "Same Key", email: "same@example.org" });
    const headers = { "content-type": "application/json", "idempotency-key": "shared-name-key" };
    const byToken = await send(new Request("http://api.test/v1/contacts", { method: "POST", headers: { ...headers, authorization }, body }));
    expect(byToken.status).toBe(201);
    const byLocal = await send(new Request("http://127.0.0.1:8787/v1/contacts", { method: "POST", headers: { ...headers, host: "127.0.0.1:8787" }, body }), {
      AUTH_DISABLED: "true",
    });
    expect(byLocal.status).toBe(201);
    expect(byLocal.headers.get("idempotent-replayed")).toBeNull();
    expect(byLocal.body.id).not.toBe(byToken.body.id);
  });

  it("a token named public writes events under its id", async () => {
    const authorization = await mint("public");
    const created = await api("POST", "/v1/contacts", { json: { name: "Pub", email: "pub@example.org" }, headers: { authorization } });
    expect(created.status).toBe(201);
    const events = await api("GET", `/v1/events?resource=${created.body.id}`);
    expect(events.body.data).toMatchObject([{ token: "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8AAP", operation: "create" }]);
  });
});

describe("one 422 lists every problem of a body, and stays small", () => {
  it("unknown fields do not hide the other errors of the same body", async () => {
    const response = await api("POST", "/v1/contacts", { json: { name: 5, emial: "ada@example.org" } });
    const problem = expectProblem(response, 422, "unknown_field");
    expect(problem.errors).toEqual([
      { field: "emial", message: "is not a field of this resource" },
      { field: "name", message: "must be a string" },
      { field: "email", message: "is required" },
    ]);
    expect(problem.detail).toContain("Unknown fields: emial");
    expect(problem.detail).toContain("2 other fields are invalid too.");
  });

  it("read-only fields come first and set the code", async () => {
    const response = await api("POST", "/v1/contacts", { json: { id: "con_x", colour: "red", name: "Ada", email: "ada@example.org" } });
    const problem = expectProblem(response, 422, "read_only_field");
    expect(problem.errors.map((e: { field: string }) => e.field)).toEqual(["id", "colour"]);
  });

  it("100 000 unknown fields in 1 MiB: the allowed fields named once, 100 errors listed and how many more", async () => {
    const fields: Record<string, number> = { name: 0, email: 0 };
    for (let i = 0; i < 100_000; i++) fields[`x${i.toString(36)}`] = 0;
    const body = JSON.stringify(fields);
    expect(body.length).toBeLessThanOrEqual(MiB);
    const response = await apiRaw("POST", "/v1/contacts", { headers: { "content-type": "application/json" }, body });
    const problem = expectProblem(response, 422, "unknown_field");
    expect(problem.errors).toHaveLength(100);
    // 100 000 unknown fields, and name and email are numbers: 100 002 problems in all.
    expect(problem.errors_not_listed).toBe(100_002 - 100);
    expect(problem.detail).toContain("and 99990 more");
    expect(problem.detail.match(/the fields of this body are/g)).toHaveLength(1);
    expect(response.text.length).toBeLessThan(20_000);
  });
});

describe("5xx log lines carry the request id and a safe summary, never SQL or its values", () => {
  it("a drizzle query failure is summarised without the query text or the bound values", () => {
    const d1 = new Error("D1_ERROR: UNIQUE constraint failed: domains.name: SQLITE_CONSTRAINT");
    const drizzle = new Error("Failed query: insert into domains (name, auth_info) values (?, ?)\nparams: secret.example,AUTH-SECRET-123", { cause: d1 });
    const summary = safeErrorSummary(drizzle);
    expect(summary.kind).toBe("D1_ERROR");
    expect(summary.message).toBe("D1_ERROR: UNIQUE constraint failed: domains.name");
    expect(JSON.stringify(summary)).not.toContain("AUTH-SECRET-123");
    expect(JSON.stringify(summary)).not.toContain("secret.example");
    expect(JSON.stringify(summary)).not.toContain("insert into");
  });
  it("an error that quotes a query is withheld", () => {
    const summary = safeErrorSummary(new Error("Failed query: select * from contacts where email = ?\nparams: ada@example.org"));
    expect(summary.message).toBe("(query text withheld)");
  });
});

describe("GET / answers a small index", () => {
  it("points at /v1 and /v1/docs, with no token", async () => {
    const response = await apiRaw("GET", "/", { auth: false });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ service: expect.any(String), version: expect.any(String), api: "/v1", openapi: "/v1/openapi.json", docs: "/v1/docs" });
  });
});

describe("the bad-token budget is spent by failures only", () => {
  const unknownId = `Bearer tok_01JD3Q6Y4T8N0V4W5X6Y7Z8Q9Q.${TEST_TOKENS.write.secret}`;
  it("valid tokens re-checked after the cache time are answered while their address is past its budget", async () => {
    const address = { "cf-connecting-ip": "203.0.113.90" };
    const valid: string[] = [];
    for (let i = 0; i < 24; i++) {
      const minted = await api("POST", "/v1/tokens", { json: { name: `budget-valid-${i}`, scope: "read" } });
      expect(minted.status, minted.text).toBe(201);
      valid.push(`Bearer ${minted.body.secret}`);
    }
    // Each valid token is verified once from the address; none of these spends the budget.
    for (const authorization of valid) expect((await api("GET", "/v1/extensions/com", { headers: { authorization, ...address } })).status).toBe(200);
    // Then bad tokens from the same address spend it all: 429s begin.
    let limited = false;
    for (let i = 0; i < 250 && !limited; i++) {
      const response = await api("GET", "/v1/contacts", { headers: { authorization: unknownId, ...address } });
      limited = response.status === 429;
    }
    expect(limited).toBe(true);
    // Past the token cache time every valid token is re-checked against D1: none is refused.
    await new Promise((resolve) => setTimeout(resolve, TOKEN_CACHE_MS + 500));
    for (const authorization of valid) {
      const response = await api("GET", "/v1/extensions/com", { headers: { authorization, ...address } });
      expect(response.status, response.text).toBe(200);
    }
    // Bad tokens from the address are still refused before D1.
    const bad = await costOf("GET", "/v1/contacts", { headers: { authorization: unknownId, ...address } });
    expect(bad.status).toBe(429);
    expect(bad.cost.singles.length + bad.cost.batches.length).toBe(0);
  }, 120_000);

  it("the DNS backend's token is verified whatever its address's budget", async () => {
    const address = { "cf-connecting-ip": "203.0.113.91" };
    let limited = false;
    for (let i = 0; i < 250 && !limited; i++) {
      limited = (await api("GET", "/v1/contacts", { headers: { authorization: unknownId, ...address } })).status === 429;
    }
    expect(limited).toBe(true);
    const dns = await api("POST", "/v1/tokens", { json: { name: "budget-dns", scope: "dns" } });
    expect(dns.status, dns.text).toBe(201);
    const lookup = await api("GET", `/v1/pdns/${dns.body.secret}/getAllDomains`, { auth: false, headers: address });
    expect(lookup.status, lookup.text).toBe(200);
  }, 120_000);
});

describe("a body that breaks off while it is read (the client went away) is the client's 400, never a 500", () => {
  it("an import whose stream fails midway answers 400 invalid_json, and no zone is made", async () => {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 3) controller.enqueue(new TextEncoder().encode(`$ORIGIN broken-off.test.\n@ 300 NS ns1.example.org.\nh${sent} 300 A 192.0.2.1\n`));
        else controller.error(new Error("Network connection lost."));
      },
    });
    const response = await apiRaw("POST", "/v1/zones", { body, headers: { "content-type": "text/dns" } });
    expect(expectProblem(response, 400, "invalid_json").detail).toBe(
      "The body ended before it was complete (the connection was lost while it was read); nothing was written.",
    );
    expectProblem(await api("GET", "/v1/zones/broken-off.test"), 404, "not_found");
  });
});

describe("an operation that takes no body reads none it does not understand", () => {
  it("POST /zones/{zone}/dnssec with 1 MiB of '[' answers 400 invalid_json, and the zone stays unsigned", async () => {
    const zone = await api("POST", "/v1/zones", { json: { name: "no-body.test" } });
    expect(zone.status, zone.text).toBe(201);
    const flood = await apiRaw("POST", "/v1/zones/no-body.test/dnssec", {
      body: "[".repeat(1024 * 1024 - 16),
      headers: { "content-type": "application/json" },
    });
    expectProblem(flood, 400, "invalid_json");
    const fields = await api("POST", "/v1/zones/no-body.test/dnssec", { json: { algorithm: 15 } });
    expect(expectProblem(fields, 422, "unknown_field").errors).toEqual([
      { field: "algorithm", message: "is not a field of this operation, which takes no body" },
    ]);
    const text = await apiRaw("POST", "/v1/zones/no-body.test/dnssec", { body: "hello", headers: { "content-type": "text/plain" } });
    expectProblem(text, 415, "unsupported_media_type");
    expect((await api("GET", "/v1/zones/no-body.test/dnssec")).body.enabled).toBe(false);
  });

  it("a body of only a byte order mark is not nothing: 400 invalid_json, as a PATCH body of one is, and nothing changes", async () => {
    await api("POST", "/v1/zones", { json: { name: "bom-only.test" } });
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    const action = await apiRaw("POST", "/v1/zones/bom-only.test/dnssec", { body: bom, headers: { "content-type": "application/json" } });
    expect(expectProblem(action, 400, "invalid_json").detail).toBe("The body is not valid JSON: Unexpected end of JSON input; this operation takes no body.");
    expect((await api("GET", "/v1/zones/bom-only.test/dnssec")).body.enabled).toBe(false);
    const patch = await apiRaw("PATCH", "/v1/zones/bom-only.test", { body: bom, headers: { "content-type": "application/merge-patch+json" } });
    expectProblem(patch, 400, "invalid_json");
  });

  it("nothing, or {}, is taken", async () => {
    await api("POST", "/v1/zones", { json: { name: "no-body-ok.test" } });
    const empty = await api("POST", "/v1/zones/no-body-ok.test/dnssec", { json: {} });
    expect(empty.status, empty.text).toBe(201);
  });
});
