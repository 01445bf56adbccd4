// DNSSEC through the connector (docs/dnssec.md): PowerDNS signs answers online with the
// zone's keys, read with getDomainKeys (`remote-dnssec=yes`), and denies existence with NSEC
// records whose neighbours getBeforeAndAfterNamesAbsolute gives. PowerDNS makes the apex
// DNSKEY RRset from the keys itself; the CDS and CDNSKEY are the engine's (the DS set the
// parent must show, or RFC 8078's delete while the zone leaves DNSSEC), served by lookup and
// list as records (`direct-dnskey=yes`), never PowerDNS's own from PUBLISH-CDS/-CDNSKEY
// (every published entry point, which differs during an algorithm roll). Stored DNSKEY, CDS
// and CDNSKEY records at a signed zone's apex (an imported export's) are not served: the
// keys decide.
import { and, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { Context } from "hono";
import type { Database } from "../db/client";
import { records, zoneKeys, zones } from "../db/schema";
import { apexKeysOf } from "../db/zone-keys";
import { cdsRecords } from "../dns/dnssec/parent-ds";
import { cdsOf, powerDnsFlags, type SigningProcess } from "../dns/dnssec/rollover";
import { iscPrivateKeyText, isGeneratedAlgorithm } from "../dns/dnssec/signing-keys";
import { unseal } from "../crypto/sealed";
import type { AppEnv } from "../env";
import { ApiError } from "../http/problem";
import { signingKeyOf } from "../db/zone-keys";
import { dnssecSecret } from "../http/sealing-secret";

/** The apex types whose records a signed zone takes from its keys, never from stored records. */
export const SIGNING_APEX_TYPES: ReadonlySet<string> = new Set(["DNSKEY", "CDS", "CDNSKEY"]);

/**
 * The CDS and CDNSKEY a signed zone's apex serves, from its signing (queries.ts'
 * SIGNING_JSON: the roll, the live keys with their states); null for an unsigned zone (no
 * live key), whose stored records are served as any others.
 */
export function servedCdsRecords(zoneName: string, signing: string | null): { type: "CDS" | "CDNSKEY"; content: string }[] | null {
  if (signing === null) return null;
  const parsed = JSON.parse(signing) as { rollover: SigningProcess | null; keys: unknown[] };
  const keys = apexKeysOf(JSON.stringify(parsed.keys ?? []));
  if (keys.length === 0) return null;
  return cdsRecords(zoneName, cdsOf(keys, parsed.rollover), keys);
}

/**
 * The metadata of a signed zone: none. No PUBLISH-CDS or PUBLISH-CDNSKEY (lookup and list
 * serve the engine's CDS and CDNSKEY, which PowerDNS reads with `direct-dnskey=yes`), no
 * NSEC3PARAM: without it PowerDNS denies existence with NSEC (RFC 4034 §4), whose
 * neighbours beforeAndAfter gives (docs/dnssec.md says why NSEC).
 */
export const SIGNED_ZONE_METADATA: Record<string, string[]> = {};

/** The active keys of the zone named `zone` (stored form, no trailing dot). */
export function zoneKeysByName(db: Database, zone: string) {
  return db
    .select(getTableColumns(zoneKeys))
    .from(zoneKeys)
    .innerJoin(zones, eq(zones.id, zoneKeys.zoneId))
    .where(and(eq(zones.name, zone), eq(zoneKeys.active, true)))
    .orderBy(zoneKeys.id);
}

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
      if (!isGeneratedAlgorithm(row.algorithm))
        throw new ApiError("not_configured", `The DNSSEC key of zone ${zone} has algorithm ${row.algorithm}, which this service cannot hand PowerDNS.`);
      // Which keys are in the DNSKEY RRset and which sign follow the key's state in its roll
      // (docs/dnssec-rollovers.md): PowerDNS signs as signingView says (powerDnsFlags).
      const { flags, published, active } = powerDnsFlags(signingKeyOf(row));
      // PowerDNS's key id is a number unique within the zone: the key tag.
      return { id: row.keyTag, flags, active, published, content: iscPrivateKeyText(row.algorithm, privateKey) };
    }),
  );
}

/** An owner key (records.owner_order: labels reversed, space-joined) as a relative name PowerDNS reads ("." for the apex). */
function relativeName(key: string): string {
  return key === "" ? "." : `${key.split(" ").reverse().join(".")}.`;
}

