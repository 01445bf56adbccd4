// The service's own documents: the index, the OpenAPI description, problem types.
import { z } from "@hono/zod-openapi";
import { defineRoute } from "../../http/route";
import { publicErrorResponses } from "../../http/openapi";
import { ApiError, PROBLEMS, problemTypeUri, type ProblemCode } from "../../http/problem";
import { createRouter } from "../../http/router";

export const SERVICE_NAME = "domain-api";
export const SERVICE_VERSION = "1.0.0";

const COLLECTIONS = ["contacts", "domains", "hosts", "zones", "records", "events", "extensions", "repositories", "accounts", "tokens"] as const;

const IndexSchema = z
  .object({
    name: z.string().openapi({ example: SERVICE_NAME }),
    version: z.string().openapi({ example: SERVICE_VERSION }),
    links: z.record(z.string(), z.string()).openapi({ example: { contacts: "/v1/contacts", openapi: "/v1/openapi.json", docs: "/v1/docs" } }),
  })
  .openapi("Index");

const ProblemTypeSchema = z
  .object({
    type: z.string().openapi({ example: "/v1/problems/validation_failed" }),
    code: z.string().openapi({ example: "validation_failed" }),
    status: z.number().int().openapi({ example: 422 }),
    title: z.string().openapi({ example: "Validation failed" }),
    description: z.string().openapi({ example: "One or more fields are invalid; `errors` lists every one." }),
  })
  .openapi("ProblemType");

function describeProblem(code: ProblemCode) {
  const { status, title, about } = PROBLEMS[code];
  return { type: problemTypeUri(code), code, status, title, description: about };
}

// The three documents never change while the Worker runs: built once, they are both the
// answers and the OpenAPI examples of these operations.
const SERVICE_INDEX = {
  name: SERVICE_NAME,
  version: SERVICE_VERSION,
  links: {
    ...Object.fromEntries(COLLECTIONS.map((name) => [name, `/v1/${name}`])),
    me: "/v1/me",
    sweep: "/v1/lifecycle/sweep",
    problems: "/v1/problems",
    openapi: "/v1/openapi.json",
    docs: "/v1/docs",
  },
};
const PROBLEM_TYPES = { data: (Object.keys(PROBLEMS) as ProblemCode[]).map(describeProblem) };

const index = defineRoute({
  operationId: "getIndex",
  access: { scope: "public" },
  method: "get",
  path: "/",
  tags: ["Service"],
  security: [],
  summary: "Service index",
  description: "The service name and version, and links to every collection and to the API documentation. Public.",
  responses: {
    200: { description: "The index.", content: { "application/json": { schema: IndexSchema, example: SERVICE_INDEX } } },
    ...publicErrorResponses(400),
  },
});

const problemTypes = defineRoute({
  operationId: "listProblemTypes",
  access: { scope: "public" },
  method: "get",
  path: "/problems",
  tags: ["Service"],
  security: [],
  summary: "List problem types",
  description: "Every `code` an error response can carry, with its status and meaning.",
  responses: {
    200: {
      description: "All problem types.",
      content: { "application/json": { schema: z.object({ data: z.array(ProblemTypeSchema) }).openapi("ProblemTypeList"), example: PROBLEM_TYPES } },
    },
    ...publicErrorResponses(400),
  },
});

const problemType = defineRoute({
  operationId: "getProblemType",
  access: { scope: "public" },
  method: "get",
  path: "/problems/{code}",
  tags: ["Service"],
  security: [],
  summary: "Describe a problem type",
  description: "The document behind a problem's `type` URI.",
  request: {
    params: z.object({
      code: z.string().openapi({
        param: { name: "code", in: "path" },
        example: "validation_failed",
        description: "A problem `code`, the last segment of a problem's `type` URI.",
      }),
    }),
  },
  responses: {
    200: { description: "The problem type.", content: { "application/json": { schema: ProblemTypeSchema, example: describeProblem("validation_failed") } } },
    ...publicErrorResponses(400, 404),
  },
});

export const metaRouter = createRouter()
  .openapi(index, (c) => c.json(SERVICE_INDEX, 200))
  .openapi(problemTypes, (c) => c.json(PROBLEM_TYPES, 200))
  .openapi(problemType, (c) => {
    const { code } = c.req.valid("param");
    if (!Object.hasOwn(PROBLEMS, code)) throw new ApiError("not_found", `No problem type has the code "${code}".`);
    return c.json(describeProblem(code as ProblemCode), 200);
  });
