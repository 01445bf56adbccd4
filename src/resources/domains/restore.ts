// POST /v1/domains/{domain}/restore (RFC 3915 §4.2.1, docs/lifecycle.md): inside
// redemptionPeriod the deleted domain comes back as it was (the restore report is
// implied). A domain that had expired is renewed for one year as it comes back (as
// Nomulus's DomainRestoreRequestFlow does), else the next sweep would expire it again.
import type { RouteHandler } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { catalog } from "../../db/catalog";
import { domains } from "../../db/schema";
import type { AppEnv } from "../../env";
import { updateResource } from "../../http/mutate";
import { ApiError } from "../../http/problem";
import { cappedExpiry, earliestEnd, inGracePeriod } from "../../registry/lifecycle";
import { namePricing, priceOf } from "../../registry/prices";
import { prohibitingStatus, shownStatuses } from "../../registry/statuses";
import { domainCollection } from "./collection";
import type * as routes from "./routes";

export const restoreDomain: RouteHandler<typeof routes.restoreDomain, AppEnv> = async (c) => {
  const cat = await catalog(c.get("db"));
  // The answer is the domain with `price` (the write routine's answer extra: PricedDomainSchema).
  return (await updateResource(c, domainCollection, c.req.valid("param").domain, {
    event: "restore",
    async update(ctx, current) {
      if (current.deletedAt === null || !inGracePeriod(current.rgp, "redemptionPeriod", ctx.now)) {
        const why = current.deletedAt === null ? "is not deleted" : "is past its redemption period";
        throw new ApiError("status_prohibits", `${current.name} ${why}; only a domain in redemptionPeriod can be restored.`);
      }
      const prohibiting = prohibitingStatus("restore", shownStatuses(current));
      if (prohibiting)
        throw new ApiError("status_prohibits", `${current.name} has ${prohibiting}; it cannot be restored until the registry's operator clears it.`);
      const extension = cat.extensions.get(current.extensionId)!;
      // The restore fee (RFC 3915 §4.2); a premium name's own when it has one. Not confirmed: it is no premium operation.
      const price = priceOf(namePricing(current.name, extension, cat.names).yearly, "restore", 1);
      const expired = Date.parse(current.expiresAt) <= ctx.now.getTime();
      const expiresAt = expired ? cappedExpiry(current.expiresAt, 1, extension.periodMax, ctx.now) : current.expiresAt;
      const rgp = current.rgp.filter((e) => e.status !== "redemptionPeriod");
      const next = { ...current, deletedAt: null, expiresAt, rgp, rgpEndsAt: earliestEnd(rgp), version: current.version + 1, updatedAt: ctx.at };
      return {
        next,
        write: ctx.db
          .update(domains)
          .set({ deletedAt: null, expiresAt, rgp, rgpEndsAt: next.rgpEndsAt, version: next.version, updatedAt: next.updatedAt })
          .where(and(eq(domains.id, current.id), eq(domains.version, current.version))),
        answerExtras: { price },
      };
    },
  })) as never;
};
