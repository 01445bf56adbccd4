// GET /v1/events/archive: the archive objects the caller may see (a customer's own
// account's; the visibility layer, src/access/visibility.ts, shadows event_archives).
import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { pageRequest, pageResponse } from "../../http/pagination";
import { archivePosition, type EventArchiveRow, listEventArchives } from "./queries";
import type * as routes from "./routes";
import type { EventArchive } from "./schemas";

export function presentEventArchive(row: EventArchiveRow): EventArchive {
  return {
    id: row.id,
    account: row.accountId,
    day: row.day,
    first_event: row.firstEvent,
    last_event: row.lastEvent,
    count: row.count,
    bytes: row.bytes,
    created_at: row.createdAt,
  };
}

export const listEventArchive: RouteHandler<typeof routes.listEventArchive, AppEnv> = async (c) => {
  const query = c.req.valid("query");
  const page = await pageRequest(c, query);
  const rows = await listEventArchives(c.get("db"), query, page);
  return c.json(await pageResponse(c, page, rows, archivePosition, presentEventArchive), 200);
};
