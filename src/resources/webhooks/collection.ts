// Webhooks as the write routine sees them (src/http/mutate.ts), and what their
// operations share: the limit per account, and the checks of a URL when it is set.
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { isLocalDevelopment } from "../../http/local-development";
import type { Collection } from "../../http/mutate";
import { ApiError } from "../../http/problem";
import { presentWebhook, webhookResource } from "../../delivery/webhook-resource";
import { findWebhook } from "./queries";
import type { WebhookRow } from "../../delivery/rows";
import type { Webhook } from "./schemas";
import { dnsResolver, type TargetPolicy, targetProblem } from "../../delivery/target";

export const webhookCollection: Collection<WebhookRow, Webhook> = {
  ...webhookResource,
  path: "/v1/webhooks",
  byName: false,
  find: findWebhook,
  present: presentWebhook,
};

/** Where the request came from, as the URL rules need it. */
export function requestPolicy(c: Context<AppEnv>): TargetPolicy {
  return { loopbackDeployment: isLocalDevelopment(c.req.raw), apiHost: new URL(c.req.url).host };
}

/**
 * The URL's problem when it is set (422): target.ts's check, the one the sender makes before
 * every attempt, with a name the resolver cannot vouch for passing here.
 */
export async function requireDeliverableUrl(c: Context<AppEnv>, url: string, policy: TargetPolicy): Promise<void> {
  const problem = await targetProblem(dnsResolver(c.env), url, policy, "set");
  if (problem) throw new ApiError("validation_failed", `url: ${problem}.`, { errors: [{ field: "url", message: `${problem}.` }] });
}
