// A write and its idempotency record commit together (issue 10 item 16): the write routine
// (src/http/mutate.ts) records the answer of a POST with Idempotency-Key in the very batch
// that writes, so a crash between the write and the record cannot make a retry write again.
// The crash is simulated by failing the request right after its write batch committed
// (test/interleave.ts), as a dying isolate would leave it.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { adaAddress, api, createContact, expectProblem } from "./helpers";
import { apiWithHooks, type BatchHooks, writesTo } from "./interleave";

/** Fails the request once, right after the first batch that writes to `table` committed. */
function crashAfterWriting(table: string): BatchHooks {
  let crashed = false;
  return {
    afterBatch: (sql) => {
      if (crashed || !writesTo(sql, table)) return;
      crashed = true;
      throw new Error("simulated crash after the write committed");
    },
  };
}

describe("a crash between a write and its idempotency record cannot make a retry write again", () => {
  it("a contact create that crashed after its batch is replayed on retry, and exists once", async () => {
    const body = { name: "Crash Test", email: "crash-once@example.org", address: adaAddress };
    const headers = { "idempotency-key": "crash-contact-1" };
    const crashed = await apiWithHooks("POST", "/v1/contacts", crashAfterWriting("contacts"), { json: body, headers });
    expectProblem(crashed, 500, "internal");

    const retry = await api("POST", "/v1/contacts", { json: body, headers });
    expect(retry.status, retry.text).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    const stored = await api("GET", `/v1/contacts?email=crash-once@example.org`);
    expect(stored.body.data).toHaveLength(1);
    const [contact] = stored.body.data;
    expect(retry.body).toEqual(contact);
    expect(retry.headers.get("location")).toBe(`/v1/contacts/${contact.id}`);
    expect(retry.headers.get("etag")).toBe((await api("GET", `/v1/contacts/${contact.id}`)).headers.get("etag"));
    expect(retry.headers.get("content-type")).toBe("application/json; charset=utf-8");
  });

  it("a domain create that crashed after its batch is replayed on retry, not refused as already registered", async () => {
    const contact = await createContact();
    const body = { name: "crash-once.com", registrant: contact.id, nameservers: ["ns1.crash-once.net", "ns2.crash-once.net"] };
    const headers = { "idempotency-key": "crash-domain-1" };
    expectProblem(await apiWithHooks("POST", "/v1/domains", crashAfterWriting("domains"), { json: body, headers }), 500, "internal");

    const retry = await api("POST", "/v1/domains", { json: body, headers });
    expect(retry.status, retry.text).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    const stored = await api("GET", "/v1/domains/crash-once.com");
    // The replay is the registration's answer: the domain and what it cost.
    expect(retry.body).toEqual({ ...stored.body, price: { currency: "USD", amount: "12.00" } });
    expect(retry.headers.get("etag")).toBe(stored.headers.get("etag"));
  });

  it("the write's batch holds the record: the key is done as soon as the write committed", async () => {
    const body = { name: "Recorded In Batch", email: "in-batch@example.org" };
    const created = await api("POST", "/v1/contacts", { json: body, headers: { "idempotency-key": "in-batch-1" } });
    expect(created.status).toBe(201);
    const rows = await env.DB.prepare("SELECT state, status, body, headers FROM idempotency_keys WHERE state = 'done' AND body LIKE ?")
      .bind('%"in-batch@example.org"%')
      .all<{ state: string; status: number; body: string; headers: string }>();
    expect(rows.results).toHaveLength(1);
    expect(JSON.parse(rows.results[0]!.body)).toEqual(created.body);
    expect(JSON.parse(rows.results[0]!.headers)).toEqual({
      "Content-Type": "application/json",
      Location: created.headers.get("location"),
      ETag: created.headers.get("etag"),
    });
  });

  it("a write that failed leaves its key free: the retry runs it", async () => {
    const headers = { "idempotency-key": "failed-then-retried" };
    const body = { name: "Failed Once", email: "failed-once@example.org" };
    let failed = false;
    const failing = await apiWithHooks(
      "POST",
      "/v1/contacts",
      {
        beforeBatch: (sql) => {
          if (failed || !writesTo(sql, "contacts")) return;
          failed = true;
          throw new Error("simulated failure before the write");
        },
      },
      { json: body, headers },
    );
    expectProblem(failing, 500, "internal");
    const retry = await api("POST", "/v1/contacts", { json: body, headers });
    expect(retry.status, retry.text).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect((await api("GET", "/v1/contacts?email=failed-once@example.org")).body.data).toHaveLength(1);
  });
});