/** The proper ancestors of an owner key below the apex, as stored owner names (`b.a` for key `a b c`). */
function ancestorOwners(key: string): string[] {
  const labels = key === "" ? [] : key.split(" ");
  return labels.slice(0, -1).map((_, i) =>
    labels
      .slice(0, i + 1)
      .reverse()
      .join("."),
  );
}

/**
 * The owner_order key (src/dns/name-order.ts) of a name asked, relative to the zone, its
 * labels as parseQueryName gives them. Stored names hold only LDH, `_` and `*`, so a label
 * with any other octet (written `\DDD`) is no stored name, but the seeks must still land
 * where canonical order (RFC 4034 §6.1) puts it, or the NSEC would not cover it: each such
 * octet stands as itself, or as `!` when at or below the space that separates labels in
 * the key. Every stored octet is above both, so each comparison with a stored key keeps
 * the outcome the octets give.
 */
function questionOrder(labels: readonly string[]): string {
  const octets = (label: string) => label.replace(/\\([0-9]{3})/g, (_, digits: string) => (Number(digits) <= 0x20 ? "!" : String.fromCharCode(Number(digits))));
  return labels.map(octets).reverse().join(" ");
}

export interface NsecNeighbours {
  before: string;
  after: string;
}

/**
 * getBeforeAndAfterNamesAbsolute for NSEC (RFC 4034 §4.1.1, §6.1): among the zone's names
 * in canonical order, the last one at or before `relative` (the name asked, relative to
 * the zone, as PowerDNS sends it) and the first one after it, wrapping to the apex. The
 * chain holds the names with authoritative data and the delegation points, never the
 * names below a delegation (glue: RFC 4035 §2.3), as PowerDNS's own AXFR chain does.
 *
 * records.owner_order holds each owner's labels reversed, so text order is canonical
 * order and each neighbour is one seek of records_owner_order_idx; a neighbour below a
 * delegation (found by the NS records of its ancestors, one probe of the records index)
 * is replaced by the delegation point, or by the first name past the delegation's names
 * (keys from `cut ` to `cut!`). Null: no zone of that number.
 */
export async function beforeAndAfter(db: Database, domainId: number, labels: readonly string[]): Promise<NsecNeighbours | null> {
  const key = questionOrder(labels);
  const [row] = await db.all<{ zone_id: string; before: string | null; after: string | null }>(sql`
    SELECT z.id AS zone_id,
           (SELECT r.owner_order FROM records r WHERE r.zone_id = z.id AND r.owner_order <= ${key} ORDER BY r.owner_order DESC LIMIT 1) AS before,
           (SELECT r.owner_order FROM records r WHERE r.zone_id = z.id AND r.owner_order > ${key} ORDER BY r.owner_order LIMIT 1) AS after
      FROM zones z WHERE z.rowid = ${domainId}`);
  if (!row) return null;
  // The apex always holds records (its NS), so `before` is at worst the apex.
  let before = row.before ?? "";
  let after = row.after;
  const ancestors = [...new Set([...ancestorOwners(before), ...(after === null ? [] : ancestorOwners(after))])];
  if (ancestors.length > 0) {
    const cuts = await db
      .selectDistinct({ key: records.ownerOrder })
      .from(records)
      .where(and(eq(records.zoneId, row.zone_id), eq(records.type, "NS"), inArray(records.name, ancestors)));
    // The highest delegation above a name is the shortest key that prefixes it.
    const cutAbove = (name: string) =>
      cuts
        .map((c) => c.key)
        .filter((c) => name.startsWith(`${c} `))
        .sort((a, b) => a.length - b.length)[0];
    const beforeCut = cutAbove(before);
    if (beforeCut !== undefined) before = beforeCut;
    const afterCut = after === null ? undefined : cutAbove(after);
    if (afterCut !== undefined) {
      const [next] = await db
        .select({ key: records.ownerOrder })
        .from(records)
        .where(and(eq(records.zoneId, row.zone_id), sql`${records.ownerOrder} > ${`${afterCut}!`}`))
        .orderBy(records.ownerOrder)
        .limit(1);
      after = next?.key ?? null;
    }
  }
  return { before: relativeName(before), after: relativeName(after ?? "") };
}
