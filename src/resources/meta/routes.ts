// The service's own documents: the index and the problem types, public.
import { z } from "@hono/zod-openapi";
import { publicErrorResponses } from "../../http/openapi";
import { defineRoute } from "../../http/route";
import { IndexSchema, ProblemTypeSchema } from "./schemas";
import { describeProblem, PROBLEM_TYPES, SERVICE_INDEX } from "./service";

export const getIndex = defineRoute({
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

export const listProblemTypes = defineRoute({
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

export const getProblemType = defineRoute({
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
