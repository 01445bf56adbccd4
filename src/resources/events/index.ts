// The audit trail (read side), and its archive: each operation in its own file, wired to
// its route here. Events are written by every write handler through src/db/events.ts, in
// the batch of the write itself; those older than the hot window move to R2
// (src/jobs/event-archive.ts).
import { createRouter } from "../../http/router";
import { listEventArchive } from "./archive-list";
import { getEventArchive } from "./archive-read";
import { listEvents } from "./list";
import { getEvent } from "./read";
import * as routes from "./routes";

export const eventsRouter = createRouter()
  // Before /events/{event}, which would take "archive" for an event id.
  .openapi(routes.listEventArchive, listEventArchive)
  .openapi(routes.getEventArchive, getEventArchive)
  .openapi(routes.listEvents, listEvents)
  .openapi(routes.getEvent, getEvent);
