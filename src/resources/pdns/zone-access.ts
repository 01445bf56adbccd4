// Who may transfer and UPDATE a zone at the primary, as PowerDNS 4.7 asks its backend
// (docs/dns-update.md, docs/serving.md): the zone metadata kinds below, and the TSIG keys
// themselves (getTSIGKey). Keys are read from D1 on every call — no cache in the
// connector — so a deleted or expired key signs nothing from the next message on; PowerDNS
// itself keeps zone metadata for its zone-metadata-cache-ttl (TSIG-ALLOW-AXFR is read
// through that cache).
import { and, eq, isNull, or, sql, gt } from "drizzle-orm";
import type { Context } from "hono";
import type { Database } from "../../db/client";
import { tsigKeys, tsigUpdateZones, zones } from "../../db/schema";
import type { AppEnv } from "../../env";
import { dnssecSecret } from "../dnssec/state";
import { openSecret } from "../tsig-keys/secret";
import { readTogether } from "../../db/write";

/**
 * TSIG-ALLOW-DNSUPDATE for a zone without an update key: a name no key can have (`.invalid`,
 * RFC 6761 §6.4). An empty list would make PowerDNS accept unsigned updates.
 */
export const NO_UPDATE_KEY = "no-update-key.invalid.";

/** The metadata kinds this file answers. */
export const ZONE_ACCESS_KINDS = [
  "ALLOW-AXFR-FROM",
  "TSIG-ALLOW-AXFR",
  "ALSO-NOTIFY",
  "TSIG-ALLOW-DNSUPDATE",
  "ALLOW-DNSUPDATE-FROM",
  "NOTIFY-DNSUPDATE",
] as const;
type Kind = (typeof ZONE_ACCESS_KINDS)[number];

export function isZoneAccessKind(kind: string): kind is Kind {
  return (ZONE_ACCESS_KINDS as readonly string[]).includes(kind);
}

const live = (now: string) => or(isNull(tsigKeys.expiresAt), gt(tsigKeys.expiresAt, now));

/** The zone's declared secondaries and the live keys of its account that transfer it or UPDATE it. */
async function zoneAccess(db: Database, zone: string) {
  const now = new Date().toISOString();
  const [rows, updaters] = await readTogether(db, [
    db
      .select({ secondaries: zones.secondaries, keyName: tsigKeys.name })
      .from(zones)
      .leftJoin(
        tsigKeys,
        and(
          eq(tsigKeys.accountId, zones.accountId),
          live(now),
          sql`exists (select 1 from json_each(${tsigKeys.allow}) where value = 'transfer')`,
          sql`exists (select 1 from json_each(${tsigKeys.zones}) where value = ${zones.name})`,
        ),
      )
      .where(eq(zones.name, zone)),
    db
      .select({ keyName: tsigKeys.name })
      .from(tsigUpdateZones)
      .innerJoin(zones, and(eq(zones.accountId, tsigUpdateZones.accountId), eq(zones.name, tsigUpdateZones.zone)))
      .innerJoin(tsigKeys, eq(tsigKeys.id, tsigUpdateZones.keyId))
      .where(and(eq(tsigUpdateZones.zone, zone), live(now))),
  ]);
  if (rows.length === 0) return null;
  return {
    secondaries: rows[0]!.secondaries,
    transferKeys: rows.flatMap((row) => (row.keyName === null ? [] : [`${row.keyName}.`])),
    updateKeys: updaters.map((row) => `${row.keyName}.`),
  };
}

const hostPort = (address: string, port: number) => (address.includes(":") ? `[${address}]:${port}` : `${address}:${port}`);

function values(access: NonNullable<Awaited<ReturnType<typeof zoneAccess>>>, kind: Kind): string[] {
  switch (kind) {
    // Secondaries without a key transfer by address; with one, only with it.
    case "ALLOW-AXFR-FROM":
      return access.secondaries.filter((s) => s.tsig_key === null).map((s) => (s.address.includes(":") ? `${s.address}/128` : `${s.address}/32`));
    case "TSIG-ALLOW-AXFR":
      return access.transferKeys;
    case "ALSO-NOTIFY":
      return access.secondaries.map((s) => hostPort(s.address, s.port));
    case "TSIG-ALLOW-DNSUPDATE":
      return access.updateKeys.length > 0 ? access.updateKeys : [NO_UPDATE_KEY];
    // The key is the authentication: from anywhere, once the zone has an update key.
    case "ALLOW-DNSUPDATE-FROM":
      return access.updateKeys.length > 0 ? ["0.0.0.0/0", "::/0"] : [];
    // NOTIFY right after an update, not at the next check for changed serials.
    case "NOTIFY-DNSUPDATE":
      return access.updateKeys.length > 0 ? ["1"] : [];
  }
}

/** getDomainMetadata for one of ZONE_ACCESS_KINDS (`[]` for no such zone). */
export async function zoneAccessMetadata(db: Database, zone: string, kind: Kind): Promise<string[]> {
  const access = await zoneAccess(db, zone);
  return access ? values(access, kind) : [];
}

/**
 * The transfer kinds of a zone, when not empty, for getAllDomainMetadata: PowerDNS fills
 * its metadata cache from it, and reads TSIG-ALLOW-AXFR through that cache. The update
 * kinds it reads uncached, with getDomainMetadata, for every update.
 */
export async function allZoneAccessMetadata(db: Database, zone: string): Promise<Record<string, string[]>> {
  const access = await zoneAccess(db, zone);
  if (!access) return {};
  const kinds = ["ALLOW-AXFR-FROM", "TSIG-ALLOW-AXFR", "ALSO-NOTIFY"] as const;
  return Object.fromEntries(kinds.map((kind) => [kind, values(access, kind)] as const).filter(([, list]) => list.length > 0));
}

/** getTSIGKey: a live key's algorithm and secret, by its name (absolute, any case), or null. */
export async function tsigKeyByName(c: Context<AppEnv>, name: string): Promise<{ algorithm: string; content: string } | null> {
  const now = new Date().toISOString();
  const [row] = await c
    .get("db")
    .select({ id: tsigKeys.id, algorithm: tsigKeys.algorithm, secretSealed: tsigKeys.secretSealed })
    .from(tsigKeys)
    .where(and(eq(tsigKeys.name, name), live(now)));
  if (!row) return null;
  const content = await openSecret(dnssecSecret(c), row.id, row.secretSealed);
  return content === null ? null : { algorithm: row.algorithm, content };
}
