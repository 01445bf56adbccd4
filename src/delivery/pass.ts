// One delivery pass for any number of webhooks (docs/webhooks.md, "Delivery"): the queue
// consumer's batch, the cron's run and POST /v1/webhooks/dispatch each run one. Its cost in
// D1 hardly grows with the webhooks it serves: one lease for all of them (one batch, which
// also marks those another pass holds), their accounts' roles (cached), the events after
// their cursors read together, the bodies of those events read once, the attempts of all
// of them recorded together when their turns end (a turn is one job at the webhook sender,
// as many events as a pass sends one webhook: one call over the binding, and no record
// between jobs; measured, 22 % less of the API's CPU per delivery than jobs of half
// that, README "Performance"), and one release that also finds
// which of them a pass was turned away from meanwhile and is owed. Each webhook's events
// go in commit order (deliver.ts); the webhooks go side by side, their jobs at the sender
// (src/sender.ts) at most SENDS_AT_ONCE at a time.
import { database } from "../db/client";
import type { Env } from "../env";
import { safeErrorSummary } from "../http/error-log";
import { coalesced, limited } from "./coalesce";
import { deliverHeld, type PassEnd, type PassReport, type PassTools } from "./deliver";
import { bodiesReader, headsReader, scopesOf } from "./deliver-reads";
import { claimAll, type DeliveryRecord, recordAll, releaseAll, stillSending } from "./lease";
import { MAX_JOB_EVENTS, sendThrough, webhookSender } from "./send";
import { dnsResolver } from "./target";

/** A pass starts no attempt after this long, so that it ends (an attempt takes at most ~16 s) well inside its lease. */
const PASS_MS = 30_000;
/** Attempts one pass makes at one webhook at most, one job's worth (send.ts); what is left follows on the queue. */
const MAX_DELIVERIES = MAX_JOB_EVENTS;
/** Jobs at the sender at once (each sends one request at a time): a Worker's run has 6 connections open at most. */
const SENDS_AT_ONCE = 5;
/** Rounds of a pass: after letting go, once more for the webhooks an event committed meanwhile is owed. */
const ROUNDS = 3;

/** Delivers what the webhooks are owed at `now`; how each one's turn ended. */
export async function deliverPass(env: Env, ids: readonly string[], now: Date, report: PassReport): Promise<Map<string, PassEnd>> {
  const db = database(env.DB);
  const started = Date.now();
  const ends = new Map<string, PassEnd>(ids.map((id) => [id, { kind: "skipped" }]));
  const sent = new Map<string, number>();
  const send = limited(SENDS_AT_ONCE);
  const resolver = dnsResolver(env);
  const room = (id: string) => MAX_DELIVERIES - (sent.get(id) ?? 0);
  let owed = [...new Set(ids)];
  const claimed = new Set<string>();
  for (let round = 0; round < ROUNDS && owed.length > 0; round++) {
    const leaseId = crypto.randomUUID();
    const rows = await claimAll(db, owed, leaseId);
    for (const row of rows) claimed.add(row.id);
    if (rows.length === 0) break;
    const held = rows.map((row) => row.id);
    const roundEnds = new Map<string, PassEnd>();
    const atEnd: DeliveryRecord[] = [];
    try {
      const scopes = await scopesOf(db, rows);
      const tools: PassTools = {
        db,
        heads: headsReader(db),
        bodies: bodiesReader(db),
        record: coalesced<DeliveryRecord, boolean>((entries) => recordAll(db, leaseId, entries)),
        recordAtEnd: (entry) => atEnd.push(entry),
        // The webhooks about to hand the sender a job at the same moment are asked about together.
        stillSending: coalesced<string, boolean>(async (webhookIds) => {
          const sending = await stillSending(db, leaseId, [...new Set(webhookIds)]);
          return webhookIds.map((id) => sending.has(id));
        }),
        // A sender that fails is a failed attempt (send.ts, sendThrough), recorded and retried.
        send: (job) => send(() => sendThrough(webhookSender(env), { ...job, resolver, startBy: started + PASS_MS })),
        room,
        outOfTime: (id) => Date.now() - started > PASS_MS || room(id) <= 0,
        report,
      };
      await Promise.all(
        rows.map(async (row) => {
          try {
            const end = await deliverHeld(env, tools, row, scopes.get(row.id) ?? row.accountId, now, () => sent.set(row.id, (sent.get(row.id) ?? 0) + 1));
            roundEnds.set(row.id, end);
          } catch (error) {
            // One webhook's trouble does not hold up the others; its cursor still says what it is owed.
            console.error(JSON.stringify({ level: "error", service: "domain-api", webhook: row.id, deliveries: "failed", error: safeErrorSummary(error) }));
            roundEnds.set(row.id, { kind: "error" });
          }
        }),
      );
      // Every turn's last record in one round trip, whenever each turn ended.
      if (atEnd.length > 0) {
        const recorded = await recordAll(db, leaseId, atEnd);
        atEnd.forEach((entry, i) => {
          if (!recorded[i]) roundEnds.set(entry.webhookId, { kind: "skipped" });
        });
      }
    } finally {
      const stillOwed = await releaseAll(db, held, leaseId, now);
      owed = held.filter((id) => roundEnds.get(id)?.kind === "idle" && stillOwed.has(id));
    }
    for (const [id, end] of roundEnds) ends.set(id, end);
  }
  // Owed still after the last round: the queue takes it from here. A webhook the pass never
  // took is `skipped`, not more: another pass holds it (and looks again when it lets go,
  // lease.ts), or it is disabled, gone, or its account suspended, owed nothing until that
  // changes. Sent back to the queue, it came back at once, again and again.
  for (const id of owed) if (claimed.has(id)) ends.set(id, { kind: "more" });
  return ends;
}
