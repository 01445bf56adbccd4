// The domain lifecycle's rules (docs/lifecycle.md): renewals (RFC 5731 §3.2.3), the grace
// periods of the Registry Grace Period mapping (RFC 3915), the transfer lock of the ICANN
// transfer policy. Pure functions: every rule that depends on time takes the time.
import type { FieldError } from "./field-error";
import { expiryAfter, periodProblem } from "./periods";
import { autoRenewAllowed, sweepDeleteAllowed } from "./statuses";

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

/** An expiry grown by `years`, capped at `maxYears` from `now` (a transfer's added year, docs/lifecycle.md). */
export function cappedExpiry(expiresAt: string, years: number, maxYears: number, now: Date): string {
  const grown = expiryAfter(new Date(expiresAt), years);
  const horizon = expiryAfter(now, maxYears);
  return (grown.getTime() > horizon.getTime() ? horizon : grown).toISOString();
}

/**
 * Until when a domain cannot be transferred (ICANN transfer policy): registration or last
 * transfer plus the extension's `transfer_lock_days` (null: no lock). Reads compute it in
 * D1 (src/db/domain-rules.ts, its SQL mirror, held to this by test/registry-rules-sql.test.ts).
 */
export function transferLockedUntil(createdAt: string, lastTransferAt: string | null, lockDays: number): string | null {
  if (lockDays <= 0) return null;
  return addDays(new Date(lastTransferAt ?? createdAt), lockDays).toISOString();
}

/** Whether the transfer lock still holds at `now`: a transfer request before `lockedUntil` is refused. */
export function transferLockHolds(lockedUntil: string | null, now: Date): boolean {
  return lockedUntil !== null && Date.parse(lockedUntil) > now.getTime();
}

/** Whether a grace period of this status runs at `now`. */
export function inGracePeriod(entries: readonly RgpEntry[], status: RgpStatus, now: Date): boolean {
  return entries.some((e) => e.status === status && isRunning(e, now));
}

// ---- The sweep's rules (docs/lifecycle.md: expiry, ends of grace periods, the purge). Each
// takes the domain as stored and the time, and says what is due now (null: nothing), so
// that a step read again after a lost race decides again on what it finds.

/** The catalog's grace periods, in days, that the time-driven steps start. */
export interface SweepGrace {
  autoRenew: number;
  redemption: number;
  pendingDelete: number;
}

/** What the sweep needs of a domain. */
export interface SweepDomain {
  expiresAt: string;
  autoRenew: boolean;
  /** The client statuses set on it. */
  statuses: readonly string[];
  /** The registry lock's statuses set on it. */
  serverStatuses: readonly string[];
  rgp: readonly RgpEntry[];
  deletedAt: string | null;
  pendingTransfer: boolean;
}

export type ExpiryStep =
  /** Renewed for one year by the registry (RFC 3915 §3.1 autoRenewPeriod). */
  | { kind: "auto_renew"; expiresAt: string; rgp: RgpEntry[] }
  /** Into redemptionPeriod, with pendingDelete, as a delete after addPeriod would be. */
  | { kind: "expire"; rgp: RgpEntry[] };

/** Whether the registration has run out at `now`: `expires_at` is its first instant without one. */
export function hasExpired(domain: Pick<SweepDomain, "expiresAt" | "deletedAt">, now: Date): boolean {
  return domain.deletedAt === null && Date.parse(domain.expiresAt) <= now.getTime();
}

/**
 * What an expiry does (docs/lifecycle.md). With `auto_renew` and no clientRenewProhibited the
 * registration grows by one year and autoRenewPeriod runs from the expiry it renewed (the
 * registry's clock, not the sweep's: a late sweep does not lengthen it). Otherwise the
 * domain enters redemptionPeriod from `now`, so that its registrant always has the whole
 * period to restore it. While a transfer waits, a domain that would not renew waits too
 * (null): the transfer's outcome decides whether it expires. The registry lock binds the
 * sweep as it binds everyone: serverRenewProhibited forbids the renewal, and
 * serverDeleteProhibited the expiry (a deletion), so a domain under both waits, expired,
 * until the operator clears one.
 */
export function expiryStep(domain: SweepDomain, grace: SweepGrace, now: Date): ExpiryStep | null {
  if (!hasExpired(domain, now)) return null;
  if (autoRenewAllowed(domain)) {
    const expired = new Date(domain.expiresAt);
    const rgp = domain.rgp.filter((e) => isRunning(e, now) && e.status !== "autoRenewPeriod");
    const graceEnds = addDays(expired, grace.autoRenew);
    if (grace.autoRenew > 0 && graceEnds.getTime() >= now.getTime()) rgp.push({ status: "autoRenewPeriod", ends_at: graceEnds.toISOString() });
    return { kind: "auto_renew", expiresAt: expiryAfter(expired, 1).toISOString(), rgp };
  }
  if (domain.pendingTransfer || !sweepDeleteAllowed(domain.serverStatuses)) return null;
  return { kind: "expire", rgp: withGracePeriod([], now, { status: "redemptionPeriod", days: grace.redemption }) };
}

export type GraceStep =
  /** Grace periods that ended leave rgp_status; the domain is otherwise unchanged. */
  | { kind: "grace_ended"; rgp: RgpEntry[] }
  /** redemptionPeriod ended: pendingDelete until the purge (RFC 3915 §3.3). */
  | { kind: "pending_delete"; rgp: RgpEntry[] }
  /** pendingDelete ended: the domain goes, with its subordinate hosts and links. */
  | { kind: "purge" };

/**
 * What the end of a grace period does (docs/lifecycle.md, RFC 3915 §3.3). A period runs until
 * its `ends_at` inclusive, so it has ended once `now` is later. For a deleted domain the
 * end of redemptionPeriod starts pendingDelete, counted from that end (not from the
 * sweep's run); when pendingDelete is 0 days long, or has passed too, the purge is due.
 * Under serverDeleteProhibited a deleted domain stays as it is (redemption over, not
 * purged) until the operator clears the lock.
 */
export function graceStep(
  domain: Pick<SweepDomain, "rgp" | "deletedAt" | "serverStatuses">,
  grace: Pick<SweepGrace, "pendingDelete">,
  now: Date,
): GraceStep | null {
  const running = domain.rgp.filter((e) => isRunning(e, now));
  if (domain.deletedAt === null) return running.length === domain.rgp.length ? null : { kind: "grace_ended", rgp: running };
  if (!sweepDeleteAllowed(domain.serverStatuses)) return null;
  const pending = domain.rgp.find((e) => e.status === "pendingDelete");
  if (pending) return isRunning(pending, now) ? null : { kind: "purge" };
  const redemption = domain.rgp.find((e) => e.status === "redemptionPeriod");
  if (redemption && isRunning(redemption, now)) return null;
  const pendingEnds = addDays(new Date(redemption?.ends_at ?? domain.deletedAt), grace.pendingDelete);
  if (grace.pendingDelete <= 0 || pendingEnds.getTime() < now.getTime()) return { kind: "purge" };
  return { kind: "pending_delete", rgp: [{ status: "pendingDelete", ends_at: pendingEnds.toISOString() }] };
}

/** Whether a transfer still pending at `now` is approved by the registry (ICANN transfer policy: at act_by). */
export function transferAutoApproves(transfer: { status: string; actBy: string }, now: Date): boolean {
  return transfer.status === "pending" && Date.parse(transfer.actBy) <= now.getTime();
}
