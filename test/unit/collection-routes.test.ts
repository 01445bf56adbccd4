// A collection's standard routes, declared once (src/http/collection-routes.ts): what each
// operation takes from the collection's declaration, what it keeps of its own (its access
// above all), and what the factory refuses. The routes of the real collections are checked
// through the served OpenAPI document (test/openapi-contract.test.ts,
// test/authorization-matrix.test.ts).
import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { collectionRoutes } from "../../src/http/collection-routes";
import { listSchema } from "../../src/http/openapi";
import { InRepository } from "../../src/http/params";

const WidgetSchema = z.object({ id: z.string(), name: z.string() });
const WidgetWithSecretSchema = WidgetSchema.extend({ secret: z.string() });
const WidgetListSchema = listSchema(WidgetSchema, "WidgetList");
const WidgetListQuery = z.object({ name: z.string().optional() });
const WIDGET = { id: "wid_1", name: "sprocket" };

const widgets = collectionRoutes({
  path: "/widgets",
  member: { param: "widget", description: "Widget id.", example: "wid_1" },
  tags: ["Widgets"],
  operationIds: { one: "Widget", many: "Widgets" },
  noun: { one: "widget", many: "widgets" },
  schema: WidgetSchema,
  example: WIDGET,
  readOnly: ["id"],
});

const statuses = (route: { responses: object }) => Object.keys(route.responses).map(Number);
/** What the document shows of a route's declared access (defineRoute adds it; the route's type does not say so). */
const xAccess = (route: object) => (route as { "x-access"?: unknown })["x-access"];

