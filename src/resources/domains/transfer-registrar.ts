// Transfers between registrars at a connected registry (RFC 5731 §3.2.4; docs/registries.md,
// "Transfers between registrars"): they replace the account-to-account transfer for a
// domain another registrar holds, or asks for.
//
//   POST …/transfer          a domain we do not hold: `<domain:transfer op="request">` with
//                            its authInfo (the failure counts hold as between accounts:
//                            a wrong one, the registry's 2202, is counted); 1001 → 202 pending,
//                            the domain joins the account when the registry approves it
//                            (a poll message); 1000 → 201, joined now
//   POST …/transfer/approve  another registrar asked for our domain (a poll message): its
//        …/transfer/reject   account approves (`op="approve"`: the domain leaves) or rejects
//   POST …/transfer/cancel   our own request withdrawn (`op="cancel"`)
//
// Each sends its command first and writes D1 only after the registry's success.
import type { Context } from "hono";
import { and, eq, sql } from "drizzle-orm";
import { accepted, apiTime, resDataOf } from "../../connector/answers";
import { clientTransactionId } from "../../connector/gateway";
import { connectedRepositories, connectorClientId, isConnected } from "../../connector/config";
import { catalog } from "../../db/catalog";
import { eventInsert } from "../../db/events";
import { newId } from "../../db/ids";
import { domainsNamed } from "../../db/links";
import { promisedQuotaGuard } from "../../db/quota-check";
import { latestRegistryTransferOf, type RegistryTransferRow, registryTransferEnd, registryTransferInsert } from "../../db/registry-state";
import { writeChange } from "../../db/resource-write";
import { domains, registryTransfers } from "../../db/schema";
import { commitWrite, retryLostRaces, versionStep } from "../../db/write";
import { mayEndTransfer, type TransferEnding } from "../../access/transfers";
import type { AppEnv } from "../../env";
import { callerAccount } from "../../http/caller";
import { throwFindings, throwPriceErrors } from "../../http/findings";
import { resourceRef } from "../../http/lookup";
import { writeContext } from "../../http/mutate";
import { ApiError } from "../../http/problem";
import { matchRegistrableName } from "../../registry/extensions";
import { periodErrors } from "../../registry/periods";
import { namePricing, priceConfirmationErrors, priceOf } from "../../registry/prices";
import { domainCollection } from "./collection";
import { findDomain } from "./queries";
import { domainRegistry } from "./registry";
import { askRegistry, joinDomain, presentRegistryTransfer, registryDecided, removeDomain } from "./registry-follow";
import { failureKeys, lockedSeconds, readFailureCounts, recordRegistryFailure, transferLocked } from "./transfer-failures";
import { noTransfer } from "./transfer-read";

/** The other registrar's transfer answer (trnData), when there is one. */
function trnDataOf(response: Parameters<typeof resDataOf>[0]) {
  return resDataOf(response, "domain:trnData");
}

/**
 * POST /v1/domains/{name}/transfer for a name of a connected repository that no account
 * here holds: a request to the registry. Null when the path is not such a name (the
 * account-to-account transfer answers it).
 */
