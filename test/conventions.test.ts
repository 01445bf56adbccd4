// docs/conventions.md (conventions of every endpoint), exercised through /v1, the meta routes
// and /v1/contacts.
import { describe, expect, it } from "vitest";
import { allowedMethods, allPages, api, apiRaw, CONTACT_ID, createContact, expectProblem, RFC3339_MS_UTC } from "./helpers";

const MiB = 1024 * 1024;
const encoder = new TextEncoder();

describe("the index at GET /v1", () => {
  it("answers 200 with the service name, version and links to every collection and the docs", async () => {
    const response = await api("GET", "/v1");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.body).toMatchObject({
      name: expect.any(String),
      version: expect.any(String),
      links: {
        contacts: "/v1/contacts",
        domains: "/v1/domains",
        hosts: "/v1/hosts",
        zones: "/v1/zones",
        records: "/v1/records",
        extensions: "/v1/extensions",
        repositories: "/v1/repositories",
        accounts: "/v1/accounts",
        tokens: "/v1/tokens",
        me: "/v1/me",
        openapi: "/v1/openapi.json",
        docs: "/v1/docs",
      },
    });
    expect(response.body.name.length).toBeGreaterThan(0);
    expect(response.body.version.length).toBeGreaterThan(0);
  });
});

describe("the OpenAPI document at GET /v1/openapi.json", () => {
  it("is OpenAPI 3.1 and lists the contacts paths with their methods", async () => {
    const response = await api("GET", "/v1/openapi.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const doc = response.body;
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    // Paths are relative to the first server URL (`/v1`) or absolute: both mean the same.
    const base: string = doc.servers?.[0]?.url ?? "";
    const paths: Record<string, Record<string, unknown>> = Object.fromEntries(
      Object.entries(doc.paths as Record<string, Record<string, unknown>>).map(([path, item]) => [path.startsWith("/v1/") ? path : base + path, item]),
    );
    const contactPath = Object.keys(paths).find((p) => /^\/v1\/contacts\/\{[^}]+\}$/.test(p));
    expect(Object.keys(paths)).toContain("/v1/contacts");
    expect(contactPath).toBeDefined();
    expect(Object.keys(paths["/v1/contacts"]!)).toEqual(expect.arrayContaining(["get", "post"]));
    expect(Object.keys(paths[contactPath!]!)).toEqual(expect.arrayContaining(["get", "patch", "delete"]));
  });
});

describe("unknown routes", () => {
  it("answer 404 not_found problem JSON", async () => {
    for (const path of ["/nothing", "/v1/nothing-here", "/v2/contacts", "/v1/contacts/con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B/extra"]) {
      const response = await api("GET", path);
      const problem = expectProblem(response, 404, "not_found");
      expect(problem.title).toEqual(expect.any(String));
    }
  });

  it("answer 404, not 405, whatever the method", async () => {
    expectProblem(await api("DELETE", "/v1/nothing-here"), 404, "not_found");
    expectProblem(await api("POST", "/v1/nothing-here", { json: {} }), 404, "not_found");
  });
});

describe("problem details", () => {
  it("carry a type URI that describes the problem", async () => {
    const problem = expectProblem(await api("GET", "/v1/nothing-here"), 404, "not_found");
    const described = await api("GET", problem.type);
    expect(described.status).toBe(200);
    expect(described.body).toMatchObject({ type: problem.type, code: "not_found", status: 404, title: problem.title });
  });
});

