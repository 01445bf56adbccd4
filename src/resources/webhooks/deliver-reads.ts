// What a delivery pass reads, cached per isolate where it never changes: the account scope
// of a webhook, and the bodies of events delivered lately.
import type { Database } from "../../db/client";
import { presentEvent } from "../events/present";
import { eventsBySeq, isOperatorAccount, type WebhookRow } from "./queries";

/** The account whose events the webhook sees; null for an operator's, which sees every account's. */
export async function scopeOf(db: Database, row: WebhookRow): Promise<string | null> {
  const known = accountRoles.get(row.accountId);
  if (known && known.until > Date.now()) return known.role === "operator" ? null : row.accountId;
  const [account] = await isOperatorAccount(db, row.accountId);
  if (accountRoles.size >= 1024) accountRoles.clear();
  accountRoles.set(row.accountId, { role: account?.role ?? "customer", until: Date.now() + ROLE_CACHE_MS });
  return account?.role === "operator" ? null : row.accountId;
}

/** Accounts' roles as this isolate read them lately: a role never changes once the account is made. */
const accountRoles = new Map<string, { role: string; until: number }>();
const ROLE_CACHE_MS = 60_000;

/**
 * Successful deliveries recorded together, at most this many (a failure is recorded at
 * once): one write per batch instead of one per event. A crash before the record sends
 * those events again, which receivers deduplicate.
 */
export const RECORD_EVERY = 10;
/** Event bodies read in one query. */
export const BODIES_PER_READ = 10;

/**
 * Bodies of events this isolate delivered lately, by sequence: an event goes to every
 * webhook that selects it, and events never change, so the other webhooks' passes need
 * neither its row nor its JSON again. Small ones only, and a bounded number.
 */
const recentBodies = new Map<number, { id: string; body: string }>();
const RECENT_BODIES = 512;
const RECENT_BODY_BYTES = 64 * 1024;

export async function bodiesOf(db: Database, seqs: readonly number[]): Promise<Map<number, { id: string; body: string }>> {
  const found = new Map<number, { id: string; body: string }>();
  const missing = seqs.filter((seq) => {
    const known = recentBodies.get(seq);
    if (known) found.set(seq, known);
    return !known;
  });
  if (missing.length === 0) return found;
  for (const event of await eventsBySeq(db, missing)) {
    const entry = { id: event.id, body: JSON.stringify(presentEvent(event)) };
    found.set(event.seq, entry);
    if (entry.body.length <= RECENT_BODY_BYTES) {
      if (recentBodies.size >= RECENT_BODIES) recentBodies.delete(recentBodies.keys().next().value!);
      recentBodies.set(event.seq, entry);
    }
  }
  return found;
}
