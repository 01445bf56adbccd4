// Text the service stores is well-formed Unicode: a lone UTF-16 surrogate (JSON's `\ud800`
// escape) would be stored as U+FFFD, so the answer, its ETag and the event would differ
// from the row. Refused with 422, naming every field.
import { describe, expect, it } from "vitest";
import { adaAddress, api, apiRaw, expectProblem } from "./helpers";

const post = (path: string, text: string) => apiRaw("POST", path, { body: text, headers: { "content-type": "application/json" } });

describe("strings are well-formed Unicode", () => {
  it("a lone surrogate in a field answers 422 naming it, and nothing is created", async () => {
    const response = await post("/v1/contacts", '{"name": "Ada \\ud800", "email": "ada-surrogate@example.org"}');
    const problem = expectProblem(response, 422, "validation_failed");
    expect(problem.errors).toEqual([{ field: "name", message: expect.stringContaining("not well-formed Unicode") }]);
    const list = await api("GET", "/v1/contacts?email=ada-surrogate@example.org");
    expect(list.body.data).toEqual([]);
  });

  it("every field holding one is named, nested ones with their path", async () => {
    const response = await post(
      "/v1/contacts",
      JSON.stringify({ name: "X", email: "x@example.org", address: { ...adaAddress, street: ["ok", "low \udc00 alone"] } }).replace("\\udc00", "\\udc00"),
    );
    const problem = expectProblem(response, 422, "validation_failed");
    expect(problem.errors.map((e: { field: string }) => e.field)).toEqual(["address.street[1]"]);
  });

  it("a pair (an emoji) is well-formed and kept as sent", async () => {
    const response = await post("/v1/contacts", '{"name": "Ada \\ud83d\\ude00", "email": "ada-emoji@example.org"}');
    expect(response.status, response.text).toBe(201);
    expect(response.body.name).toBe("Ada 😀");
  });

  it("a PATCH with a lone surrogate leaves the resource and its ETag as they were", async () => {
    const created = await api("POST", "/v1/contacts", { json: { name: "Kept", email: "kept@example.org" } });
    const patched = await apiRaw("PATCH", `/v1/contacts/${created.body.id}`, {
      body: '{"organization": "\\udbff"}',
      headers: { "content-type": "application/json" },
    });
    expectProblem(patched, 422, "validation_failed");
    const read = await api("GET", `/v1/contacts/${created.body.id}`);
    expect(read.headers.get("etag")).toBe(created.headers.get("etag"));
    expect(read.body.organization).toBeNull();
  });

  it("a body nested 200 000 levels deep is answered without a 5xx", async () => {
    const depth = 200_000;
    const response = await post("/v1/contacts", `{"name": ${"[".repeat(depth)}${"]".repeat(depth)}}`);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });
});
