// The sweep (docs/lifecycle.md): every time-driven step of the domain lifecycle, run by the
// cron trigger and by POST /v1/lifecycle/sweep. Each step walks the rows that are due in
// the order of the index on their due time, a page at a time (keyset: the next page starts
// after the last row seen, so a row the step passes over is not read again in the run),
// reads each due row again, decides with the pure rule of src/registry/lifecycle.ts, and
// writes through the write routine with its event. Nothing is remembered between runs: a
// row that was dealt with is no longer due, so a run that stopped at its bound, or
// crashed, is resumed by the next one, and two runs at once write each change once (the
// loser of a race reads again and finds nothing due).
import { and, asc, eq, isNull, lt, lte, ne, sql, type SQL } from "drizzle-orm";
import { type Catalog, catalog } from "../../db/catalog";
import { type Database, database } from "../../db/client";
import { domainNameservers, domains, hosts, transfers } from "../../db/schema";
import { type Change, type Statement, unattendedContext, type WriteContext, writeUnattended } from "../../http/mutate";
import { eventInsert, previousStatementChanged } from "../../db/events";
import { earliestEnd, expiryStep, graceStep, transferAutoApproves, type SweepGrace } from "../../registry/lifecycle";
import { prohibitingStatus, shownStatuses } from "../../registry/statuses";
import { domainCollection } from "../domains/collection";
import { type DomainWithLinks, findDomain } from "../domains/queries";
import { approvalChange, contactsOfDomain } from "../domains/transfers";
import { presentHost } from "../hosts/present";

/** What one run did: each step's count of writes, and whether it stopped at its bound with more due. */
export interface SweepReport {
  as_of: string;
  transfers_approved: number;
  auto_renewed: number;
  expired: number;
  grace_periods_ended: number;
  redemptions_ended: number;
  purged: number;
  /** Rows that were due but must wait (a transfer pending on a domain that would expire) or kept losing races. */
  skipped: number;
  /** The run stopped at its bound with rows still due: the next run continues. */
  more: boolean;
}

export interface SweepOptions {
  /** The time the run acts at: now, or `as_of` where the service allows it. */
  now: Date;
  /** Who the events name: the token that asked for the run, or `cron`. */
  actor: string;
  /** Due rows read per page (default 50). */
  pageSize?: number;
  /**
   * Due rows a run handles at most, over all its steps (default 300). A row costs about two
   * D1 queries (its read, its write batch; a purge a few more), and a Worker invocation may
   * make 1 000 on Workers Paid (src/db/d1-limits.ts): the run stays well inside it.
   */
  maxRows?: number;
}

/** Attempts at one row when concurrent writes keep winning; after them it waits for the next run. */
const ATTEMPTS = 3;

type Position = { key: string; id: string } | null;

/** The step a due row takes: "skipped" when it is not due any more or must wait, or lost every race. */
type Outcome = keyof Omit<SweepReport, "as_of" | "more" | "skipped"> | "skipped";

