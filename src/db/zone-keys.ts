// The stored side of the DNSSEC key lifecycle (docs/dnssec-rollovers.md): a zone's rows as
// the engine (src/dns/dnssec/rollover.ts) takes them, with the timings it counts its waits
// from, and the policy a zone signs by.
import { type SQL, sql } from "drizzle-orm";
import { base64Octets } from "../crypto/base64";
import { dnskeyTag, dnskeyText } from "../dns/dnssec/keys";
import type { ApexKey } from "../dns/dnssec/parent-ds";
import { recordLineBytes } from "../dns/master-file";
import type { DsState, KeyState } from "../dns/dnssec/rollover";
import type { zoneKeys, zones } from "./schema";
import type { ParentTiming, ZoneTiming } from "../dns/dnssec/key-timing";
import type { SigningKey } from "../dns/dnssec/rollover";
import { DEFAULT_SIGNING_POLICY, isSigningAlgorithm, type SigningPolicy } from "../dns/dnssec/signing-policy";

export type ZoneKeyRow = typeof zoneKeys.$inferSelect;

type ZoneRow = typeof zones.$inferSelect;

/**
 * Dprp, the tier's propagation delay in seconds: the secondaries' freshness measures ~1.5 s
 * (NOTIFY, then IXFR); 2 s rounds it up. A secondary that misses a NOTIFY catches up only
 * at the SOA refresh, which the DNSKEY TTL's margin does not cover: docs/dnssec-rollovers.md.
 */
export const TIER_PROPAGATION_DELAY = 2;

/** TTLds when an extension says nothing: a day, as most TLDs publish their DS. */
export const DEFAULT_DS_TTL = 86_400;

/** The policy a zone signs by: its own, or BIND's default (one combined key, algorithm 13, never rolled). */
export function policyOf(zone: Pick<ZoneRow, "dnssecPolicy">): SigningPolicy {
  return zone.dnssecPolicy ?? DEFAULT_SIGNING_POLICY;
}

/**
 * The zone's side of the waits. PowerDNS serves the DNSKEY RRset with the SOA minimum as its
 * TTL; the largest TTL the zone serves signed is its largest record TTL or the negative
 * answers' (the SOA minimum, RFC 2308 §5), whichever is longer.
 */
export function zoneTiming(zone: Pick<ZoneRow, "soaMinimum">, maxRecordTtl: number | null): ZoneTiming {
  const dnskeyTtl = zone.soaMinimum;
  return { dnskeyTtl, maxZoneTtl: Math.max(dnskeyTtl, maxRecordTtl ?? 0), propagationDelay: TIER_PROPAGATION_DELAY, signingDelay: 0 };
}

/**
 * The parent's side: a domain of this service whose extension takes DS data is `managed`
 * (the service sets its DS and knows at once), any other parent `external` (it reads the
 * zone's CDS, and what it shows is observed).
 */
export function parentTiming(managed: boolean, connected = false): ParentTiming {
  if (managed && connected) return { kind: "managed", dsTtl: DEFAULT_DS_TTL, ...CONNECTED_REGISTRY_DELAYS };
  if (managed) return { kind: "managed", dsTtl: DEFAULT_DS_TTL, registrationDelay: 0 };
  return { kind: "external", dsTtl: DEFAULT_DS_TTL, registrationDelay: 0, propagationDelay: EXTERNAL_PARENT_PROPAGATION_DELAY };
}

/**
 * DprpP of a parent not managed here, an hour (BIND's `parent-propagation-delay` default):
 * its DS set is seen when every name server of the parent shows it, but each asked at one
 * address (a second only when the first is silent), and an anycast address at one of its
 * instances; the others, unseen, may publish the change later.
 */
export const EXTERNAL_PARENT_PROPAGATION_DELAY = 3600;

/**
 * A connected registry's delays (docs/dnssec-rollovers.md "The timings"): Dreg, an update it
 * holds pending (1001) settled within 15 minutes as a rule; DprpP, its answer 1000 reaching
 * every server of the TLD within 5 (the DS is counted as seen on 1000, so IpubP must cover
 * the publication that follows it).
 */
export const CONNECTED_REGISTRY_DELAYS = { registrationDelay: 900, propagationDelay: 300 } as const;

