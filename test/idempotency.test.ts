import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { deleteExpiredIdempotencyKeys } from "../src/http/idempotency";
import { adaAddress, api, expectProblem } from "./helpers";
import { bearer } from "./tokens";

const contact = { name: "Ada Lovelace", email: "ada@example.org", address: adaAddress };

describe("Idempotency-Key on POST", () => {
  it("a retry with the same key and body replays the first response with Idempotent-Replayed: true", async () => {
    const first = await api("POST", "/v1/contacts", { json: contact, headers: { "idempotency-key": "create-ada-1" } });
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const retry = await api("POST", "/v1/contacts", { json: contact, headers: { "idempotency-key": "create-ada-1" } });
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get("location")).toBe(first.headers.get("location"));
    expect(retry.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    const list = await api("GET", "/v1/contacts?q=ada");
    expect(list.body.data).toHaveLength(1);
  });

  it("the same key with another body answers 422 and creates nothing", async () => {
    await api("POST", "/v1/contacts", { json: contact, headers: { "idempotency-key": "create-ada-2" } });
    const other = await api("POST", "/v1/contacts", { json: { ...contact, name: "Someone Else" }, headers: { "idempotency-key": "create-ada-2" } });
    const problem = expectProblem(other, 422, "validation_failed");
    expect(problem.errors).toEqual([{ field: "Idempotency-Key", message: "was used with a different request body" }]);
    expect((await api("GET", "/v1/contacts?q=someone")).body.data).toEqual([]);
  });

  it("a key whose first request is still in flight answers 409 request_in_progress", async () => {
    const racer = { ...contact, name: "Concurrent Racer" };
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => api("POST", "/v1/contacts", { json: racer, headers: { "idempotency-key": "create-ada-3" } })),
    );
    const statuses = responses.map((r) => r.status).sort();
    // One request did the work; each other either saw it in flight (409) or replayed it (201).
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    for (const r of responses.filter((r) => r.status === 409)) expectProblem(r, 409, "request_in_progress");
    expect((await api("GET", "/v1/contacts?q=concurrent racer")).body.data).toHaveLength(1);
  });

  it("replays error answers too: a 422 stays a 422 for the same request", async () => {
    const bad = { name: "", email: "nope" };
    const first = await api("POST", "/v1/contacts", { json: bad, headers: { "idempotency-key": "bad-1" } });
    expectProblem(first, 422, "validation_failed");
    const retry = await api("POST", "/v1/contacts", { json: bad, headers: { "idempotency-key": "bad-1" } });
    expect(retry.status).toBe(422);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
  });

  it("keys belong to a token: another token's key of the same name is another key", async () => {
    await env.DB.prepare(
      "INSERT INTO api_tokens (id, name, scope, secret_hash, created_at) SELECT 'tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9E', 'second-writer', 'write', secret_hash, created_at FROM api_tokens WHERE name = 'test-write'",
    ).run();
    const first = await api("POST", "/v1/contacts", { json: contact, headers: { "idempotency-key": "shared-name" } });
    const second = await api("POST", "/v1/contacts", {
      json: contact,
      headers: { "idempotency-key": "shared-name", authorization: bearer("write").replace("tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B", "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9E") },
    });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
    expect(second.headers.get("idempotent-replayed")).toBeNull();
  });

  it("a key longer than 255 characters answers 422 naming Idempotency-Key", async () => {
    const response = await api("POST", "/v1/contacts", { json: contact, headers: { "idempotency-key": "k".repeat(256) } });
    const problem = expectProblem(response, 422, "validation_failed");
    expect(problem.errors[0].field).toBe("Idempotency-Key");
  });

  it("expired keys are cleaned up by the scheduled job, after which the key is new again", async () => {
    await api("POST", "/v1/contacts", { json: contact, headers: { "idempotency-key": "old-key" } });
    const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000 + 1000);
    expect(await deleteExpiredIdempotencyKeys(env, tomorrow)).toBeGreaterThanOrEqual(1);
    const again = await api("POST", "/v1/contacts", { json: contact, headers: { "idempotency-key": "old-key" } });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
  });
});
