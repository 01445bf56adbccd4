// The sweep's first step (docs/lifecycle.md): a transfer still pending at act_by is approved
// automatically, as the losing account's approval would be (transfer_auto_approve event).
// An approval that would take the gaining account past a limit is refused by the write
// routine's quota check (src/db/quota-check.ts): the transfer stays pending, and a later run
// approves it once the account has room (either side may end it meanwhile). A transfer
// between two of our accounts at a connected repository gives the registry the gaining
// account's copies of the contacts and a new auth_info first
// (src/resources/domains/transfer-accounts.ts), and only once the gaining account has room
// (skipped until then: nothing is sent); while the registry does not take them the transfer
// stays pending (deferred), and the expiry stays the registry's.
import { eq } from "drizzle-orm";
import { writeChange } from "../db/resource-write";
import { QuotaExceeded } from "../db/quota-check";
import { transfers } from "../db/schema";
import { transferAutoApproves } from "../registry/lifecycle";
import { prohibitingStatus, shownStatuses } from "../registry/statuses";
import { domainCollection } from "../resources/domains/collection";
import { generateAuthInfo } from "../registry/auth-info";
import { approvalAtRegistryForSweep } from "../resources/domains/transfer-accounts";
import { approvalChange, approvalQuotaPassed, contactCopyIds, contactsOfDomain } from "../resources/domains/transfers";
import { dueTransfers } from "./sweep-due";
import { attempt, readDomain, type Step } from "./sweep-step";

export const transferStep: Step = {
  due: (db, at, position, limit) => dueTransfers(db, at, position, limit),
  act: async (ctx, cat, id, _room, connected, settings) => [
    await attempt(async () => {
      const [transfer] = await ctx.db.select().from(transfers).where(eq(transfers.id, id));
      if (!transfer || !transferAutoApproves(transfer, ctx.now)) return "skipped";
      const current = await readDomain(ctx.db, transfer.domainId);
      if (!current) return "skipped";
      // serverTransferProhibited holds the transfer pending until the operator clears it.
      if (prohibitingStatus("approveTransfer", shownStatuses(current))) return "skipped";
      const repository = cat.extensions.get(current.extensionId)!.repositoryId;
      const contactRows = await contactsOfDomain(ctx.db, current);
      const copyIds = contactCopyIds(new Map(), current, ctx.now);
      let atRegistry = null;
      if (connected.includes(repository)) {
        // Nothing is sent to the registry while the gaining account has no room: the batch
        // would refuse what the registry had already taken (the contacts' copies, an auth_info).
        if (await approvalQuotaPassed(ctx, current, transfer, contactRows)) return "skipped";
        atRegistry = settings
          ? await approvalAtRegistryForSweep(settings, ctx.db, current, contactRows, copyIds, transfer.id, generateAuthInfo(), ctx.at)
          : null;
        if (!atRegistry) return "deferred";
      }
      const change = approvalChange(ctx, cat, current, transfer, "auto_approved", contactRows, atRegistry, copyIds);
      try {
        await writeChange(ctx, domainCollection, "transfer_auto_approve", current, change);
      } catch (error) {
        if (error instanceof QuotaExceeded) return "skipped";
        throw error;
      }
      return "transfers_approved";
    }),
  ],
};