/** A key row as the engine takes it. */
export function signingKeyOf(row: ZoneKeyRow): SigningKey {
  if (!isSigningAlgorithm(row.algorithm)) throw new Error(`key ${row.id} has algorithm ${row.algorithm}, which the service does not sign with`);
  return {
    id: row.id,
    role: row.role,
    algorithm: row.algorithm,
    state: row.state,
    pre_published_at: row.prePublishedAt,
    published_at: row.publishedAt,
    ready_at: row.readyAt,
    active_at: row.activeAt,
    retired_at: row.retiredAt,
    removed_at: row.removedAt,
    ds: row.dsState,
    ds_since: row.dsSince,
    next_step_at: row.nextStepAt,
  };
}

/**
 * A zone's live keys (not removed: zone_keys_zone_idx) as the apex needs them, as JSON
 * `[[id, flags, algorithm, public key (base64), state, ds_state], …]`, "[]" when unsigned:
 * the DNSKEY RRset is the published ones, the CDS set follows their DS states
 * (`apexSigningRecords`). `zoneId` is the SQL of the zone's id.
 */
export function apexKeysJson(zoneId: SQL): SQL<string> {
  return sql<string>`(select json_group_array(json_array(k.id, k.flags, k.algorithm, k.public_key, k.state, k.ds_state) order by k.id) from zone_keys k where k.zone_id = ${zoneId} and k.active = 1)`;
}

/** The keys of `apexKeysJson`'s JSON. */
export function apexKeysOf(json: string): ApexKey[] {
  return (JSON.parse(json) as [string, number, number, string, KeyState, DsState][]).map(([id, flags, algorithm, publicKey, state, ds]) => ({
    id,
    dnskey: { flags, protocol: 3, algorithm, publicKey: base64Octets(publicKey) },
    state,
    ds,
  }));
}

/** What a zone keeps free for the apex records its keys add to its export: their number and their lines' bytes. */
export interface SigningRoom {
  records: number;
  bytes: number;
}

/**
 * The room a signed zone keeps for the apex records its keys can add to its export (docs/
 * dnssec.md "In the zone's JSON and its export"; its import takes them back as records): a
 * DNSKEY line for each live key, and a CDS (SHA-256) and a CDNSKEY line for each KSK or
 * combined key (flags 257), whether or not a roll has published it yet or its DS is wanted
 * now, so that no step of a roll under way takes the export past what an import takes. The
 * lines are counted as zones.record_bytes counts a record's (recordLineBytes), at the
 * apex with the SOA minimum as TTL. `signingRoomSql` says the same in SQL.
 */
export function signingRoom(keys: readonly Pick<ApexKey, "dnskey">[], ttl: number): SigningRoom {
  let records = 0;
  let bytes = 0;
  const line = (type: string, content: string) => {
    records++;
    bytes += recordLineBytes({ name: "@", ttl, type, content });
  };
  for (const { dnskey } of keys) {
    line("DNSKEY", dnskeyText(dnskey));
    if (dnskey.flags === 257) {
      line("CDS", `${dnskeyTag(dnskey)} ${dnskey.algorithm} 2 ${"0".repeat(64)}`);
      line("CDNSKEY", dnskeyText(dnskey));
    }
  }
  return { records, bytes };
}

/**
 * `signingRoom` of the zone `zoneId`'s live keys (zone_keys_zone_idx), with `ttl` the SQL of
 * its SOA minimum: the DNSKEY content is `flags 3 algorithm public-key`, the CDS's
 * `tag algorithm 2` and 64 hex digits (SHA-256), each line "@", the TTL, the type, the
 * content and 7 (drizzle/0028's count). drizzle/0044's trigger holds the same sum.
 */
export function signingRoomSql(zoneId: SQL, ttl: SQL): { records: SQL<number>; bytes: SQL<number> } {
  const base = sql`(1 + length(cast(${ttl} as text)) + 7)`;
  const dnskey = sql`(length(cast(k.flags as text)) + 3 + length(cast(k.algorithm as text)) + 1 + length(k.public_key))`;
  const cds = sql`(length(cast(k.key_tag as text)) + 1 + length(cast(k.algorithm as text)) + 3 + 64)`;
  return {
    records: sql<number>`(select coalesce(sum(case when k.flags = 257 then 3 else 1 end), 0) from zone_keys k where k.zone_id = ${zoneId} and k.active = 1)`,
    bytes: sql<number>`(select coalesce(sum(${base} + 6 + ${dnskey} + case when k.flags = 257 then ${base} + 3 + ${cds} + ${base} + 7 + ${dnskey} else 0 end), 0) from zone_keys k where k.zone_id = ${zoneId} and k.active = 1)`,
  };
}
