// The RDAP face of single-object reads (RFC 7480 §4.2, RFC 9083): content negotiation on
// `application/rdap+json`, errors in RDAP form for that media type, and the OpenAPI
// documentation of both.
import type { Context, MiddlewareHandler } from "hono";
import type { z } from "@hono/zod-openapi";
import { RDAP_MEDIA_TYPE, RdapErrorSchema } from "../rdap/schemas";
import { rdapError, type RdapContext } from "../rdap/views";
import { prefersOverJson } from "./accept";
import { problemExamples } from "./openapi";

/** The reads that have an RDAP view: domain, nameserver (host) and entity (contact). */
const RDAP_READ = /^\/v1\/(domains|hosts|contacts)\/[^/]+$/;

/** True when the client asks for RDAP rather than the API's JSON. */
export function wantsRdap(accept: string | undefined): boolean {
  return prefersOverJson(accept, RDAP_MEDIA_TYPE);
}

export function rdapContext(c: Context): RdapContext {
  return { baseUrl: `${new URL(c.req.url).origin}/v1` };
}

/**
 * An RDAP view, with no ETag: conditional requests stay with the JSON representation.
 * Typed as a JSON response so the route's `application/rdap+json` variant checks it.
 */
export function sendRdap<T>(c: Context, body: T) {
  return c.json(body, 200, { "Content-Type": RDAP_MEDIA_TYPE });
}

/**
 * Every answer of an RDAP-capable read varies with Accept; its problems become RDAP
 * errors (RFC 9083 §6) with the same status and headers when RDAP was asked for, whether
 * they come from the handler or from the middleware before it (401, 403, 429).
 */
export const rdapNegotiation: MiddlewareHandler = async (c, next) => {
  await next();
  if ((c.req.method !== "GET" && c.req.method !== "HEAD") || !RDAP_READ.test(c.req.path)) return;
  c.res.headers.append("Vary", "Accept");
  if (!wantsRdap(c.req.header("accept")) || !c.res.headers.get("Content-Type")?.startsWith("application/problem+json")) return;
  const problem = (await c.res.clone().json()) as { status: number; title: string; detail: string };
  const { status } = c.res;
  const headers = new Headers(c.res.headers);
  headers.set("Content-Type", RDAP_MEDIA_TYPE);
  c.res = undefined;
  c.res = new Response(JSON.stringify(rdapError(problem)), { status, headers });
};

type Documented = { description: string; content: Record<string, unknown> };

/** A read's 200 response documented with its RDAP variant beside the JSON. */
export function withRdapView<R extends Documented, S extends z.ZodType>(response: R, schema: S, example: z.output<S>) {
  return {
    ...response,
    description: `${response.description} With \`Accept: ${RDAP_MEDIA_TYPE}\`, the RDAP view (RFC 9083); \`auth_info\` never appears in it.`,
    content: { ...response.content, [RDAP_MEDIA_TYPE]: { schema, example } },
  } as Omit<R, "content" | "description"> & { description: string; content: R["content"] & { [RDAP_MEDIA_TYPE]: { schema: S } } };
}

/** The RDAP form of each problem example of a status (what rdapNegotiation sends). */
function rdapErrorExamples(status: number) {
  return Object.fromEntries(Object.entries(problemExamples(status)).map(([code, { summary, value }]) => [code, { summary, value: rdapError(value) }]));
}

/** Problem responses documented with their RDAP error form (RFC 9083 §6). */
export function withRdapErrors<E extends Record<number, Documented>>(responses: E) {
  const out: Record<number, Documented> = {};
  for (const [status, response] of Object.entries(responses)) {
    out[Number(status)] = {
      ...response,
      description: `${response.description} In RDAP form for \`Accept: ${RDAP_MEDIA_TYPE}\`.`,
      content: { ...response.content, [RDAP_MEDIA_TYPE]: { schema: RdapErrorSchema, examples: rdapErrorExamples(Number(status)) } },
    };
  }
  return out as {
    [K in keyof E]: Omit<E[K], "content"> & {
      content: (E[K] extends Documented ? E[K]["content"] : never) & { [RDAP_MEDIA_TYPE]: { schema: typeof RdapErrorSchema } };
    };
  };
}
