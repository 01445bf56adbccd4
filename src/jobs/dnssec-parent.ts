// A parent this service does not manage, asked for the DS set it shows (docs/dnssec-rollovers.md
// "The parent"; the choice in docs/decisions.md): a `DS <zone>` question to a DNS-over-HTTPS
// resolver (RFC 8484's JSON form, as the webhooks' address check asks), which asks the
// parent's servers. A resolver's cache can only make a change be seen later than the parent
// made it, never earlier: the roll then waits longer, and every wait counts from when the
// DS was seen, so no resolver is failed by it.
import type { ParentDs } from "../dns/dnssec/rollover";
import { type ParentAnswer, parentDsKeys, parentDsOfAnswer } from "../dns/dnssec/parent-ds";
import { keysWithDnskey, type ZoneSigning } from "../resources/dnssec/steps";

/** The resolver unless DNSSEC_PARENT_RESOLVER names another: Cloudflare's, as the webhooks' default. */
export const DEFAULT_PARENT_RESOLVER = "https://cloudflare-dns.com/dns-query";

/** How long one question may take: a resolver slower than this is asked again at the next look. */
const ASK_TIMEOUT_MS = 5_000;

export function parentResolver(env: { DNSSEC_PARENT_RESOLVER?: string }): string {
  return env.DNSSEC_PARENT_RESOLVER || DEFAULT_PARENT_RESOLVER;
}

/** The DS set the resolver says `zone`'s parent shows, or why it could not say. */
export async function askParentDs(resolver: string, zone: string): Promise<ParentAnswer> {
  try {
    const response = await fetch(`${resolver}?name=${encodeURIComponent(zone)}&type=DS&do=1`, {
      headers: { accept: "application/dns-json" },
      signal: AbortSignal.timeout(ASK_TIMEOUT_MS),
    });
    if (!response.ok) return { kind: "unavailable", reason: `the resolver answered HTTP ${response.status}` };
    return parentDsOfAnswer(await response.json(), zone);
  } catch (error) {
    return { kind: "unavailable", reason: `the resolver could not be reached (${error instanceof Error ? error.name : "error"})` };
  }
}

/**
 * What a parent not managed here shows, asked when the zone waits for it (a DS submitted or
 * withdrawn that it has not followed); null when the zone's parent is managed here, nothing
 * is awaited, or the resolver could say nothing sure (the zone then waits for its next look).
 */
export async function observeExternalParent(state: ZoneSigning, resolver: string | null): Promise<ParentDs | null> {
  if (resolver === null || state.domain !== null) return null;
  if (!state.signing.keys.some((k) => k.ds === "submitted" || k.ds === "withdrawn")) return null;
  const answer = await askParentDs(resolver, state.zone.name);
  if (answer.kind === "unavailable") {
    console.log(JSON.stringify({ level: "info", dnssec_parent: state.zone.name, unavailable: answer.reason }));
    return null;
  }
  return parentDsKeys(state.zone.name, keysWithDnskey(state.rows), answer.records);
}
