// What the transfer operations share (RFC 5731 §3.2.4, docs/lifecycle.md): the transfer as
// the API shows it, the domain's latest transfer, and what an approval writes (by the
// losing account, or by the sweep at act_by).
import { count, desc, eq, inArray, sql } from "drizzle-orm";
import type { Catalog } from "../../db/catalog";
import type { Database } from "../../db/client";
import type { ResourceRef } from "../../db/ref";
import { eventInsert, previousStatementChanged } from "../../db/events";
import { newId } from "../../db/ids";
import { type QuotaExceeded, quotaPassedBy } from "../../db/quota-check";
import { contacts, domains, hosts, transfers } from "../../db/schema";
import type { Change } from "../../db/resource-write";
import { type RowWrite, rowStatements, type Statement, versionStep, type WriteContext } from "../../db/write";
import { generateAuthInfo } from "../../registry/auth-info";
import { cappedExpiry, earliestEnd, transferLockedUntil, withGracePeriod } from "../../registry/lifecycle";
import { presentContact } from "../contacts/present";
import type { DomainWithLinks } from "./queries";
import { forgetDomainFailures } from "./transfer-failures";

export type TransferRow = typeof transfers.$inferSelect;
export type TransferStatus = TransferRow["status"];

export function presentTransfer(row: TransferRow) {
  return {
    domain: row.domainId,
    name: row.name,
    status: row.status,
    gaining_account: row.gainingAccountId,
    losing_account: row.losingAccountId,
    registrar: null,
    period: row.period,
    requested_at: row.requestedAt,
    act_by: row.actBy,
    acted_at: row.actedAt,
    price: row.price,
  };
}

/**
 * The domain's latest transfer (transfers_domain_idx); transfers are not owned rows, so no
 * account shadows them. The domain is its id, or a reference found in the same statement
 * (a domain by name: one round trip, no read of the domain first).
 */
export function latestTransfer(db: Database, domain: string | ResourceRef) {
  const domainId =
    typeof domain === "string" || domain.kind === "id"
      ? eq(transfers.domainId, typeof domain === "string" ? domain : domain.id)
      : sql`${transfers.domainId} = (select ${domains.id} from ${domains} where ${domains.name} = ${domain.name})`;
  return db.select().from(transfers).where(domainId).orderBy(desc(transfers.requestedAt), desc(transfers.id)).limit(1);
}

export function newTransferId(now: Date): string {
  return newId("transfer", now);
}

/** The transfer as it ends: acted on now, one version on. */
export function endedTransfer(ctx: WriteContext, transfer: TransferRow, status: Exclude<TransferStatus, "pending">): TransferRow {
  return { ...transfer, status, actedAt: ctx.at, version: transfer.version + 1 };
}

/**
 * The version step that ends a pending transfer: a row the write must change, so a
 * transfer that another write ended since it was read makes the batch lose its race.
 */
export function closeTransfer(ctx: WriteContext, transfer: TransferRow, status: Exclude<TransferStatus, "pending">): RowWrite {
  return { statement: versionStep(ctx.db, transfers, transfer, endedTransfer(ctx, transfer, status), { also: eq(transfers.status, "pending") }) };
}

/** The contacts a domain uses, as stored (read across accounts: the sweep acts for no account). */
export function contactsOfDomain(db: Database, domain: DomainWithLinks) {
  const ids = [domain.registrantId, domain.adminId, domain.techId, domain.billingId].filter((id): id is string => id !== null);
  return db.select().from(contacts).where(inArray(contacts.id, ids));
}

/**
 * At a connected repository (docs/registries.md, "Transfers between our accounts"): the new
 * auth_info the registry took (`<domain:update>`) and its transaction id.
 */
export interface AtRegistry {
  authInfo: string;
  svTRID: string;
  /** The registry_objects rows of the contacts' copies created there (written after the copies). */
  rows: Statement[];
}

/**
 * The ids of the copies an approval makes of the domain's contacts, one per contact it uses:
 * added to `copies` for those it lacks, so that a decision made again within one request (a
 * lost race) writes the copies the registry was given.
 */
export function contactCopyIds(copies: Map<string, string>, domain: DomainWithLinks, now: Date): Map<string, string> {
  for (const id of [domain.registrantId, domain.adminId, domain.techId, domain.billingId]) {
    if (id !== null && !copies.has(id)) copies.set(id, newId("contact", now));
  }
  return copies;
}

/**
 * The quota the approval would take the gaining account past (null: it has room): what
 * approvalChange brings it is the domain, a copy of each contact the domain uses and its
 * subordinate hosts. Asked before a connected registry is sent anything (transfer-accounts.ts):
 * the approval's batch would be refused by the same limit after the registry had named the
 * copies and taken a new auth_info nobody stored.
 */