describe("X-Request-Id", () => {
  it("is on every response: success, error, 404, 405, 204 and 304", async () => {
    const contact = await createContact({ name: "Request Id", email: "request-id@example.org" });
    const read = await api("GET", `/v1/contacts/${contact.id}`);
    const responses = [
      await api("GET", "/v1"),
      read,
      await api("GET", `/v1/contacts/${contact.id}`, { headers: { "if-none-match": read.headers.get("etag")! } }),
      await api("POST", "/v1/contacts", { json: { name: "" } }),
      await api("GET", "/v1/nothing-here"),
      await api("PUT", `/v1/contacts/${contact.id}`, { json: {} }),
      await api("OPTIONS", "/v1/contacts"),
      await api("HEAD", "/v1/contacts"),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 304, 422, 404, 405, 204, 200]);
    for (const response of responses) expect(response.headers.get("x-request-id")).toMatch(/^\S{8,}$/);
    // Each request gets its own id.
    expect(new Set(responses.map((r) => r.headers.get("x-request-id"))).size).toBe(responses.length);
  });

  it("is the problem's request_id on errors", async () => {
    const response = await api("GET", "/v1/nothing-here");
    expectProblem(response, 404, "not_found");
    expect(response.body.request_id).toBe(response.headers.get("x-request-id"));
  });

  it("echoes a sane client-sent X-Request-Id", async () => {
    const sent = "edge-7f3a.91:req_42";
    const ok = await api("GET", "/v1", { headers: { "x-request-id": sent } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-request-id")).toBe(sent);
    const error = await api("GET", "/v1/nothing-here", { headers: { "x-request-id": sent } });
    expectProblem(error, 404, "not_found");
    expect(error.headers.get("x-request-id")).toBe(sent);
    expect(error.body.request_id).toBe(sent);
  });

  it("replaces an insane client-sent X-Request-Id with its own", async () => {
    for (const sent of ["x".repeat(500), "<script>alert(1)</script>", "a b c", "id/with/slashes"]) {
      const response = await api("GET", "/v1/nothing-here", { headers: { "x-request-id": sent } });
      expectProblem(response, 404, "not_found");
      const id = response.headers.get("x-request-id");
      expect(id).toMatch(/^[A-Za-z0-9._:-]{8,128}$/);
      expect(id).not.toBe(sent);
      expect(response.body.request_id).toBe(id);
    }
  });
});

describe("unsupported methods", () => {
  it("PUT on a contact answers 405 method_not_allowed with Allow: GET, HEAD, PATCH, DELETE, OPTIONS", async () => {
    const contact = await createContact({ name: "Put Target", email: "put@example.org" });
    const response = await api("PUT", `/v1/contacts/${contact.id}`, { json: { name: "Replaced" } });
    const problem = expectProblem(response, 405, "method_not_allowed");
    expect(allowedMethods(response)).toEqual(["DELETE", "GET", "HEAD", "OPTIONS", "PATCH"]);
    expect(problem.detail).toContain("PATCH");
    // Nothing was replaced.
    expect((await api("GET", `/v1/contacts/${contact.id}`)).body.name).toBe("Put Target");
  });

  it("POST on /v1 answers 405 with Allow: GET, HEAD, OPTIONS", async () => {
    const response = await api("POST", "/v1", { json: {} });
    expectProblem(response, 405, "method_not_allowed");
    expect(allowedMethods(response)).toEqual(["GET", "HEAD", "OPTIONS"]);
  });

  it("DELETE and PATCH on the contacts collection answer 405 with Allow: GET, HEAD, POST, OPTIONS", async () => {
    for (const method of ["DELETE", "PATCH", "PUT"]) {
      const response = await api(method, "/v1/contacts", { json: {} });
      expectProblem(response, 405, "method_not_allowed");
      expect(allowedMethods(response)).toEqual(["GET", "HEAD", "OPTIONS", "POST"]);
    }
  });

  it("POST on /v1/openapi.json answers 405", async () => {
    const response = await api("POST", "/v1/openapi.json", { json: {} });
    expectProblem(response, 405, "method_not_allowed");
    expect(allowedMethods(response)).toEqual(["GET", "HEAD", "OPTIONS"]);
  });
});

describe("OPTIONS", () => {
  it("answers 204 with Allow and no body", async () => {
    const contact = await createContact({ name: "Options Target", email: "options@example.org" });
    const cases: [string, string[]][] = [
      ["/v1", ["GET", "HEAD", "OPTIONS"]],
      ["/v1/contacts", ["GET", "HEAD", "OPTIONS", "POST"]],
      [`/v1/contacts/${contact.id}`, ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH"]],
    ];
    for (const [path, allow] of cases) {
      const response = await api("OPTIONS", path);
      expect(response.status, path).toBe(204);
      expect(allowedMethods(response), path).toEqual(allow);
      expect(response.text).toBe("");
    }
  });
});

describe("HEAD", () => {
  it("works wherever GET does: same status and headers, ETag included, empty body", async () => {
    const contact = await createContact({ name: "Head Target", email: "head@example.org" });
    for (const path of ["/v1", "/v1/openapi.json", "/v1/contacts?limit=1", `/v1/contacts/${contact.id}`]) {
      const get = await api("GET", path);
      const head = await api("HEAD", path);
      expect(head.status, path).toBe(get.status);
      expect(head.status, path).toBe(200);
      expect(head.headers.get("content-type"), path).toBe(get.headers.get("content-type"));
      expect(head.headers.get("etag"), path).toBe(get.headers.get("etag"));
      expect(head.headers.get("link"), path).toBe(get.headers.get("link"));
      expect(head.text, path).toBe("");
    }
    const head = await api("HEAD", `/v1/contacts/${contact.id}`);
    expect(head.headers.get("etag")).toMatch(/^"[^"]+"$/);
  });

  it("answers 404 with an empty body for an unknown contact", async () => {
    const response = await api("HEAD", "/v1/contacts/con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
    expect(response.headers.get("x-request-id")).toBeTruthy();
    expect(response.text).toBe("");
  });

  it("answers 304 when If-None-Match matches", async () => {
    const contact = await createContact({ name: "Head Cached", email: "head-cached@example.org" });
    const get = await api("GET", `/v1/contacts/${contact.id}`);
    const head = await api("HEAD", `/v1/contacts/${contact.id}`, { headers: { "if-none-match": get.headers.get("etag")! } });
    expect(head.status).toBe(304);
    expect(head.text).toBe("");
  });
});

describe("response media types", () => {
  it("are application/json; charset=utf-8 for resources and lists", async () => {
    const created = await api("POST", "/v1/contacts", { json: { name: "Charset", email: "charset@example.org" } });
    expect(created.status).toBe(201);
    expect(created.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const list = await api("GET", "/v1/contacts?limit=1");
    expect(list.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const one = await api("GET", `/v1/contacts/${created.body.id}`);
    expect(one.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const patched = await api("PATCH", `/v1/contacts/${created.body.id}`, { json: { name: "Charset 2" } });
    expect(patched.headers.get("content-type")).toBe("application/json; charset=utf-8");
  });
});

describe("request media types", () => {
  const body = JSON.stringify({ name: "Media Type", email: "media@example.org" });

  it("POST without Content-Type answers 415 unsupported_media_type", async () => {
    const response = await apiRaw("POST", "/v1/contacts", { body: encoder.encode(body) });
    expect(response.headers.get("x-request-id")).toBeTruthy();
    expectProblem(response, 415, "unsupported_media_type");
  });

  it("POST with text/plain answers 415 unsupported_media_type", async () => {
    expectProblem(await api("POST", "/v1/contacts", { body, headers: { "content-type": "text/plain" } }), 415, "unsupported_media_type");
  });

  it("POST with a form or merge-patch media type answers 415 (merge patch is for PATCH only)", async () => {
    for (const type of ["application/x-www-form-urlencoded", "application/merge-patch+json", "application/jsonx"]) {
      expectProblem(await api("POST", "/v1/contacts", { body, headers: { "content-type": type } }), 415, "unsupported_media_type");
    }
  });

  it("POST accepts application/json with parameters and in any case", async () => {
    for (const [i, type] of ["application/json; charset=utf-8", "Application/JSON"].entries()) {
      const response = await api("POST", "/v1/contacts", {
        body: JSON.stringify({ name: "Media Type", email: `media${i}@example.org` }),
        headers: { "content-type": type },
      });
      expect(response.status, response.text).toBe(201);
    }
  });

  it("PATCH accepts application/merge-patch+json", async () => {
    const contact = await createContact({ name: "Merge Media", email: "merge-media@example.org" });
    const response = await api("PATCH", `/v1/contacts/${contact.id}`, {
      body: JSON.stringify({ organization: "Merged Ltd" }),
      headers: { "content-type": "application/merge-patch+json" },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ id: contact.id, organization: "Merged Ltd", name: "Merge Media" });
  });

  it("PATCH with text/plain or without Content-Type answers 415", async () => {
    const contact = await createContact({ name: "Patch Media", email: "patch-media@example.org" });
    const patch = JSON.stringify({ organization: "Nope Ltd" });
    expectProblem(await api("PATCH", `/v1/contacts/${contact.id}`, { body: patch, headers: { "content-type": "text/plain" } }), 415, "unsupported_media_type");
    expectProblem(await apiRaw("PATCH", `/v1/contacts/${contact.id}`, { body: encoder.encode(patch) }), 415, "unsupported_media_type");
    expect((await api("GET", `/v1/contacts/${contact.id}`)).body.organization).toBeNull();
  });
});

describe("malformed JSON bodies", () => {
  it("answer 400 invalid_json for unparsable text, an empty body and any JSON that is not an object", async () => {
    for (const body of ['{"name": "Ada", ', "", "not json", "[]", '[{"name":"Ada"}]', '"a string"', "42", "null", "true"]) {
      const response = await api("POST", "/v1/contacts", { body, headers: { "content-type": "application/json" } });
      expectProblem(response, 400, "invalid_json");
    }
  });

  it("answer 400 invalid_json on PATCH too", async () => {
    const contact = await createContact({ name: "Json Patch", email: "json-patch@example.org" });
    for (const body of ["{", "[]", '"x"']) {
      expectProblem(
        await api("PATCH", `/v1/contacts/${contact.id}`, { body, headers: { "content-type": "application/merge-patch+json" } }),
        400,
        "invalid_json",
      );
    }
  });

  it("answer 400 invalid_json for a body that is not UTF-8", async () => {
    const bytes = new Uint8Array([...encoder.encode('{"name":"'), 0xff, 0xfe, ...encoder.encode('","email":"x@example.org"}')]);
    expectProblem(await apiRaw("POST", "/v1/contacts", { body: bytes, headers: { "content-type": "application/json" } }), 400, "invalid_json");
  });
});

describe("unknown body fields", () => {
  it("answer 422 unknown_field naming every one", async () => {
    const response = await api("POST", "/v1/contacts", { json: { name: "Ada", email: "unknown@example.org", nickname: "A", favourite: 1 } });
    const problem = expectProblem(response, 422, "unknown_field");
    expect(problem.errors).toHaveLength(2);
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        { field: "nickname", message: expect.any(String) },
        { field: "favourite", message: expect.any(String) },
      ]),
    );
    // Nothing was created.
    expect((await api("GET", "/v1/contacts?email=unknown@example.org")).body.data).toEqual([]);
  });

  it("answer 422 unknown_field on PATCH and change nothing", async () => {
    const contact = await createContact({ name: "Unknown Patch", email: "unknown-patch@example.org" });
    const problem = expectProblem(await api("PATCH", `/v1/contacts/${contact.id}`, { json: { name: "Changed", colour: "red" } }), 422, "unknown_field");
    expect(problem.errors).toEqual([{ field: "colour", message: expect.any(String) }]);
    expect((await api("GET", `/v1/contacts/${contact.id}`)).body.name).toBe("Unknown Patch");
  });

  it("are named by their path when nested (address.foo)", async () => {
    const response = await api("POST", "/v1/contacts", { json: { name: "Ada", email: "nested@example.org", address: { city: "London", foo: "bar" } } });
    const problem = expectProblem(response, 422, "unknown_field");
    expect(problem.errors).toEqual([{ field: "address.foo", message: expect.any(String) }]);
  });
});

describe("read-only body fields", () => {
  it("answer 422 read_only_field naming id, created_at, updated_at and status", async () => {
    const response = await api("POST", "/v1/contacts", {
      json: {
        name: "Ada",
        email: "read-only@example.org",
        id: "con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B",
        created_at: "2020-01-01T00:00:00.000Z",
        updated_at: "2020-01-01T00:00:00.000Z",
        status: ["ok"],
      },
    });
    const problem = expectProblem(response, 422, "read_only_field");
    expect(problem.errors.map((e: { field: string }) => e.field).sort()).toEqual(["created_at", "id", "status", "updated_at"]);
    for (const error of problem.errors) expect(error.message).toEqual(expect.any(String));
  });

  it("answer 422 read_only_field on PATCH and change nothing", async () => {
    const contact = await createContact({ name: "Read Only Patch", email: "read-only-patch@example.org" });
    const problem = expectProblem(await api("PATCH", `/v1/contacts/${contact.id}`, { json: { id: "con_X", name: "Changed" } }), 422, "read_only_field");
    expect(problem.errors).toEqual([{ field: "id", message: expect.any(String) }]);
    expect((await api("GET", `/v1/contacts/${contact.id}`)).body).toEqual(contact);
  });
});

describe("the 1 MiB limit on JSON bodies", () => {
  const envelope = (pad: number) => `{"name":"Big Body","email":"big@example.org"${" ".repeat(pad)}}`;
  const padFor = (size: number) => size - envelope(0).length;

  it("answers 413 payload_too_large for a body over 1 MiB", async () => {
    const body = envelope(padFor(MiB + 1));
    expect(encoder.encode(body).length).toBe(MiB + 1);
    expectProblem(await api("POST", "/v1/contacts", { body, headers: { "content-type": "application/json" } }), 413, "payload_too_large");
    expectProblem(await api("POST", "/v1/contacts", { json: { name: "x".repeat(2 * MiB), email: "big@example.org" } }), 413, "payload_too_large");
  });

  it("answers 413 for a streamed body over 1 MiB that declares no length", async () => {
    const body = encoder.encode(`{"name":"Streamed","email":"streamed@example.org"${" ".repeat(MiB)}}`);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < body.length; at += 64 * 1024) controller.enqueue(body.slice(at, at + 64 * 1024));
        controller.close();
      },
    });
    const response = await apiRaw("POST", "/v1/contacts", { body: stream, headers: { "content-type": "application/json" } });
    expectProblem(response, 413, "payload_too_large");
  });

  it("accepts a body of exactly 1 MiB", async () => {
    const body = envelope(padFor(MiB));
    expect(encoder.encode(body).length).toBe(MiB);
    const response = await api("POST", "/v1/contacts", { body, headers: { "content-type": "application/json" } });
    expect(response.status, response.text.slice(0, 500)).toBe(201);
    expect(response.body).toMatchObject({ name: "Big Body", email: "big@example.org" });
  });
});

