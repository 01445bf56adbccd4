// Every operation is defined through defineRoute, so the request conventions of contract
// §1 hold everywhere without each route asking for them: unknown query parameters are
// refused (400) even where an operation takes none; a body is read once, within the size
// limit of its media type (413), and only by operations that take one; POSTs honour
// Idempotency-Key after authentication; JSON bodies are strict (415, 400, 422 for unknown
// and read-only fields together with every other problem).
import { createRoute, type RouteConfig, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { type BodyLimits, boundedBody, MAX_JSON_BODY_BYTES } from "./body";
import { idempotentPost } from "./idempotency";
import { strictJsonBody } from "./json-body";
import { strictQuery } from "./query";

const NO_QUERY = z.object({});
const isJson = (mediaType: string) => /^application\/([\w.-]+\+)?json$/.test(mediaType);

export interface RouteOptions {
  /** Body fields the client may not write here: 422 read_only_field rather than unknown_field. */
  readOnly?: readonly string[];
  /** Size limits of the non-JSON media types the operation takes (JSON: MAX_JSON_BODY_BYTES). */
  bodyLimits?: Record<string, number>;
}

export function defineRoute<const R extends RouteConfig>(config: R & RouteOptions) {
  const { readOnly, bodyLimits, ...route } = config;
  const middleware: MiddlewareHandler[] = [strictQuery((route.request?.query as z.ZodObject | undefined) ?? NO_QUERY)];
  const content = route.request?.body?.content ?? {};
  const takesBody = Object.keys(content).length > 0 || route.method === "post";
  if (takesBody) middleware.push(boundedBody({ default: MAX_JSON_BODY_BYTES, ...bodyLimits } as BodyLimits) as MiddlewareHandler);
  if (route.method === "post") middleware.push(idempotentPost as MiddlewareHandler);
  const jsonTypes = Object.keys(content).filter(isJson);
  if (jsonTypes.length > 0) {
    const schema = (content[jsonTypes[0]!] as { schema: z.ZodObject }).schema;
    const otherMediaTypes = Object.keys(content).filter((type) => !isJson(type));
    const optional = route.request?.body?.required === false;
    middleware.push(strictJsonBody(schema, { readOnly: readOnly ?? [], mediaTypes: jsonTypes, otherMediaTypes, optional }) as MiddlewareHandler);
  }
  return createRoute({ ...route, middleware }) as unknown as R & { getRoutingPath(): string };
}
