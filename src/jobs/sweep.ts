// The sweep (docs/lifecycle.md): every time-driven step of the domain lifecycle, run by the
// cron trigger and by POST /v1/lifecycle/sweep. Each step (one file each: sweep-transfers,
// sweep-expiries, sweep-grace with sweep-purge) walks the rows that are due in the order
// of the index on their due time, a page at a time (sweep-due.ts), reads each due row
// again, decides with the pure rule of src/registry/lifecycle.ts, and writes through the
// write routine (src/db/write.ts) with its event. Nothing is remembered between runs: a
// row that was dealt with is no longer due, so a run that stopped at its bound, or
// crashed, is resumed by the next one, and two runs at once write each change once (the
// loser of a race reads again and finds nothing due). A connected repository's registry
// decides its domains' expiry, renewal and deletion (docs/registries.md): the sweep leaves
// them to it, and poll messages and reconciliation bring its word here.
import { catalog } from "../db/catalog";
import { type Database, database } from "../db/client";
import { writeContextAt } from "../db/write";
import { connectedRepositories, type ConnectorSettings } from "../connector/config";
import { configuredLimits, type Limits } from "../registry/limits";
import type { Connected, Position } from "./sweep-due";
import { expiryStepOfSweep } from "./sweep-expiries";
import { graceEndStep } from "./sweep-grace";
import type { SweepReport } from "./sweep-step";
import { transferStep } from "./sweep-transfers";

export interface SweepOptions {
  /** The time the run acts at: now, or `as_of` where the service allows it. */
  now: Date;
  /** Who the events name: the token that asked for the run, or `cron`. */
  actor: string;
  /** The configured limits its writes are held to (an approval moves a domain into the gaining account). */
  limits: Limits;
  /**
   * The repositories with a connector (REGISTRY_CONNECTORS: `connectedRepositories`): their
   * registries renew, expire, end redemption and purge their domains, and the sweep leaves
   * those domains to them (docs/lifecycle.md). None unless given: every repository builtin.
   */
  connected?: ReadonlySet<string>;
  /** The gateway's settings, for what an approval between our accounts sets at a connected registry (the new auth_info). */
  settings?: ConnectorSettings;
  /** Due rows read per page (default 50). */
  pageSize?: number;
  /**
   * Writes a run makes at most, over all its steps (default 300; a due row that needs none
   * counts as one). A write costs about two D1 queries (its read, its write batch; a purge
   * a few more), and a Worker invocation may make 1 000 on Workers Paid
   * (src/db/d1-limits.ts): the run stays well inside it.
   */
  maxRows?: number;
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
  const ctx = writeContextAt(db, options.now, options.actor, options.limits);
  const cat = await catalog(db);
  const connected: Connected = [...(options.connected ?? [])].sort();
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
        report.more = (await step.due(db, ctx.at, position, 1, connected)).length > 0 || report.more;
        break;
      }
      const limit = Math.min(pageSize, budget);
      const page = await step.due(db, ctx.at, position, limit, connected);
      for (const row of page) {
        if (budget <= 0) {
          report.more = true;
          break;
        }
        const outcomes = await step.act(ctx, cat, row.id, budget, connected, options.settings);
        for (const outcome of outcomes) {
          if (outcome !== "deferred") report[outcome]++;
          // Still due: the next run continues it (counted as skipped when nothing else was done with it).
          else {
            report.more = true;
            if (outcomes.length === 1) report.skipped++;
          }
        }
        budget -= Math.max(1, outcomes.filter((o) => o !== "deferred").length);
        position = { key: row.key, id: row.id };
      }
      if (page.length < limit) break;
    }
  }
  return report;
}

/**
 * The cron trigger's run: at the scheduled time, with every account in view, named `cron`
 * in the audit trail, held to the configured limits (`vars`: the Worker's LIMIT_* variables),
 * leaving the connected repositories' domains to their registries. A REGISTRY_CONNECTORS that
 * cannot be read fails the run (logged): which domains are the registries' is not known, and
 * acting on a connected registry's domains as builtin would renew or purge what only the
 * registry decides.
 */
export async function cronSweep(d1: D1Database, scheduledTime: number, vars: ConnectorSettings & object): Promise<SweepReport> {
  return sweep(database(d1), {
    now: new Date(scheduledTime),
    actor: "cron",
    limits: configuredLimits(vars as Record<string, unknown>),
    connected: connectedRepositories(vars),
    settings: vars,
  });
}
