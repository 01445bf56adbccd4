// The app: conventions first (request id, charset, errors), then every resource under /v1.
import { HTTPException } from "hono/http-exception";
import { databaseBusy, writeFailure, zoneTooLarge } from "./db/errors";
import { WriteContention } from "./db/write";
import { exceededQuota } from "./db/quota-check";
import { quotaProblem } from "./http/quota-problem";
import { authenticate } from "./http/auth";
import { declaredBodySize, MAX_JSON_BODY_BYTES, mediaTypeOf } from "./http/body";
import { shownPath } from "./http/dns-backend-path";
import { safeErrorSummary } from "./http/error-log";
import { answerUnsupportedMethods } from "./http/methods";
import { d1Session, viewerDatabase } from "./http/d1-session";
import { cursorSecretConfigured } from "./http/pagination";
import { rateLimit } from "./http/rate-limit";
import { rdapNegotiation } from "./http/rdap";
import { corsPolicy, securityHeaders } from "./http/security";
import { ApiError, problemResponse, type ProblemCode } from "./http/problem";
import { databaseBusyProblem, writeConflict } from "./http/writes";
import { jsonCharset, requestId } from "./http/request-id";
import { createRouter } from "./http/router";
import { accountsRouter } from "./resources/accounts";
import { catalogRouter } from "./resources/catalog";
import { contactsRouter } from "./resources/contacts";
import { dnssecRouter } from "./resources/dnssec";
import { domainsRouter } from "./resources/domains";
import { eventsRouter } from "./resources/events";
import { hostsRouter } from "./resources/hosts";
import { jobsRouter } from "./jobs";
import { pdnsRouter } from "./resources/pdns";
import { recordsRouter } from "./resources/records";
import { tokensRouter } from "./resources/tokens";
import { tsigKeysRouter } from "./resources/tsig-keys";
import { webhooksRouter } from "./resources/webhooks";
import { kickDeliveries } from "./delivery/kick";
import { zonesRouter } from "./resources/zones";
import { MASTER_FILE_MEDIA_TYPE, MAX_MASTER_FILE_BYTES, zoneTooLargeMessage } from "./resources/zones/master-file";
import { metaRouter } from "./resources/meta";
import { SERVICE_NAME, SERVICE_VERSION } from "./resources/meta/service";
import { DOCS_PAGE, DOCS_SCRIPT, DOCS_STYLE, SWAGGER_UI_SCRIPT, SWAGGER_UI_STYLE } from "./resources/meta/docs";

const HTTP_EXCEPTION_CODES: Record<number, ProblemCode> = {
  400: "invalid_json",
  404: "not_found",
  413: "payload_too_large",
  415: "unsupported_media_type",
};

function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPException && HTTP_EXCEPTION_CODES[error.status]) {
    return new ApiError(HTTP_EXCEPTION_CODES[error.status]!, error.message);
  }
  // Other writes kept committing first through every attempt of the write routine.
  if (error instanceof WriteContention) return writeConflict();
  // Another program kept the database locked through every retry (src/db/client.ts).
  if (databaseBusy(error)) return databaseBusyProblem();
  // Last line of defence for races the handlers did not foresee: a constraint that fired
  // is the client's conflict, not our crash.
  switch (writeFailure(error)) {
    case "unique":
      return new ApiError("already_exists", "A resource with this name was created at the same time; it already exists.");
    case "foreign_key":
      return new ApiError("object_linked", "A linked object changed at the same time; read the resources again and retry.");
    case "rrset_conflict":
      return new ApiError("rrset_conflict", "A record written at the same time conflicts with this one (a CNAME must be alone at its name).");
    case "apex_ns_required":
      return new ApiError("rrset_conflict", "The zone apex must keep at least one NS record.");
    case "version_conflict":
    case "assertion_failed":
      // Writers retry these (src/db/write.ts); one that escaped is contention, never a 412.
      return writeConflict();
  }
  return new ApiError("internal", "An internal error occurred; the request id identifies it in our logs.");
}

