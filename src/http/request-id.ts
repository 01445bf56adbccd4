// Every response carries X-Request-Id: the client's own when it sent a sane one (so a
// proxy's id follows the request through), else a fresh one.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export const requestId: MiddlewareHandler<AppEnv> = async (c, next) => {
  const given = c.req.header("x-request-id");
  const id = given && SANE_REQUEST_ID.test(given) ? given : crypto.randomUUID();
  c.set("requestId", id);
  await next();
  c.res.headers.set("X-Request-Id", id);
};

/** docs/conventions.md: JSON responses say their charset. */
export const jsonCharset: MiddlewareHandler = async (c, next) => {
  await next();
  if (c.res.headers.get("Content-Type") === "application/json") {
    c.res.headers.set("Content-Type", "application/json; charset=utf-8");
  }
};
