// What a delivery pass reads (pass.ts), shared by its webhooks: the account scope of each
// (cached per isolate: a role never changes), the events after their cursors (one read for
// every webhook asking at the same time, each taking what its account sees), and the
// bodies of those events (cached per isolate: events never change, and an event goes to
// every webhook that selects it).
import type { Database } from "../db/client";
import { accounts } from "../db/schema";
import { presentEvent } from "../db/event-json";
import { coalesced } from "./coalesce";
import { MAX_JOB_EVENTS } from "./send";
import { eventHeadsAfter, eventsBySeq, inList, type WebhookRow } from "./rows";

/** Events read at once, for all the webhooks asking: a job's worth (send.ts), so that a webhook's turn is one job. */
const PAGE_SIZE = MAX_JOB_EVENTS;

/** Accounts' roles as this isolate read them lately: a role never changes once the account is made. */
const accountRoles = new Map<string, { role: string; until: number }>();
const ROLE_CACHE_MS = 60_000;

/** For each webhook, the account whose events it sees; null for an operator's, which sees every account's (one read for the roles not cached). */
export async function scopesOf(db: Database, rows: readonly WebhookRow[]): Promise<Map<string, string | null>> {
  const missing = [...new Set(rows.map((row) => row.accountId))].filter((id) => !((accountRoles.get(id)?.until ?? 0) > Date.now()));
  if (missing.length > 0) {
    const found = await db.select({ id: accounts.id, role: accounts.role }).from(accounts).where(inList(accounts.id, missing));
    if (accountRoles.size >= 1024) accountRoles.clear();
    const roles = new Map(found.map((a) => [a.id, a.role]));
    for (const id of missing) accountRoles.set(id, { role: roles.get(id) ?? "customer", until: Date.now() + ROLE_CACHE_MS });
  }
  return new Map(rows.map((row) => [row.id, accountRoles.get(row.accountId)?.role === "operator" ? null : row.accountId]));
}

export interface EventHead {
  seq: number;
  id: string;
  type: string;
  operation: string;
  accountId: string;
}

/** Events after `after` that the scope sees; `last`: the newest sequence read, when more may follow it. */
export interface HeadsPage {
  heads: EventHead[];
  more: boolean;
  last: number;
}

/**
 * The events reader of one pass: each webhook asks for the events after its cursor; the
 * questions asked together are answered from one read from the lowest cursor (and from the
 * accounts asked about), again only for a webhook the page did not reach.
 */
export function headsReader(db: Database): (ask: { after: number; scope: string | null }) => Promise<HeadsPage> {
  return coalesced(async (asks) => {
    const answers = new Array<HeadsPage>(asks.length);
    let open = asks.map((_, i) => i);
    while (open.length > 0) {
      const from = Math.min(...open.map((i) => asks[i]!.after));
      const scopes = open.map((i) => asks[i]!.scope);
      const page = await eventHeadsAfter(db, from, scopes.includes(null) ? null : [...new Set(scopes as string[])], PAGE_SIZE);
      const more = page.length === PAGE_SIZE;
      const last = page.at(-1)?.seq ?? from;
      // A webhook whose cursor is past the page's last event asks again from its own cursor.
      const later: number[] = [];
      for (const i of open) {
        const { after, scope } = asks[i]!;
        if (more && after >= last) later.push(i);
        else answers[i] = { heads: page.filter((e) => e.seq > after && (scope === null || e.accountId === scope)), more, last: Math.max(last, after) };
      }
      open = later;
    }
    return answers;
  });
}

/**
 * Bodies of events this isolate delivered lately, by sequence: an event goes to every
 * webhook that selects it, and events never change, so the other webhooks need neither
 * its row nor its JSON again. Small ones only, and a bounded number.
 */
const recentBodies = new Map<number, { id: string; body: string }>();
const RECENT_BODIES = 1024;
const RECENT_BODY_BYTES = 64 * 1024;

export type Body = { id: string; body: string };

/** The bodies reader of one pass: the bodies not cached that its webhooks ask for together, in one read. */
export function bodiesReader(db: Database): (seqs: readonly number[]) => Promise<Map<number, Body>> {
  const load = coalesced<number, Body | undefined>(async (seqs) => {
    const missing = [...new Set(seqs.filter((seq) => !recentBodies.has(seq)))];
    const loaded = new Map<number, Body>();
    if (missing.length > 0) {
      const rows = await eventsBySeq(db, missing);
      for (const event of rows) {
        const entry = { id: event.id, body: JSON.stringify(presentEvent(event)) };
        loaded.set(event.seq, entry);
        if (entry.body.length <= RECENT_BODY_BYTES) {
          if (recentBodies.size >= RECENT_BODIES) recentBodies.delete(recentBodies.keys().next().value!);
          recentBodies.set(event.seq, entry);
        }
      }
    }
    return seqs.map((seq) => recentBodies.get(seq) ?? loaded.get(seq));
  });
  return async (seqs) => {
    const found = new Map<number, Body>();
    const bodies = await Promise.all(seqs.map((seq) => recentBodies.get(seq) ?? load(seq)));
    seqs.forEach((seq, i) => {
      const body = bodies[i];
      if (body) found.set(seq, body);
    });
    return found;
  };
}
