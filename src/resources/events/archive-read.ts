// GET /v1/events/archive/{object}: one archive object, streamed from R2 as stored (a gzip
// file of newline-delimited JSON). Found through its row in event_archives, which the
// visibility layer shadows: another account's object is 404.
import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { notFound } from "../../http/lookup";
import { ARCHIVE_MEDIA_TYPE } from "../../db/event-archive-names";
import { findEventArchive } from "./queries";
import type * as routes from "./routes";

export const getEventArchive: RouteHandler<typeof routes.getEventArchive, AppEnv> = async (c) => {
  const { object: id } = c.req.valid("param");
  const row = await findEventArchive(c.get("db"), id).get();
  if (!row) throw notFound("archive object", id);
  // If-None-Match is R2's to decide: a failed condition returns the object without its body.
  const object = await c.env.ARCHIVE.get(row.key, { onlyIf: c.req.raw.headers });
  if (!object) throw notFound("archive object", id);
  const headers = { ETag: object.httpEtag, "Cache-Control": "private, max-age=86400, immutable" };
  if (!("body" in object)) return c.body(null, 304, headers) as never;
  return c.body(object.body, 200, {
    ...headers,
    "Content-Type": ARCHIVE_MEDIA_TYPE,
    "Content-Disposition": `attachment; filename="${row.id}.ndjson.gz"`,
    "Content-Length": String(object.size),
  }) as never;
};
