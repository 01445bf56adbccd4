// DNSSEC through the connector (contract §14): PowerDNS signs answers online with the
// zone's key, read with getDomainKeys (`remote-dnssec=yes`), and learns from metadata how
// to deny existence and which CDS/CDNSKEY to publish. PowerDNS makes the apex DNSKEY from
// the key itself, and CDS/CDNSKEY from PUBLISH-CDS/PUBLISH-CDNSKEY, so lookup and list do
// not serve them as records (served twice, they would be duplicates in the RRset).
import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import type { Database } from "../../db/client";
import { zoneKeys, zones } from "../../db/schema";
import { iscPrivateKeyText } from "../../dns/dnssec/ecdsa";
import { unseal } from "../../dns/dnssec/sealed";
import type { AppEnv } from "../../env";
import { ApiError } from "../../http/problem";
import { dnssecSecret, NSEC3PARAM } from "../dnssec/state";

/** The active keys of the zone named `zone` (stored form, no trailing dot). */
export function zoneKeysByName(db: Database, zone: string) {
  return db
    .select({ id: zoneKeys.id, keyTag: zoneKeys.keyTag, flags: zoneKeys.flags, privateKeySealed: zoneKeys.privateKeySealed })
    .from(zoneKeys)
    .innerJoin(zones, eq(zones.id, zoneKeys.zoneId))
    .where(and(eq(zones.name, zone), eq(zoneKeys.active, true)))
    .orderBy(zoneKeys.id);
}

/**
 * The metadata of a signed zone: NSEC3 narrow mode (src/resources/dnssec/state.ts says
 * why), and CDS with the SHA-256 digest and CDNSKEY at the apex (RFC 7344 §4).
 */
export const SIGNED_ZONE_METADATA: Record<string, string[]> = {
  NSEC3PARAM: [NSEC3PARAM],
  NSEC3NARROW: ["1"],
  "PUBLISH-CDS": ["2"],
  "PUBLISH-CDNSKEY": ["1"],
};

/** getDomainKeys: each key as PowerDNS's remote backend reads it, its private key in BIND's v1.2 format. */
export async function domainKeys(c: Context<AppEnv>, zone: string) {
  const rows = await zoneKeysByName(c.get("db"), zone);
  if (rows.length === 0) return [];
  const secret = dnssecSecret(c);
  return Promise.all(
    rows.map(async (row) => {
      const privateKey = await unseal(secret, row.id, row.privateKeySealed);
      // A key sealed under another secret (DNSSEC_KEY_SECRET changed): PowerDNS cannot sign.
      if (!privateKey) throw new ApiError("not_configured", `The DNSSEC key of zone ${zone} does not open with this Worker's DNSSEC_KEY_SECRET.`);
      // PowerDNS's key id is a number unique within the zone: the key tag, for the one key.
      return { id: row.keyTag, flags: row.flags, active: true, published: true, content: iscPrivateKeyText(privateKey) };
    }),
  );
}