describe("unknown query parameters", () => {
  it("answer 400 invalid_query naming the allowed ones", async () => {
    const response = await api("GET", "/v1/contacts?colour=red&limit=2");
    const problem = expectProblem(response, 400, "invalid_query");
    expect(problem.errors).toEqual([{ field: "colour", message: expect.any(String) }]);
    for (const allowed of ["limit", "cursor", "email", "q"]) expect(problem.detail).toContain(allowed);
  });

  describe("on single-resource operations and creation", () => {
    const cases: [string, (id: string) => string, unknown?][] = [
      ["GET", (id) => `/v1/contacts/${id}?colour=red`],
      ["PATCH", (id) => `/v1/contacts/${id}?colour=red`, { name: "Changed" }],
      ["DELETE", (id) => `/v1/contacts/${id}?colour=red`],
      ["POST", () => "/v1/contacts?colour=red", { name: "Query Created", email: "query-created@example.org" }],
    ];
    for (const [method, pathOf, json] of cases) {
      it(`${method} answers 400 invalid_query and does nothing`, async () => {
        const contact = await createContact({ name: "Query Target", email: `query-${method.toLowerCase()}@example.org` });
        const response = await api(method, pathOf(contact.id), json === undefined ? {} : { json });
        const problem = expectProblem(response, 400, "invalid_query");
        expect(problem.errors).toEqual([{ field: "colour", message: expect.any(String) }]);
        expect((await api("GET", `/v1/contacts/${contact.id}`)).body).toEqual(contact);
        expect((await api("GET", "/v1/contacts?email=query-created@example.org")).body.data).toEqual([]);
      });
    }

    it("HEAD answers 400 with an empty body", async () => {
      const contact = await createContact({ name: "Query Target", email: "query-head@example.org" });
      const response = await api("HEAD", `/v1/contacts/${contact.id}?colour=red`);
      expect(response.status).toBe(400);
      expect(response.text).toBe("");
    });
  });

  it("answer 400 invalid_query on the index too", async () => {
    const problem = expectProblem(await api("GET", "/v1?colour=red"), 400, "invalid_query");
    expect(problem.errors).toEqual([{ field: "colour", message: expect.any(String) }]);
  });
});

