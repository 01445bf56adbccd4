// POST /v1/domains/{domain}/transfer/approve | reject (by the losing account) and
// /cancel (by the gaining account) (RFC 5731 §3.2.4): each ends a pending transfer, in
// one batch with the domain's version step, so an approve racing a cancel leaves exactly
// one outcome; a transfer no longer pending answers 409, anyone else 404. At a connected
// repository the registry takes the approval first: it names the gaining account's copies of
// the contacts and holds a new auth_info (transfer-accounts.ts); the expiry stays the registry's.
// It is asked only when the gaining account has room for the domain, the copies and the
// subordinate hosts: else 422 quota_exceeded, and nothing was sent.
import type { RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import { catalog } from "../../db/catalog";
import { domains } from "../../db/schema";
import { rowStatements, versionStep } from "../../db/write";
import type { AppEnv } from "../../env";
import { changeResource } from "../../http/mutate";
import { mayEndTransfer, type TransferEnding } from "../../access/transfers";
import { ApiError } from "../../http/problem";
import { prohibitingStatus, shownStatuses } from "../../registry/statuses";
import { domainCollection } from "./collection";
import type * as routes from "./routes";
import { endWithRegistrar } from "./transfer-registrar";
import { noTransfer } from "./transfer-read";
import { generateAuthInfo } from "../../registry/auth-info";
import { domainRegistry } from "./registry";
import { approvalAtRegistry } from "./transfer-accounts";
import {
  approvalChange,
  approvalQuotaPassed,
  closeTransfer,
  contactCopyIds,
  contactsOfDomain,
  endedTransfer,
  latestTransfer,
  presentTransfer,
} from "./transfers";

type Action = TransferEnding;

const ENDS = { approve: "approved", reject: "rejected", cancel: "cancelled" } as const;

async function act(c: Context<AppEnv>, segment: string, action: Action) {
  // A transfer with another registrar at a connected registry: the registry acts first.
  const withRegistrar = await endWithRegistrar(c, segment, action);
  if (withRegistrar) return withRegistrar;
  const cat = await catalog(c.get("db"));
  const rights = c.get("principal").rights;
  // At a connected repository the registry takes the approval first: a new auth_info and the
  // contacts' copies, one of each per request (a decision made again sends and writes the same).
  const newAuthInfo = generateAuthInfo();
  const copyIds = new Map<string, string>();
  const { answer: ended } = await changeResource(c, domainCollection, segment, {
    event: `transfer_${action}`,
    acrossAccounts: true,
    async update(ctx, current) {
      const [transfer] = await latestTransfer(ctx.allAccounts, current.id);
      if (!transfer || !mayEndTransfer(rights, transfer, action)) throw noTransfer(segment);
      if (transfer.status !== "pending") {
        throw new ApiError("status_prohibits", `The transfer of ${current.name} is ${transfer.status}, no longer pending.`);
      }
      const answer = endedTransfer(ctx, transfer, ENDS[action]);
      const prohibiting = action === "approve" ? prohibitingStatus("approveTransfer", shownStatuses(current)) : null;
      if (prohibiting) {
        throw new ApiError(
          "status_prohibits",
          `${current.name} has ${prohibiting}; the transfer can be rejected or cancelled, not approved, until the registry's operator clears it.`,
        );
      }
      if (action === "approve") {
        const registry = domainRegistry(c, cat.extensions.get(current.extensionId)!.repositoryId);
        const contactRows = await contactsOfDomain(ctx.allAccounts, current);
        contactCopyIds(copyIds, current, ctx.now);
        // The gaining account's room first: a registry given the copies and a new auth_info
        // must not then see the batch refused (the quota problem, as the batch's check answers).
        const passed = registry ? await approvalQuotaPassed(ctx, current, transfer, contactRows) : null;
        if (passed) throw passed;
        const atRegistry = registry ? await approvalAtRegistry(registry, c.env, ctx.db, current, contactRows, copyIds, transfer.id, newAuthInfo, ctx.at) : null;
        return { ...approvalChange(ctx, cat, current, transfer, "approved", contactRows, atRegistry, copyIds), answer };
      }
      const next = { ...current, pendingTransfer: false, version: current.version + 1, updatedAt: ctx.at };
      return { next, write: versionStep(ctx.db, domains, current, next), alongside: rowStatements(ctx, closeTransfer(ctx, transfer, ENDS[action])), answer };
    },
  });
  return c.json(presentTransfer(ended!), 200);
}

export const approveTransfer: RouteHandler<typeof routes.approveTransfer, AppEnv> = (c) => act(c, c.req.valid("param").domain, "approve");
export const rejectTransfer: RouteHandler<typeof routes.rejectTransfer, AppEnv> = (c) => act(c, c.req.valid("param").domain, "reject");
export const cancelTransfer: RouteHandler<typeof routes.cancelTransfer, AppEnv> = (c) => act(c, c.req.valid("param").domain, "cancel");
