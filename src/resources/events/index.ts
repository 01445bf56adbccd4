// The audit trail (read side), and its archive. Events are written by every write handler
// through src/db/events.ts, in the batch of the write itself; those older than the hot
// window move to R2 (src/jobs/event-archive.ts).
import { ApiError } from "../../http/problem";
import { notFound } from "../../http/lookup";
import { pageRequest, pageResponse, signCursor } from "../../http/pagination";
import { sendResource } from "../../http/respond";
import { createRouter } from "../../http/router";
import { listEventArchive } from "./archive-list";
import { getEventArchive } from "./archive-read";
import { presentEvent } from "../../db/event-json";
import { archivedAfter, eventPosition, findEvent, listEvents, TRAIL_START } from "./queries";
import * as routes from "./routes";
import { readTogether } from "../../db/write";

/** Events never change: one version for ever. */
const EVENT_VERSION = 1;

export const eventsRouter = createRouter()
  // Before /events/{event}, which would take "archive" for an event id.
  .openapi(routes.listEventArchive, listEventArchive)
  .openapi(routes.getEventArchive, getEventArchive)
  .openapi(routes.listEvents, async (c) => {
    const query = c.req.valid("query");
    const page = await pageRequest(c, query);
    const db = c.get("db");
    // A cursor is checked in the same round trip as its page: is an event after it archived?
    const [rows, gone] = page.after
      ? await readTogether(db, [listEvents(db, query, page), archivedAfter(db, page.after)])
      : [await listEvents(db, query, page), []];
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
  })
  .openapi(routes.getEvent, async (c) => {
    const { event: id } = c.req.valid("param");
    const row = await findEvent(c.get("db"), id).get();
    if (!row) throw notFound("event", id);
    return sendResource(c, presentEvent(row), EVENT_VERSION);
  });