describe("repeated query parameters", () => {
  it("answer 400 invalid_query naming the parameter", async () => {
    const problem = expectProblem(await api("GET", "/v1/contacts?limit=2&limit=3"), 400, "invalid_query");
    expect(problem.errors).toEqual([{ field: "limit", message: expect.any(String) }]);
    const q = expectProblem(await api("GET", "/v1/contacts?q=a&q=b"), 400, "invalid_query");
    expect(q.errors).toEqual([{ field: "q", message: expect.any(String) }]);
  });
});

describe("the limit parameter", () => {
  it("outside 1–200 or not a whole number answers 400 invalid_query naming limit", async () => {
    for (const limit of ["0", "201", "abc", "-1", "2.5", "", "1e2", "99999999999999999999"]) {
      const response = await api("GET", `/v1/contacts?limit=${encodeURIComponent(limit)}`);
      const problem = expectProblem(response, 400, "invalid_query");
      expect(problem.errors, `limit=${limit}`).toEqual([{ field: "limit", message: expect.any(String) }]);
    }
  });

  it("accepts 1 and 200", async () => {
    for (const limit of [1, 200]) {
      const response = await api("GET", `/v1/contacts?limit=${limit}`);
      expect(response.status).toBe(200);
      expect(response.body.data.length).toBeLessThanOrEqual(limit);
    }
  });
});

