// The DNSSEC key lifecycle through the API (docs/dnssec-rollovers.md): POST
// /zones/{zone}/dnssec/rollover starts a roll now; POST /zones/{zone}/dnssec/ds-seen reports
// what the parent shows. Each is one write (steps.ts); the run that takes the steps when due
// is a job (src/jobs/dnssec-run.ts).
import type { Context } from "hono";
import type { Database } from "../../db/client";
import { commitWrite, readTogether, retryLostRaces } from "../../db/write";
import { parentDsKeys } from "../../dns/dnssec/parent-ds";
import { dsSeen, type RolloverKind, startRollover } from "../../dns/dnssec/rollover";
import { clientTransactionId } from "../../connector/gateway";
import type { AppEnv } from "../../env";
import { writeContext } from "../../http/mutate";
import { ApiError, validationError } from "../../http/problem";
import { dsData } from "./registry-link";
import { listedKeys, presentDnssec } from "./state";
import { dnssecSecret } from "../../http/sealing-secret";
import type * as routes from "./routes";
import type { RouteHandler } from "@hono/zod-openapi";
import type { RegistryLink } from "./registry-parent";
import { createdRows, followAtManagedParent, keyIdAt, keysWithDnskey, readZoneSigning, requireKeysOf, stepWrites } from "./steps";
import { findZoneWithParent, zoneOf } from "./zone";

/** The DNSSEC state as GET answers it, read back in one round trip after the write (`now`: the write's). */
export async function dnssecAnswer(db: Database, zone: { id: string }, link: RegistryLink | null, now: Date) {
  const [[row], keys] = await readTogether(db, [findZoneWithParent(db, { kind: "id", id: zone.id }), listedKeys(db, zone.id)]);
  return presentDnssec(row!, keys, link, now);
}

export async function startZoneRollover(c: Context<AppEnv>, segment: string, request: { kind: RolloverKind; algorithm?: number }) {
  const secret = dnssecSecret(c);
  return retryLostRaces(async () => {
    const zone = await zoneOf(c, segment);
    const ctx = writeContext(c);
    const link = registryLink(c);
    const state = await readZoneSigning(ctx, zone, link);
    const started = startRollover(state.signing, request, keyIdAt(ctx.now));
    if (!started.ok) {
      if (started.status === 422) throw validationError([{ field: started.field ?? "kind", message: started.message }]);
      throw new ApiError(started.reason === "rollover_running" ? "rollover_running" : "status_prohibits", `${zone.name}: ${started.message}.`);
    }
    if (started.result.created.length > 0) requireKeysOf(started.result.created[0]!.algorithm, request.kind === "algorithm" ? "algorithm" : "kind");
    const created = await createdRows(secret, zone.id, started.result.created, ctx.at);
    const followed = await followAtManagedParent(ctx, state, started.result, keysWithDnskey([...state.rows, ...created]), link);
    const policyChanged = JSON.stringify(started.policy) !== JSON.stringify(state.signing.policy);
    const write = stepWrites(ctx, state, followed.result, created, {
      policy: policyChanged ? started.policy : null,
      policyEvent: policyChanged,
      domainWrite: followed.domainWrite,
    });
    await commitWrite(ctx, write);
    return dnssecAnswer(ctx.db, zone, link, ctx.now);
  });
}

/**
 * What an operator says the parent shows (`ds`: the DS records, as the parent's servers
 * answer them; absent: exactly the set the zone waits for), recorded with `dsSeen` and the
 * steps then due taken.
 */
export async function reportDsSeen(c: Context<AppEnv>, segment: string, body: { ds?: string[] }) {
  return retryLostRaces(async () => {
    const zone = await zoneOf(c, segment);
    const ctx = writeContext(c);
    const link = registryLink(c);
    const state = await readZoneSigning(ctx, zone, link);
    if (state.rows.length === 0) throw new ApiError("status_prohibits", `${zone.name}: the zone is not signed.`);
    const wanted = state.signing.keys.filter((k) => k.ds === "submitted" || k.ds === "seen").map((k) => k.id);
    const observed =
      body.ds === undefined
        ? { keys: wanted }
        : parentDsKeys(
            zone.name,
            keysWithDnskey(state.rows),
            body.ds.map((text, i) => parsedDs(text, `ds[${i}]`)),
          );
    const result = dsSeen(state.signing, observed, ctx.now);
    const write = stepWrites(ctx, state, result, []);
    await commitWrite(ctx, write);
    return dnssecAnswer(ctx.db, zone, link, ctx.now);
  });
}

function parsedDs(text: string, field: string) {
  const parts = text.trim().split(/\s+/);
  if (parts.length !== 4 || !parts.slice(0, 3).every((p) => /^\d{1,5}$/.test(p)) || !/^[0-9A-Fa-f]{2,}$/.test(parts[3]!)) {
    throw validationError([{ field, message: "must be a DS record's data: key tag, algorithm, digest type and hex digest (RFC 4034 §5.3)" }]);
  }
  return dsData(parts.join(" "));
}

/** The registry link of a request: the Worker's connector settings, and the request's id as clTRID. */
export function registryLink(c: Context<AppEnv>): RegistryLink {
  return { settings: c.env, clTRID: clientTransactionId(c.get("requestId")) };
}

export const startRolloverHandler: RouteHandler<typeof routes.startRollover, AppEnv> = async (c) =>
  c.json(await startZoneRollover(c, c.req.valid("param").zone, c.req.valid("json")), 200);

export const reportDsSeenHandler: RouteHandler<typeof routes.reportDsSeen, AppEnv> = async (c) =>
  c.json(await reportDsSeen(c, c.req.valid("param").zone, c.req.valid("json") ?? {}), 200);