describe("a collection's standard routes take their shape from the collection", () => {
  it("list, get, create, update and delete: operation ids, methods, paths, summaries and statuses", () => {
    const list = widgets.list({ access: { scope: "read" }, description: "Widgets.", query: WidgetListQuery, page: WidgetListSchema });
    const get = widgets.get({ access: { scope: "read" }, description: "One widget." });
    const create = widgets.create({ access: { scope: "write" }, description: "New.", body: WidgetSchema, example: WIDGET });
    const update = widgets.update({ access: { scope: "write" }, description: "Change.", body: WidgetSchema.partial(), example: { name: "cog" } });
    const remove = widgets.delete({ access: { scope: "write" }, description: "Gone." });
    expect([list, get, create, update, remove].map((r) => [r.operationId, r.method, r.path, r.summary])).toEqual([
      ["listWidgets", "get", "/widgets", "List widgets"],
      ["getWidget", "get", "/widgets/{widget}", "Get a widget"],
      ["createWidget", "post", "/widgets", "Create a widget"],
      ["updateWidget", "patch", "/widgets/{widget}", "Update a widget"],
      ["deleteWidget", "delete", "/widgets/{widget}", "Delete a widget"],
    ]);
    expect(statuses(list)).toEqual([200, 400, 401, 403, 429, 500, 503]);
    expect(statuses(get)).toEqual([200, 304, 401, 403, 404, 429, 500, 503]);
    expect(statuses(create)).toEqual([201, 400, 401, 403, 409, 413, 415, 422, 429, 500, 503]);
    expect(statuses(update)).toEqual([200, 400, 401, 403, 404, 409, 412, 413, 415, 422, 429, 500, 503]);
    expect(statuses(remove)).toEqual([204, 401, 403, 404, 409, 412, 429, 500, 503]);
    expect(list.responses[200].content["application/json"].example).toEqual({ data: [WIDGET], next_cursor: expect.any(String) });
    expect(create.responses[201].description).toBe("The widget was created.");
    expect(update.request.body.content["application/merge-patch+json"].example).toEqual({ name: "cog" });
  });

  it("create and update declare a 202 only when given `accepted` (a registry's pending answer): the 201's or 200's schema and headers, its own description and example", () => {
    const create = widgets.create({
      access: { scope: "write" },
      description: "New.",
      body: WidgetSchema,
      example: WIDGET,
      accepted: { description: "Left pending.", example: { id: "wid_2", name: "pending" } },
    });
    const update = widgets.update({
      access: { scope: "write" },
      description: "Change.",
      body: WidgetSchema.partial(),
      example: { name: "cog" },
      accepted: { description: "Held.", example: { id: "wid_1", name: "held" } },
    });
    expect(statuses(create)).toEqual([201, 202, 400, 401, 403, 409, 413, 415, 422, 429, 500, 503]);
    expect(statuses(update)).toEqual([200, 202, 400, 401, 403, 404, 409, 412, 413, 415, 422, 429, 500, 503]);
    expect(create.responses[202]).toEqual({
      ...create.responses[201],
      description: "Left pending.",
      content: { "application/json": { schema: WidgetSchema, example: { id: "wid_2", name: "pending" } } },
    });
    expect(Object.keys(create.responses[202]!.headers)).toEqual(["ETag", "Location"]);
    expect(update.responses[202]!.content["application/json"]).toEqual({ schema: WidgetSchema, example: { id: "wid_1", name: "held" } });
    expect(statuses(widgets.create({ access: { scope: "write" }, description: "New.", body: WidgetSchema, example: WIDGET }))).not.toContain(202);
  });

  it("each operation carries the access it declares, shown as x-access", () => {
    const get = widgets.get({ access: { scope: "read", narrow: "visible", records: true }, description: "One widget." });
    const remove = widgets.delete({ access: { scope: "write", operator: true }, description: "Gone." });
    expect(xAccess(get)).toEqual({ scope: "read", operator_only: false, narrow_tokens: "visible", record_rule_tokens: "allowed" });
    expect(xAccess(remove)).toEqual({ scope: "write", operator_only: true, narrow_tokens: "refused", record_rule_tokens: "refused" });
  });

  it("a read documents 304 and says how to get it, unless it is live (conditional: false)", () => {
    const cached = widgets.get({ access: { scope: "read" }, description: "One widget." });
    const live = widgets.get({ access: { scope: "read" }, description: "One widget.", conditional: false });
    expect(cached.description).toMatch(/^One widget\. `If-None-Match`/);
    expect(live.description).toBe("One widget.");
    expect(statuses(live)).not.toContain(304);
  });

  it("an operation states what differs: summary, statuses, answer, read-only fields", () => {
    const create = widgets.create({
      access: { scope: "write" },
      summary: "Forge a widget",
      description: "New.",
      body: WidgetSchema,
      example: WIDGET,
      errors: [400, 422],
      response: { schema: WidgetWithSecretSchema, description: "The widget, with its secret.", example: { ...WIDGET, secret: "s" } },
    });
    expect(create.summary).toBe("Forge a widget");
    expect(statuses(create)).toEqual([201, 400, 401, 403, 422, 429, 500, 503]);
    expect(create.responses[201].content["application/json"]).toMatchObject({ schema: WidgetWithSecretSchema, example: { secret: "s" } });
  });

  it("a list within a parent lives under the parent's path, takes its parameters and answers 404 for a missing parent", () => {
    const within = widgets.listWithin(InRepository, { access: { scope: "read" }, description: "Its widgets.", query: WidgetListQuery, page: WidgetListSchema });
    expect([within.operationId, within.path, within.summary, within.tags]).toEqual([
      "listRepositoryWidgets",
      "/repositories/{repository}/widgets",
      "List the widgets a repository holds",
      ["Repositories"],
    ]);
    expect(statuses(within)).toContain(404);
  });

  it("an answer of another schema without its own example is refused when the routes are declared", () => {
    expect(() =>
      widgets.create({ access: { scope: "write" }, description: "New.", body: WidgetSchema, example: WIDGET, response: { schema: WidgetWithSecretSchema } }),
    ).toThrow("/widgets: a response with a schema of its own needs its own example");
  });

  it("names beginning with a vowel take `an`", () => {
    const accounts = collectionRoutes({
      ...{ path: "/accounts", tags: [], schema: WidgetSchema, example: WIDGET },
      member: { param: "account", description: "", example: "" },
      operationIds: { one: "Account", many: "Accounts" },
      noun: { one: "account", many: "accounts" },
    });
    expect(accounts.get({ access: { scope: "read" }, description: "" }).summary).toBe("Get an account");
  });
});
