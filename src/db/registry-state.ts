// What this registrar's copy keeps of what connected registries say (drizzle/0042,
// docs/registries.md "The registry decides"): each domain's ROID, its sponsor there when it
// is not us and since when the registry no longer has it for us (and the auth_info a pending
// update asked for: drizzle/0046); transfers with other
// registrars; the poll messages applied; where each repository's reconciliation stands.
import { and, asc, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "./client";
import type { ResourceRef } from "./ref";
import { domains, registryDomains, registryMessages, registryReconciliations, registryTransfers } from "./schema";

export type RegistryDomainRow = typeof registryDomains.$inferSelect;
export type RegistryTransferRow = typeof registryTransfers.$inferSelect;

/** Records what the registry said of a domain (insert, or update of the fields given). */
export function registryDomainUpsert(
  db: Database,
  row: {
    domainId: string;
    repositoryId: string;
    roid?: string | null;
    sponsor?: string | null;
    missingSince?: string | null;
    reconciledAt?: string | null;
    /** The auth_info a pending update asked for and that update's clTRID (drizzle/0046, 0047); null drops it. */
    pendingAuthInfo?: PendingAuthInfo | null;
  },
) {
  const set: Partial<RegistryDomainRow> = {};
  if (row.roid !== undefined) set.roid = row.roid;
  if (row.sponsor !== undefined) set.sponsor = row.sponsor;
  if (row.missingSince !== undefined) set.missingSince = row.missingSince;
  if (row.reconciledAt !== undefined) set.reconciledAt = row.reconciledAt;
  if (row.pendingAuthInfo !== undefined) {
    set.pendingAuthInfo = row.pendingAuthInfo?.authInfo ?? null;
    set.pendingAuthInfoTrid = row.pendingAuthInfo?.clTRID ?? null;
  }
  const values: RegistryDomainRow = {
    domainId: row.domainId,
    repositoryId: row.repositoryId,
    roid: row.roid ?? null,
    sponsor: row.sponsor ?? null,
    missingSince: row.missingSince ?? null,
    reconciledAt: row.reconciledAt ?? null,
    pendingAuthInfo: row.pendingAuthInfo?.authInfo ?? null,
    pendingAuthInfoTrid: row.pendingAuthInfo?.clTRID ?? null,
  };
  // Only while the domain exists: a write that removed it in the same batch leaves nothing behind.
  return db
    .insert(registryDomains)
    .select(
      db
        .select({
          domainId: sql<string>`${values.domainId}`.as("domain_id"),
          repositoryId: sql<string>`${values.repositoryId}`.as("repository_id"),
          roid: sql<string | null>`${values.roid}`.as("roid"),
          sponsor: sql<string | null>`${values.sponsor}`.as("sponsor"),
          missingSince: sql<string | null>`${values.missingSince}`.as("missing_since"),
          reconciledAt: sql<string | null>`${values.reconciledAt}`.as("reconciled_at"),
          pendingAuthInfo: sql<string | null>`${values.pendingAuthInfo}`.as("pending_auth_info"),
          pendingAuthInfoTrid: sql<string | null>`${values.pendingAuthInfoTrid}`.as("pending_auth_info_trid"),
        })
        .from(sql`(select 1)`)
        .where(sql`exists (select 1 from domains d where d.id = ${values.domainId})`),
    )
    .onConflictDoUpdate({ target: registryDomains.domainId, set: Object.keys(set).length > 0 ? set : { repositoryId: values.repositoryId } });
}

// ---- transfers with other registrars ---------------------------------------------------

/** The domain's pending transfer with another registrar (ours going out), if any. */
export function pendingOutboundTransfer(db: Database, domainId: string) {
  return db
    .select()
    .from(registryTransfers)
    .where(and(eq(registryTransfers.domainId, domainId), eq(registryTransfers.direction, "out"), eq(registryTransfers.status, "pending")))
    .orderBy(desc(registryTransfers.requestedAt))
    .limit(1);
}

/** The latest transfer of a name at a repository (either direction). */
export function latestRegistryTransfer(db: Database, repositoryId: string, name: string) {
  return db
    .select()
    .from(registryTransfers)
    .where(and(eq(registryTransfers.repositoryId, repositoryId), eq(registryTransfers.name, name)))
    .orderBy(desc(registryTransfers.requestedAt), desc(registryTransfers.id))
    .limit(1);
}

/** The latest transfer with another registrar of a domain by id (its domain_id), or of a name (in either direction). */
export function latestRegistryTransferOf(db: Database, ref: ResourceRef) {
  return db
    .select()
    .from(registryTransfers)
    .where(ref.kind === "id" ? eq(registryTransfers.domainId, ref.id) : eq(registryTransfers.name, ref.name))
    .orderBy(desc(registryTransfers.requestedAt), desc(registryTransfers.id))
    .limit(1);
}

export function registryTransferInsert(db: Database, row: RegistryTransferRow) {
  return db.insert(registryTransfers).values(row);
}

/** Ends a pending transfer (only while it is still pending at its version: a row that must change). */
export function registryTransferEnd(
  db: Database,
  row: RegistryTransferRow,
  status: Exclude<RegistryTransferRow["status"], "pending">,
  at: string,
  domainId?: string,
) {
  return db
    .update(registryTransfers)
    .set({ status, actedAt: at, version: row.version + 1, ...(domainId !== undefined ? { domainId } : {}) })
    .where(and(eq(registryTransfers.id, row.id), eq(registryTransfers.version, row.version), eq(registryTransfers.status, "pending")));
}

// ---- poll messages -----------------------------------------------------------------------

/** Notes a message as received; answers whether it was applied before (a second hand-over of one already applied). */
export async function messageReceived(
  db: Database,
  repositoryId: string,
  messageId: string,
  kind: string,
  at: string,
): Promise<{ applied: boolean; attempts: number; lastError: string | null }> {
  // Each hand-over counts as it arrives, so that one the Worker never finished (stopped, out of CPU) counts too.
  const [row] = await db
    .insert(registryMessages)
    .values({ repositoryId, messageId, kind, receivedAt: at, appliedAt: null, attempts: 1 })
    .onConflictDoUpdate({
      target: [registryMessages.repositoryId, registryMessages.messageId],
      set: { kind, attempts: sql`${registryMessages.attempts} + 1` },
    })
    .returning({ appliedAt: registryMessages.appliedAt, attempts: registryMessages.attempts, lastError: registryMessages.lastError });
  return { applied: row?.appliedAt != null, attempts: row?.attempts ?? 1, lastError: row?.lastError ?? null };
}

/**
 * A hand-over that failed: with an unexpected error, its summary is kept for the event that
 * keeps the message at the bound; one that waited for the registry (out of reach) does not
 * count (`attempts` given back): an outage ends, and the message is applied after it.
 */
export function messageFailed(db: Database, repositoryId: string, messageId: string, failure: { lastError: string } | "registry_unavailable") {
  return db
    .update(registryMessages)
    .set(failure === "registry_unavailable" ? { attempts: sql`max(${registryMessages.attempts} - 1, 0)` } : { lastError: failure.lastError })
    .where(and(eq(registryMessages.repositoryId, repositoryId), eq(registryMessages.messageId, messageId)));
}

/** Marks a message applied: a later hand-over of it changes nothing. */
export function messageApplied(db: Database, repositoryId: string, messageId: string, at: string) {
  return db
    .update(registryMessages)
    .set({ appliedAt: at })
    .where(and(eq(registryMessages.repositoryId, repositoryId), eq(registryMessages.messageId, messageId)));
}

/** Forgets messages received before `before` (at most `limit` a call: one bounded statement). */
export function forgetMessages(db: Database, before: string, limit = 1000) {
  return db
    .delete(registryMessages)
    .where(
      sql`rowid in (select rowid from ${registryMessages} where ${lt(registryMessages.receivedAt, before)} order by ${asc(registryMessages.receivedAt)} limit ${limit})`,
    );
}

// ---- reconciliation ----------------------------------------------------------------------

/**
 * A connected repository's overdue domains, most overdue first: expired here (`expires_at` past)
 * and not compared with the registry since (never, or before that expiry). The registry renewed
 * them, let them expire or purged them by its clock, which the sweep leaves to it, so each run of
 * reconciliation takes these before the rest of its pass. One range of
 * domains_repository_expires_idx, each probed in registry_domains by its key.
 */
export function overdueForReconciliation(db: Database, repositoryId: string, now: string, limit: number) {
  return db
    .select({ id: domains.id })
    .from(domains)
    .leftJoin(registryDomains, eq(registryDomains.domainId, domains.id))
    .where(
      and(
        eq(domains.repositoryId, repositoryId),
        lt(domains.expiresAt, now),
        or(isNull(registryDomains.reconciledAt), lt(registryDomains.reconciledAt, domains.expiresAt)),
      ),
    )
    .orderBy(asc(domains.expiresAt))
    .limit(limit);
}

export function reconciliationOf(db: Database, repositoryId: string) {
  return db.select().from(registryReconciliations).where(eq(registryReconciliations.repositoryId, repositoryId));
}

/** Where the pass resumes (null: it starts again from the first domain), when this run ran, and when a pass last ended. */
export function reconciliationSave(
  db: Database,
  repositoryId: string,
  state: { afterDomainId: string | null; passStartedAt: string | null; lastRunAt: string; lastPassEndedAt?: string },
) {
  const set = {
    afterDomainId: state.afterDomainId,
    passStartedAt: state.passStartedAt,
    lastRunAt: state.lastRunAt,
    ...(state.lastPassEndedAt ? { lastPassEndedAt: state.lastPassEndedAt } : {}),
  };
  return db
    .insert(registryReconciliations)
    .values({ repositoryId, lastPassEndedAt: null, ...set })
    .onConflictDoUpdate({ target: registryReconciliations.repositoryId, set });
}

/** The auth_info a pending update asked for, with the clTRID of that update (the one its panData's `paTRID.clTRID` names). */
export interface PendingAuthInfo {
  authInfo: string;
  clTRID: string;
}

/** The auth_info a pending update of the domain asked for and that update's clTRID (drizzle/0046, 0047), or null. */
export async function pendingAuthInfoOf(db: Database, domainId: string): Promise<PendingAuthInfo | null> {
  const [row] = await db
    .select({ authInfo: registryDomains.pendingAuthInfo, clTRID: registryDomains.pendingAuthInfoTrid })
    .from(registryDomains)
    .where(eq(registryDomains.domainId, domainId));
  return row?.authInfo != null && row.clTRID != null ? { authInfo: row.authInfo, clTRID: row.clTRID } : null;
}