interface Step {
  /** A page of due rows after `after`, in the index's order: their id and due time. */
  due(db: Database, at: string, after: Position, limit: number): Promise<{ id: string; key: string }[]>;
  /** One due row, read again and dealt with. */
  act(ctx: WriteContext, cat: Catalog, id: string): Promise<Outcome>;
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

/** Pending transfers whose act_by has come (transfers_act_by_idx: status, act_by, id), but those the lock holds. */
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
 * domain the lock holds (no renewal allowed, no deletion either) waits out of the list.
 */
export function dueExpiries(db: Database, at: string, position: Position, limit: number) {
  return db
    .select({ id: domains.id, key: domains.expiresAt })
    .from(domains)
    .where(
      and(
        isNull(domains.deletedAt),
        lte(domains.expiresAt, at),
        after(sql`${domains.expiresAt}`, sql`${domains.id}`, position),
        sql`(${AUTO_RENEW_ALLOWED} or ${SWEEP_DELETE_ALLOWED})`,
      ),
    )
    .orderBy(asc(domains.expiresAt), asc(domains.id))
    .limit(limit);
}

/**
 * Domains whose earliest grace period ended (domains_rgp_ends_idx: rgp_ends_at, id). A
 * period runs until its ends_at inclusive. A deleted domain under serverDeleteProhibited
 * neither ends its redemption nor is purged: it waits out of the list.
 */
export function dueGraceEnds(db: Database, at: string, position: Position, limit: number) {
  return db
    .select({ id: domains.id, key: sql<string>`${domains.rgpEndsAt}` })
    .from(domains)
    .where(
      and(
        lt(domains.rgpEndsAt, at),
        after(sql`${domains.rgpEndsAt}`, sql`${domains.id}`, position),
        sql`("domains"."deleted_at" is null or ${SWEEP_DELETE_ALLOWED})`,
      ),
    )
    .orderBy(asc(domains.rgpEndsAt), asc(domains.id))
    .limit(limit);
}

function graceOf(cat: Catalog, domain: DomainWithLinks): SweepGrace {
  const extension = cat.extensions.get(domain.extensionId)!;
  return { autoRenew: extension.graceAutoRenew, redemption: extension.graceRedemption, pendingDelete: extension.gracePendingDelete };
}

async function readDomain(db: Database, id: string): Promise<DomainWithLinks | undefined> {
  const [row] = await findDomain(db, { kind: "id", id });
  return row;
}

/** The domain's own row, written only if nobody wrote it since it was read. */
function domainWrite(ctx: WriteContext, current: DomainWithLinks, next: DomainWithLinks): Statement {
  return ctx.db
    .update(domains)
    .set({
      expiresAt: next.expiresAt,
      rgp: next.rgp,
      rgpEndsAt: next.rgpEndsAt,
      deletedAt: next.deletedAt,
      version: next.version,
      updatedAt: next.updatedAt,
    })
    .where(and(eq(domains.id, current.id), eq(domains.version, current.version)));
}

function stepped(ctx: WriteContext, current: DomainWithLinks, fields: Partial<DomainWithLinks>): Change<DomainWithLinks> {
  const next: DomainWithLinks = { ...current, ...fields, version: current.version + 1, updatedAt: ctx.at };
  next.rgpEndsAt = next.deletedAt !== null ? (earliestEnd(next.rgp) ?? next.deletedAt) : earliestEnd(next.rgp);
  return { next, write: domainWrite(ctx, current, next) };
}

/** Reads the row again and acts, again after a lost race, a few times. */
async function attempt(act: () => Promise<Outcome | "lost">): Promise<Outcome> {
  for (let i = 0; i < ATTEMPTS; i++) {
    const outcome = await act();
    if (outcome !== "lost") return outcome;
  }
  return "skipped";
}

const transferStep: Step = {
  due: (db, at, position, limit) => dueTransfers(db, at, position, limit),
  act: (ctx, cat, id) =>
    attempt(async () => {
      const [transfer] = await ctx.db.select().from(transfers).where(eq(transfers.id, id));
      if (!transfer || !transferAutoApproves(transfer, ctx.now)) return "skipped";
      const current = await readDomain(ctx.db, transfer.domainId);
      if (!current) return "skipped";
      // serverTransferProhibited holds the transfer pending until the operator clears it.
      if (prohibitingStatus("approveTransfer", shownStatuses(current))) return "skipped";
      const change = approvalChange(ctx, cat, current, transfer, "auto_approved", await contactsOfDomain(ctx.db, current));
      return (await writeUnattended(ctx, domainCollection, "transfer_auto_approve", current, { change })) ? "transfers_approved" : "lost";
    }),
};

const expiryStepOfSweep: Step = {
  due: (db, at, position, limit) => dueExpiries(db, at, position, limit),
  act: (ctx, cat, id) =>
    attempt(async () => {
      const current = await readDomain(ctx.db, id);
      if (!current) return "skipped";
      const step = expiryStep(current, graceOf(cat, current), ctx.now);
      if (!step) return "skipped";
      if (step.kind === "auto_renew") {
        const change = stepped(ctx, current, { expiresAt: step.expiresAt, rgp: step.rgp });
        // The renewal is conditional on the expiry it renews, as a client's renew is.
        change.write = ctx.db
          .update(domains)
          .set({
            expiresAt: change.next.expiresAt,
            rgp: change.next.rgp,
            rgpEndsAt: change.next.rgpEndsAt,
            version: change.next.version,
            updatedAt: change.next.updatedAt,
          })
          .where(and(eq(domains.id, current.id), eq(domains.version, current.version), eq(domains.expiresAt, current.expiresAt)));
        return (await writeUnattended(ctx, domainCollection, "auto_renew", current, { change })) ? "auto_renewed" : "lost";
      }
      const change = stepped(ctx, current, { deletedAt: ctx.at, rgp: step.rgp });
      return (await writeUnattended(ctx, domainCollection, "expire", current, { change })) ? "expired" : "lost";
    }),
};

const graceEndStep: Step = {
  due: (db, at, position, limit) => dueGraceEnds(db, at, position, limit),
  act: (ctx, cat, id) =>
    attempt(async () => {
      const current = await readDomain(ctx.db, id);
      if (!current) return "skipped";
      const step = graceStep(current, graceOf(cat, current), ctx.now);
      if (!step) return "skipped";
      if (step.kind === "purge") return purge(ctx, current);
      const change = stepped(ctx, current, { rgp: step.rgp });
      const written = await writeUnattended(ctx, domainCollection, "update", current, { change });
      if (!written) return "lost";
      return step.kind === "pending_delete" ? "redemptions_ended" : "grace_periods_ended";
    }),
};

/** How many other domains, or subordinate hosts, one write of a purge takes: its batch stays small. */
const PURGE_GROUP = 20;
/** Groups of other domains one purge attempt updates; the rest wait for the next run (the domain is counted in `skipped` meanwhile). */
const PURGE_GROUPS_PER_RUN = 5;

/**
 * The purge (docs/lifecycle.md): the domain, its subordinate hosts and its links go; a zone of
 * the same name stays, unlinked (the link is by name and account); the purge event holds
 * the domain as it was. Other domains that use one of its subordinate hosts as a name
 * server lose that name server first, each in a write of its own with an update event
 * (the host cannot outlive its domain, RFC 5732 §3.2.2), a group at a time; then one
 * batch removes the hosts, each with its delete event, and the domain.
 */
async function purge(ctx: WriteContext, current: DomainWithLinks): Promise<Outcome | "lost"> {
  const subordinate = sql`(select h.id from hosts h where h.domain_id = ${current.id})`;
  for (let group = 0; ; group++) {
    const users = await ctx.db
      .selectDistinct({ id: domainNameservers.domainId })
      .from(domainNameservers)
      .where(and(sql`${domainNameservers.hostId} in ${subordinate}`, ne(domainNameservers.domainId, current.id)))
      .limit(PURGE_GROUP);
    if (users.length === 0) break;
    // A host many domains use is let go of over several runs, so that one run stays bounded.
    if (group === PURGE_GROUPS_PER_RUN) return "skipped";
    for (const { id } of users) {
      const dropped = await dropSubordinateNameservers(ctx, current, id);
      // A domain under serverUpdateProhibited keeps its name servers: the purge waits for the operator.
      if (dropped === "locked") return "skipped";
      if (!dropped) return "lost";
    }
  }

  const hostRows = await ctx.db
    .select()
    .from(hosts)
    .where(eq(hosts.domainId, current.id))
    .limit(PURGE_GROUP + 1);
  if (hostRows.length > PURGE_GROUP) return "skipped";
  const ownNames = new Set(current.nameservers);
  const hostWrites = hostRows.flatMap((host) => [
    ctx.db.delete(hosts).where(and(eq(hosts.id, host.id), eq(hosts.version, host.version))),
    eventInsert(
      ctx.db,
      {
        at: ctx.at,
        actor: ctx.actor,
        account: host.accountId,
        type: "host",
        id: host.id,
        operation: "delete",
        before: presentHost({ ...host, linked: ownNames.has(host.name) }),
        after: null,
      },
      { onlyIf: previousStatementChanged },
    ),
  ]);
  const removal = {
    // The version step collides with any write since the read; the delete comes last, after the rows that point at the domain.
    write: ctx.db
      .update(domains)
      .set({ version: current.version + 1 })
      .where(and(eq(domains.id, current.id), eq(domains.version, current.version))),
    alongside: [
      ctx.db.delete(domainNameservers).where(eq(domainNameservers.domainId, current.id)),
      ...hostWrites,
      ctx.db.delete(domains).where(eq(domains.id, current.id)),
    ],
  };
  return (await writeUnattended(ctx, domainCollection, "purge", current, { removal })) ? "purged" : "lost";
}

/** Another domain's name servers without the purged domain's subordinate hosts: an update of that domain. */
async function dropSubordinateNameservers(ctx: WriteContext, purged: DomainWithLinks, id: string): Promise<boolean | "locked"> {
  for (let i = 0; i < ATTEMPTS; i++) {
    const user = await readDomain(ctx.db, id);
    if (!user) return true;
    if (user.serverStatuses.includes("serverUpdateProhibited")) return "locked";
    const gone = await ctx.db.select({ id: hosts.id, name: hosts.name }).from(hosts).where(eq(hosts.domainId, purged.id));
    const goneNames = new Set(gone.map((h) => h.name));
    const next: DomainWithLinks = { ...user, nameservers: user.nameservers.filter((n) => !goneNames.has(n)), version: user.version + 1, updatedAt: ctx.at };
    const change: Change<DomainWithLinks> = {
      next,
      write: ctx.db
        .update(domains)
        .set({ version: next.version, updatedAt: next.updatedAt })
        .where(and(eq(domains.id, user.id), eq(domains.version, user.version))),
      alongside: [
        ctx.db
          .delete(domainNameservers)
          .where(and(eq(domainNameservers.domainId, user.id), sql`${domainNameservers.hostId} in (select h.id from hosts h where h.domain_id = ${purged.id})`)),
      ],
    };
    if (await writeUnattended(ctx, domainCollection, "update", user, { change })) return true;
  }
  return false;
}

/**
 * One run: transfers due for automatic approval first (an approval may renew what would
 * otherwise expire), then expiries, then the ends of grace periods (a domain that expires
 * in this run enters a redemption that has not ended). Each step pages through its due
 * rows until none are left or the run's bound is reached.
 */
export async function sweep(db: Database, options: SweepOptions): Promise<SweepReport> {
  const pageSize = options.pageSize ?? 50;
  let budget = options.maxRows ?? 300;
  const ctx = unattendedContext(db, options.now, options.actor);
  const cat = await catalog(db);
  const report: SweepReport = {
    as_of: ctx.at,
    transfers_approved: 0,
    auto_renewed: 0,
    expired: 0,
    grace_periods_ended: 0,
    redemptions_ended: 0,
    purged: 0,
    skipped: 0,
    more: false,
  };
  for (const step of [transferStep, expiryStepOfSweep, graceEndStep]) {
    let position: Position = null;
    for (;;) {
      if (budget <= 0) {
        report.more = (await step.due(db, ctx.at, position, 1)).length > 0 || report.more;
        break;
      }
      const limit = Math.min(pageSize, budget);
      const page = await step.due(db, ctx.at, position, limit);
      for (const row of page) {
        report[await step.act(ctx, cat, row.id)]++;
        budget--;
        position = { key: row.key, id: row.id };
      }
      if (page.length < limit) break;
    }
  }
  return report;
}

/** The cron trigger's run: at the scheduled time, with every account in view, named `cron` in the audit trail. */
export async function cronSweep(d1: D1Database, scheduledTime: number): Promise<SweepReport> {
  return sweep(database(d1), { now: new Date(scheduledTime), actor: "cron" });
}
