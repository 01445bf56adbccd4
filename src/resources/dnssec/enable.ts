// POST /zones/{zone}/dnssec: a new combined signing key (ECDSA P-256, RFC 6605), its
// private half sealed; in one batch the key, the zone's serial and version (its apex
// gained DNSKEY, CDS and CDNSKEY), the zone's event and, one-click with the registry, the
// same-named domain's DS with its event (docs/dnssec.md).
import type * as routes from "./routes";
import type { RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import { sql } from "drizzle-orm";
import { guard } from "../../db/guards";
import { newId } from "../../db/ids";
import { zoneKeys } from "../../db/schema";
import { touchZone } from "../../db/zones";
import { generateEcdsaP256 } from "../../dns/dnssec/ecdsa";
import { combinedSigningKey, dnskeyTag } from "../../dns/dnssec/keys";
import { seal } from "../../crypto/sealed";
import { base64Text } from "../../crypto/base64";
import { commitWrite, retryLostRaces, type RowWrite } from "../../db/write";
import type { AppEnv } from "../../env";
import { writeContext } from "../../http/mutate";
import { ApiError } from "../../http/problem";
import { lockedAgainstUpdate } from "../../registry/statuses";
import { dsData, linkedDomain, setDomainDs } from "./registry-link";
import { replaceDsAtRegistry } from "../domains/registry";
import { MAX_MASTER_FILE_RECORDS, MAX_ZONE_RECORD_BYTES, SIGNED_ZONE_RESERVE } from "../zones/master-file";
import { activeKeys, presentLifecycle, presentState } from "./state";
import { dnssecSecret } from "../../http/sealing-secret";
import type { ZoneKeyRow } from "../../db/zone-keys";
import { zoneOf } from "./zone";

export async function enableDnssec(c: Context<AppEnv>, segment: string) {
  const secret = dnssecSecret(c);
  // The same-named domain written meanwhile fails the batch (setDomainDs): read and try again.
  return retryLostRaces(() => enableOnce(c, secret, segment));
}

async function enableOnce(c: Context<AppEnv>, secret: string, segment: string) {
  const zone = await zoneOf(c, segment);
  const db = c.get("db");
  if ((await activeKeys(db, zone.id)).length > 0) throw alreadyOn(zone.name);
  requireRoomToSign(zone);
  const ctx = writeContext(c);
  const material = await generateEcdsaP256();
  const key = combinedSigningKey(material.publicKey);
  // Key ids share the ULID of the other ids, under their own prefix.
  const id = `key_${newId("zone", ctx.now).slice(4)}`;
  const row: ZoneKeyRow = {
    id,
    zoneId: zone.id,
    keyTag: dnskeyTag(key),
    algorithm: key.algorithm,
    flags: key.flags,
    publicKey: base64Text(material.publicKey),
    privateKeySealed: await seal(secret, id, material.privateKey),
    active: true,
    createdAt: ctx.at,
    // One combined key, published and signing at once (RFC 7583 §3.3.5); its DS below.
    role: "csk",
    state: "active",
    prePublishedAt: null,
    publishedAt: ctx.at,
    readyAt: ctx.at,
    activeAt: ctx.at,
    retiredAt: null,
    removedAt: null,
    dsState: "absent",
    dsSince: null,
    nextStepAt: null,
  };
  material.privateKey.fill(0);
  const domain = await linkedDomain(db, zone);
  // Under the registry lock's serverUpdateProhibited the domain's DS stays as it is: the zone is signed, the DS waits for the operator.
  const setsDs = domain?.dnssec === true && !lockedAgainstUpdate(domain.row.serverStatuses);
  if (setsDs) {
    // The stored DS is the parent's, set in this batch: seen there as the key signs.
    row.dsState = "seen";
    row.dsSince = ctx.at;
  }
  const before = await presentState(zone.name, []);
  const after = await presentState(zone.name, [row]);
  const rows: RowWrite[] = [
    { statement: db.insert(zoneKeys).values(row) },
    {
      // The serial rises in SQL (RFC 1982), so a concurrent record write loses no increment.
      statement: touchZone(db, zone.id, ctx.now),
      // The zone's event records what changed: its DNSSEC state (public parts only).
      event: {
        account: zone.accountId,
        type: "zone",
        id: zone.id,
        operation: "update",
        before: { name: zone.name, dnssec: before },
        after: { name: zone.name, dnssec: after },
      },
    },
  ];
  if (domain && setsDs) {
    // RFC 4509 §3: SHA-256 is the digest every validator supports; one DS is what the parent needs.
    const ds = [dsData(after.keys[0]!.ds[0]!)];
    // Under a connected repository the registry takes the DS first (docs/registries.md).
    await replaceDsAtRegistry(c, domain.row, ds);
    rows.push(setDomainDs(ctx, domain.row, ds));
  }
  // zone_keys_active_unique: another request turned signing on first.
  // Still room for the apex records signing adds at commit (a record written meanwhile: read again).
  const guards = [guard(db, "the zone has room for the records signing adds", roomToSign(zone.id))];
  await commitWrite(ctx, { rows, guards }, (kind) => (kind === "unique" ? alreadyOn(zone.name) : undefined));
  return { ...after, ...presentLifecycle(zone) };
}

/**
 * Signing adds DNSKEY, CDS and CDNSKEY to the zone's export, which an import takes back as
 * records: a zone is signed only with room for them within the limits a zone keeps
 * (SIGNED_ZONE_RESERVE, docs/safety.md "Quotas"), so its export still imports back.
 */
function requireRoomToSign(zone: { name: string; recordCount: number; recordBytes: number }): void {
  const problems: string[] = [];
  if (zone.recordCount + SIGNED_ZONE_RESERVE.records > MAX_MASTER_FILE_RECORDS) {
    problems.push(`it holds ${zone.recordCount} records, and a signed zone at most ${MAX_MASTER_FILE_RECORDS - SIGNED_ZONE_RESERVE.records}`);
  }
  if (zone.recordBytes + SIGNED_ZONE_RESERVE.bytes > MAX_ZONE_RECORD_BYTES) {
    problems.push(
      `its records take ${zone.recordBytes} bytes as its master file writes them, and a signed zone's at most ${MAX_ZONE_RECORD_BYTES - SIGNED_ZONE_RESERVE.bytes} (limit zone_record_bytes)`,
    );
  }
  if (problems.length === 0) return;
  const message = `${zone.name} has no room for the DNSKEY, CDS and CDNSKEY signing adds to its export: ${problems.join("; ")}; delete records first`;
  throw new ApiError("policy_violation", `${message}.`, { errors: [{ field: "zone", message }] });
}

function roomToSign(zoneId: string) {
  return sql`(select record_count + ${SIGNED_ZONE_RESERVE.records} <= ${MAX_MASTER_FILE_RECORDS} and record_bytes + ${SIGNED_ZONE_RESERVE.bytes} <= ${MAX_ZONE_RECORD_BYTES} from zones where id = ${zoneId})`;
}

function alreadyOn(name: string): ApiError {
  return new ApiError("already_exists", `DNSSEC is already on for zone ${name}: read its keys with GET /v1/zones/${name}/dnssec.`);
}

export const enableDnssecHandler: RouteHandler<typeof routes.enableDnssec, AppEnv> = async (c) => c.json(await enableDnssec(c, c.req.valid("param").zone), 201);
