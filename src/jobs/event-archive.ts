// The audit trail's archive (docs/capacity.md): events older than the hot window move from
// D1 to R2, as immutable gzip'd newline-delimited JSON objects, one per account, UTC day and
// batch. Run by the cron trigger (src/index.ts, through src/app.ts) and by
// POST /v1/events/archive/run.
//
// Why an event is always in exactly one place, even with two runs at once or a run that
// stops anywhere:
// - A pass takes one account's oldest events in commit order (`seq`), a prefix of them
//   read by one statement; split by day, each day's part is the oldest events of that
//   account and day still in D1. Nothing is ever added before them (an archived day is
//   whole days in the past, and `seq` only grows: the newest event of the table is never
//   archived, so that its `seq` is never given again).
// - The object's key is fixed by its first event (`events/<account>/<day>/<first id>`), and
//   R2 writes it only if it does not exist yet (`onlyIf: etagDoesNotMatch *`): a second run
//   that took the same events, or an overlapping prefix of them, finds the object the first
//   one wrote and uses it.
// - D1 forgets exactly the events the object holds as read back from R2 (not the ones the
//   run meant to write), in one batch with the object's row in `event_archives`. A run that
//   stopped after the put leaves the events in D1; the next run takes the same first event,
//   finds the object, and deletes what it holds.
import { and, asc, eq, lt, lte, notInArray, type SQL, sql } from "drizzle-orm";
import { type Database, database } from "../db/client";
import { events } from "../db/schema";
import { archiveDay } from "./event-archive-object";
import type { EventRow } from "../db/event-json";

/** Days of events D1 keeps when EVENT_HOT_DAYS is unset or not a positive whole number. */
export const DEFAULT_HOT_DAYS = 30;

/** What one run did. */
export interface ArchiveReport {
  /** The time the run acted at. */
  as_of: string;
  /** Events stamped before this instant (UTC midnight, EVENT_HOT_DAYS before `as_of`) were due. */
  archived_before: string;
  /** Events removed from D1 by this run, each now in one archive object. */
  archived: number;
  /** Archive objects this run wrote or completed. */
  objects: number;
  /** The run stopped at its bound with events still due: the next run continues. */
  more: boolean;
}

export interface ArchiveOptions {
  /** The time the run acts at: now, or `as_of` where the service allows it. */
  now: Date;
  /** Whole days of events D1 keeps (EVENT_HOT_DAYS). */
  hotDays: number;
  /**
   * Objects a run writes at most (default 50). Each costs an R2 put and get and one D1
   * batch, a pass three D1 queries: a run stays well inside the 1 000 subrequests and
   * queries of one Workers Paid invocation.
   */
  maxObjects?: number;
  /** Events one pass (one account's oldest) reads at most (default 2 000). */
  maxEvents?: number;
  /**
   * Characters of `before` and `after` one pass reads at most (default 4 000 000, and at
   * least one event, which D1 keeps under 2 MB): the isolate's 128 MB holds a pass.
   */
  maxChars?: number;
}

const DAY_MS = 86_400_000;

/** EVENT_HOT_DAYS as a number of days: a positive whole number, else the default. */
export function hotDaysOf(value: string | undefined): number {
  return value !== undefined && /^[1-9][0-9]{0,5}$/.test(value.trim()) ? Number(value.trim()) : DEFAULT_HOT_DAYS;
}

/** Events stamped before this are due: UTC midnight of the day `hotDays` whole days before `now`. */
export function archiveCutoff(now: Date, hotDays: number): string {
  const midnight = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return new Date(midnight - hotDays * DAY_MS).toISOString();
}

/** The newest event's `seq`: never archived, so that the next event never takes its number again. */
const newestSeq = sql<number>`(select max("seq") from "events")`;

/** The oldest due event (events_at_idx), of an account not set aside in this run: its account. */
export function oldestDue(db: Database, cutoff: string, setAside: string[]) {
  const conditions: (SQL | undefined)[] = [lt(events.at, cutoff), lt(events.seq, newestSeq)];
  if (setAside.length > 0) conditions.push(notInArray(events.accountId, setAside));
  return db
    .select({ accountId: events.accountId })
    .from(events)
    .where(and(...conditions))
    .orderBy(asc(events.at))
    .limit(1);
}

