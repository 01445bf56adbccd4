// DELETE /zones/{zone}/dnssec: signing stops. A DS of the key still published by a domain
// managed here would make the zone bogus for validating resolvers once the signatures are
// gone (RFC 6781 §4.1.4: the DS goes first, and its TTL must run out), so that answers 409
// `status_prohibits` unless `force=true`; forced, the same-named domain of the zone's
// account loses that DS in the same batch (docs/dnssec.md). A zone whose parent is not
// managed here and may show its DS leaves DNSSEC by RFC 8078 instead: the delete is
// published as its CDS and CDNSKEY (202), and the keys go once the parent shows no DS and
// no cache can hold one (the DNSSEC run, docs/dnssec-rollovers.md "Leaving DNSSEC").
import type * as routes from "./routes";
import type { RouteHandler } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { narrowReaches } from "../../access/token-rights";
import { zoneKeys } from "../../db/schema";
import { touchZone } from "../../db/zones";
import { commitWrite, retryLostRaces, type RowWrite } from "../../db/write";
import { startUnsigning } from "../../dns/dnssec/rollover";
import type { AppEnv } from "../../env";
import { writeContext } from "../../http/mutate";
import { ApiError } from "../../http/problem";
import { lockedAgainstUpdate } from "../../registry/statuses";
import { findDomain } from "../domains/queries";
import { dsData, publishesDsOf, setDomainDs } from "./registry-link";
import { replaceDsAtRegistry } from "../domains/registry";
import { dnssecAnswer, registryLink } from "./rollover";
import { activeKeys, presentState } from "./state";
import { readZoneSigning, stepWrites } from "./steps";
import { zoneOf } from "./zone";

/** What DELETE did: signing stopped (204), or the zone leaves DNSSEC through its parent (202, with the state). */
export type DisableOutcome = { status: 204 } | { status: 202; state: Awaited<ReturnType<typeof dnssecAnswer>> };

export function disableDnssec(c: Context<AppEnv>, segment: string, force: boolean): Promise<DisableOutcome> {
  // The domain written meanwhile fails the batch (setDomainDs): read and decide again.
  return retryLostRaces(() => disableOnce(c, segment, force));
}

async function disableOnce(c: Context<AppEnv>, segment: string, force: boolean): Promise<DisableOutcome> {
  const zone = await zoneOf(c, segment);
  const ctx = writeContext(c);
  const db = ctx.db;
  const keys = await activeKeys(db, zone.id);
  if (keys.length === 0) return { status: 204 }; // already off: DELETE is idempotent (RFC 9110 §9.2.2)
  // Leaving already (the delete published): asked again, the answer is where it stands.
  if (!force && zone.dnssecRollover?.kind === "unsign") return { status: 202, state: await dnssecAnswer(db, zone, registryLink(c), ctx.now) };
  const before = await presentState(zone.name, keys);
  const keyDs = before.keys.flatMap((k) => k.ds.map(dsData));
  // A domain of this name managed here, whatever its account: its DS is what resolvers follow.
  const [domain] = await findDomain(ctx.allAccounts, { kind: "name", name: zone.name });
  const publishing = domain && publishesDsOf(domain, keyDs) ? domain : null;
  if (publishing && !force) {
    throw new ApiError(
      "status_prohibits",
      `Domain ${publishing.name} publishes a DS of this zone's key (key tag ${keyDs[0]!.key_tag}); removing the signatures now would make the zone fail validation. Remove the DS from the domain first and wait for its TTL, or send DELETE with ?force=true to remove both at once.`,
    );
  }
  if (!force) {
    // A parent this service does not manage may show the DS (the key's DS is wanted, or was
    // seen there): RFC 8078 §4's delete goes up first, and the keys go only once the parent
    // shows no DS (asked, or an operator's ds-seen) and no cache can hold one.
    const link = registryLink(c);
    const signing = await readZoneSigning(ctx, zone, link);
    if (signing.domain === null && signing.signing.keys.some((k) => k.ds !== "absent")) {
      const started = startUnsigning(signing.signing);
      if (started.ok) {
        await commitWrite(ctx, stepWrites(ctx, signing, started.result, []));
        return { status: 202, state: await dnssecAnswer(db, zone, link, ctx.now) };
      }
    }
  }
  const rows: RowWrite[] = [
    // The keys read are still there: a concurrent DELETE that took them first wins, and this one reads again.
    { statement: db.delete(zoneKeys).where(eq(zoneKeys.zoneId, zone.id)) },
    {
      // Nothing left to roll or to look at: the zone's process and next step go with the keys.
      statement: touchZone(db, zone.id, ctx.now, { fields: { dnssecRollover: null, dnssecNextStepAt: null } }),
      event: {
        account: zone.accountId,
        type: "zone",
        id: zone.id,
        operation: "update",
        before: { name: zone.name, dnssec: before },
        after: { name: zone.name, dnssec: await presentState(zone.name, []) },
      },
    },
  ];
  if (publishing && publishing.accountId === zone.accountId) {
    // A token restricted to the zone does not manage the domain: its DS is not this token's to change.
    if (!narrowReaches(c.get("principal").rights, "domain", publishing.name)) {
      throw new ApiError(
        "forbidden",
        `Domain ${publishing.name} publishes a DS of this zone's key, and this token does not manage that domain; remove the DS with a token that does, then turn signing off.`,
      );
    }
    if (lockedAgainstUpdate(publishing.serverStatuses)) {
      throw new ApiError(
        "status_prohibits",
        `Domain ${publishing.name} publishes a DS of this zone's key and has serverUpdateProhibited: its DS cannot be removed until the registry's operator clears the lock, so signing stays on.`,
      );
    }
    const remaining = publishing.ds.filter((ds) => !publishesDsOf({ ...publishing, ds: [ds] }, keyDs));
    // Under a connected repository the registry drops the DS first (docs/registries.md); one
    // it holds for review (1001) is the registry's until its message settles it.
    const sent = await replaceDsAtRegistry(c, publishing, remaining);
    if (sent?.outcome !== "pending") rows.push(setDomainDs(ctx, publishing, remaining));
  }
  await commitWrite(ctx, { rows });
  return { status: 204 };
}

export const disableDnssecHandler: RouteHandler<typeof routes.disableDnssec, AppEnv> = async (c) => {
  const outcome = await disableDnssec(c, c.req.valid("param").zone, c.req.valid("query").force === "true");
  return outcome.status === 202 ? c.json(outcome.state, 202) : c.body(null, 204);
};
