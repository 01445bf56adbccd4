// Signatures renewed on secondaries (docs/dnssec.md, "Through the secondaries"). PowerDNS
// signs online: each RRSIG it makes is valid from the start of its signing week (weeks of
// the Unix epoch, which began on a Thursday, 00:00 UTC) minus 7 days to that start plus 14
// days, so a signature made now is good for at least 7 more days, and a new week brings
// new signatures. A secondary keeps what it transferred until the serial moves: a signed
// zone that did not change for weeks would go on being served with expired signatures.
// So once a signing week has begun, the hourly cron moves the serial of every signed zone
// that has not changed since: the primary NOTIFYs, the secondaries transfer the zone with
// the new week's signatures (at least 13 days left), and no copy ever ages past 8 days.
import { sql } from "drizzle-orm";
import { type Database, database } from "../db/client";
import { dateSerialBase, serialSqlExpression } from "../dns/serial";

const WEEK_MS = 7 * 86_400_000;

/** The start of PowerDNS's signing week holding `now` (dnssecinfra.cc getStartOfWeek: now − now mod 7 days). */
export function signingWeekStart(now: Date): Date {
  return new Date(now.getTime() - (now.getTime() % WEEK_MS));
}

/**
 * Moves the serial (and the version) of each signed zone unchanged since the current
 * signing week began; one statement, driven by zone_keys_live_idx (the signed zones
 * only: drizzle/0041). Returns how many zones it moved.
 */
export async function renewSignatures(db: Database, now: Date): Promise<number> {
  const weekStart = signingWeekStart(now).toISOString();
  const result = await db.run(sql`
    UPDATE zones
       SET soa_serial = ${sql.raw(serialSqlExpression("soa_serial", dateSerialBase(now)))},
           version = version + 1,
           updated_at = ${now.toISOString()}
     WHERE id IN (SELECT k.zone_id FROM zone_keys k WHERE k.active = 1)
       AND updated_at < ${weekStart}`);
  return result.meta.changes ?? 0;
}

/** The cron's entry: the Worker's D1 binding, at the trigger's scheduled time. */
export function cronRenewSignatures(d1: D1Database, scheduledTime: number): Promise<number> {
  return renewSignatures(database(d1), new Date(scheduledTime));
}
