// GET /v1/events/{event}: one event of the hot window.
import type { RouteHandler } from "@hono/zod-openapi";
import { presentEvent } from "../../db/event-json";
import type { AppEnv } from "../../env";
import { notFound } from "../../http/lookup";
import { sendResource } from "../../http/respond";
import { findEvent } from "./queries";
import type * as routes from "./routes";

/** Events never change: one version for ever. */
const EVENT_VERSION = 1;

export const getEvent: RouteHandler<typeof routes.getEvent, AppEnv> = async (c) => {
  const { event: id } = c.req.valid("param");
  const row = await findEvent(c.get("db"), id).get();
  if (!row) throw notFound("event", id);
  return sendResource(c, presentEvent(row), EVENT_VERSION);
};
