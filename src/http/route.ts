// Every operation is defined through defineRoute, so the request conventions of contract
// §1 hold everywhere without each route asking for them: unknown query parameters are
// refused (400) even where an operation takes none, and JSON bodies are strict (415, 413,
// 400, 422 for unknown and read-only fields).
import { createRoute, z, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { strictJsonBody } from "./json-body";
import { strictQuery } from "./query";

const NO_QUERY = z.object({});
const isJson = (mediaType: string) => /^application\/([\w.-]+\+)?json$/.test(mediaType);

export function defineRoute<const R extends RouteConfig>(config: R & { readOnly?: readonly string[] }) {
  const { readOnly, ...route } = config;
  const middleware: MiddlewareHandler[] = [strictQuery((route.request?.query as z.ZodObject | undefined) ?? NO_QUERY)];
  const content = route.request?.body?.content ?? {};
  const jsonTypes = Object.keys(content).filter(isJson);
  if (jsonTypes.length > 0) {
    const schema = (content[jsonTypes[0]!] as { schema: z.ZodObject }).schema;
    const otherMediaTypes = Object.keys(content).filter((type) => !isJson(type));
    middleware.push(strictJsonBody(schema, { readOnly: readOnly ?? [], mediaTypes: jsonTypes, otherMediaTypes }));
  }
  return createRoute({ ...route, middleware }) as unknown as R & { getRoutingPath(): string };
}
