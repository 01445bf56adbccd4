// Reconciliation (docs/registries.md, "Reconciliation"): each connected repository's
// domains compared with the registry's `<domain:info>` (RFC 5731 §3.1.2), a bounded batch a
// run: first the overdue ones (expired here, not compared since: the registry's clock decided
// them), most overdue first, then the pass in id order, resuming where the last run stopped
// (registry_reconciliations), so a pass goes round them all over successive runs and no run
// holds the gateway or D1 long.
// Our copy follows the registry (expiry, statuses, hosts, DS, registrant) with a
// `reconciled` event listing what differed; a domain the registry no longer holds for us
// (2303, or another registrar's) is marked, never deleted, but one we deleted (in
// redemption here) that the registry no longer holds was purged there: it is purged here
// too (the sweep leaves connected domains' purges to their registries). Run by the cron trigger (every
// connected repository, hourly) and by POST /v1/repositories/{id}/reconcile/run.
import { and, asc, eq, gt } from "drizzle-orm";
import { catalog } from "../db/catalog";
import { type Database, database } from "../db/client";
import { forgetMessages, overdueForReconciliation, reconciliationOf, reconciliationSave } from "../db/registry-state";
import { domains } from "../db/schema";
import type { QuotaDefaults } from "../db/quota-check";
import { retryLostRaces, writeContextAt } from "../db/write";
import { connectedRepositories, connectorClientId, type ConnectorSettings } from "../connector/config";
import { ApiError } from "../http/problem";
import { configuredLimits } from "../registry/limits";
import { findDomain } from "../resources/domains/queries";
import { askRegistry, followView, markMissing, RegistryAnswerUnread, registryDecided, removeDomain } from "../resources/domains/registry-follow";
import type { z } from "@hono/zod-openapi";
import type { ReconcileReportSchema } from "./registry-schemas";

export type ReconcileReport = z.infer<typeof ReconcileReportSchema>;

/** Domains a run compares unless told: 50 `<domain:info>` commands, about 3 D1 queries each. */
export const RECONCILE_BATCH = 50;
/** A run stops taking new domains after this long (the rest waits for the next run). */
const RUN_BUDGET_MS = 20_000;
/** Poll messages are remembered this long (a message handed over twice is applied once). */
const MESSAGES_KEPT_DAYS = 30;

export interface ReconcileOptions {
  now: Date;
  actor: string;
  limits: QuotaDefaults;
  limit?: number;
}

