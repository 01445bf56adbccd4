// What the steps of the sweep share (docs/lifecycle.md): what a step is, how a due row is
// read again, and how a domain steps on through the write routine (src/db/write.ts).
import type { ConnectorSettings } from "../connector/config";
import type { Catalog } from "../db/catalog";
import type { Database } from "../db/client";
import type { Change } from "../db/resource-write";
import { domains } from "../db/schema";
import { retryOrGiveUp, versionStep, type WriteContext } from "../db/write";
import { earliestEnd, type SweepGrace } from "../registry/lifecycle";
import { type DomainWithLinks, findDomain } from "../resources/domains/queries";
import type { Connected, Position } from "./sweep-due";

/** What one run did: each step's count of writes, and whether it stopped with rows still due. */
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
  /** The run stopped with rows still due (at its bound, a purge part done, races lost): the next run continues. */
  more: boolean;
}

/**
 * What a due row took: a write counted in the report; "skipped" when it is not due any
 * more or must wait for something else; "deferred" when it is still due and the next run
 * continues it (it lost every race, or a purge did part of its work).
 */
export type Outcome = keyof Omit<SweepReport, "as_of" | "more" | "skipped"> | "skipped" | "deferred";

export interface Step {
  /** A page of due rows after `after`, in the index's order: their id and due time (none of a `connected` repository's the registry decides). */
  due(db: Database, at: string, after: Position, limit: number, connected: Connected): Promise<{ id: string; key: string }[]>;
  /** One due row, read again and dealt with: its writes, `room` at most (each a row of the run's bound). */
  act(ctx: WriteContext, cat: Catalog, id: string, room: number, connected: Connected, settings?: ConnectorSettings): Promise<Outcome[]>;
}

/** Attempts at one row when concurrent writes keep winning; after them it waits for the next run. */
export const ATTEMPTS = 3;

/** Reads the row again and acts, again after a lost race, a few times; "deferred" if it lost them all. */
export async function attempt(act: () => Promise<Outcome>): Promise<Outcome> {
  return (await retryOrGiveUp(act, ATTEMPTS)) ?? "deferred";
}

export function graceOf(cat: Catalog, domain: DomainWithLinks): SweepGrace {
  const extension = cat.extensions.get(domain.extensionId)!;
  return { autoRenew: extension.graceAutoRenew, redemption: extension.graceRedemption, pendingDelete: extension.gracePendingDelete };
}

export async function readDomain(db: Database, id: string): Promise<DomainWithLinks | undefined> {
  const [row] = await findDomain(db, { kind: "id", id });
  return row;
}

/** The domain one version on with `fields`, its rgp_ends_at kept with its grace periods. */
export function stepped(ctx: WriteContext, current: DomainWithLinks, fields: Partial<DomainWithLinks>): Change<DomainWithLinks> {
  const next: DomainWithLinks = { ...current, ...fields, version: current.version + 1, updatedAt: ctx.at };
  next.rgpEndsAt = next.deletedAt !== null ? (earliestEnd(next.rgp) ?? next.deletedAt) : earliestEnd(next.rgp);
  return { next, write: versionStep(ctx.db, domains, current, next) };
}