/**
 * The `seq` of the last event of this pass: the account's oldest events in commit order
 * (events_account_idx), as long as they are due, up to `maxEvents` and `maxChars`. Null when
 * the account's oldest event is not due yet.
 */
async function passEnd(db: Database, accountId: string, cutoff: string, maxEvents: number, maxChars: number): Promise<number | null> {
  const sizes = await passSizes(db, accountId, maxEvents);
  let end: number | null = null;
  let chars = 0;
  for (const row of sizes) {
    // In commit order an event stamped after the cutoff ends the prefix, even if a later
    // one (stamped a moment earlier by another isolate) is due: it waits for a later run.
    if (row.at >= cutoff) break;
    chars += row.chars;
    if (end !== null && chars > maxChars) break;
    end = row.seq;
  }
  return end;
}

/** The account's oldest events (events_account_idx), but the newest of all: their sizes. */
export function passSizes(db: Database, accountId: string, maxEvents: number) {
  return db
    .select({ seq: events.seq, at: events.at, chars: sql<number>`coalesce(length(${events.before}), 0) + coalesce(length(${events.after}), 0)` })
    .from(events)
    .where(and(eq(events.accountId, accountId), lt(events.seq, newestSeq)))
    .orderBy(asc(events.seq))
    .limit(maxEvents);
}

/** The pass's events: the account's, up to `end`, in commit order; one statement, so one moment's view. */
export function passEvents(db: Database, accountId: string, end: number, maxEvents: number) {
  return db
    .select()
    .from(events)
    .where(and(eq(events.accountId, accountId), lte(events.seq, end)))
    .orderBy(asc(events.seq))
    .limit(maxEvents);
}

/** The pass's events by UTC day of `at`, each day's in commit order, days in order of their first event. */
function byDay(rows: EventRow[], cutoff: string): EventRow[][] {
  const days = new Map<string, EventRow[]>();
  for (const row of rows) {
    if (row.at >= cutoff) break;
    const day = row.at.slice(0, 10);
    let list = days.get(day);
    if (!list) days.set(day, (list = []));
    list.push(row);
  }
  return [...days.values()];
}

/**
 * Moves due events to the archive, a pass (one account's oldest) at a time, until none is
 * due or the run's bound is reached. `db` sees every account.
 */
export async function archiveEvents(db: Database, bucket: R2Bucket, options: ArchiveOptions): Promise<ArchiveReport> {
  const cutoff = archiveCutoff(options.now, options.hotDays);
  const maxObjects = options.maxObjects ?? 50;
  const maxEvents = options.maxEvents ?? 2_000;
  const maxChars = options.maxChars ?? 4_000_000;
  const report: ArchiveReport = { as_of: options.now.toISOString(), archived_before: cutoff, archived: 0, objects: 0, more: false };
  // Accounts whose oldest event is not due yet (stamped after a later-committed due one):
  // passed over for the rest of this run. Bounded, as every pass is, by maxObjects.
  const setAside: string[] = [];
  for (let passes = 0; ; passes++) {
    const due = await oldestDue(db, cutoff, setAside).get();
    if (!due) break;
    if (report.objects >= maxObjects || passes >= maxObjects) {
      report.more = true;
      break;
    }
    const end = await passEnd(db, due.accountId, cutoff, maxEvents, maxChars);
    if (end === null) {
      setAside.push(due.accountId);
      continue;
    }
    const rows = (await passEvents(db, due.accountId, end, maxEvents)) as EventRow[];
    for (const day of byDay(rows, cutoff)) {
      if (report.objects >= maxObjects) break;
      report.archived += await archiveDay(db, bucket, due.accountId, day, options.now);
      report.objects += 1;
    }
  }
  return report;
}

/** The cron trigger's run: at the scheduled time, with the Worker's EVENT_HOT_DAYS. */
export function cronArchive(d1: D1Database, bucket: R2Bucket, hotDays: string | undefined, scheduledTime: number): Promise<ArchiveReport> {
  return archiveEvents(database(d1), bucket, { now: new Date(scheduledTime), hotDays: hotDaysOf(hotDays) });
}
