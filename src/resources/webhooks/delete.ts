// DELETE /v1/webhooks/{webhook}: the webhook and its delivery records go; nothing more is
// sent to it (a delivery in flight finds its lease gone and records nothing).
import type { RouteHandler } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { webhooks } from "../../db/schema";
import type { AppEnv } from "../../env";
import { deleteResource } from "../../http/mutate";
import { webhookCollection } from "./collection";
import type * as routes from "./routes";

export const deleteWebhook: RouteHandler<typeof routes.deleteWebhook, AppEnv> = (c) =>
  deleteResource(c, webhookCollection, c.req.valid("param").webhook, {
    async remove({ db }, current) {
      return { write: db.delete(webhooks).where(and(eq(webhooks.id, current.id), eq(webhooks.version, current.version))) };
    },
  });
