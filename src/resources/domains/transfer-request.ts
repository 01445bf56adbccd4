// POST /v1/domains/{domain}/transfer (RFC 5731 §3.2.4 op="request"): the gaining account
// names the domain (not yet visible to it) and proves the registrant's consent with
// auth_info. The checks run in an order that makes the password tell nothing but itself
// (docs/safety.md § Transfers and auth_info):
//
//   1. what forbids the transfer whatever the password: the caller's own domain, a status
//      (clientTransferProhibited, serverTransferProhibited, pendingDelete,
//      pendingTransfer), the transfer lock, a period the extension refuses. No password is
//      compared, so none is guessed while the domain cannot move, and a right one and a
//      wrong one get the same answer;
//   2. the failure counts of the domain and of the caller's account (429 while either is
//      locked, whatever the password);
//   3. the password (at a connected repository, the registry's: transfer-accounts.ts):
//      a wrong one is counted (and shown to the sponsor as an event) before
//      the 422 is answered; a right one writes the transfer, guarded against a failure
//      that locked a count meanwhile.
import type { RouteHandler } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { catalog } from "../../db/catalog";
import { promisedQuotaGuard } from "../../db/quota-check";
import { domains, transfers } from "../../db/schema";
import { commitWrite, versionStep } from "../../db/write";
import type { AppEnv } from "../../env";
import { newFindings, throwFindings, throwPriceErrors } from "../../http/findings";
import { changeResource } from "../../http/mutate";
import { resourceRef } from "../../http/lookup";
import { callerAccount } from "../../http/caller";
import { ApiError } from "../../http/problem";
import { addDays, transferLockHolds } from "../../registry/lifecycle";
import { periodErrors, wholeYearsErrors } from "../../registry/periods";
import { namePricing, priceConfirmationErrors, priceOf } from "../../registry/prices";
import { prohibitingStatus, shownStatuses } from "../../registry/statuses";
import { domainCollection } from "./collection";
import { failureKeys, lockedSeconds, notLockedGuard, readRequestCounts, recordFailure, transferLocked } from "./transfer-failures";
import { presentTransfer, type TransferRow, newTransferId } from "./transfers";
import type * as routes from "./routes";
import { requestFromRegistrar } from "./transfer-registrar";
import { domainRegistry } from "./registry";
import { betweenOurAccountsPrice, registryAuthInfoMatches, sameSecret } from "./transfer-accounts";

export const requestTransfer: RouteHandler<typeof routes.requestTransfer, AppEnv> = async (c) => {
  const body = c.req.valid("json");
  const cat = await catalog(c.get("db"));
  const gaining = callerAccount(c);
  const parsed = newFindings();
  if (body.period !== undefined) parsed.invalid.push(...wholeYearsErrors(body.period));
  throwFindings(parsed);

  const segment = c.req.valid("param").domain;
  // A name of a connected repository that no account here holds: a transfer from another registrar, asked of the registry.
  const fromRegistrar = await requestFromRegistrar(c, segment, body);
  if (fromRegistrar) return fromRegistrar as never;
  const { answer: transfer } = await changeResource(c, domainCollection, segment, {
    event: "transfer_request",
    acrossAccounts: true,
    // The failure counts, in the domain's own round trip.
    reads: (db) => [readRequestCounts(db, resourceRef(segment, "domain"), gaining)],
    async update(ctx, current, [counts]) {
      // 1. Whatever the password.
      if (current.accountId === gaining) {
        throw new ApiError("policy_violation", `${current.name} is already sponsored by your account.`, {
          errors: [{ field: "domain", message: "is already sponsored by the requesting account" }],
        });
      }
      const prohibiting = prohibitingStatus("transfer", shownStatuses(current));
      if (prohibiting) throw new ApiError("status_prohibits", `${current.name} has ${prohibiting}; it cannot be transferred.`);
      if (transferLockHolds(current.transferLockedUntil, ctx.now)) {
        throw new ApiError(
          "policy_violation",
          `${current.name} cannot be transferred before ${current.transferLockedUntil} (registration or last transfer lock).`,
          {
            errors: [{ field: "domain", message: `is locked against transfer until ${current.transferLockedUntil}` }],
          },
        );
      }
      const extension = cat.extensions.get(current.extensionId)!;
      const period = body.period ?? 1;
      throwFindings({ invalid: [], policy: periodErrors(period, extension) });
      // At a connected repository the registry transfers nothing and no year is added: no fee
      // is owed, a premium name's included (transfer-accounts.ts).
      const registry = domainRegistry(c, extension.repositoryId);
      const pricing = namePricing(current.name, extension, cat.names);
      const price = registry ? betweenOurAccountsPrice(pricing.yearly) : priceOf(pricing.yearly, "transfer", period);
      const premium = registry ? false : pricing.premium;
      throwPriceErrors(priceConfirmationErrors(price, body.price, { name: current.name, operation: "transfer", years: period, premium }));

      // 2. The failure counts.
      const keys = failureKeys(current.id, gaining);
      const locked = lockedSeconds(counts, ctx.now.getTime());
      if (locked > 0) throw transferLocked(locked);

      // 3. The password: at a connected repository the registry's (transfer-accounts.ts).
      const matches = registry
        ? await registryAuthInfoMatches(registry, c.env, current.name, body.auth_info, current.authInfo)
        : sameSecret(body.auth_info, current.authInfo);
      if (!matches) {
        const failure = recordFailure(ctx, current, gaining, keys);
        const [written] = (await commitWrite(ctx, failure.write)) as [Parameters<typeof failure.counted>[0]];
        // Not counted: a request that raced this one locked a count first.
        if (!failure.counted(written)) throw transferLocked(Math.max(1, lockedSeconds(written, ctx.now.getTime())));
        throw new ApiError("policy_violation", "auth_info: does not match.", { errors: [{ field: "auth_info", message: "does not match" }] });
      }

      const transfer: TransferRow = {
        id: newTransferId(ctx.now),
        domainId: current.id,
        name: current.name,
        gainingAccountId: gaining,
        losingAccountId: current.accountId,
        status: "pending",
        period,
        requestedAt: ctx.at,
        actBy: addDays(ctx.now, extension.pendingTransferDays).toISOString(),
        actedAt: null,
        price,
        version: 1,
      };
      const next = { ...current, pendingTransfer: true, version: current.version + 1, updatedAt: ctx.at };
      // What the approval will bring the gaining account (transfers.ts, approvalChange): the
      // domain, its subordinate hosts, a copy of each contact it uses.
      const contactIds = new Set([current.registrantId, current.adminId, current.techId, current.billingId].filter((id) => id !== null));
      const promised = { domains: 1, hosts: sql`(select count(*) from hosts h where h.domain_id = ${current.id})`, contacts: contactIds.size };
      return {
        next,
        // The domain's version step makes concurrent requests (and any other write) collide.
        write: versionStep(ctx.db, domains, current, next),
        alongside: [ctx.db.insert(transfers).values(transfer)],
        // The gaining account must have room for what the transfer brings it now, when it asks;
        // the approval's own batch is held to the limits again (src/db/quota-check.ts).
        guards: [notLockedGuard(ctx.db, current.id, keys, ctx.now.getTime()), promisedQuotaGuard(ctx.db, gaining, promised, ctx.limits)],
        answer: transfer,
      };
    },
  });
  if (!transfer) throw new Error("the transfer request wrote nothing");
  c.header("Location", `/v1/domains/${transfer.name}/transfer`);
  return c.json(presentTransfer(transfer), 201);
};
