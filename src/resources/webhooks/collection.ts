// Webhooks as the write routine sees them (src/http/mutate.ts), and what their
// operations share: the limit per account, and the checks of a URL when it is set.
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { isLocalDevelopment } from "../../http/auth";
import type { Collection } from "../../http/mutate";
import { ApiError } from "../../http/problem";
import { presentWebhook } from "./present";
import { findWebhook, type WebhookRow } from "./queries";
import type { Webhook } from "./schemas";
import { checkUrl, dnsResolver, resolvedProblem, resolveName, type TargetPolicy } from "./target";

export const webhookCollection: Collection<WebhookRow, Webhook> = {
  type: "webhook",
  path: "/v1/webhooks",
  byName: false,
  find: findWebhook,
  present: presentWebhook,
  accountOf: (row) => row.accountId,
};

/** Where the request came from, as the URL rules need it. */
export function requestPolicy(c: Context<AppEnv>): TargetPolicy {
  return { loopbackDeployment: isLocalDevelopment(c.req.raw), apiHost: new URL(c.req.url).host };
}

/**
 * The URL's problems when it is set: the checks of target.ts, with its name resolved
 * (a name the resolver cannot answer for passes here, and is checked at each delivery).
 */
export async function requireDeliverableUrl(c: Context<AppEnv>, url: string, policy: TargetPolicy): Promise<void> {
  const refuse = (message: string) => {
    throw new ApiError("validation_failed", `url: ${message}`, { errors: [{ field: "url", message }] });
  };
  const check = checkUrl(url, policy);
  if (!check.ok) return refuse(check.problem);
  if (check.resolve === null) return;
  const problem = resolvedProblem(check.resolve, await resolveName(dnsResolver(c.env), check.resolve), policy);
  if (problem) refuse(problem);
}
