// PATCH /zones/{zone}/dnssec {"policy": …}: the zone's signing policy (docs/dnssec-rollovers.md
// "The policy"). Checked against the zone's own timings (a lifetime shorter than the roll it
// starts is refused), stored with the zone's event; it takes effect by rolling, from the
// next run (the zone's next step is due at once when it is signed).
import type * as routes from "./routes";
import type { RouteHandler } from "@hono/zod-openapi";
import { max, eq } from "drizzle-orm";
import type { Context } from "hono";
import { readTogether, commitWrite, retryLostRaces, versionStep } from "../../db/write";
import { records, zones } from "../../db/schema";
import { DEFAULT_SIGNING_POLICY, type SigningPolicy, type SigningPolicyInput, signingPolicyErrors } from "../../dns/dnssec/signing-policy";
import type { AppEnv } from "../../env";
import { notFound, resourceRef } from "../../http/lookup";
import { writeContext } from "../../http/mutate";
import { validationError } from "../../http/problem";
import { parentTiming, policyOf, zoneTiming } from "../../db/zone-keys";
import { linkedDomain } from "./registry-link";
import { registryLink } from "./rollover";
import { listedKeys, presentDnssec } from "./state";
import { findZoneWithParent } from "./zone";

/** A policy as a merge patch writes it: the fields given replace the zone's, `null` is the default policy. */
export type PolicyPatch = Partial<SigningPolicyInput> | null;

export async function patchDnssec(c: Context<AppEnv>, segment: string, patch: { policy?: PolicyPatch }) {
  return retryLostRaces(() => patchOnce(c, segment, patch));
}

async function patchOnce(c: Context<AppEnv>, segment: string, patch: { policy?: PolicyPatch }) {
  const db = c.get("db");
  const ref = resourceRef(segment, "zone");
  const [[zone], keys] = await readTogether(db, [findZoneWithParent(db, ref), listedKeys(db, ref)]);
  if (!zone) throw notFound("zone", segment);
  const current = policyOf(zone);
  const wanted: SigningPolicyInput = patch.policy === undefined ? current : patch.policy === null ? DEFAULT_SIGNING_POLICY : { ...current, ...patch.policy };
  const unchanged = (Object.keys(DEFAULT_SIGNING_POLICY) as (keyof SigningPolicy)[]).every((k) => wanted[k] === current[k]);
  if (unchanged) return presentDnssec(zone, keys, registryLink(c), new Date());

  const [[longest], domain] = await Promise.all([
    db
      .select({ ttl: max(records.ttl) })
      .from(records)
      .where(eq(records.zoneId, zone.id)),
    linkedDomain(db, zone),
  ]);
  const errors = signingPolicyErrors(wanted, zoneTiming(zone, longest?.ttl ?? null), parentTiming(domain?.dnssec === true));
  if (errors.length > 0) throw validationError(errors);

  const ctx = writeContext(c);
  const policy = wanted as SigningPolicy;
  // A signed zone rolls to the new policy from the next run on: its next step is due now.
  const nextStepAt = keys.some((k) => k.active) ? ctx.at : zone.dnssecNextStepAt;
  const { parentDomain, ...row } = zone;
  const next = { ...row, dnssecPolicy: policy, dnssecNextStepAt: nextStepAt, version: zone.version + 1, updatedAt: ctx.at };
  await commitWrite(ctx, {
    rows: [
      {
        statement: versionStep(db, zones, row, next),
        event: {
          account: zone.accountId,
          type: "zone",
          id: zone.id,
          operation: "update",
          before: { name: zone.name, dnssec: { policy: current } },
          after: { name: zone.name, dnssec: { policy } },
        },
      },
    ],
  });
  // The policy takes effect by rolling from the next run: the keys, and the parent step they wait for, are as they were.
  return presentDnssec({ ...next, parentDomain }, keys, registryLink(c), ctx.now);
}

export const patchDnssecHandler: RouteHandler<typeof routes.updateDnssec, AppEnv> = async (c) =>
  c.json(await patchDnssec(c, c.req.valid("param").zone, c.req.valid("json")), 200);