export async function requestFromRegistrar(
  c: Context<AppEnv>,
  segment: string,
  body: { auth_info: string; period?: number | undefined; price?: string | undefined },
) {
  const ref = resourceRef(segment, "domain");
  if (ref.kind !== "name") return null;
  const cat = await catalog(c.get("db"));
  const match = matchRegistrableName(ref.name, cat.extensions);
  if (!match.ok) return null;
  const extension = match.match.extension;
  if (!isConnected(c.env, extension.repositoryId)) return null;
  const allAccounts = c.get("dbAllAccounts") ?? c.get("db");
  if ((await domainsNamed(allAccounts, [ref.name])).length > 0) return null;
  const name = ref.name;
  const gaining = callerAccount(c);
  const period = body.period ?? 1;
  throwFindings({ invalid: [], policy: periodErrors(period, extension) });
  const pricing = namePricing(name, extension, cat.names);
  const price = priceOf(pricing.yearly, "transfer", period);
  throwPriceErrors(priceConfirmationErrors(price, body.price, { name, operation: "transfer", years: period, premium: pricing.premium }));
  const ctx = writeContext(c);
  // The failure counts first, whatever the password (docs/safety.md § Transfers and auth_info): the domain's keyed by its name.
  const keys = failureKeys(`name:${name}`, gaining);
  const locked = lockedSeconds(await readFailureCounts(ctx.db, keys), ctx.now.getTime());
  if (locked > 0) throw transferLocked(locked);
  const registry = domainRegistry(c, extension.repositoryId)!;
  const response = await registry.ask("domain:transfer:request", {
    kind: "domain:transfer",
    op: "request",
    name,
    authInfo: body.auth_info,
    period: { value: period, unit: "y" },
    ...(body.price !== undefined ? { fee: { currency: price.currency, fees: [{ amount: body.price }] } } : {}),
  });
  if (response.code === 2202) {
    const failure = recordRegistryFailure(ctx, keys);
    const [written] = (await commitWrite(ctx, failure.write)) as [Parameters<typeof failure.counted>[0]];
    if (!failure.counted(written)) throw transferLocked(Math.max(1, lockedSeconds(written, ctx.now.getTime())));
    throw new ApiError("invalid_auth_info", `auth_info: the ${registry.repository} registry answered 2202: it does not match.`, {
      errors: [{ field: "auth_info", message: "does not match" }],
    });
  }
  if (response.code === 2303) throw new ApiError("not_found", `No domain is named "${name}": the ${registry.repository} registry holds none.`);
  const done = accepted(response, `Asking the ${registry.repository} registry for ${name}`);
  const trn = trnDataOf(response);
  const transfer: RegistryTransferRow = {
    id: newId("transfer", ctx.now),
    repositoryId: extension.repositoryId,
    name,
    direction: "in",
    domainId: null,
    accountId: gaining,
    otherRegistrar: trn?.acID ?? null,
    status: "pending",
    period,
    requestedAt: ctx.at,
    actBy: apiTime(trn?.acDate),
    actedAt: null,
    version: 1,
  };
  await commitWrite(ctx, {
    rows: [{ statement: registryTransferInsert(ctx.db, transfer) }],
    alongside: [
      eventInsert(ctx.db, {
        at: ctx.at,
        actor: ctx.actor,
        account: gaining,
        type: "domain",
        id: transfer.id,
        operation: "transfer_request",
        before: null,
        after: { ...presentRegistryTransfer(transfer), registry_sv_trid: done.svTRID },
      }),
    ],
    // The account must have room for the domain now, when it asks (the joining batch is held to the limits again).
    guards: [promisedQuotaGuard(ctx.db, gaining, { domains: 1 }, ctx.limits)],
  });
  c.header("Location", `/v1/domains/${name}/transfer`);
  if (done.outcome === "pending") return c.json(presentRegistryTransfer(transfer), 202);
  // Approved at once (1000): the registry holds it for us now; it joins the account.
  const us = connectorClientId(c.env, extension.repositoryId);
  const asked = us ? await askRegistry(c.env, extension.repositoryId, us, name, clientTransactionId(c.get("requestId"))) : null;
  if (asked?.found !== "ours") return c.json(presentRegistryTransfer(transfer), 202);
  // The registry approved at once: it holds the domain for us, past the account's limits too (registryDecided).
  const joined = await retryLostRaces(() =>
    registryDecided(ctx, (decided, past) =>
      joinDomain(decided, cat, transfer, asked.view, { operation: "transfer_approve", status: "approved", svTRID: done.svTRID, ...past }),
    ),
  );
  return c.json(presentRegistryTransfer({ ...transfer, status: "approved", domainId: joined.id, actedAt: ctx.at, version: 2 }), 201);
}

const OPS = { approve: "approve", reject: "reject", cancel: "cancel" } as const;
const ENDS = { approve: "approved", reject: "rejected", cancel: "cancelled" } as const;

/**
 * POST …/transfer/approve | reject | cancel when the domain's pending transfer is with another
 * registrar: the registry acts first (`<domain:transfer op="…">`). Null when it is not.
 */
