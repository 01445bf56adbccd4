// PATCH /v1/webhooks/{webhook}: JSON Merge Patch onto the webhook's url, description,
// event_types and enabled. A new URL is checked as a creation's is, and the event being
// retried is tried at once at it. Enabling a disabled webhook starts it after the last
// event committed (what it missed while disabled is replayed on request, POST …/replay),
// with its failures forgotten.
import type { RouteHandler } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { webhooks } from "../../db/schema";
import type { AppEnv } from "../../env";
import { updateResource } from "../../http/mutate";
import { mergePatch } from "../../http/patch";
import { requestPolicy, requireDeliverableUrl, webhookCollection } from "./collection";
import { distinctPatterns } from "../../delivery/event-types";
import { LAST_EVENT_SEQ } from "./queries";
import type { WebhookRow } from "../../delivery/rows";
import type * as routes from "./routes";
import type { WebhookPatch } from "./schemas";

function writable(row: WebhookRow): WebhookPatch {
  return { url: row.url, description: row.description, event_types: row.eventTypes, enabled: row.enabled };
}

export const updateWebhook: RouteHandler<typeof routes.updateWebhook, AppEnv> = (c) => {
  const patch = c.req.valid("json");
  const policy = requestPolicy(c);
  return updateResource(c, webhookCollection, c.req.valid("param").webhook, {
    async update({ db, at }, current) {
      const merged = mergePatch(writable(current), patch);
      const fields = {
        url: merged.url ?? current.url,
        description: merged.description ?? null,
        eventTypes: distinctPatterns(merged.event_types),
        enabled: merged.enabled ?? current.enabled,
      };
      const newUrl = fields.url !== current.url;
      const enabling = fields.enabled && !current.enabled;
      const disabling = !fields.enabled && current.enabled;
      const unchanged =
        !newUrl &&
        !enabling &&
        !disabling &&
        fields.description === current.description &&
        JSON.stringify(fields.eventTypes) === JSON.stringify(current.eventTypes);
      if (unchanged) return null;
      if (newUrl) await requireDeliverableUrl(c, fields.url, policy);

      const changes: Partial<WebhookRow> = { ...fields, version: current.version + 1, updatedAt: at };
      // Whoever was delivering lets go (its next write finds the lease gone), so the change applies to the next attempt.
      const release = { leaseId: null, leaseUntil: null };
      if (newUrl) Object.assign(changes, { loopback: policy.loopbackDeployment, apiHost: policy.apiHost, nextAttemptAt: null, ...release });
      if (disabling) Object.assign(changes, { disabledReason: null, ...release });
      if (enabling) Object.assign(changes, { disabledReason: null, attempts: 0, nextAttemptAt: null, failingSince: null, ...release });
      const next: WebhookRow = { ...current, ...changes };
      return {
        next,
        // Not versionStep: the lease and cursor columns move without a version step (a
        // deliverer's bookkeeping), so a SET derived from what was read could miss a lease
        // taken meanwhile; this one names every column the change sets.
        write: db
          .update(webhooks)
          .set(enabling ? { ...changes, cursorSeq: LAST_EVENT_SEQ } : changes)
          .where(and(eq(webhooks.id, current.id), eq(webhooks.version, current.version))),
      };
    },
  });
};
