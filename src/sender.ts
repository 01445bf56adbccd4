// The webhook sender: the one Worker that sends requests to the URLs customers give
// (docs/webhooks.md, "The sender"). The API's delivery pass works out what each webhook is
// owed and records what happened; it hands each webhook's next events to this Worker over
// a service binding (WEBHOOK_SENDER, wrangler.toml) and gets the attempts' results back.
// Deployed on its own (wrangler.sender.toml), it has no binding at all: no database, no
// archive, no sealing key, and no route from the Internet, so a request to a hostile URL
// runs where there is nothing to reach; it holds a webhook's signing secrets only for the
// call that signs with them. Locally (`npm start`) it is a process of its own at a lower
// CPU priority than the API (scripts/sender.mjs), as deliveries are off the request path.
import { WorkerEntrypoint } from "cloudflare:workers";
import { type AttemptResult, type SendJob, sendInOrder, type WebhookSending } from "./delivery/send";

export class WebhookSender extends WorkerEntrypoint implements WebhookSending {
  /** Sends one webhook's events in commit order, until one fails or the job's time is up. */
  deliver(job: SendJob): Promise<AttemptResult[]> {
    return sendInOrder(job);
  }
}

/** Nothing answers over HTTP: the sender is reached through its service binding only. */
export default {
  fetch: () => new Response(null, { status: 404 }),
} satisfies ExportedHandler;
