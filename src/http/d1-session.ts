// Read replicas through the D1 Sessions API (docs/safety.md). Reads run in a session that
// may start on any replica; writes start on the primary. Every response that touched the
// database returns the session's bookmark in X-D1-Bookmark; a request that sends one back
// reads at least that fresh (its session starts from the bookmark), which gives a client
// read-your-writes across regions and isolates.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { database } from "../db/client";
import { visibilityOf, visibleDatabase } from "../access/visibility";
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
  c.set("d1", session);
  c.set("db", database(session));
  c.set("dbAllAccounts", database(session));
  try {
    await next();
  } finally {
    const bookmark = session.getBookmark() ?? given;
    if (bookmark) c.res.headers.set(BOOKMARK_HEADER, bookmark);
  }
};

/**
 * After authentication: a customer's token, or any token narrowed to zones or domains,
 * reads through the D1 session as it sees it (src/access/visibility.ts) — visibility is
 * enforced there, for every query, never by a filter a handler must remember.
 */
export const viewerDatabase: MiddlewareHandler<AppEnv> = async (c, next) => {
  const rights = c.get("principal").rights;
  const session = c.get("d1");
  const visibility = rights ? visibilityOf(rights) : null;
  if (visibility && session) c.set("db", database(visibleDatabase(session, visibility)));
  return next();
};
