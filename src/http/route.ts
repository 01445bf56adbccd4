// Every operation is defined through defineRoute, so the request conventions
// (docs/conventions.md) hold everywhere without each route asking for them: who may call it
// is declared (`access`, src/access/route-access.ts) and decided first, before anything
// is read, and shown in the OpenAPI document as `x-access`; unknown query parameters are
// refused (400) even where an operation takes none; a body is read once, within the size
// limit of its media type (413), and only by operations that take one; POSTs honour
// Idempotency-Key after authentication; JSON bodies are strict (415, 400, 422 for unknown
// and read-only fields together with every other problem).
import { createRoute, type RouteConfig, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { accessRefusal, describeAccess, type RouteAccess } from "../access/route-access";
import type { AppEnv } from "../env";
import { type BodyLimits, boundedBody, MAX_JSON_BODY_BYTES, mediaTypeOf, requestText } from "./body";
import { idempotentPost } from "./idempotency";
import { strictJsonBody } from "./json-body";
import { ApiError } from "./problem";
import { strictQuery } from "./query";

const NO_QUERY = z.object({});
const isJson = (mediaType: string) => /^application\/([\w.-]+\+)?json$/.test(mediaType);

export interface RouteOptions {
  /** Who may call the operation; every route declares it, and what it does not grant is refused. */
  access: RouteAccess;
  /** Body fields the client may not write here: 422 read_only_field rather than unknown_field. */
  readOnly?: readonly string[];
  /** Size limits of the non-JSON media types the operation takes (JSON: MAX_JSON_BODY_BYTES). */
  bodyLimits?: Record<string, number>;
}

/** The route's declared access, decided before the route reads its query or body (403, or 401 without a token). */
function authorize(access: RouteAccess, operation: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const refusal = accessRefusal(access, c.get("principal"), operation, c.req.param("token"));
    if (refusal?.code === "unauthorized") throw new ApiError("unauthorized", refusal.detail, { headers: { "WWW-Authenticate": 'Bearer realm="domain-api"' } });
    if (refusal) throw new ApiError("forbidden", refusal.detail);
    return next();
  };
}

/**
 * An action that takes no body (approve, ping, turning DNSSEC on …) still reads none it
 * does not understand: nothing, or an empty JSON object, passes; anything else is refused
 * as any body is that the operation does not take (400, 415 or 422 naming the fields).
 */
const noBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  const bytes = c.get("requestBody");
  if (!bytes || bytes.byteLength === 0) return next();
  const text = requestText(c, () => new ApiError("invalid_json", "The body is not valid UTF-8 text; this operation takes no body."));
  // Whitespace is nothing; a byte order mark is something sent (its decoding drops it), so
  // a BOM alone is read as the JSON it is not (400), as a PATCH body of one is.
  const bom = bytes.byteLength >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  if (text.trim() === "" && !bom) return next();
  const mediaType = mediaTypeOf(c.req.header("content-type"));
  if (!isJson(mediaType)) throw new ApiError("unsupported_media_type", `This operation takes no body; send none (or {} as application/json).`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new ApiError("invalid_json", `The body is not valid JSON: ${(error as Error).message}; this operation takes no body.`);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new ApiError("invalid_json", "This operation takes no body; send none, or {}.");
  const fields = Object.keys(body);
  if (fields.length > 0) {
    throw new ApiError("unknown_field", `This operation takes no body; unknown fields: ${fields.slice(0, 10).join(", ")}.`, {
      errors: fields.slice(0, 100).map((field) => ({ field, message: "is not a field of this operation, which takes no body" })),
    });
  }
  return next();
};

export function defineRoute<const R extends RouteConfig>(config: R & RouteOptions) {
  const { readOnly, bodyLimits, access, ...route } = config;
  const operation = `${route.method.toUpperCase()} /v1${route.path}`;
  const middleware: MiddlewareHandler[] = [
    authorize(access, operation) as MiddlewareHandler,
    strictQuery((route.request?.query as z.ZodObject | undefined) ?? NO_QUERY),
  ];
  const content = route.request?.body?.content ?? {};
  const takesBody = Object.keys(content).length > 0 || route.method === "post";
  if (takesBody) middleware.push(boundedBody({ default: MAX_JSON_BODY_BYTES, ...bodyLimits } as BodyLimits) as MiddlewareHandler);
  if (route.method === "post") middleware.push(idempotentPost as MiddlewareHandler);
  // (Not the DNS backend's: PowerDNS sends its own form parameters with every POST.)
  if (route.method === "post" && Object.keys(content).length === 0 && access.scope !== "dns") middleware.push(noBody as MiddlewareHandler);
  const jsonTypes = Object.keys(content).filter(isJson);
  if (jsonTypes.length > 0) {
    const schema = (content[jsonTypes[0]!] as { schema: z.ZodObject }).schema;
    const otherMediaTypes = Object.keys(content).filter((type) => !isJson(type));
    const optional = route.request?.body?.required === false;
    middleware.push(strictJsonBody(schema, { readOnly: readOnly ?? [], mediaTypes: jsonTypes, otherMediaTypes, optional }) as MiddlewareHandler);
  }
  return createRoute({ ...route, "x-access": describeAccess(access), middleware }) as unknown as R & { getRoutingPath(): string };
}
