// DELETE /v1/zones/{zone}: the zone and every record go together (ON DELETE CASCADE), in
// one batch; one event stands for all, and keeps the records as a master file. A domain
// of the same name stays. While that domain publishes a DS of the zone's keys the delete
// answers 409 `status_prohibits`, as turning DNSSEC off does (src/resources/dnssec/disable.ts):
// the DS would stay in the parent for keys that no longer exist (RFC 6781 §4.1.4: the DS
// goes first). An operator may force it (`?force=true`); a customer may not (403).
import type { RouteHandler } from "@hono/zod-openapi";
import { and, eq, sql } from "drizzle-orm";
import { jsonBytes, MAX_EVENT_PAYLOAD_BYTES } from "../../db/events";
import { domains, zones, zoneKeys } from "../../db/schema";
import type { Database } from "../../db/client";
import type { ZoneWithLinks } from "../../db/zones";
import type { AppEnv } from "../../env";
import { deleteResource } from "../../http/mutate";
import { guard } from "../../db/guards";
import type { ResourceRef } from "../../db/ref";
import { isOperator } from "../../http/caller";
import { resourceRef } from "../../http/lookup";
import { ApiError } from "../../http/problem";
import { DNSKEY_PROTOCOL } from "../../dns/dnssec/keys";
import { base64Octets } from "../../crypto/base64";
import { dsOfZoneKeys } from "../../registry/zone-ds";
import { zoneCollection } from "./collection";
import { MAX_MASTER_FILE_BYTES, MAX_MASTER_FILE_RECORDS } from "./master-file";
import { zoneMasterFilePieces } from "./master-file-export";
import { utf8Bytes } from "../../db/json-chunks";
import { presentZone } from "./present";
import type * as routes from "./routes";

/**
 * What a zone's delete event keeps in `before`: the zone and, in `master_file`, every
 * record, so that `POST /zones` (text/dns) brings it back. A file that import could not
 * take back (over its limits) or too large for an event row (D1's 2 MB row limit) is left
 * out (`master_file: null`).
 */
async function zoneBeforeDelete(db: Database, zone: ZoneWithLinks) {
  // The file is kept when POST /zones could import it back (its limits) and it fits the
  // event row. The zone row keeps the size of its records' lines (zones.record_bytes,
  // drizzle/0028), so a zone whose file cannot be kept is never read into the Worker.
  if (zone.recordCount > MAX_MASTER_FILE_RECORDS) return { ...presentZone(zone), master_file: null };
  if (zone.recordBytes > Math.min(MAX_EVENT_PAYLOAD_BYTES, MAX_MASTER_FILE_BYTES)) return { ...presentZone(zone), master_file: null };
  const pieces = await zoneMasterFilePieces(db, zone);
  let masterFile: string | null = "";
  let bytes = 0;
  for (const piece of pieces) {
    bytes += utf8Bytes(piece);
    if (bytes > MAX_EVENT_PAYLOAD_BYTES) {
      masterFile = null;
      break;
    }
    masterFile += piece;
  }
  const before = { ...presentZone(zone), master_file: masterFile };
  if (jsonBytes(before) > MAX_EVENT_PAYLOAD_BYTES) before.master_file = null;
  return before;
}

/** Every DNSSEC key of the zone `ref` names (as the caller sees zones), read with the zone. */
function keysOfZone(db: Database, ref: ResourceRef) {
  const zone = ref.kind === "id" ? sql`z.id = ${ref.id}` : sql`z.name = ${ref.name}`;
  return db.select().from(zoneKeys).where(sql`${zoneKeys.zoneId} = (select z.id from "zones" z where ${zone})`);
}

/**
 * The domain named as the zone `ref` names, whatever its account (its DS is what resolvers
 * follow), read with the zone: what the delete needs of it, its DS and its version.
 */
function domainNamedAsZone(allAccounts: Database, ref: ResourceRef) {
  const name = ref.kind === "id" ? sql`(select z.name from main.zones z where z.id = ${ref.id})` : sql`${ref.name}`;
  return allAccounts
    .select({ id: domains.id, name: domains.name, version: domains.version, ds: domains.ds })
    .from(domains)
    .where(sql`"domains"."name" = ${name}`);
}

/** A customer's `force=true`: only the operator may delete a zone past the DS of its keys. */
function forceRefused(zone: string): ApiError {
  return new ApiError(
    "forbidden",
    `Only the registry's operator may force the deletion of a zone (force=true). Remove the DS of ${zone}'s keys from its domain first, then delete the zone without force.`,
  );
}

export const deleteZone: RouteHandler<typeof routes.deleteZone, AppEnv> = (c) => {
  const segment = c.req.valid("param").zone;
  const force = c.req.valid("query").force === "true";
  // Refused whatever the zone's state: the parameter is the operator's.
  if (force && !isOperator(c)) throw forceRefused(segment);
  const ref = resourceRef(segment, "zone");
  return deleteResource(c, zoneCollection, segment, {
    reads: (db) => [keysOfZone(db, ref), domainNamedAsZone(c.get("dbAllAccounts") ?? db, ref)] as const,
    async remove({ db }, current, [keys, [domain]]) {
      // The domain's DS of the zone's keys (src/registry/zone-ds.ts).
      const dnsKeys = keys.map((key) => ({ flags: key.flags, protocol: DNSKEY_PROTOCOL, algorithm: key.algorithm, publicKey: base64Octets(key.publicKey) }));
      const published = domain && domain.name === current.name ? dsOfZoneKeys(current.name, domain.ds, dnsKeys) : undefined;
      if (published && !force) {
        throw new ApiError(
          "status_prohibits",
          `Domain ${domain!.name} publishes a DS of this zone's key (key tag ${published.key_tag}); deleting the zone would leave that DS in the parent for a key that no longer exists, and validating resolvers would treat the zone as bogus. Remove the DS from the domain first and wait for its TTL (DELETE …/dnssec?force=true turns signing off and removes it from a domain of the zone's account), then delete the zone.`,
        );
      }
      // A DS the domain publishes after this read fails the batch, which reads again and
      // refuses: the domain as read (its version: any DS change steps it), or still none.
      // New keys step the zone's version, which the delete below is bound to.
      const dsAsRead =
        keys.length === 0 || force
          ? []
          : [
              guard(
                db,
                "the zone's domain publishes no DS of its keys",
                domain && domain.name === current.name
                  ? sql`exists (select 1 from main.domains d where d.id = ${domain.id} and d.version = ${domain.version})`
                  : sql`not exists (select 1 from main.domains d where d.name = ${current.name})`,
              ),
            ];
      // Every record write raises the zone's version, so the version guard below also
      // makes sure the records read here are the ones deleted.
      const before = await zoneBeforeDelete(db, current);
      return { beforeWrite: dsAsRead, write: db.delete(zones).where(and(eq(zones.id, current.id), eq(zones.version, current.version))), before };
    },
  });
};
