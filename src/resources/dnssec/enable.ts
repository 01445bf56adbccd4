// POST /zones/{zone}/dnssec: the keys the zone's policy asks for (by default one combined
// signing key, ECDSA P-256, RFC 6605), their private halves sealed; in one batch the keys,
// the zone's serial and version (its apex gained DNSKEY, CDS and CDNSKEY), the zone's event
// and each key's, and, one-click with the registry, the same-named domain's DS with its
// events (docs/dnssec.md).
import type * as routes from "./routes";
import type { RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import { sql } from "drizzle-orm";
import { guard } from "../../db/guards";
import { zoneKeys } from "../../db/schema";
import { touchZone } from "../../db/zones";
import { eventInsert } from "../../db/events";
import type { KeyRole, SigningKey } from "../../dns/dnssec/rollover";
import { commitWrite, retryLostRaces, type RowWrite } from "../../db/write";
import type { AppEnv } from "../../env";
import { writeContext } from "../../http/mutate";
import { ApiError } from "../../http/problem";
import { lockedAgainstUpdate } from "../../registry/statuses";
import { dsData, linkedDomain, setDomainDs } from "./registry-link";
import { replaceDsAtRegistry } from "../domains/registry";
import { activeKeys, presentLifecycle, presentState } from "./state";
import { dnssecSecret } from "../../http/sealing-secret";
import { parentTiming, policyOf, zoneTiming } from "../../db/zone-keys";
import { nextSteps } from "../../dns/dnssec/rollover";
import { atConnectedRegistry } from "./registry-parent";
import { registryLink } from "./rollover";
import { requireSigningRoom, signingRoomGuard } from "./room";
import { createdRows, keyIdAt, keysWithDnskey, requireKeysOf } from "./steps";
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
  // The keys follow the zone's policy (docs/dnssec-rollovers.md): by default one combined
  // key, ECDSA P-256; or a KSK and a ZSK, of the policy's algorithm.
  const policy = policyOf(zone);
  requireKeysOf(policy.algorithm, "policy.algorithm");
  const ctx = writeContext(c);
  const newKeyId = keyIdAt(ctx.now);
  const roles: KeyRole[] = policy.single_key ? ["csk"] : ["ksk", "zsk"];
  const keys: SigningKey[] = roles.map((role) => ({
    id: newKeyId(role, policy.algorithm),
    role,
    algorithm: policy.algorithm,
    // Published and signing at once (RFC 7583 §3.3.5); the DS below.
    state: "active",
    pre_published_at: null,
    published_at: ctx.at,
    ready_at: ctx.at,
    active_at: ctx.at,
    retired_at: null,
    removed_at: null,
    ds: "absent",
    ds_since: null,
    next_step_at: null,
  }));
  const domain = await linkedDomain(db, zone);
  // Under the registry lock's serverUpdateProhibited the domain's DS stays as it is: the zone is signed, the DS waits for the operator.
  const setsDs = domain?.dnssec === true && !lockedAgainstUpdate(domain.row.serverStatuses);
  // The stored DS is the parent's, set in this batch: seen there as the key signs. Any
  // other parent is asked for it by the zone's CDS and CDNSKEY: wanted, not yet seen (a roll
  // then keeps it beside the new DS until the swap: docs/dnssec-rollovers.md "The parent").
  for (const key of keys) if (key.role !== "zsk") Object.assign(key, { ds: setsDs ? "seen" : "submitted", ds_since: ctx.at });
  const keyRows = await createdRows(secret, zone.id, keys, ctx.at);
  requireSigningRoom(zone, keysWithDnskey(keyRows), "signing");
  const entry = keyRows.findIndex((row) => row.role !== "zsk");
  // RFC 4509 §3: SHA-256 is the digest every validator supports; one DS is what the parent needs.
  const ds = [dsData((await presentState(zone.name, keyRows)).keys[entry]!.ds[0]!)];
  // Under a connected repository the registry takes the DS first (docs/registries.md). One it
  // holds for review (1001) is not the parent's yet: the key's DS is submitted, the domain's
  // stored DS stays as it was until the registry's message settles it, and the DNSSEC run
  // sees it then (docs/dnssec-rollovers.md "The parent").
  const pending = domain && setsDs ? (await replaceDsAtRegistry(c, domain.row, ds))?.outcome === "pending" : false;
  if (pending) {
    keys[entry]!.ds = "submitted";
    keyRows[entry]!.dsState = "submitted";
  }
  const before = await presentState(zone.name, []);
  const after = await presentState(zone.name, keyRows);
  // The zone's next look (the run, docs/dnssec-rollovers.md): when a parent it waits for
  // should have followed, or a roll its policy asks for is due; null when nothing is.
  const parent = parentTiming(setsDs, setsDs && domain !== null && atConnectedRegistry(registryLink(c), domain.row.repositoryId));
  const next = nextSteps({ policy, keys, rollover: null, timing: zoneTiming(zone, null), parent, now: ctx.now });
  const rows: RowWrite[] = [
    ...keyRows.map((row) => ({ statement: db.insert(zoneKeys).values(row) })),
    {
      // The serial rises in SQL (RFC 1982), so a concurrent record write loses no increment.
      statement: touchZone(db, zone.id, ctx.now, { fields: { dnssecNextStepAt: next.next_step_at } }),
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
  // Each key's event (dnssec.key.active), and the DS set the parent shows when it is set here.
  const alongside = keyRows.map((row, i) =>
    eventInsert(db, {
      at: ctx.at,
      actor: ctx.actor,
      account: zone.accountId,
      type: "dnssec.key",
      id: row.id,
      operation: "active",
      before: null,
      after: { zone: zone.name, ...after.keys[i] },
    }),
  );
  const dsEvent = (operation: "submitted" | "seen", parentKind: "managed" | "external") =>
    eventInsert(db, {
      at: ctx.at,
      actor: ctx.actor,
      account: zone.accountId,
      type: "dnssec.ds",
      id: zone.id,
      operation,
      before: null,
      after: { zone: zone.name, parent: parentKind, keys: [keyRows[entry]!.id], ds: [after.keys[entry]!.ds[0]!] },
    });
  if (!setsDs) alongside.push(dsEvent("submitted", "external"));
  else if (pending) alongside.push(dsEvent("submitted", "managed"));
  else if (domain) {
    rows.push(setDomainDs(ctx, domain.row, ds));
    alongside.push(dsEvent("seen", "managed"));
  }
  // No key yet at commit (a roll's zone has several live keys, so no unique index says it): another request turned signing on first.
  const first = [guard(db, "the zone has no key", sql`not exists (select 1 from zone_keys k where k.zone_id = ${zone.id} and k.active = 1)`)];
  // Still room for the apex records signing adds at commit (a record written meanwhile: read again).
  const guards = [signingRoomGuard(db, zone.id)];
  await commitWrite(ctx, { first, rows, alongside, guards });
  return { ...after, ...presentLifecycle({ ...zone, dnssecNextStepAt: next.next_step_at }, next.awaiting_parent) };
}

function alreadyOn(name: string): ApiError {
  return new ApiError("already_exists", `DNSSEC is already on for zone ${name}: read its keys with GET /v1/zones/${name}/dnssec.`);
}

export const enableDnssecHandler: RouteHandler<typeof routes.enableDnssec, AppEnv> = async (c) => c.json(await enableDnssec(c, c.req.valid("param").zone), 201);
