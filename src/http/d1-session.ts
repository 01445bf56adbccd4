// Read replicas through the D1 Sessions API (contract §9). Reads run in a session that
// may start on any replica; writes start on the primary. Every response that touched the
// database returns the session's bookmark in X-D1-Bookmark; a request that sends one back
// reads at least that fresh (its session starts from the bookmark), which gives a client
// read-your-writes across regions and isolates.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { database } from "../db/client";
import { ApiError } from "./problem";

export const BOOKMARK_HEADER = "X-D1-Bookmark";
// D1 bookmarks look like `00000000-0000000c-00000000-<32 hex>`.
const BOOKMARK_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

export const d1Session: MiddlewareHandler<AppEnv> = async (c, next) => {
  const given = c.req.header(BOOKMARK_HEADER);
  if (given !== undefined && !BOOKMARK_SHAPE.test(given)) {
    throw new ApiError("validation_failed", `${BOOKMARK_HEADER} must be a bookmark this service returned.`, {
      errors: [{ field: BOOKMARK_HEADER, message: "is not a D1 session bookmark" }],
    });
  }
  const reads = c.req.method === "GET" || c.req.method === "HEAD";
  const session = c.env.DB.withSession(given ?? (reads ? "first-unconstrained" : "first-primary"));
  c.set("db", database(session));
  try {
    await next();
  } finally {
    const bookmark = session.getBookmark() ?? given;
    if (bookmark) c.res.headers.set(BOOKMARK_HEADER, bookmark);
  }
};
