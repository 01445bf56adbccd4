// Single-resource responses (docs/conventions.md): ETag on every read and write, 304 for a
// matching If-None-Match on reads, Location on creation.
import type { Context } from "hono";
import { entityTag, noneMatchHits } from "./etag";

/** A resource read: 200 with its ETag, or 304 when If-None-Match already has it. */
export function sendResource<T>(c: Context, body: T, version: number) {
  const etag = entityTag(version, body);
  c.header("ETag", etag);
  if (noneMatchHits(c.req.header("if-none-match"), etag)) {
    // Typed `never` so that a handler's typed responses stay its 200 body; the route
    // definitions document the 304.
    return c.body(null, 304) as never;
  }
  return c.json(body, 200);
}