describe("pagination", () => {
  // Contacts of this describe are found by a name no other test uses.
  const tag = "Pagerzz";

  it("pages with limit, next_cursor and Link rel=next, with no duplicates and no gaps", async () => {
    const created: string[] = [];
    for (let i = 1; i <= 7; i++) created.push((await createContact({ name: `${tag} ${i}`, email: `pager${i}@example.org` })).id);

    const first = await api("GET", `/v1/contacts?q=${tag}&limit=3`);
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(["data", "next_cursor"]);
    expect(first.body.data.map((c: { id: string }) => c.id)).toEqual(created.slice(0, 3));
    expect(first.body.next_cursor).toEqual(expect.any(String));
    expect(first.headers.get("link")).toBe(`</v1/contacts?q=${tag}&limit=3&cursor=${first.body.next_cursor}>; rel="next"`);

    const { pages, items } = await allPages(`/v1/contacts?q=${tag}&limit=3`);
    expect(pages.map((p) => p.data.length)).toEqual([3, 3, 1]);
    expect(items.map((c) => c.id)).toEqual(created);
    const last = pages[pages.length - 1]!;
    expect(last.next_cursor).toBeNull();
    expect(last.link).toBeNull();
    for (const page of pages.slice(0, -1)) expect(page.link).toMatch(/^<\/v1\/contacts\?[^>]*cursor=[^>&]+>; rel="next"$/);
  });

  it('Link on an unfiltered list is exactly </v1/contacts?limit=N&cursor=…>; rel="next"', async () => {
    const first = await api("GET", "/v1/contacts?limit=3");
    expect(first.body.next_cursor).toEqual(expect.any(String));
    expect(first.headers.get("link")).toBe(`</v1/contacts?limit=3&cursor=${first.body.next_cursor}>; rel="next"`);
    // Following the Link gives the next page.
    const next = await api("GET", first.headers.get("link")!.slice(1, first.headers.get("link")!.indexOf(">")));
    expect(next.status).toBe(200);
    expect(next.body.data[0].id > first.body.data[2].id).toBe(true);
  });

  it("is in creation order (id ascending) by default", async () => {
    const { items } = await allPages("/v1/contacts?limit=200");
    const ids = items.map((c) => c.id);
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("shows rows inserted while paging later, without repeating any", async () => {
    const first = await api("GET", `/v1/contacts?q=${tag}&limit=3`);
    const seen: string[] = first.body.data.map((c: { id: string }) => c.id);
    const inserted = await createContact({ name: `${tag} inserted`, email: "pager-inserted@example.org" });
    let cursor: string | null = first.body.next_cursor;
    while (cursor) {
      const page = await api("GET", `/v1/contacts?q=${tag}&limit=3&cursor=${cursor}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((c: { id: string }) => c.id));
      cursor = page.body.next_cursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(8);
    expect(seen[seen.length - 1]).toBe(inserted.id);
  });

  it("keeps working when the limit changes between pages", async () => {
    const first = await api("GET", `/v1/contacts?q=${tag}&limit=2`);
    const second = await api("GET", `/v1/contacts?q=${tag}&limit=5&cursor=${first.body.next_cursor}`);
    expect(second.status).toBe(200);
    expect(second.body.data).toHaveLength(5);
    expect(second.body.data[0].id > first.body.data[1].id).toBe(true);
  });

  it("answers 400 invalid_cursor for a tampered cursor", async () => {
    const first = await api("GET", `/v1/contacts?q=${tag}&limit=3`);
    const cursor: string = first.body.next_cursor;
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    const [payload, mac] = cursor.split(".") as [string, string];
    // A cursor that points at the first row instead, with the old signature.
    const forged = btoa(JSON.stringify([null, "con_00000000000000000000000000"]))
      .replace(/=+$/, "")
      .replace(/\+/g, "-")
      .replace(/\//g, "_");
    for (const bad of [flip(cursor, 0), flip(cursor, cursor.length - 1), `${forged}.${mac}`, payload, `${cursor}.x`, "garbage", "", "%%%"]) {
      const response = await api("GET", `/v1/contacts?q=${tag}&limit=3&cursor=${encodeURIComponent(bad)}`);
      expectProblem(response, 400, "invalid_cursor");
    }
  });

  it("answers 400 invalid_cursor for a cursor used with other filters", async () => {
    const first = await api("GET", "/v1/contacts?limit=3");
    const cursor: string = first.body.next_cursor;
    expectProblem(await api("GET", `/v1/contacts?limit=3&q=${tag}&cursor=${cursor}`), 400, "invalid_cursor");
    expectProblem(await api("GET", `/v1/contacts?limit=3&email=pager1@example.org&cursor=${cursor}`), 400, "invalid_cursor");
    const filtered = await api("GET", `/v1/contacts?q=${tag}&limit=3`);
    expectProblem(await api("GET", `/v1/contacts?limit=3&cursor=${filtered.body.next_cursor}`), 400, "invalid_cursor");
    expectProblem(await api("GET", `/v1/contacts?q=Other&limit=3&cursor=${filtered.body.next_cursor}`), 400, "invalid_cursor");
  });

  it("answers 400 invalid_cursor for a cursor of another list", async () => {
    const first = await api("GET", "/v1/contacts?limit=3");
    const foreign = await api("GET", `/v1/repositories/verisign/contacts?limit=3&cursor=${first.body.next_cursor}`);
    expectProblem(foreign, 400, "invalid_cursor");
  });

  it("defaults to 50 rows a page", async () => {
    const { items } = await allPages("/v1/contacts?limit=200");
    for (let i = items.length; i < 53; i++) await createContact({ name: `Filler ${i}`, email: `filler${i}@example.org` });
    const response = await api("GET", "/v1/contacts");
    expect(response.status).toBe(200);
    expect(response.body.data).toHaveLength(50);
    expect(response.body.next_cursor).toEqual(expect.any(String));
    expect(response.headers.get("link")).toBe(`</v1/contacts?cursor=${response.body.next_cursor}>; rel="next"`);
  });
});

describe("ETags", () => {
  it("GET returns an ETag, and If-None-Match with it answers 304 with an empty body", async () => {
    const contact = await createContact({ name: "Etag Read", email: "etag-read@example.org" });
    const read = await api("GET", `/v1/contacts/${contact.id}`);
    const etag = read.headers.get("etag")!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const cached = await api("GET", `/v1/contacts/${contact.id}`, { headers: { "if-none-match": etag } });
    expect(cached.status).toBe(304);
    expect(cached.text).toBe("");
    expect(cached.headers.get("etag")).toBe(etag);
  });

  it("If-None-Match uses weak comparison, takes lists and *, and a stale tag gets 200", async () => {
    const contact = await createContact({ name: "Etag Lists", email: "etag-lists@example.org" });
    const etag = (await api("GET", `/v1/contacts/${contact.id}`)).headers.get("etag")!;
    for (const header of [`W/${etag}`, `"other", ${etag}`, "*"]) {
      expect((await api("GET", `/v1/contacts/${contact.id}`, { headers: { "if-none-match": header } })).status, header).toBe(304);
    }
    const fresh = await api("GET", `/v1/contacts/${contact.id}`, { headers: { "if-none-match": '"stale"' } });
    expect(fresh.status).toBe(200);
    expect(fresh.body).toEqual(contact);
  });

  it("the ETag of POST and PATCH responses is the one GET returns", async () => {
    const created = await api("POST", "/v1/contacts", { json: { name: "Etag Write", email: "etag-write@example.org" } });
    expect((await api("GET", `/v1/contacts/${created.body.id}`)).headers.get("etag")).toBe(created.headers.get("etag"));
    const patched = await api("PATCH", `/v1/contacts/${created.body.id}`, { json: { name: "Etag Written" } });
    expect(patched.headers.get("etag")).not.toBe(created.headers.get("etag"));
    expect((await api("GET", `/v1/contacts/${created.body.id}`)).headers.get("etag")).toBe(patched.headers.get("etag"));
  });
});

describe("If-Match", () => {
  it("PATCH with a wrong If-Match answers 412 precondition_failed and changes nothing", async () => {
    const contact = await createContact({ name: "If Match", email: "if-match@example.org" });
    for (const header of ['"1-wrong"', '"999-abc"', "W/" + '"1-abc"', "garbage"]) {
      const response = await api("PATCH", `/v1/contacts/${contact.id}`, { json: { name: "Changed" }, headers: { "if-match": header } });
      expectProblem(response, 412, "precondition_failed");
    }
    expect((await api("GET", `/v1/contacts/${contact.id}`)).body).toEqual(contact);
  });

  it("PATCH with the right If-Match answers 200 with the new resource and a new ETag", async () => {
    const created = await api("POST", "/v1/contacts", { json: { name: "If Match Right", email: "if-match-right@example.org" } });
    const etag = created.headers.get("etag")!;
    const response = await api("PATCH", `/v1/contacts/${created.body.id}`, { json: { name: "If Match Changed" }, headers: { "if-match": etag } });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ id: created.body.id, name: "If Match Changed" });
    expect(response.headers.get("etag")).toMatch(/^"[^"]+"$/);
    expect(response.headers.get("etag")).not.toBe(etag);
    // The old tag is now stale.
    const again = await api("PATCH", `/v1/contacts/${created.body.id}`, { json: { name: "Lost Update" }, headers: { "if-match": etag } });
    expectProblem(again, 412, "precondition_failed");
    expect((await api("GET", `/v1/contacts/${created.body.id}`)).body.name).toBe("If Match Changed");
  });

  it("If-Match: * matches any current version", async () => {
    const contact = await createContact({ name: "If Match Star", email: "if-match-star@example.org" });
    const response = await api("PATCH", `/v1/contacts/${contact.id}`, { json: { name: "Star Changed" }, headers: { "if-match": "*" } });
    expect(response.status).toBe(200);
  });

  it("DELETE with a stale If-Match answers 412 and keeps the resource; with the current one 204", async () => {
    const created = await api("POST", "/v1/contacts", { json: { name: "If Match Delete", email: "if-match-delete@example.org" } });
    const stale = created.headers.get("etag")!;
    const patched = await api("PATCH", `/v1/contacts/${created.body.id}`, { json: { organization: "New Org" } });
    expectProblem(await api("DELETE", `/v1/contacts/${created.body.id}`, { headers: { "if-match": stale } }), 412, "precondition_failed");
    expect((await api("GET", `/v1/contacts/${created.body.id}`)).status).toBe(200);
    const deleted = await api("DELETE", `/v1/contacts/${created.body.id}`, { headers: { "if-match": patched.headers.get("etag")! } });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expectProblem(await api("GET", `/v1/contacts/${created.body.id}`), 404, "not_found");
  });
});

describe("JSON Merge Patch", () => {
  const full = {
    name: "Merge Target",
    organization: "Merge Ltd",
    email: "merge@example.org",
    phone: "+44.2071234567",
    fax: "+44.2071234568",
    address: { street: ["1 First Street", "Floor 2"], city: "London", state: "Greater London", postal_code: "N1 9GU", country_code: "GB" },
    privacy: true,
  };

  it("leaves absent fields unchanged", async () => {
    const contact = await createContact({ ...full, email: "merge-absent@example.org" });
    const response = await api("PATCH", `/v1/contacts/${contact.id}`, { json: { privacy: false } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...contact, privacy: false, updated_at: response.body.updated_at });
  });

  it("clears an optional field with null", async () => {
    const contact = await createContact({ ...full, email: "merge-null@example.org" });
    const response = await api("PATCH", `/v1/contacts/${contact.id}`, { json: { organization: null, phone: null, fax: null } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...contact, organization: null, phone: null, fax: null, updated_at: response.body.updated_at });
    expect((await api("GET", `/v1/contacts/${contact.id}`)).body).toEqual(response.body);
  });

  it("merges nested objects: changing only the city keeps the street", async () => {
    const contact = await createContact({ ...full, email: "merge-nested@example.org" });
    const response = await api("PATCH", `/v1/contacts/${contact.id}`, { json: { address: { city: "Manchester" } } });
    expect(response.status).toBe(200);
    expect(response.body.address).toEqual({ ...contact.address, city: "Manchester" });
  });

  it("clears one nested field with null and keeps the others", async () => {
    const contact = await createContact({ ...full, email: "merge-nested-null@example.org" });
    const response = await api("PATCH", `/v1/contacts/${contact.id}`, { json: { address: { state: null } } });
    expect(response.status).toBe(200);
    expect(response.body.address).toEqual({ ...contact.address, state: null });
  });

  it("clears the whole address with address: null", async () => {
    const contact = await createContact({ ...full, email: "merge-address-null@example.org" });
    const response = await api("PATCH", `/v1/contacts/${contact.id}`, { json: { address: null } });
    expect(response.status).toBe(200);
    expect(response.body.address).toEqual({ street: [], city: null, state: null, postal_code: null, country_code: null });
    expect(response.body.name).toBe(full.name);
  });

  it("replaces arrays whole", async () => {
    const contact = await createContact({ ...full, email: "merge-array@example.org" });
    const response = await api("PATCH", `/v1/contacts/${contact.id}`, { json: { address: { street: ["9 Other Road"] } } });
    expect(response.status).toBe(200);
    expect(response.body.address).toEqual({ ...contact.address, street: ["9 Other Road"] });
    const cleared = await api("PATCH", `/v1/contacts/${contact.id}`, { json: { address: { street: null } } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.address.street).toEqual([]);
  });

  it("an empty patch {} is a no-op: 200, same updated_at, same ETag", async () => {
    const created = await api("POST", "/v1/contacts", { json: { ...full, email: "merge-empty@example.org" } });
    const response = await api("PATCH", `/v1/contacts/${created.body.id}`, { json: {} });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(created.body);
    expect(response.headers.get("etag")).toBe(created.headers.get("etag"));
  });

  it("a patch that changes nothing keeps updated_at and the ETag", async () => {
    const created = await api("POST", "/v1/contacts", { json: { ...full, email: "merge-same@example.org" } });
    const response = await api("PATCH", `/v1/contacts/${created.body.id}`, { json: { name: full.name, address: { city: "London" } } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(created.body);
    expect(response.headers.get("etag")).toBe(created.headers.get("etag"));
  });

  it("a real change moves updated_at forward and keeps created_at", async () => {
    const contact = await createContact({ ...full, email: "merge-time@example.org" });
    const response = await api("PATCH", `/v1/contacts/${contact.id}`, { json: { name: "Merge Renamed" } });
    expect(response.status).toBe(200);
    expect(response.body.created_at).toBe(contact.created_at);
    expect(response.body.updated_at).toMatch(RFC3339_MS_UTC);
    expect(response.body.updated_at >= contact.updated_at).toBe(true);
  });

  it("null on a required field (name, email) answers 422 validation_failed naming it", async () => {
    const contact = await createContact({ ...full, email: "merge-required@example.org" });
    const response = await api("PATCH", `/v1/contacts/${contact.id}`, { json: { name: null, email: null } });
    const problem = expectProblem(response, 422, "validation_failed");
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        { field: "name", message: expect.any(String) },
        { field: "email", message: expect.any(String) },
      ]),
    );
    expect((await api("GET", `/v1/contacts/${contact.id}`)).body).toEqual(contact);
  });

  it("values are validated as on create", async () => {
    const contact = await createContact({ ...full, email: "merge-validate@example.org" });
    const response = await api("PATCH", `/v1/contacts/${contact.id}`, { json: { email: "nope", address: { country_code: "XX" } } });
    const problem = expectProblem(response, 422, "validation_failed");
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        { field: "email", message: expect.any(String) },
        { field: "address.country_code", message: expect.any(String) },
      ]),
    );
  });
});

describe("timestamps", () => {
  it("are RFC 3339, UTC, with milliseconds", async () => {
    const contact = await createContact({ name: "Timestamps", email: "timestamps@example.org" });
    expect(contact.created_at).toMatch(RFC3339_MS_UTC);
    expect(contact.updated_at).toMatch(RFC3339_MS_UTC);
    expect(new Date(contact.created_at).toISOString()).toBe(contact.created_at);
  });
});

describe("ids", () => {
  it("are con_ followed by 26 Crockford base-32 characters, in creation order", async () => {
    const a = await createContact({ name: "Id A", email: "id-a@example.org" });
    const b = await createContact({ name: "Id B", email: "id-b@example.org" });
    expect(a.id).toMatch(CONTACT_ID);
    expect(b.id).toMatch(CONTACT_ID);
    expect(b.id > a.id).toBe(true);
  });
});
