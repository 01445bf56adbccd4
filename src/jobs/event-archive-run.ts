// POST /v1/events/archive/run: an operator archives the due events now, at the present
// time or, on a local development server, at `as_of` (src/http/clock.ts).
import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { runTime } from "../http/clock";
import { archiveEvents, hotDaysOf } from "./event-archive";
import type * as routes from "./routes";

export const runEventArchive: RouteHandler<typeof routes.runEventArchive, AppEnv> = async (c) => {
  const body = (c.req.valid("json") ?? {}) as { as_of?: string };
  const now = runTime(c, body.as_of, "the archive");
  const report = await archiveEvents(c.get("dbAllAccounts") ?? c.get("db"), c.env.ARCHIVE, { now, hotDays: hotDaysOf(c.env.EVENT_HOT_DAYS) });
  return c.json(report, 200);
};
