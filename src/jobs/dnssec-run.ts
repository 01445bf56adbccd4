// The DNSSEC run (docs/dnssec-rollovers.md): every zone whose keys have a step due (by
// zones_dnssec_due_idx, a bounded batch) through the engine, each in one write of its own
// (src/resources/dnssec/steps.ts): keys published, made active, retired and removed when
// their waits are over, rolls the policy asks for started, the parent's DS set changed and
// observed. Hourly from the cron trigger, and now by an operator (POST /v1/dnssec/run, with
// `as_of` on a local development server: tests walk a roll through its days).
import type { RouteHandler } from "@hono/zod-openapi";
import { and, asc, eq, isNotNull, lte } from "drizzle-orm";
import type { ConnectorSettings } from "../connector/config";
import { type Database, database } from "../db/client";
import { zones } from "../db/schema";
import { commitWrite, retryLostRaces, type WriteContext, writeContextAt } from "../db/write";
import { dsSeen, nextSteps } from "../dns/dnssec/rollover";
import type { AppEnv } from "../env";
import { actorOf } from "../http/actor";
import { runTime } from "../http/clock";
import { safeErrorSummary } from "../http/error-log";
import { defaultLimits } from "../http/quota-problem";
import { dnssecSecret } from "../http/sealing-secret";
import { configuredLimits } from "../registry/limits";
import type { RegistryLink } from "../resources/dnssec/registry-parent";
import { registryLink } from "../resources/dnssec/rollover";
import {
  createdRows,
  followAtManagedParent,
  keyIdAt,
  keysWithDnskey,
  observeManagedParent,
  readZoneSigning,
  requireKeysOf,
  stepWrites,
  type ZoneSigning,
} from "../resources/dnssec/steps";
import { type ExternalParents, externalParents, NOT_LOOKED, observeExternalParent } from "./dnssec-parent";
import type * as routes from "./dnssec-routes";

/** At most this many zones a run takes (the rest are due at the next run: bounded work per run). */
export const DNSSEC_RUN_BATCH = 50;

/** The zones with a step due at `now`, by zones_dnssec_due_idx, at most DNSSEC_RUN_BATCH. */
function dueZones(db: Database, now: Date) {
  return db
    .select()
    .from(zones)
    .where(and(isNotNull(zones.dnssecNextStepAt), lte(zones.dnssecNextStepAt, now.toISOString())))
    .orderBy(asc(zones.dnssecNextStepAt))
    .limit(DNSSEC_RUN_BATCH);
}

export interface DnssecRunReport {
  as_of: string;
  zones: number;
  steps: number;
  failed: number;
  more: boolean;
}

/** What a run reaches beyond D1: a connected registry (a managed parent's DS), and the name servers of a parent not managed here. */
export interface ParentLinks {
  link: RegistryLink | null;
  /** Where the lookups of a parent not managed here start (DNSSEC_ROOT_SERVERS), and how many are left; null: such parents are not asked. */
  external: ExternalParents | null;
}

