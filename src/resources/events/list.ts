// GET /v1/events: the hot window of the audit trail, in commit order, with the
// `resume_cursor` a poller keeps. A cursor that stands before an archived event is 410
// `gone` (the events after it are in the archive: archive-list.ts).
import type { RouteHandler } from "@hono/zod-openapi";
import { presentEvent } from "../../db/event-json";
import { readTogether } from "../../db/write";
import type { AppEnv } from "../../env";
import { pageRequest, pageResponse, signCursor } from "../../http/pagination";
import { ApiError } from "../../http/problem";
import { archivedAfter, eventPosition, listEvents as eventsPage, TRAIL_START } from "./queries";
import type * as routes from "./routes";

export const listEvents: RouteHandler<typeof routes.listEvents, AppEnv> = async (c) => {
  const query = c.req.valid("query");
  const page = await pageRequest(c, query);
  const db = c.get("db");
  // A cursor is checked in the same round trip as its page: is an event after it archived?
  const [rows, gone] = page.after
    ? await readTogether(db, [eventsPage(db, query, page), archivedAfter(db, page.after)])
    : [await eventsPage(db, query, page), []];
  if (gone.length > 0) {
    throw new ApiError(
      "gone",
      "Events after this cursor have moved to the archive (they are older than the hot window): read them from GET /v1/events/archive, then list again from the start, without a cursor.",
    );
  }
  const body = await pageResponse(c, page, rows, eventPosition, presentEvent);
  // A poller keeps the last page's resume_cursor: it stands after the last event read
  // (or where this request started, when there was nothing to read).
  const last = rows.slice(0, page.limit).at(-1);
  const resumeCursor = await signCursor(c, last ? eventPosition(last) : (page.after ?? TRAIL_START));
  return c.json({ ...body, resume_cursor: resumeCursor }, 200);
};
