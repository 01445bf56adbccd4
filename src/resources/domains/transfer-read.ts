// GET /v1/domains/{domain}/transfer (RFC 5731 §3.2.4 op="query"): the domain's latest
// transfer, readable by both its accounts (and operators); anyone else gets 404.
import type { RouteHandler } from "@hono/zod-openapi";
import { narrowReaches } from "../../access/token-rights";
import { seesTransfer } from "../../access/transfers";
import type { AppEnv } from "../../env";
import { resourceRef } from "../../http/lookup";
import { ApiError } from "../../http/problem";
import type * as routes from "./routes";
import { latestTransfer, presentTransfer } from "./transfers";
import { latestRegistryTransferOf } from "../../db/registry-state";
import { readTogether } from "../../db/write";
import { presentRegistryTransfer } from "./registry-follow";

/** 404 for a transfer the caller is no party to, as for one that does not exist. */
export function noTransfer(segment: string): ApiError {
  return new ApiError("not_found", `No transfer of ${segment} is known to your account.`);
}

export const getTransfer: RouteHandler<typeof routes.getTransfer, AppEnv> = async (c) => {
  const segment = c.req.valid("param").domain;
  // The gaining account cannot see the domain yet: it is looked up across accounts, in the
  // transfer's own statement (one round trip); no domain, no transfer: the same 404.
  const allAccounts = c.get("dbAllAccounts") ?? c.get("db");
  const ref = resourceRef(segment, "domain");
  // At a connected repository the transfer may be with another registrar (registry_transfers): the later of the two is the domain's.
  const [[transfer], [withRegistrar]] = await readTogether(allAccounts, [latestTransfer(allAccounts, ref), latestRegistryTransferOf(allAccounts, ref)]);
  const rights = c.get("principal").rights;
  if (withRegistrar && (!transfer || withRegistrar.requestedAt > transfer.requestedAt)) {
    const parties = {
      gainingAccountId: withRegistrar.direction === "in" ? withRegistrar.accountId : null,
      losingAccountId: withRegistrar.direction === "out" ? withRegistrar.accountId : null,
    };
    if (!seesTransfer(rights, parties) || !narrowReaches(rights, "domain", withRegistrar.name)) throw noTransfer(segment);
    return c.json(presentRegistryTransfer(withRegistrar), 200);
  }
  if (!transfer || !seesTransfer(rights, transfer) || !narrowReaches(rights, "domain", transfer.name)) throw noTransfer(segment);
  return c.json(presentTransfer(transfer), 200);
};
