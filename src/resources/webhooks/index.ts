// Webhooks (docs/webhooks.md): each operation in its own file, wired to its route here.
// Delivery itself runs off the request path: dispatch.ts (the queue consumer and the cron).
import { createRouter } from "../../http/router";
import { createWebhook } from "./create";
import { deleteWebhook } from "./delete";
import { pingWebhook } from "./ping";
import { getWebhook, listWebhookDeliveries, listWebhooks } from "./read";
import { replayWebhook } from "./replay";
import { rotateWebhookSecret } from "./rotate";
import * as routes from "./routes";
import { dispatchWebhooks } from "./run";
import { updateWebhook } from "./update";

export const webhooksRouter = createRouter()
  .openapi(routes.dispatchWebhooks, dispatchWebhooks)
  .openapi(routes.listWebhooks, listWebhooks)
  .openapi(routes.getWebhook, getWebhook)
  .openapi(routes.createWebhook, createWebhook)
  .openapi(routes.updateWebhook, updateWebhook)
  .openapi(routes.deleteWebhook, deleteWebhook)
  .openapi(routes.rotateWebhookSecret, rotateWebhookSecret)
  .openapi(routes.listWebhookDeliveries, listWebhookDeliveries)
  .openapi(routes.replayWebhook, replayWebhook)
  .openapi(routes.pingWebhook, pingWebhook);