/** One run over one repository's next batch. Throws 422 for a repository without a connector, 503 when its client id is not configured. */
export async function reconcile(settings: ConnectorSettings, db: Database, repository: string, options: ReconcileOptions): Promise<ReconcileReport> {
  const cat = await catalog(db);
  if (!cat.repositories.has(repository)) throw new ApiError("not_found", `No repository ${repository}.`);
  if (!connectedRepositories(settings).has(repository))
    throw new ApiError("policy_violation", `${repository} has no connector: the service is its registry, and there is nothing to reconcile with.`);
  const us = connectorClientId(settings, repository);
  if (us === null)
    throw new ApiError("not_configured", `REGISTRY_CONNECTORS names no client_id for ${repository}: without it the registry's sponsor cannot be told from us.`);
  const limit = Math.max(1, Math.min(100, options.limit ?? RECONCILE_BATCH));
  const ctx = writeContextAt(db, options.now, options.actor, options.limits, db);
  const [state] = await reconciliationOf(db, repository);
  const after = state?.afterDomainId ?? null;
  const passStartedAt = after === null ? ctx.at : (state?.passStartedAt ?? ctx.at);
  // Overdue domains first (expired here, not compared since), most overdue first: the registry's
  // clock decided them, and a large registry's pass would reach them only after its others.
  // Then the pass, in id order, in the slots left (one more than fits tells whether it ends
  // here; as many more as the overdue ones, which it skips). One round trip for both.
  const [overdue, rest] = await db.batch([
    overdueForReconciliation(db, repository, ctx.at, limit),
    db
      .select({ id: domains.id })
      .from(domains)
      .where(after === null ? eq(domains.repositoryId, repository) : and(eq(domains.repositoryId, repository), gt(domains.id, after)))
      .orderBy(asc(domains.id))
      .limit(2 * limit + 1),
  ]);
  const overdueIds = new Set(overdue.map((d) => d.id));
  const room = limit - overdue.length;
  const passPage = rest.filter((d) => !overdueIds.has(d.id)).slice(0, room + 1);
  const report: ReconcileReport = {
    repository,
    as_of: ctx.at,
    checked: 0,
    overdue: overdue.length,
    reconciled: 0,
    missing: 0,
    purged: 0,
    unchanged: 0,
    failed: 0,
    more: false,
    pass_complete: false,
  };
  const started = Date.now();
  let last: string | null = after;
  let stopped = false;
  const batch = [...overdue.map((d) => ({ id: d.id, overdue: true })), ...passPage.slice(0, room).map((d) => ({ id: d.id, overdue: false }))];
  for (const { id, overdue: outOfPass } of batch) {
    if (Date.now() - started > RUN_BUDGET_MS) {
      stopped = true;
      break;
    }
    const [domain] = await findDomain(db, { kind: "id", id });
    if (!domain) {
      if (!outOfPass) last = id;
      continue;
    }
    let asked: Awaited<ReturnType<typeof askRegistry>>;
    try {
      asked = await askRegistry(settings, repository, us, domain.name, `reconcile-${repository}-${ctx.now.getTime().toString(36)}`.slice(0, 64));
    } catch (error) {
      report.failed++;
      if (error instanceof RegistryAnswerUnread) {
        if (!outOfPass) last = id;
        continue;
      }
      // The registry cannot be asked now: the run stops here, and the next resumes at this domain.
      stopped = true;
      break;
    }
    report.checked++;
    const outcome = await retryLostRaces(async () => {
      const [current] = await findDomain(db, { kind: "id", id });
      if (!current) return "unchanged" as const;
      if (asked.found === "ours") {
        const differences = await registryDecided(ctx, (decided, past) =>
          followView(decided, cat, current, asked.view, { operation: "reconciled", svTRID: asked.svTRID, reconciledAt: ctx.at, ...past }),
        );
        return differences.length > 0 ? ("reconciled" as const) : ("unchanged" as const);
      }
      // Deleted here and gone at the registry: the registry purged it at the end of its redemption (the
      // sweep leaves that to it), and its message never came. It leaves the account, as the message would have had it.
      if (asked.found === "none" && current.deletedAt !== null) {
        await removeDomain(ctx, current, { operation: "purge", svTRID: asked.svTRID, note: { result: "the registry holds no such domain (2303)" } });
        return "purged" as const;
      }
      const sponsor = asked.found === "theirs" ? asked.view.clID : null;
      await markMissing(ctx, current, sponsor, {
        operation: "reconciled",
        svTRID: asked.svTRID,
        reconciledAt: ctx.at,
        ...(asked.found === "theirs" ? { roid: asked.view.roid } : {}),
      });
      return "missing" as const;
    });
    report[outcome]++;
    if (!outOfPass) last = id;
  }
  const passComplete = !stopped && passPage.length <= room;
  report.pass_complete = passComplete;
  report.more = !passComplete;
  await reconciliationSave(db, repository, {
    afterDomainId: passComplete ? null : last,
    passStartedAt: passComplete ? null : passStartedAt,
    lastRunAt: ctx.at,
    ...(passComplete ? { lastPassEndedAt: ctx.at } : {}),
  });
  return report;
}

/** The cron trigger's run: one batch of every connected repository, and the old poll messages forgotten. */
export async function cronReconcile(d1: D1Database, scheduledTime: number, vars: ConnectorSettings & object): Promise<ReconcileReport[]> {
  const db = database(d1);
  const now = new Date(scheduledTime);
  await forgetMessages(db, new Date(now.getTime() - MESSAGES_KEPT_DAYS * 86_400_000).toISOString());
  const reports: ReconcileReport[] = [];
  for (const repository of connectedRepositories(vars)) {
    try {
      reports.push(await reconcile(vars, db, repository, { now, actor: "cron", limits: configuredLimits(vars as Record<string, unknown>) }));
    } catch (error) {
      // One repository's trouble (no client id, a repository the catalog lacks) keeps none of the others from their run.
      if (!(error instanceof ApiError)) throw error;
    }
  }
  return reports;
}