export async function endWithRegistrar(c: Context<AppEnv>, segment: string, action: TransferEnding) {
  // No connected repository, no transfer with another registrar: nothing read.
  if (connectedRepositories(c.env).size === 0) return null;
  const allAccounts = c.get("dbAllAccounts") ?? c.get("db");
  const ref = resourceRef(segment, "domain");
  const [transfer] = await latestRegistryTransferOf(allAccounts, ref);
  if (transfer?.status !== "pending") return null;
  const rights = c.get("principal").rights;
  const parties = {
    gainingAccountId: transfer.direction === "in" ? transfer.accountId : null,
    losingAccountId: transfer.direction === "out" ? transfer.accountId : null,
  };
  if (!mayEndTransfer(rights, parties, action)) throw noTransfer(segment);
  if (transfer.direction === "out" && action === "cancel")
    throw new ApiError(
      "status_prohibits",
      `The transfer of ${transfer.name} was asked by ${transfer.otherRegistrar ?? "another registrar"}: only it can cancel it, at the registry.`,
    );
  if (transfer.direction === "in" && action !== "cancel")
    throw new ApiError(
      "status_prohibits",
      `${transfer.name} is ${transfer.otherRegistrar ?? "another registrar"}'s: it approves or rejects the transfer, at the registry.`,
    );
  const registry = domainRegistry(c, transfer.repositoryId);
  if (!registry)
    throw new ApiError("status_prohibits", `${transfer.repositoryId} is no longer connected: the transfer of ${transfer.name} cannot be acted on here.`);
  const done = await registry.send(
    `domain:transfer:${action}`,
    { kind: "domain:transfer", op: OPS[action], name: transfer.name },
    `${action === "approve" ? "Approving" : action === "reject" ? "Rejecting" : "Cancelling"} the transfer of ${transfer.name} at the ${registry.repository} registry`,
  );
  const ctx = writeContext(c);
  const ended = ENDS[action];
  const answer = { ...transfer, status: ended, actedAt: ctx.at, version: transfer.version + 1 };
  const note = { other_registrar: transfer.otherRegistrar, transfer: transfer.id };
  await retryLostRaces(async () => {
    const [now] = await allAccounts
      .select()
      .from(registryTransfers)
      .where(and(eq(registryTransfers.id, transfer.id), eq(registryTransfers.status, "pending")));
    if (!now) return;
    if (transfer.direction === "in") {
      await commitWrite(ctx, {
        rows: [{ statement: registryTransferEnd(ctx.db, now, ended, ctx.at) }],
        alongside: [
          eventInsert(ctx.db, {
            at: ctx.at,
            actor: ctx.actor,
            account: now.accountId,
            type: "domain",
            id: now.id,
            operation: "transfer_cancel",
            before: presentRegistryTransfer(now),
            after: { ...presentRegistryTransfer(answer), registry_sv_trid: done.svTRID },
          }),
        ],
      });
      return;
    }
    const [current] = now.domainId ? await findDomain(allAccounts, { kind: "id", id: now.domainId }) : [];
    if (!current) {
      await commitWrite(ctx, { rows: [{ statement: registryTransferEnd(ctx.db, now, ended, ctx.at) }] });
      return;
    }
    if (action === "approve") {
      await removeDomain(ctx, current, {
        operation: "transfer_approve",
        svTRID: done.svTRID,
        note,
        alongside: [registryTransferEnd(ctx.db, now, ended, ctx.at)],
      });
      return;
    }
    const next = { ...current, pendingTransfer: false, version: current.version + 1, updatedAt: ctx.at };
    await writeChange(ctx, domainCollection, "transfer_reject", current, {
      next,
      write: versionStep(ctx.db, domains, current, next),
      afterFromDatabase: { "$.registry_sv_trid": sqlText(done.svTRID), "$.registry_transfer": sqlText(transfer.id) },
      alongside: [registryTransferEnd(ctx.db, now, ended, ctx.at)],
    });
  });
  return c.json(presentRegistryTransfer(answer), 200);
}

const sqlText = (value: string) => sql`${value}`;