/** One zone's due steps as one write, read again if another write to the zone committed first. */
async function stepZone(
  ctx: WriteContext,
  zone: typeof zones.$inferSelect,
  secret: string | null,
  { link, external }: ParentLinks,
  startedMs: number,
): Promise<number> {
  let first = true;
  return retryLostRaces(async () => {
    const row = first ? zone : (await ctx.db.select().from(zones).where(eq(zones.id, zone.id)))[0];
    first = false;
    if (!row) return 0;
    const state: ZoneSigning = await readZoneSigning(ctx, row, link);
    // A parent the zone waits for is looked at (a managed one's stored DS; any other asked
    // of its name servers) and the steps then due taken; otherwise the steps due, and a roll
    // the policy asks for, which makes keys: that needs the secret (and an algorithm the
    // service makes keys of).
    const managed = observeManagedParent(state);
    const asked = managed ?? (await observeExternalParent(state, external));
    // No lookup left this run: no write, so the zone stays due and sorts before the zones
    // looked at (their next look is later); the next run looks at it first.
    if (asked === NOT_LOOKED) return 0;
    const observed = asked;
    // What a parent's servers show is seen when the lookup concluded, after the run's time by
    // the real time the run has taken (this lookup's and the zones' before it): recorded at
    // the run's time, the waits counted from it (DprpP 0 for such a parent) would end early.
    const seenAt = managed ? ctx.now : new Date(ctx.now.getTime() + Math.max(0, Date.now() - startedMs));
    const stepped = observed ? dsSeen(state.signing, observed, seenAt) : nextSteps(state.signing, secret !== null ? { newKeyId: keyIdAt(ctx.now) } : {});
    if (stepped.created.length > 0) requireKeysOf(stepped.created[0]!.algorithm, "policy.algorithm");
    const created = secret ? await createdRows(secret, row.id, stepped.created, ctx.at) : [];
    const followed = await followAtManagedParent(ctx, state, stepped, keysWithDnskey([...state.rows, ...created]), link);
    await commitWrite(ctx, stepWrites(ctx, state, followed.result, created, { domainWrite: followed.domainWrite }));
    return followed.result.changes.length;
  });
}

/**
 * One run: every due zone (a bounded batch) through nextSteps, each in its own write.
 * `startedMs`: the real time `ctx.now` stands for, from which the real time the run has
 * taken is counted (now, unless the caller's `ctx.now` is earlier, as a cron's scheduled time).
 */
export async function runDnssec(ctx: WriteContext, secret: string | null, parents: ParentLinks, startedMs = Date.now()): Promise<DnssecRunReport> {
  const due = await dueZones(ctx.db, ctx.now);
  const report: DnssecRunReport = { as_of: ctx.at, zones: 0, steps: 0, failed: 0, more: due.length === DNSSEC_RUN_BATCH };
  for (const zone of due) {
    report.zones++;
    try {
      report.steps += await stepZone(ctx, zone, secret, parents, startedMs);
    } catch (error) {
      // One zone's fault leaves the others to run; it is due again at the next run.
      console.error(JSON.stringify({ level: "error", dnssec_run: zone.name, error: safeErrorSummary(error) }));
      report.failed++;
    }
  }
  return report;
}

/** The cron's entry (src/index.ts, hourly): now, as the cron trigger; new keys only with a configured DNSSEC_KEY_SECRET. */
export function cronDnssec(
  d1: D1Database,
  scheduledTime: number,
  vars: { DNSSEC_KEY_SECRET?: string; DNSSEC_ROOT_SERVERS?: string; DNSSEC_PARENT_QUERIES_PER_RUN?: string } & ConnectorSettings,
): Promise<DnssecRunReport> {
  const db = database(d1);
  const secret = vars.DNSSEC_KEY_SECRET && vars.DNSSEC_KEY_SECRET.length >= 32 ? vars.DNSSEC_KEY_SECRET : null;
  const ctx = writeContextAt(db, new Date(scheduledTime), "cron", configuredLimits(vars as Record<string, unknown>), db);
  // The elapsed time counts from the scheduled time: an invocation starts after it, and what is seen is seen now.
  return runDnssec(
    ctx,
    secret,
    { link: { settings: vars, clTRID: `cron-dnssec-${scheduledTime}` }, external: externalParents(vars) },
    Math.min(scheduledTime, Date.now()),
  );
}

export const runDnssecNow: RouteHandler<typeof routes.runDnssec, AppEnv> = async (c) => {
  const body = (c.req.valid("json") ?? {}) as { as_of?: string };
  const at = runTime(c, body.as_of, "the run acts at the present time");
  // Every account's zones: the run is the operator's.
  const db = c.get("dbAllAccounts") ?? c.get("db");
  const ctx = writeContextAt(db, at, actorOf(c), defaultLimits(c), db);
  return c.json(await runDnssec(ctx, dnssecSecret(c), { link: registryLink(c), external: externalParents(c.env) }), 200);
};
