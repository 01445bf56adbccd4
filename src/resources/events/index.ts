// The audit trail (read side). Events are written by every write handler through
// src/db/events.ts, in the batch of the write itself.
import { notFound } from "../../http/lookup";
import { pageRequest, pageResponse, signCursor } from "../../http/pagination";
import { sendResource } from "../../http/respond";
import { createRouter } from "../../http/router";
import { presentEvent } from "./present";
import { eventPosition, findEvent, listEvents, TRAIL_START } from "./queries";
import * as routes from "./routes";

/** Events never change: one version for ever. */
const EVENT_VERSION = 1;

export const eventsRouter = createRouter()
  .openapi(routes.listEvents, async (c) => {
    const query = c.req.valid("query");
    const page = await pageRequest(c, query);
    const rows = await listEvents(c.get("db"), query, page);
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