export function createApp() {
  const v1 = createRouter()
    .route("/", metaRouter)
    .route("/", catalogRouter)
    .route("/", contactsRouter)
    .route("/", domainsRouter)
    .route("/", hostsRouter)
    .route("/", zonesRouter)
    .route("/", dnssecRouter)
    .route("/", recordsRouter)
    .route("/", jobsRouter)
    .route("/", eventsRouter)
    .route("/", accountsRouter)
    .route("/", tokensRouter)
    .route("/", tsigKeysRouter)
    .route("/", webhooksRouter)
    .route("/", pdnsRouter);

  // The document is built once per isolate: it depends only on the code.
  let openApiDocument: unknown = null;
  v1.openAPIRegistry.registerComponent("securitySchemes", "bearerToken", {
    type: "http",
    scheme: "bearer",
    description: "`tok_<id>.<secret>` from `npm run token -- create`. Scope `read` for GET/HEAD, `write` for everything.",
  });
  v1.get("/openapi.json", (c) => {
    openApiDocument ??= v1.getOpenAPI31Document({
      openapi: "3.1.0",
      info: {
        title: "Domain name management API",
        version: SERVICE_VERSION,
        description:
          "Register domains, keep their contacts and name server hosts, and run their DNS zones. Conventions: RFC 9457 problem details (see /v1/problems for every code), keyset pagination with opaque cursors, ETag / If-Match / If-None-Match, JSON Merge Patch (RFC 7396) for PATCH. Names are returned lowercase as A-labels without the trailing dot, with `unicode_name` beside them.",
      },
      servers: [{ url: "/v1" }],
      security: [{ bearerToken: [] }],
    });
    return c.json(openApiDocument);
  });
  v1.get("/docs", (c) => c.html(DOCS_PAGE));
  v1.get("/docs/reference.js", (c) => c.body(DOCS_SCRIPT, 200, { "Content-Type": "text/javascript; charset=utf-8" }));
  v1.get("/docs/reference.css", (c) => c.body(DOCS_STYLE, 200, { "Content-Type": "text/css; charset=utf-8" }));
  // Swagger UI itself (swagger-ui-dist, bundled into the Worker): versioned by the package,
  // so a browser may keep it for a day.
  v1.get("/docs/swagger-ui-bundle.js", (c) =>
    c.body(SWAGGER_UI_SCRIPT, 200, { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=86400" }),
  );
  v1.get("/docs/swagger-ui.css", (c) => c.body(SWAGGER_UI_STYLE, 200, { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=86400" }));

  const app = createRouter();
  app.use("*", requestId);
  app.use("*", jsonCharset);
  app.use("*", rdapNegotiation);
  app.use("*", d1Session);
  app.use("*", securityHeaders);
  app.use("*", corsPolicy);
  // Before anything else can read a body: a declared size over the limit is 413 at once.
  app.use("*", declaredBodySize({ default: MAX_JSON_BODY_BYTES, [MASTER_FILE_MEDIA_TYPE]: MAX_MASTER_FILE_BYTES }));
  app.use("*", cursorSecretConfigured);
  app.use("*", authenticate);
  app.use("*", viewerDatabase);
  app.use("*", rateLimit);
  // After a successful write, the webhooks' queue looks at the events it committed (off the request path).
  app.use("*", kickDeliveries);
  // Idempotency-Key is route middleware of the POST operations (src/http/route.ts).
  // The service's root points at the API and its reference.
  app.get("/", (c) => c.json({ service: SERVICE_NAME, version: SERVICE_VERSION, api: "/v1", openapi: "/v1/openapi.json", docs: "/v1/docs" }, 200));
  // Kept as the value returned, so that its type carries every route to `hc<AppType>`.
  const routed = app.route("/v1", v1);
  answerUnsupportedMethods(app);

  // A DNS backend path holds a token: never echoed (src/http/dns-backend-path.ts).
  app.notFound((c) => problemResponse(c, new ApiError("not_found", `No route matches ${c.req.method} ${shownPath(new URL(c.req.url).pathname)}.`)));
  app.onError(async (error, c) => {
    // The write routine's quota check refused the batch: say which limit, its value and the usage (read now).
    const quota = exceededQuota(error);
    if (quota) return problemResponse(c, await quotaProblem(c, quota));
    // The zone size limit refused the batch (drizzle/0028): the body's records would not fit.
    if (zoneTooLarge(error)) {
      const message = zoneTooLargeMessage();
      const field = mediaTypeOf(c.req.header("content-type")) === MASTER_FILE_MEDIA_TYPE ? "file" : "zone";
      return problemResponse(c, new ApiError("policy_violation", `${message}; nothing was written.`, { errors: [{ field, message }] }));
    }
    const problem = asApiError(error);
    if (problem.code === "internal") {
      // The request id and a summary that carries no SQL text and no bound values.
      console.error(JSON.stringify({ level: "error", request_id: c.get("requestId"), service: SERVICE_NAME, error: safeErrorSummary(error) }));
    }
    return problemResponse(c, problem);
  });
  return routed;
}

export const app = createApp();
/** The app's type, for a typed client: `hc<AppType>(baseUrl)` from `hono/client`. */
export type AppType = typeof app;
