// Who may transfer a zone from the primary, as PowerDNS 4.7 asks its backend
// (docs/dns-update.md, docs/serving.md): the zone metadata kinds below, and the TSIG keys
// that transfer (getTSIGKey). Keys are read from D1 on every call — no cache in the
// connector — so a deleted or expired key signs nothing from the next message on; PowerDNS
// itself keeps zone metadata for its zone-metadata-cache-ttl (TSIG-ALLOW-AXFR is read
// through that cache). DNS UPDATE does not reach PowerDNS (`dnsupdate=no`): the update
// gateway brings it to the service (dns-update.ts), which verifies its TSIG itself.
import { and, eq, exists, isNull, or, sql, gt } from "drizzle-orm";
import type { Context } from "hono";
import type { Database } from "../db/client";
import { tsigKeys, zoneKeys, zones } from "../db/schema";
import type { AppEnv } from "../env";
import { dnssecSecret } from "../http/sealing-secret";
import { openSecret } from "../crypto/tsig-secret";

/** The metadata kinds this file answers. */
/**
 * TSIG-ALLOW-DNSUPDATE of every zone: a name no key can have (`.invalid`, RFC 6761 §6.4),
 * so that a PowerDNS run with `dnsupdate=yes` by mistake still applies no update (an empty
 * list would let it accept unsigned ones). Updates reach the service through the gateway.
 */
export const NO_UPDATE_KEY = "no-update-key.invalid.";

export const ZONE_ACCESS_KINDS = ["ALLOW-AXFR-FROM", "TSIG-ALLOW-AXFR", "ALSO-NOTIFY", "TSIG-ALLOW-DNSUPDATE"] as const;

/** The kinds getAllDomainMetadata carries (PowerDNS's metadata cache): those of transfers. */
const TRANSFER_KINDS = ["ALLOW-AXFR-FROM", "TSIG-ALLOW-AXFR", "ALSO-NOTIFY"] as const;
type Kind = (typeof ZONE_ACCESS_KINDS)[number];

export function isZoneAccessKind(kind: string): kind is Kind {
  return (ZONE_ACCESS_KINDS as readonly string[]).includes(kind);
}

const live = (now: string) => or(isNull(tsigKeys.expiresAt), gt(tsigKeys.expiresAt, now));
const transfers = sql`exists (select 1 from json_each(${tsigKeys.allow}) where value = 'transfer')`;

/**
 * The zone's declared secondaries and the live keys of its account that transfer it, and
 * whether it is signed (an active key: getAllDomainMetadata's signed zone's kinds), in one
 * statement.
 */
async function zoneAccess(db: Database, zone: string) {
  const now = new Date().toISOString();
  const signed = db
    .select({ one: sql`1` })
    .from(zoneKeys)
    .where(and(eq(zoneKeys.zoneId, zones.id), eq(zoneKeys.active, true)));
  const rows = await db
    .select({ secondaries: zones.secondaries, keyName: tsigKeys.name, signed: sql<number>`${exists(signed)}` })
    .from(zones)
    .leftJoin(
      tsigKeys,
      and(eq(tsigKeys.accountId, zones.accountId), live(now), transfers, sql`exists (select 1 from json_each(${tsigKeys.zones}) where value = ${zones.name})`),
    )
    .where(eq(zones.name, zone));
  if (rows.length === 0) return null;
  return {
    signed: rows[0]!.signed === 1,
    secondaries: rows[0]!.secondaries,
    transferKeys: rows.flatMap((row) => (row.keyName === null ? [] : [`${row.keyName}.`])),
  };
}

const hostPort = (address: string, port: number) => (address.includes(":") ? `[${address}]:${port}` : `${address}:${port}`);

/**
 * `tier`: the tier's secondaries (DNS_TIER_SECONDARIES, src/serving/tier.ts), NOTIFYed for
 * every zone beside its declared secondaries.
 */
function values(access: NonNullable<Awaited<ReturnType<typeof zoneAccess>>>, kind: Kind, tier: readonly string[]): string[] {
  switch (kind) {
    // Secondaries without a key transfer by address; with one, only with it.
    case "ALLOW-AXFR-FROM":
      return access.secondaries.filter((s) => s.tsig_key === null).map((s) => (s.address.includes(":") ? `${s.address}/128` : `${s.address}/32`));
    case "TSIG-ALLOW-AXFR":
      return access.transferKeys;
    case "ALSO-NOTIFY":
      return [...new Set([...tier, ...access.secondaries.map((s) => hostPort(s.address, s.port))])];
    case "TSIG-ALLOW-DNSUPDATE":
      return [NO_UPDATE_KEY];
  }
}

/** getDomainMetadata for one of ZONE_ACCESS_KINDS (`[]` for no such zone). */
export async function zoneAccessMetadata(db: Database, zone: string, kind: Kind, tier: readonly string[]): Promise<string[]> {
  const access = await zoneAccess(db, zone);
  return access ? values(access, kind, tier) : [];
}

/**
 * For getAllDomainMetadata, in one round trip: the transfer kinds of a zone, when not
 * empty (PowerDNS fills its metadata cache from them, and reads TSIG-ALLOW-AXFR through
 * that cache), and whether the zone is signed (false for no such zone).
 */
export async function allZoneAccessMetadata(
  db: Database,
  zone: string,
  tier: readonly string[],
): Promise<{ signed: boolean; access: Record<string, string[]> }> {
  const access = await zoneAccess(db, zone);
  if (!access) return { signed: false, access: {} };
  return {
    signed: access.signed,
    access: Object.fromEntries(TRANSFER_KINDS.map((kind) => [kind, values(access, kind, tier)] as const).filter(([, list]) => list.length > 0)),
  };
}

/**
 * getTSIGKey: a live key's algorithm and secret, by its name (absolute, any case), or null;
 * only a key that allows `transfer`, the one use PowerDNS has for a key. An update-only
 * key's secret never leaves the service (the service verifies updates itself).
 */
export async function tsigKeyByName(c: Context<AppEnv>, name: string): Promise<{ algorithm: string; content: string } | null> {
  const now = new Date().toISOString();
  const [row] = await c
    .get("db")
    .select({ id: tsigKeys.id, algorithm: tsigKeys.algorithm, secretSealed: tsigKeys.secretSealed })
    .from(tsigKeys)
    .where(and(eq(tsigKeys.name, name), live(now), transfers));
  if (!row) return null;
  const content = await openSecret(dnssecSecret(c), row.id, row.secretSealed);
  return content === null ? null : { algorithm: row.algorithm, content };
}
