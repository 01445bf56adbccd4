// POST /v1/domains/{domain}/restore (RFC 3915 §4.2.1, docs/lifecycle.md): inside
// redemptionPeriod the deleted domain comes back as it was (the restore report is
// implied). A domain that had expired is renewed for one year as it comes back (as
// Nomulus's DomainRestoreRequestFlow does), else the next sweep would expire it again;
// under a connected repository the expiry is the registry's (its <domain:info> after the
// restore), never a year added here.
// Under a connected repository the registry restores first: RGP's request, then its
// report (RFC 3915 §4.2.5), before D1 is written. A registry that reviews the report
// answers 1001: 202, the domain still deleted and showing pendingRestore until the registry
// settles it (its poll message, or reconciliation: docs/registries.md), like a create or a
// renewal left pending.
import type { RouteHandler } from "@hono/zod-openapi";
import { catalog } from "../../db/catalog";
import { domains } from "../../db/schema";
import { versionStep } from "../../db/write";
import type { AppEnv } from "../../env";
import { updateResource } from "../../http/mutate";
import { ApiError } from "../../http/problem";
import { cappedExpiry, earliestEnd, inGracePeriod } from "../../registry/lifecycle";
import { namePricing, priceOf } from "../../registry/prices";
import { prohibitingStatus, shownStatuses } from "../../registry/statuses";
import { domainCollection } from "./collection";
import { type DomainRegistry, domainRegistry, registryTransaction } from "./registry";
import { registryDomainView } from "../../connector/follow";
import { restoreReport } from "../../connector/commands";
import type * as routes from "./routes";

/**
 * The expiry the registry shows for the domain now (its `<domain:info>`, sent once a request),
 * or null when it cannot say (out of reach, an answer without one): the restore is done there
 * and is not undone for want of a date.
 */
async function expiryAtRegistry(registry: DomainRegistry, name: string): Promise<string | null> {
  try {
    const response = await registry.ask("domain:info", { kind: "domain:info", name, hosts: "all" });
    if (response.code !== 1000) return null;
    const expiresAt = registryDomainView(response)?.expiresAt;
    return expiresAt ? new Date(expiresAt).toISOString() : null;
  } catch {
    return null;
  }
}

export const restoreDomain: RouteHandler<typeof routes.restoreDomain, AppEnv> = async (c) => {
  const cat = await catalog(c.get("db"));
  const registries = new Map<string, ReturnType<typeof domainRegistry>>();
  let pending = false;
  // The answer is the domain with `price` (the write routine's answer extra: PricedDomainSchema).
  const restored = (await updateResource(c, domainCollection, c.req.valid("param").domain, {
    event: "restore",
    async update(ctx, current) {
      if (current.deletedAt === null || !inGracePeriod(current.rgp, "redemptionPeriod", ctx.now)) {
        const why = current.deletedAt === null ? "is not deleted" : "is past its redemption period";
        throw new ApiError("status_prohibits", `${current.name} ${why}; only a domain in redemptionPeriod can be restored.`);
      }
      // A restore the registry is reviewing (1001 to an earlier one) is not asked again: its settlement decides.
      if (current.statuses.includes("pendingRestore"))
        throw new ApiError("status_prohibits", `${current.name} has pendingRestore: its registry has yet to settle the restore asked before.`);
      const prohibiting = prohibitingStatus("restore", shownStatuses(current));
      if (prohibiting)
        throw new ApiError("status_prohibits", `${current.name} has ${prohibiting}; it cannot be restored until the registry's operator clears it.`);
      const extension = cat.extensions.get(current.extensionId)!;
      // The restore fee (RFC 3915 §4.2); a premium name's own when it has one. Not confirmed: it is no premium operation.
      const pricing = namePricing(current.name, extension, cat.names);
      const price = priceOf(pricing.yearly, "restore", 1);
      // A connected repository's registry restores first: the request, then the report.
      if (!registries.has(current.repositoryId)) registries.set(current.repositoryId, domainRegistry(c, current.repositoryId));
      const registry = registries.get(current.repositoryId)!;
      let svTRID: string | undefined;
      let registryExpiry: string | null = null;
      if (registry) {
        const fee = pricing.premium ? { currency: price.currency, fees: [{ amount: price.amount }] } : undefined;
        const what = `Restoring ${current.name} at the ${registry.repository} registry`;
        const requested = await registry.send(
          "rgp:request",
          { kind: "domain:update", name: current.name, restore: { op: "request" }, ...(fee ? { fee } : {}) },
          what,
        );
        const report = restoreReport(current.name, current.deletedAt, ctx.at);
        const reported = await registry.send("rgp:report", { kind: "domain:update", name: current.name, restore: { op: "report", report } }, what);
        svTRID = reported.svTRID;
        // 1001 to either (RFC 5730 §3): the registry has yet to act; nothing is shown as done.
        pending = requested.outcome === "pending" || reported.outcome === "pending";
        // The registry decides the dates: its expiry after the restore (RGP's update answers none,
        // RFC 3915 §4.2.5), from a <domain:info> asked now, goes into the same write.
        if (!pending) registryExpiry = await expiryAtRegistry(registry, current.name);
      } else pending = false;
      if (pending) {
        const next = { ...current, statuses: [...current.statuses, "pendingRestore"], version: current.version + 1, updatedAt: ctx.at };
        return {
          next,
          write: versionStep(ctx.db, domains, current, next),
          answerExtras: { price },
          afterFromDatabase: registryTransaction(svTRID),
          readBack: domainCollection.find(ctx.db, { kind: "id", id: current.id }),
        };
      }
      const expired = Date.parse(current.expiresAt) <= ctx.now.getTime();
      // Builtin: the service is the registry and renews an expired domain for a year as it comes
      // back. Connected: the registry's expiry; should its info not say, ours stays as it was (no
      // year added here) and reconciliation, which takes overdue domains first, brings the registry's.
      const expiresAt = registry
        ? (registryExpiry ?? current.expiresAt)
        : expired
          ? cappedExpiry(current.expiresAt, 1, extension.periodMax, ctx.now)
          : current.expiresAt;
      const rgp = current.rgp.filter((e) => e.status !== "redemptionPeriod");
      const next = { ...current, deletedAt: null, expiresAt, rgp, rgpEndsAt: earliestEnd(rgp), version: current.version + 1, updatedAt: ctx.at };
      return {
        next,
        write: versionStep(ctx.db, domains, current, next),
        answerExtras: { price },
        afterFromDatabase: registryTransaction(svTRID),
      };
    },
  })) as Response;
  // 1001: 202, the domain in pendingRestore (its Idempotency-Key record is the answer as sent: src/http/idempotency.ts).
  return (pending ? new Response(restored.body, { status: 202, headers: restored.headers }) : restored) as never;
};
