// The service's own documents as the OpenAPI description shows them: the index and a
// problem type.
import { z } from "@hono/zod-openapi";
import { SERVICE_NAME, SERVICE_VERSION } from "./service";

export const IndexSchema = z
  .object({
    name: z.string().openapi({ example: SERVICE_NAME }),
    version: z.string().openapi({ example: SERVICE_VERSION }),
    links: z.record(z.string(), z.string()).openapi({ example: { contacts: "/v1/contacts", openapi: "/v1/openapi.json", docs: "/v1/docs" } }),
  })
  .openapi("Index");

export const ProblemTypeSchema = z
  .object({
    type: z.string().openapi({ example: "/v1/problems/validation_failed" }),
    code: z.string().openapi({ example: "validation_failed" }),
    status: z.number().int().openapi({ example: 422 }),
    title: z.string().openapi({ example: "Validation failed" }),
    description: z.string().openapi({ example: "One or more fields are invalid; `errors` lists every one." }),
  })
  .openapi("ProblemType");
