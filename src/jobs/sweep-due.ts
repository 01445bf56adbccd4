// The rows each step of the sweep finds due (docs/lifecycle.md), a page at a time in the
// order of the index on their due time (keyset: the next page starts after the last row
// seen, so a row a step passes over is not read again in the run).
import { and, asc, eq, isNull, lt, lte, notInArray, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { domains, transfers } from "../db/schema";

/** Where a step's walk through its index is: after this due time and id. */
export type Position = { key: string; id: string } | null;

/**
 * The repositories whose registry decides their domains' expiry, renewal and deletion (a
 * connector: docs/registries.md, "The registry decides"): the sweep leaves their domains to
 * the registry's poll messages and to reconciliation. Empty when every repository is
 * builtin, and then the due queries are exactly those of a service without connectors.
 */
export type Connected = readonly string[];

/** Domains of builtin repositories only (no condition at all when none is connected). */
function builtinOnly(connected: Connected): SQL | undefined {
  return connected.length > 0 ? notInArray(domains.repositoryId, [...connected]) : undefined;
}

function after(key: SQL, id: SQL, position: Position): SQL | undefined {
  return position ? sql`(${key}, ${id}) > (${position.key}, ${position.id})` : undefined;
}

// The registry lock binds the sweep (src/registry/statuses.ts): the due queries leave out
// the domains a lock holds, so that a locked domain is not read again by every run. Each is
// the SQL mirror of its rule, held to it by test/registry-lock.test.ts.
const hasStatus = (column: "statuses" | "server_statuses", status: string) =>
  sql`exists (select 1 from json_each("domains".${sql.identifier(column)}) where value = ${status})`;

/** autoRenewAllowed: auto_renew, and neither clientRenewProhibited nor serverRenewProhibited. */
export const AUTO_RENEW_ALLOWED = sql`("domains"."auto_renew" = 1 and not ${hasStatus("statuses", "clientRenewProhibited")} and not ${hasStatus("server_statuses", "serverRenewProhibited")})`;

/** sweepDeleteAllowed: no serverDeleteProhibited. */
export const SWEEP_DELETE_ALLOWED = sql`(not ${hasStatus("server_statuses", "serverDeleteProhibited")})`;

/** prohibitingStatus("approveTransfer") is null: the transfer's domain has no serverTransferProhibited. */
export const TRANSFER_APPROVAL_ALLOWED = sql`(not exists (select 1 from main.domains d, json_each(d.server_statuses) s where d.id = "transfers"."domain_id" and s.value = 'serverTransferProhibited'))`;

/**
 * Pending transfers whose act_by has come (transfers_act_by_idx: status, act_by, id), but those
 * the lock holds. These are transfers between two accounts here, a connected repository's
 * included: the registry takes no part in them (docs/decisions.md, "Registry"), so their
 * automatic approval is ours. A transfer with another registrar (registry_transfers) is never
 * here: its registry approves it by itself, and its poll message tells us.
 */
export function dueTransfers(db: Database, at: string, position: Position, limit: number) {
  return db
    .select({ id: transfers.id, key: transfers.actBy })
    .from(transfers)
    .where(
      and(eq(transfers.status, "pending"), lte(transfers.actBy, at), after(sql`${transfers.actBy}`, sql`${transfers.id}`, position), TRANSFER_APPROVAL_ALLOWED),
    )
    .orderBy(asc(transfers.actBy), asc(transfers.id))
    .limit(limit);
}

/**
 * Registrations that ran out (domains_live_expires_idx, drizzle/0014: expires_at and id of
 * the domains not deleted). Deleted domains keep their past expiry for the weeks of
 * redemption; the partial index leaves them out, so a run reads only what is due. A
 * domain the lock holds (no renewal allowed, no deletion either) waits out of the list, and
 * so does one of a connected repository: its registry renews or deletes it, and we learn it
 * from a poll message or reconciliation (which moves its expiry on, out of the list).
 */
export function dueExpiries(db: Database, at: string, position: Position, limit: number, connected: Connected = []) {
  return db
    .select({ id: domains.id, key: domains.expiresAt })
    .from(domains)
    .where(
      and(
        isNull(domains.deletedAt),
        lte(domains.expiresAt, at),
        after(sql`${domains.expiresAt}`, sql`${domains.id}`, position),
        sql`(${AUTO_RENEW_ALLOWED} or ${SWEEP_DELETE_ALLOWED})`,
        builtinOnly(connected),
      ),
    )
    .orderBy(asc(domains.expiresAt), asc(domains.id))
    .limit(limit);
}

/**
 * Domains whose earliest grace period ended (domains_rgp_ends_idx: rgp_ends_at, id). A
 * period runs until its ends_at inclusive. A deleted domain under serverDeleteProhibited
 * neither ends its redemption nor is purged: it waits out of the list; so does a deleted
 * domain of a connected repository, whose registry ends its redemption and purges it (its
 * poll message, or reconciliation, takes it out of the account). A live one's ended grace
 * periods still leave rgp_status: they are the time its registry gave it, and decide nothing.
 */
export function dueGraceEnds(db: Database, at: string, position: Position, limit: number, connected: Connected = []) {
  const deletedDue = connected.length > 0 ? sql`(${SWEEP_DELETE_ALLOWED} and ${builtinOnly(connected)})` : SWEEP_DELETE_ALLOWED;
  return db
    .select({ id: domains.id, key: sql<string>`${domains.rgpEndsAt}` })
    .from(domains)
    .where(
      and(lt(domains.rgpEndsAt, at), after(sql`${domains.rgpEndsAt}`, sql`${domains.id}`, position), sql`("domains"."deleted_at" is null or ${deletedDue})`),
    )
    .orderBy(asc(domains.rgpEndsAt), asc(domains.id))
    .limit(limit);
}
