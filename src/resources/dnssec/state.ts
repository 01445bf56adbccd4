// A zone's DNSSEC state as the API shows it (docs/dnssec.md), and the rows behind it. Keys
// are always read by the id of a zone the caller can see (src/access/visibility.ts shadows
// zones, not zone_keys), so another account's keys are out of reach.
import { and, eq, ne, or, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import type { ResourceRef } from "../../db/ref";
import { type zones, zoneKeys } from "../../db/schema";
import type { ZoneKeyRow } from "../../db/zone-keys";
import { type AwaitingParent, awaitingParent, type DsState, type KeyRole, type KeyState, type SigningProcess } from "../../dns/dnssec/rollover";
import type { SigningPolicy } from "../../dns/dnssec/signing-policy";
import { parentTiming, policyOf, signingKeyOf, zoneTiming } from "../../db/zone-keys";
import { lockedAgainstUpdate } from "../../registry/statuses";
import { atConnectedRegistry, type RegistryLink } from "./registry-parent";
import type { ParentDomain } from "./zone";
import { type DigestType, dnskeyText, dsText, PUBLISHED_DIGEST_TYPES } from "../../dns/dnssec/keys";
import { base64Octets } from "../../crypto/base64";

/**
 * Denial of existence by NSEC (RFC 4034 §4), PowerDNS computing each NSEC online from the
 * neighbours the connector gives (getBeforeAndAfterNamesAbsolute over records.owner_order).
 * Not NSEC3 narrow mode: PowerDNS refuses to transfer a narrow zone, so no secondary and no
 * `dnssec-verify` could ever see it; not full NSEC3: its chain is ordered by hash, which
 * the service would have to keep for every name and empty non-terminal. NSEC3's one gain,
 * names that resist walking, is weak at the RFC 9276 §3.1 parameters anyway (an unsalted
 * SHA-1 of a guessable name). docs/dnssec.md weighs it.
 */
export const DENIAL = "nsec";

export interface DnssecKeyBody {
  id: string;
  key_tag: number;
  algorithm: number;
  flags: number;
  active: boolean;
  /** The key's part (docs/dnssec-rollovers.md): `csk` signs everything, `ksk` the DNSKEY RRset, `zsk` the rest. */
  role: KeyRole;
  /** RFC 7583 §3.1's state (with Knot's pre-published and post-active in an algorithm roll). */
  state: KeyState;
  /** Where the key's DS stands at the parent. */
  ds_state: DsState;
  /** When the key's next step is due; null when it waits for the parent, or for nothing. */
  next_step_at: string | null;
  dnskey: string;
  ds: string[];
  created_at: string;
}

export interface DnssecStateBody {
  enabled: boolean;
  denial?: string;
  keys: DnssecKeyBody[];
}

/** The zone's side of the lifecycle: the policy it signs by, the roll running, its next step, the parent step it waits for. */
export interface DnssecLifecycleBody {
  policy: SigningPolicy;
  rollover: SigningProcess | null;
  next_step_at: string | null;
  awaiting_parent: AwaitingParent | null;
}

/** The keys of a zone: by its id, or by a reference resolved through the `zones` visibility shadows. */
function keysOfZone(zone: string | ResourceRef) {
  return typeof zone === "string"
    ? eq(zoneKeys.zoneId, zone)
    : sql`${zoneKeys.zoneId} = (select z.id from "zones" z where ${zone.kind === "id" ? sql`z.id = ${zone.id}` : sql`z.name = ${zone.name}`})`;
}

/**
 * The live keys of a zone (not removed: a roll has several, docs/dnssec-rollovers.md): by the
 * id of a zone read before, or by a reference resolved in the same statement through
 * `zones`, which visibility shadows, so the keys of a zone the caller cannot see stay out
 * of reach there too.
 */
export function activeKeys(db: Database, zone: string | ResourceRef) {
  return db
    .select()
    .from(zoneKeys)
    .where(and(keysOfZone(zone), eq(zoneKeys.active, true)))
    .orderBy(zoneKeys.id);
}

/**
 * The keys GET /zones/{zone}/dnssec lists: the live ones, and removed ones whose DS the parent
 * may still show (`ds_state` `withdrawn`: the roll waits for the parent to drop it), the rows
 * the engine sees (steps.ts keeps a removed key's row until its DS is gone). By zone as
 * `activeKeys`.
 */
export function listedKeys(db: Database, zone: string | ResourceRef) {
  return db
    .select()
    .from(zoneKeys)
    .where(and(keysOfZone(zone), or(eq(zoneKeys.active, true), ne(zoneKeys.dsState, "absent"))))
    .orderBy(zoneKeys.id);
}

export function keyOf(row: ZoneKeyRow) {
  return { flags: row.flags, protocol: 3, algorithm: row.algorithm, publicKey: base64Octets(row.publicKey) };
}

/** The DS records (RFC 4034 §5.3) a parent publishes for a key of `zoneName`: SHA-256, then SHA-384. */
export function dsRecords(zoneName: string, row: ZoneKeyRow, digestTypes: readonly DigestType[] = PUBLISHED_DIGEST_TYPES): string[] {
  return digestTypes.map((type) => dsText(zoneName, keyOf(row), type));
}

/** The public view of a key: never its private half. */
export async function presentKey(zoneName: string, row: ZoneKeyRow): Promise<DnssecKeyBody> {
  return {
    id: row.id,
    key_tag: row.keyTag,
    algorithm: row.algorithm,
    flags: row.flags,
    active: row.active,
    role: row.role,
    state: row.state,
    ds_state: row.dsState,
    next_step_at: row.nextStepAt,
    dnskey: dnskeyText(keyOf(row)),
    ds: dsRecords(zoneName, row),
    created_at: row.createdAt,
  };
}

export async function presentState(zoneName: string, rows: readonly ZoneKeyRow[]): Promise<DnssecStateBody> {
  const keys = await Promise.all(rows.map((row) => presentKey(zoneName, row)));
  // Signed while a key is live; a removed key whose DS the parent still shows is listed, and signs nothing.
  if (!rows.some((row) => row.active)) return { enabled: false, keys };
  return { enabled: true, denial: DENIAL, keys };
}

/** What GET /zones/{zone}/dnssec adds to the keys: the policy (the default when unset), the roll, the next step, the parent step it waits for. */
export function presentLifecycle(
  zone: Pick<typeof zones.$inferSelect, "dnssecPolicy" | "dnssecRollover" | "dnssecNextStepAt">,
  awaiting: AwaitingParent | null,
): DnssecLifecycleBody {
  return { policy: policyOf(zone), rollover: zone.dnssecRollover ?? null, next_step_at: zone.dnssecNextStepAt, awaiting_parent: awaiting };
}

/**
 * The parent step the zone's keys (`listedKeys`) wait for as they stand (the engine's
 * `awaitingParent`), with the parent's timing the run uses (steps.ts `readZoneSigning`): a
 * domain of the zone's account under an extension with DNSSEC and not under the registry
 * lock is the managed parent, at a connected registry or not; any other parent is external.
 */
export function zoneAwaitingParent(
  zone: typeof zones.$inferSelect & { parentDomain: ParentDomain | null },
  rows: readonly ZoneKeyRow[],
  link: RegistryLink | null,
  now: Date,
): AwaitingParent | null {
  if (rows.length === 0) return null;
  const domain = zone.parentDomain;
  const managed = domain?.dnssec === true && !lockedAgainstUpdate(domain.statuses);
  const connected = managed && domain !== null && atConnectedRegistry(link, domain.repository);
  let keys: ReturnType<typeof signingKeyOf>[];
  try {
    keys = rows.map(signingKeyOf);
  } catch {
    // A key of an algorithm the service does not sign with: the engine does not take the zone (and so no roll waits).
    return null;
  }
  return awaitingParent({
    policy: policyOf(zone),
    keys,
    rollover: zone.dnssecRollover ?? null,
    timing: zoneTiming(zone, null),
    parent: parentTiming(managed, connected),
    now,
  });
}

/** The DNSSEC state as GET answers it: the listed keys, the lifecycle and the parent step it waits for. */
export async function presentDnssec(
  zone: typeof zones.$inferSelect & { parentDomain: ParentDomain | null },
  rows: readonly ZoneKeyRow[],
  link: RegistryLink | null,
  now: Date,
) {
  return { ...(await presentState(zone.name, rows)), ...presentLifecycle(zone, zoneAwaitingParent(zone, rows, link, now)) };
}
