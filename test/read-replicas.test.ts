// D1 Sessions (docs/safety.md). Locally there is one database and no replica, so what can be
// shown here is the protocol: every response that used the database carries a bookmark,
// bookmarks only move forward, and a request that sends one back is served from a session
// that starts there (read-your-writes).
import { describe, expect, it } from "vitest";
import { adaAddress, api, expectProblem } from "./helpers";

const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

describe("X-D1-Bookmark", () => {
  it("is returned by writes and reads", async () => {
    const write = await api("POST", "/v1/contacts", { json: { name: "Ada", email: "ada@example.org", address: adaAddress } });
    expect(write.status).toBe(201);
    expect(write.headers.get("x-d1-bookmark")).toMatch(BOOKMARK);
    const read = await api("GET", "/v1/contacts");
    expect(read.headers.get("x-d1-bookmark")).toMatch(BOOKMARK);
  });

  it("sent back, gives a read at least as fresh as the write that returned it", async () => {
    const write = await api("POST", "/v1/contacts", { json: { name: "Grace", email: "grace@example.org" } });
    const bookmark = write.headers.get("x-d1-bookmark")!;
    const read = await api("GET", `/v1/contacts/${write.body.id}`, { headers: { "x-d1-bookmark": bookmark } });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(write.body);
    // Bookmarks are ordered (fixed-width hex): the read's is never older than the one sent.
    expect(read.headers.get("x-d1-bookmark")! >= bookmark).toBe(true);
  });

  it("a later write moves the bookmark forward", async () => {
    const first = await api("POST", "/v1/contacts", { json: { name: "One", email: "one@example.org" } });
    const second = await api("POST", "/v1/contacts", { json: { name: "Two", email: "two@example.org" } });
    expect(second.headers.get("x-d1-bookmark")! > first.headers.get("x-d1-bookmark")!).toBe(true);
  });

  it("that is not a bookmark answers 422 naming the header", async () => {
    const response = await api("GET", "/v1/contacts", { headers: { "x-d1-bookmark": "yesterday" } });
    const problem = expectProblem(response, 422, "validation_failed");
    expect(problem.errors).toEqual([{ field: "X-D1-Bookmark", message: "is not a D1 session bookmark" }]);
  });
});
