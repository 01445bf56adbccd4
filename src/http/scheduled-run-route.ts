// The route that does at once what a cron trigger does on its schedule (the lifecycle
// sweep, the events archive, webhook deliveries): a POST whose body is optional and holds
// at most `as_of` (a time a local development server may act at, CLOCK_OVERRIDE), answering
// what the run did. Each such operation declares its access as every route does.
import type { z } from "@hono/zod-openapi";
import type { RouteAccess } from "../access/route-access";
import { JSON_MEDIA_TYPE } from "./json-body";
import { errorResponses } from "./openapi";
import { defineRoute } from "./route";

export function scheduledRunRoute<const P extends string, B extends z.ZodType, R extends z.ZodType>(spec: {
  operationId: string;
  access: RouteAccess;
  path: P;
  tags: string[];
  summary: string;
  description: string;
  /** The optional body: `{ as_of }`. */
  body: B;
  /** What the run did. */
  report: R;
  example: z.input<R>;
}) {
  return defineRoute({
    operationId: spec.operationId,
    access: spec.access,
    method: "post",
    path: spec.path,
    tags: spec.tags,
    summary: spec.summary,
    description: spec.description,
    request: {
      body: {
        required: false,
        description: "Optional: `as_of`.",
        content: { [JSON_MEDIA_TYPE]: { schema: spec.body, example: { as_of: "2030-01-01T00:00:00.000Z" } } },
      },
    },
    responses: {
      200: { description: "What the run did.", content: { [JSON_MEDIA_TYPE]: { schema: spec.report, example: spec.example } } },
      ...errorResponses(400, 413, 415, 422),
    },
  });
}
