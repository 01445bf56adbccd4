// A parent this service does not manage, asked for the DS set it shows (docs/dnssec-rollovers.md
// "The parent"; the choice in docs/decisions.md): `DS <zone>` asked of the parent's own name
// servers, found from the root servers (DNSSEC_ROOT_SERVERS) down the referrals, over TCP
// from the Worker (src/dns/dnssec/parent-servers.ts reads and decides; src/jobs/dns-tcp.ts
// sends). A set is concluded only when every name server of the parent shows it, so a change
// is never seen before a resolver, whichever of them it asks, is shown it.
import { type Ask, lookupParentDs, PARENT_LOOKUP_LIMITS, parseServerList, type ServerAddress } from "../dns/dnssec/parent-servers";
import { parentDsKeys } from "../dns/dnssec/parent-ds";
import type { ParentDs } from "../dns/dnssec/rollover";
import { keysWithDnskey, type ZoneSigning } from "../resources/dnssec/steps";
import { tcpAsk } from "./dns-tcp";

/**
 * The lookups of a parent one run makes at most (a bound on its time: each takes up to
 * PARENT_LOOKUP_BUDGET_MS). A zone past the bound is not written at all (`NOT_LOOKED`): it
 * stays due, before the zones looked at (their next look is later), and is looked at first
 * by the next run.
 */
export const PARENT_ASKS_PER_RUN = 10;

/**
 * The queries all of one run's lookups make together unless DNSSEC_PARENT_QUERIES_PER_RUN
 * says otherwise: each query is a connection, and a Worker's connections count as its
 * subrequests, 50 an invocation on the free plan (10 000 on the paid, where a deployment
 * raises it). 40 leaves 10 for the run's other subrequests (a connected registry's gateway
 * calls for managed parents). A lookup starts only while some are left, with at most what is
 * left (and its own 30); one cut short by them is `NOT_LOOKED`, as a zone past
 * PARENT_ASKS_PER_RUN.
 */
export const PARENT_QUERIES_PER_RUN = 40;

/** DNSSEC_PARENT_QUERIES_PER_RUN as a number: a whole number from 1 to 9 000, else the default (PARENT_QUERIES_PER_RUN). */
export function parentQueriesPerRun(value: string | undefined): number {
  const n = value !== undefined && /^[1-9][0-9]{0,3}$/.test(value.trim()) ? Number(value.trim()) : null;
  return n !== null && n <= 9_000 ? n : PARENT_QUERIES_PER_RUN;
}

/** How long one zone's lookup may take in all (each query within its own 3 s). */
export const PARENT_LOOKUP_BUDGET_MS = 20_000;

/** Where the lookups of one run start, and how many it may still make. */
export interface ExternalParents {
  roots: { ok: true; addresses: ServerAddress[] } | { ok: false; error: string };
  asksLeft: number;
  /** The queries the run's lookups may still make (PARENT_QUERIES_PER_RUN at its start). */
  queriesLeft: number;
  /** The transport, one per lookup (over TCP unless a caller gives another). */
  ask: (budgetMs: number) => Ask;
}

/** A run's external parents: the root servers of DNSSEC_ROOT_SERVERS (the IANA root servers unless set). */
export function externalParents(env: { DNSSEC_ROOT_SERVERS?: string; DNSSEC_PARENT_QUERIES_PER_RUN?: string }): ExternalParents {
  const queries = parentQueriesPerRun(env.DNSSEC_PARENT_QUERIES_PER_RUN);
  // A run's lookups: as many as its queries allow a zone's whole lookup (30), at least the default 10.
  const asks = Math.max(PARENT_ASKS_PER_RUN, Math.floor(queries / PARENT_LOOKUP_LIMITS.queries));
  return { roots: parseServerList(env.DNSSEC_ROOT_SERVERS), asksLeft: asks, queriesLeft: queries, ask: tcpAsk };
}

function logUnavailable(zone: string, reason: string) {
  console.log(JSON.stringify({ level: "info", dnssec_parent: zone, unavailable: reason }));
}

/** A zone whose parent the run had no lookup left for: the run leaves it as it is, due. */
export const NOT_LOOKED = "not looked";

/**
 * What a parent not managed here shows, asked when the zone waits for it (a DS submitted or
 * withdrawn that it has not followed); null when the zone's parent is managed here, nothing
 * is awaited, or the parent's servers said nothing sure (the zone then waits for its next
 * look); NOT_LOOKED when the run has made its PARENT_ASKS_PER_RUN lookups.
 */
export async function observeExternalParent(state: ZoneSigning, parents: ExternalParents | null): Promise<ParentDs | null | typeof NOT_LOOKED> {
  if (parents === null || state.domain !== null) return null;
  if (!state.signing.keys.some((k) => k.ds === "submitted" || k.ds === "withdrawn")) return null;
  if (!parents.roots.ok) {
    logUnavailable(state.zone.name, `DNSSEC_ROOT_SERVERS: ${parents.roots.error}`);
    return null;
  }
  if (parents.asksLeft <= 0) {
    logUnavailable(state.zone.name, "this run has made all its lookups of a parent");
    return NOT_LOOKED;
  }
  if (parents.queriesLeft <= 0) {
    logUnavailable(state.zone.name, "this run has made all its queries to a parent's servers (DNSSEC_PARENT_QUERIES_PER_RUN)");
    return NOT_LOOKED;
  }
  parents.asksLeft--;
  const queries = Math.min(PARENT_LOOKUP_LIMITS.queries, parents.queriesLeft);
  const answer = await lookupParentDs(state.zone.name, parents.roots.addresses, parents.ask(PARENT_LOOKUP_BUDGET_MS), { limits: { queries } });
  parents.queriesLeft -= answer.queries;
  if (answer.kind === "unavailable") {
    logUnavailable(state.zone.name, answer.reason);
    // Cut short by the run's queries, not its own bound: the next run looks at it first.
    return queries < PARENT_LOOKUP_LIMITS.queries && answer.queries >= queries ? NOT_LOOKED : null;
  }
  return parentDsKeys(state.zone.name, keysWithDnskey(state.rows), answer.records);
}