export async function approvalQuotaPassed(
  ctx: WriteContext,
  current: DomainWithLinks,
  transfer: TransferRow,
  contactRows: readonly (typeof contacts.$inferSelect)[],
): Promise<QuotaExceeded | null> {
  const used = new Set([current.registrantId, current.adminId, current.techId, current.billingId]);
  const [subordinate] = await ctx.allAccounts.select({ n: count() }).from(hosts).where(eq(hosts.domainId, current.id));
  const promised = { domains: 1, contacts: contactRows.filter((row) => used.has(row.id)).length, hosts: subordinate?.n ?? 0 };
  return quotaPassedBy(ctx.allAccounts, transfer.gainingAccountId, promised, ctx.limits);
}

/**
 * The approval (docs/lifecycle.md): the sponsor becomes the gaining account; the expiry grows
 * by the period, capped at periods.max years from now; auth_info is regenerated; the
 * contacts the domain uses are copied into the gaining account (new ids, same data) and
 * the domain points at the copies; subordinate hosts move with the domain;
 * transferPeriod starts, and with last_transfer_at the transfer lock restarts.
 *
 * At a connected repository (`atRegistry`) the registry holds the domain for this registrar
 * before and after: no transfer happened there, so the expiry, the grace periods and the
 * transfer lock stay the registry's (no year is added), the auth_info is the one the
 * registry took, and the copies are the contacts the registry now names (their ids
 * `copyIds`, the ones given to approvalAtRegistry; their registry_objects rows written here).
 */
export function approvalChange(
  ctx: WriteContext,
  cat: Catalog,
  current: DomainWithLinks,
  transfer: TransferRow,
  status: "approved" | "auto_approved",
  contactRows: readonly (typeof contacts.$inferSelect)[],
  atRegistry: AtRegistry | null = null,
  copyIds: Map<string, string> = new Map(),
): Change<DomainWithLinks> {
  const extension = cat.extensions.get(current.extensionId)!;
  const gaining = transfer.gainingAccountId;
  contactCopyIds(copyIds, current, ctx.now);
  const used = new Set([current.registrantId, current.adminId, current.techId, current.billingId]);
  const copies = new Map([...copyIds].filter(([id]) => used.has(id)));
  const copied = (id: string | null) => (id === null ? null : copies.get(id)!);
  const rgp = atRegistry ? current.rgp : withGracePeriod(current.rgp, ctx.now, { status: "transferPeriod", days: extension.graceTransfer });
  const next: DomainWithLinks = {
    ...current,
    accountId: gaining,
    registrantId: copied(current.registrantId),
    adminId: copied(current.adminId),
    techId: copied(current.techId),
    billingId: copied(current.billingId),
    expiresAt: atRegistry ? current.expiresAt : cappedExpiry(current.expiresAt, transfer.period, extension.periodMax, ctx.now),
    authInfo: atRegistry ? atRegistry.authInfo : generateAuthInfo(),
    lastTransferAt: ctx.at,
    rgp,
    rgpEndsAt: atRegistry ? current.rgpEndsAt : earliestEnd(rgp),
    pendingTransfer: false,
    transferLockedUntil: atRegistry ? current.transferLockedUntil : transferLockedUntil(current.createdAt, ctx.at, extension.transferLockDays),
    // The zone of the same name stays with the losing account and so loses its link.
    zoneId: null,
    version: current.version + 1,
    updatedAt: ctx.at,
  };
  // Each copy is a new contact of the gaining account, with its own create event (written
  // only if the copy was).
  const contactCopies = contactRows
    .filter((row) => copies.has(row.id))
    .flatMap((row) => {
      const copy = { ...row, id: copies.get(row.id)!, accountId: gaining, version: 1, createdAt: ctx.at, updatedAt: ctx.at };
      return [
        ctx.db.insert(contacts).values(copy),
        eventInsert(
          ctx.db,
          {
            at: ctx.at,
            actor: ctx.actor,
            account: gaining,
            type: "contact",
            id: copy.id,
            operation: "create",
            before: null,
            after: presentContact({ ...copy, linked: true }),
          },
          { onlyIf: previousStatementChanged },
        ),
      ];
    });
  return {
    next,
    // The copies must exist before the domain points at them (foreign keys are checked per
    // statement), so the domain's contacts are set after them, without a second version step.
    write: versionStep(ctx.db, domains, current, next, { leave: ["registrantId", "adminId", "techId", "billingId"] }),
    ...(atRegistry ? { afterFromDatabase: { "$.registry_sv_trid": sql`${atRegistry.svTRID}` } } : {}),
    alongside: [
      ...rowStatements(ctx, closeTransfer(ctx, transfer, status)),
      ...contactCopies,
      ctx.db
        .update(domains)
        .set({ registrantId: next.registrantId, adminId: next.adminId, techId: next.techId, billingId: next.billingId })
        .where(eq(domains.id, current.id)),
      // What the registry holds the copies by (after the copies: a row per contact created there).
      ...(atRegistry?.rows ?? []),
      ctx.db.update(hosts).set({ accountId: gaining }).where(eq(hosts.domainId, current.id)),
      // The new auth_info starts the domain's count of failed transfer requests again.
      forgetDomainFailures(ctx.db, current.id),
    ],
  };
}
