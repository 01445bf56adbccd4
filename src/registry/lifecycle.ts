// The domain lifecycle's rules (contract §12): renewals (RFC 5731 §3.2.3), the grace
// periods of the Registry Grace Period mapping (RFC 3915), the transfer lock of the ICANN
// transfer policy. Pure functions: every rule that depends on time takes the time.
import type { FieldError } from "./field-error";
import { expiryAfter, periodProblem } from "./periods";

/** A running grace period or pending state (RFC 3915 rgpStatus) and when it ends. */
export interface RgpEntry {
  status: RgpStatus;
  ends_at: string;
}

export const RGP_STATUSES = ["addPeriod", "renewPeriod", "autoRenewPeriod", "transferPeriod", "redemptionPeriod", "pendingDelete"] as const;
export type RgpStatus = (typeof RGP_STATUSES)[number];

/** One DS record for the parent zone (RFC 5910 §4.1 dsData). */
export interface DsData {
  key_tag: number;
  algorithm: number;
  digest_type: number;
  digest: string;
}

const DAY_MS = 86_400_000;

/** `from` plus whole days. */
export function addDays(from: Date, days: number): Date {
  return new Date(from.getTime() + days * DAY_MS);
}

/**
 * The grace periods still running at `now` (a period is running until its last
 * millisecond, inclusive), with `started` added. A grace period of 0 days adds nothing.
 */
export function withGracePeriod(entries: readonly RgpEntry[], now: Date, started?: { status: RgpStatus; days: number }): RgpEntry[] {
  const running = entries.filter((e) => isRunning(e, now) && e.status !== started?.status);
  if (started && started.days > 0) running.push({ status: started.status, ends_at: addDays(now, started.days).toISOString() });
  return running;
}

/** Whether a grace period still runs at `now`: its `ends_at` is its last instant. */
export function isRunning(entry: RgpEntry, now: Date): boolean {
  return Date.parse(entry.ends_at) >= now.getTime();
}

/** The earliest end among the entries: when the sweep next has something to do (null: nothing). */
export function earliestEnd(entries: readonly RgpEntry[]): string | null {
  return entries.reduce<string | null>((earliest, e) => (earliest === null || e.ends_at < earliest ? e.ends_at : earliest), null);
}

/** Two instants on the same UTC calendar day (EPP curExpDate is a date, RFC 5731 §3.2.3). */
export function sameUtcDay(a: Date, b: Date): boolean {
  return a.toISOString().slice(0, 10) === b.toISOString().slice(0, 10);
}

/** A renewal as the registry sees it. */
export interface RenewRequest {
  period: number;
  /** What the client believes `expires_at` is; `undefined` when it did not say. */
  currentExpiresAt: string | undefined;
}

export interface RenewPolicy {
  id: string;
  periodMin: number;
  periodMax: number;
}

/**
 * Why a renewal cannot be made, as field errors (empty: it can), and the new expiry.
 * RFC 5731 §3.2.3: curExpDate must be the stored expiry date, so that a renew retried
 * after it succeeded is refused instead of renewing twice; the period lies in the
 * registry's range, and the new expiry is at most `periodMax` years from `now` (the
 * 10-year horizon of the registries).
 */
export function renewal(request: RenewRequest, storedExpiresAt: string, extension: RenewPolicy, now: Date): { errors: FieldError[]; expiresAt: string | null } {
  const errors: FieldError[] = [];
  const stored = new Date(storedExpiresAt);
  if (request.currentExpiresAt === undefined) {
    errors.push({ field: "current_expires_at", message: "is required: the expiry date the renewal starts from" });
  } else if (!sameUtcDay(new Date(request.currentExpiresAt), stored)) {
    errors.push({ field: "current_expires_at", message: `does not match the domain's expiry date (${storedExpiresAt.slice(0, 10)})` });
  }
  const problem = periodProblem(request.period, { min: extension.periodMin, max: extension.periodMax }, extension.id);
  if (problem) errors.push({ field: "period", message: problem.replace("registers", "renews") });
  const expiresAt = expiryAfter(stored, request.period);
  const horizon = expiryAfter(now, extension.periodMax);
  if (!problem && expiresAt.getTime() > horizon.getTime()) {
    errors.push({
      field: "period",
      message: `would make the domain expire on ${expiresAt.toISOString().slice(0, 10)}, more than ${extension.periodMax} years from now`,
    });
  }
  return { errors, expiresAt: errors.length === 0 ? expiresAt.toISOString() : null };
}

/** An expiry grown by `years`, capped at `maxYears` from `now` (a transfer's added year, contract §12). */
export function cappedExpiry(expiresAt: string, years: number, maxYears: number, now: Date): string {
  const grown = expiryAfter(new Date(expiresAt), years);
  const horizon = expiryAfter(now, maxYears);
  return (grown.getTime() > horizon.getTime() ? horizon : grown).toISOString();
}

/** Until when a domain cannot be transferred: registration or last transfer plus the lock (null: no lock). */
export function transferLockedUntil(createdAt: string, lastTransferAt: string | null, lockDays: number): string | null {
  if (lockDays <= 0) return null;
  return addDays(new Date(lastTransferAt ?? createdAt), lockDays).toISOString();
}

/** Whether a grace period of this status runs at `now`. */
export function inGracePeriod(entries: readonly RgpEntry[], status: RgpStatus, now: Date): boolean {
  return entries.some((e) => e.status === status && isRunning(e, now));
}
