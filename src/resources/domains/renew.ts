// POST /v1/domains/{domain}/renew (RFC 5731 §3.2.3, docs/lifecycle.md): the expiry grows by
// `period` years from the stored expiry. `current_expires_at` must be the stored expiry
// date, so a renew retried after it succeeded is refused instead of renewing twice; the
// write itself is conditional on that expiry, so of concurrent renews exactly one wins
// and the others read again and are refused. Under a connected repository the registry
// renews first (<domain:renew> with curExpDate, the stored expiry's date), and the expiry
// stored is the exDate it answers; a renewal it leaves pending (1001) answers 202 with
// pendingRenew, and the expiry moves when it settles (a poll message, docs/registries.md).
import type { RouteHandler } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { catalog } from "../../db/catalog";
import { domains } from "../../db/schema";
import { versionStep } from "../../db/write";
import type { AppEnv } from "../../env";
import { newFindings, throwFindings, throwPriceErrors } from "../../http/findings";
import { updateResource } from "../../http/mutate";
import { ApiError } from "../../http/problem";
import { earliestEnd, renewal, withGracePeriod } from "../../registry/lifecycle";
import { wholeYearsErrors } from "../../registry/periods";
import { namePricing, priceConfirmationErrors, priceOf } from "../../registry/prices";
import { prohibitingStatus, shownStatuses } from "../../registry/statuses";
import { apiTime, resDataOf } from "../../connector/answers";
import { domainCollection } from "./collection";
import { domainRegistry, registryTransaction } from "./registry";
import type * as routes from "./routes";

export const renewDomain: RouteHandler<typeof routes.renewDomain, AppEnv> = async (c) => {
  const body = c.req.valid("json");
  const cat = await catalog(c.get("db"));

  // Parse: a whole number of years, and a time for current_expires_at.
  const parsed = newFindings();
  if (body.period !== undefined) parsed.invalid.push(...wholeYearsErrors(body.period));
  if (Number.isNaN(Date.parse(body.current_expires_at))) {
    parsed.invalid.push({ field: "current_expires_at", message: "must be a date or an RFC 3339 time" });
  }
  throwFindings(parsed);

  // The answer is the domain with `price` (the write routine's answer extra: PricedDomainSchema).
  const registries = new Map<string, ReturnType<typeof domainRegistry>>();
  let pending = false;
  const renewedDomain = (await updateResource(c, domainCollection, c.req.valid("param").domain, {
    event: "renew",
    async update(ctx, current) {
      const prohibiting = prohibitingStatus("renew", shownStatuses(current));
      if (prohibiting) throw new ApiError("status_prohibits", `${current.name} has ${prohibiting}; it cannot be renewed.`);

      const extension = cat.extensions.get(current.extensionId)!;
      const period = body.period ?? extension.periodMin;
      const { errors, expiresAt } = renewal({ period, currentExpiresAt: body.current_expires_at }, current.expiresAt, extension, ctx.now);
      throwFindings({ invalid: [], policy: errors });
      const pricing = namePricing(current.name, extension, cat.names);
      const price = priceOf(pricing.yearly, "renew", period);
      throwPriceErrors(priceConfirmationErrors(price, body.price, { name: current.name, operation: "renew", years: period, premium: pricing.premium }));

      // A connected repository's registry renews first; its exDate is the expiry (RFC 5731 §3.2.3).
      if (!registries.has(current.repositoryId)) registries.set(current.repositoryId, domainRegistry(c, current.repositoryId));
      const registry = registries.get(current.repositoryId)!;
      const renewed = registry
        ? await registry.send(
            "domain:renew",
            {
              kind: "domain:renew",
              name: current.name,
              curExpDate: current.expiresAt.slice(0, 10),
              period: { value: period, unit: "y" },
              ...(body.price !== undefined ? { fee: { currency: price.currency, fees: [{ amount: body.price }] } } : {}),
            },
            `Renewing ${current.name} at the ${registry.repository} registry`,
          )
        : null;
      const registryExpiry = renewed ? apiTime(resDataOf(renewed.response, "domain:renData")?.exDate) : null;
      // 1001: the registry has yet to act (RFC 5730 §3): nothing is shown as done; the domain shows pendingRenew until it settles.
      pending = renewed?.outcome === "pending";
      if (pending) {
        const next = { ...current, statuses: [...current.statuses, "pendingRenew"], version: current.version + 1, updatedAt: ctx.at };
        return {
          next,
          write: versionStep(ctx.db, domains, current, next),
          answerExtras: { price },
          afterFromDatabase: registryTransaction(renewed?.svTRID),
          readBack: domainCollection.find(ctx.db, { kind: "id", id: current.id }),
        };
      }

      // RFC 3915 §3.2: a renewal starts the renew grace period.
      const rgp = withGracePeriod(current.rgp, ctx.now, { status: "renewPeriod", days: extension.graceRenew });
      const next = { ...current, expiresAt: registryExpiry ?? expiresAt!, rgp, rgpEndsAt: earliestEnd(rgp), version: current.version + 1, updatedAt: ctx.at };
      return {
        next,
        // The renewal is conditional on the expiry it renews (RFC 5731 §3.2.3 curExpDate).
        write: versionStep(ctx.db, domains, current, next, { also: eq(domains.expiresAt, current.expiresAt) }),
        answerExtras: { price },
        afterFromDatabase: registryTransaction(renewed?.svTRID),
      };
    },
  })) as Response;
  // 1001: 202, the domain in pendingRenew (its Idempotency-Key record is the answer as sent: src/http/idempotency.ts).
  return (pending ? new Response(renewedDomain.body, { status: 202, headers: renewedDomain.headers }) : renewedDomain) as never;
};
