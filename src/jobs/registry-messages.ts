// A registry's poll message applied to our copy (docs/registries.md, "Poll messages"): the
// gateway reads each connected registry's queue (`<poll op="req">`, RFC 5730 §2.9.2.3) and
// hands every message here; it acks the message once this answered 200, so each is applied
// (or kept) before the registry forgets it, and one handed over twice (its ack lost) is
// applied once (registry_messages). What each kind does:
//
//   domain:trnData pending, we lose   another registrar asked for our domain: it shows
//                                     pendingTransfer; its account approves or rejects
//   … clientApproved / serverApproved the domain left us (we lose: it leaves its account) or
//                                     joined us (we gain: it joins the requesting account
//                                     with the registry's dates)
//   … clientRejected / …Cancelled     the transfer ended; the domain no longer pendingTransfer
//   domain:panData                    a pending action settled (RFC 5731 §3.3): the domain
//                                     follows the registry's <domain:info> (`settled`), a
//                                     create refused or a domain purged leaves its account
//   domain:infData                    the registry changed the domain itself (statuses, …):
//                                     it follows (`update`)
//   anything else                     kept: a `registry_message` event on the repository
//                                     with the message whole, and acked
//
// A message handed over `replayed` (from the gateway's set-aside record, after the messages
// behind it were applied) may say something older than what we applied since: its own state
// is not followed. An infData follows the registry's <domain:info>, asked now (as a panData
// does); a transfer `pending` of ours applies only while the info shows pendingTransfer, a
// rejection or cancellation only once it no longer does; else it is kept as stale.
//
// A message whose application keeps failing (an unexpected error, the Worker stopped) is kept
// the same way, with the error's summary, after MESSAGE_ATTEMPTS hand-overs, and acked. Should
// that keeping fail too (D1 refusing the event), or a hand-over fail before it is counted (a
// body the route refuses), the gateway's own bound ends it: it sets the message aside in its
// state directory and acks it (src/gateway/message-ledger.ts). A message the gateway could not
// read comes as one `unreadable` part holding its XML: a kind not acted on, so kept here.
import { sql } from "drizzle-orm";
import { catalog } from "../db/catalog";
import type { Database } from "../db/client";
import { eventInsert } from "../db/events";
import { newId } from "../db/ids";
import {
  latestRegistryTransfer,
  messageApplied,
  messageFailed,
  messageReceived,
  pendingOutboundTransfer,
  type RegistryTransferRow,
  registryTransferEnd,
  registryTransferInsert,
} from "../db/registry-state";
import { writeChange } from "../db/resource-write";
import { domains, OPERATOR_ACCOUNT_ID } from "../db/schema";
import type { QuotaDefaults } from "../db/quota-check";
import { retryLostRaces, versionStep, type WriteContext, writeContextAt } from "../db/write";
import { connectorClientId, type ConnectorSettings } from "../connector/config";
import { type ResData, registryDomainView } from "../connector/follow";
import { domainCollection } from "../resources/domains/collection";
import type { DomainWithLinks } from "../resources/domains/queries";
import { findDomain } from "../resources/domains/queries";
import { askRegistry, followView, joinDomain, markMissing, presentRegistryTransfer, registryDecided, removeDomain } from "../resources/domains/registry-follow";
import { safeErrorSummary } from "../http/error-log";
import { ApiError } from "../http/problem";
import type { RegistryMessage, RegistryMessageReport } from "./registry-schemas";

type TrnData = Extract<ResData, { kind: "domain:trnData" }>;
type PanData = Extract<ResData, { kind: "domain:panData" }>;

/** The clTRID of the commands a message makes us send: the repository and the message's id (3–64 characters). */
function messageTrid(repository: string, messageId: string): string {
  return `msg-${repository}-${messageId}`.slice(0, 64);
}

const str = (v: unknown): v is string => typeof v === "string" && v.length > 0;

/** The message's first resData, typed when it is one of the kinds read here and has their fields. */
function payloadOf(message: RegistryMessage["message"]): { kind: string; trn?: TrnData; pan?: PanData } {
  const first = message.resData[0] as Record<string, unknown> | undefined;
  if (!first) return { kind: "none" };
  const kind = String(first.kind);
  if (kind === "domain:trnData" && str(first.name) && str(first.trStatus) && str(first.reID) && str(first.acID))
    return { kind, trn: first as unknown as TrnData };
  if (kind === "domain:panData" && str(first.name) && typeof first.paResult === "boolean") return { kind, pan: first as unknown as PanData };
  return { kind };
}

export interface MessageOptions {
  now: Date;
  limits: QuotaDefaults;
}

/** Applies one message (or keeps it); answers what was done. Throws 503 when the registry must be asked and cannot be. */
export async function applyRegistryMessage(
  settings: ConnectorSettings,
  db: Database,
  input: RegistryMessage,
  options: MessageOptions,
): Promise<RegistryMessageReport> {
  const { repository, message } = input;
  const cat = await catalog(db);
  if (!cat.repositories.has(repository)) throw new ApiError("not_found", `No repository ${repository}.`);
  const messageId = message.msgQ.id;
  const payload = payloadOf(message);
  const ctx = writeContextAt(db, options.now, `registry:${repository}`, options.limits, db);
  const report = (outcome: RegistryMessageReport["outcome"], domain: string | null, detail: string): RegistryMessageReport => ({
    message_id: messageId,
    kind: payload.kind,
    outcome,
    domain,
    detail,
  });
  const received = await messageReceived(db, repository, messageId, payload.kind, ctx.at);
  if (received.applied) return report("already_applied", null, `Message ${messageId} of ${repository} was applied when it was handed over before.`);
  if (received.attempts > MESSAGE_ATTEMPTS) {
    // Handed over MESSAGE_ATTEMPTS times already without an answer (the Worker stopped, out of time): not tried again.
    const error = received.lastError
      ? (JSON.parse(received.lastError) as FailureSummary)
      : { kind: "no_answer", message: "the Worker stopped before it answered" };
    return giveUp(ctx, repository, message, payload.kind, received.attempts - 1, error);
  }

  const us = input.client_id ?? connectorClientId(settings, repository);
  const clTRID = messageTrid(repository, messageId);
  let result: RegistryMessageReport;
  try {
    let done: RegistryMessageReport | null = null;
    if (us !== null && payload.trn) {
      // Replayed (handed over after newer messages): a transfer's start or end counts only if the registry's info still agrees.
      const stale = input.replayed ? await staleTransfer(settings, ctx, repository, us, payload.trn, clTRID) : null;
      done = stale
        ? await keep(ctx, repository, message, payload.kind, stale)
        : await transferMessage(settings, ctx, cat, repository, us, payload.trn, message, clTRID);
    } else if (us !== null && payload.pan) done = await settledMessage(settings, ctx, cat, repository, us, payload.pan, message, clTRID);
    else if (us !== null && payload.kind === "domain:infData")
      done = input.replayed
        ? await replayedChange(settings, ctx, cat, repository, us, message, clTRID)
        : await changedMessage(ctx, cat, repository, us, message);
    result = done ?? (await keep(ctx, repository, message, payload.kind, us === null ? "the registrar's client id there is unknown" : null));
  } catch (error) {
    // The registry out of reach: the message waits (503) and the hand-over does not count.
    if (error instanceof ApiError && error.code === "registry_unavailable") {
      await messageFailed(db, repository, messageId, "registry_unavailable").catch(() => undefined);
      throw error;
    }
    const { kind, message: text } = safeErrorSummary(error);
    const summary: FailureSummary = { kind: error instanceof ApiError ? error.code : kind, message: text };
    if (received.attempts < MESSAGE_ATTEMPTS) {
      await messageFailed(db, repository, messageId, { lastError: JSON.stringify(summary) }).catch(() => undefined);
      throw error;
    }
    return giveUp(ctx, repository, message, payload.kind, received.attempts, summary);
  }
  await messageApplied(db, repository, messageId, ctx.at);
  return { ...result, message_id: messageId, kind: payload.kind };
}

/**
 * How many hand-overs of one message may fail (an unexpected error, no answer) before it is
 * kept as a `registry_message` event and acked: a message is never looped on. Hand-overs that
 * waited for the registry out of reach (503) do not count.
 */
export const MESSAGE_ATTEMPTS = 5;

/** What went wrong, as the error log has it: the error's kind and a message with no SQL text and no values. */
type FailureSummary = { kind: string; message: string };

/** The message failed MESSAGE_ATTEMPTS times: kept with the error's summary, and marked applied so the gateway acks it. */
async function giveUp(
  ctx: WriteContext,
  repository: string,
  message: RegistryMessage["message"],
  kind: string,
  attempts: number,
  error: FailureSummary,
): Promise<RegistryMessageReport> {
  const why = `its application failed ${attempts} times (${error.kind}: ${error.message})`;
  const kept = await keep(ctx, repository, message, kind, why, { attempts, error });
  await messageApplied(ctx.db, repository, message.msgQ.id, ctx.at);
  return { ...kept, message_id: message.msgQ.id, kind };
}

/** A message of a kind the service does not act on: a `registry_message` event on the repository, with the message whole. */
async function keep(
  ctx: WriteContext,
  repository: string,
  message: RegistryMessage["message"],
  kind: string,
  why: string | null,
  failed?: { attempts: number; error: FailureSummary },
): Promise<RegistryMessageReport> {
  await retryLostRaces(async () => {
    await ctx.db.batch([
      eventInsert(ctx.db, {
        at: ctx.at,
        actor: ctx.actor,
        account: OPERATOR_ACCOUNT_ID,
        type: "repository",
        id: repository,
        operation: "registry_message",
        before: null,
        after: { repository, kind, ...(why ? { not_applied_because: why } : {}), ...(failed ? { failed } : {}), message },
      }),
    ]);
  });
  return {
    message_id: message.msgQ.id,
    kind,
    outcome: "kept",
    domain: null,
    detail: `Kept as a registry_message event of ${repository}${why ? ` (${why})` : ""}: "${message.msgQ.msg ?? ""}".`,
  };
}

/** The domain of this name we hold at this repository (any account), read now. */
async function ourDomain(ctx: WriteContext, repository: string, name: string): Promise<DomainWithLinks | undefined> {
  const [row] = await findDomain(ctx.allAccounts, { kind: "name", name: name.toLowerCase() });
  return row && row.repositoryId === repository ? row : undefined;
}

const ENDED = {
  clientApproved: "approved",
  serverApproved: "auto_approved",
  clientRejected: "rejected",
  serverRejected: "rejected",
  clientCancelled: "cancelled",
  serverCancelled: "cancelled",
} as const;

async function transferMessage(
  settings: ConnectorSettings,
  ctx: WriteContext,
  cat: Awaited<ReturnType<typeof catalog>>,
  repository: string,
  us: string,
  trn: TrnData,
  message: RegistryMessage["message"],
  clTRID: string,
): Promise<RegistryMessageReport | null> {
  const name = trn.name.toLowerCase();
  const svTRID = message.trID?.svTRID;
  const note = { message: message.msgQ.msg ?? null, other_registrar: trn.acID === us ? trn.reID : trn.acID };
  const r = (outcome: RegistryMessageReport["outcome"], domain: string | null, detail: string) => ({ message_id: "", kind: "", outcome, domain, detail });
  if (trn.acID === us && trn.reID !== us) {
    // We lose: another registrar asked for (or got) one of our domains.
    return retryLostRaces(async () => {
      const current = await ourDomain(ctx, repository, name);
      const [pending] = current ? await pendingOutboundTransfer(ctx.db, current.id) : [];
      if (trn.trStatus === "pending") {
        if (!current) return r("kept", null, `${name}: asked for by ${trn.reID}, but not held here.`);
        if (pending) return r("applied", current.id, `${name}: the transfer to ${trn.reID} was already pending.`);
        const transfer: RegistryTransferRow = {
          id: newId("transfer", ctx.now),
          repositoryId: repository,
          name,
          direction: "out",
          domainId: current.id,
          accountId: current.accountId,
          otherRegistrar: trn.reID,
          status: "pending",
          period: 1,
          requestedAt: ctx.at,
          actBy: new Date(Date.parse(trn.acDate) || ctx.now.getTime()).toISOString(),
          actedAt: null,
          version: 1,
        };
        const next = { ...current, pendingTransfer: true, version: current.version + 1, updatedAt: ctx.at };
        await writeChange(ctx, domainCollection, "transfer_request", current, {
          next,
          write: versionStep(ctx.db, domains, current, next),
          afterFromDatabase: notes({ ...note, transfer: transfer.id }, svTRID),
          alongside: [registryTransferInsert(ctx.db, transfer)],
        });
        return r("applied", current.id, `${trn.reID} asked for ${name}: it shows pendingTransfer until its account approves or rejects (${transfer.id}).`);
      }
      const ended = ENDED[trn.trStatus as keyof typeof ENDED];
      if (!ended) return null;
      if (ended === "approved" || ended === "auto_approved") {
        if (!current) return r("applied", null, `${name} had already left this service.`);
        await removeDomain(ctx, current, {
          operation: ended === "approved" ? "transfer_approve" : "transfer_auto_approve",
          svTRID,
          note: { ...note, transfer: pending?.id ?? null },
          alongside: pending ? [registryTransferEnd(ctx.db, pending, ended, ctx.at)] : [],
        });
        return r("applied", current.id, `${name} was transferred to ${trn.reID}: it left account ${current.accountId}.`);
      }
      if (!current || !pending) return r("applied", current?.id ?? null, `${name}: no transfer of it was pending here.`);
      const next = { ...current, pendingTransfer: false, version: current.version + 1, updatedAt: ctx.at };
      await writeChange(ctx, domainCollection, ended === "rejected" ? "transfer_reject" : "transfer_cancel", current, {
        next,
        write: versionStep(ctx.db, domains, current, next),
        afterFromDatabase: notes({ ...note, transfer: pending.id }, svTRID),
        alongside: [registryTransferEnd(ctx.db, pending, ended, ctx.at)],
      });
      return r("applied", current.id, `The transfer of ${name} to ${trn.reID} was ${ended}.`);
    });
  }
  if (trn.reID === us && trn.acID !== us) {
    // We gain: a transfer one of our accounts asked for ended.
    const ended = ENDED[trn.trStatus as keyof typeof ENDED];
    if (trn.trStatus === "pending" || !ended) return r("applied", null, `${name}: our transfer request is ${trn.trStatus}.`);
    if (ended === "approved" || ended === "auto_approved") {
      if (await ourDomain(ctx, repository, name)) return r("applied", null, `${name} is already held here.`);
      // The registry now holds it for us: its info says what it is (its dates, hosts, DS).
      const asked = await askRegistry(settings, repository, us, name, clTRID);
      if (asked.found !== "ours") return r("applied", null, `${name}: the registry does not show it as ours (${asked.found}).`);
      return retryLostRaces(async () => {
        const [latest] = await latestRegistryTransfer(ctx.db, repository, name);
        const transfer: RegistryTransferRow =
          latest && latest.direction === "in" && latest.status === "pending"
            ? latest
            : {
                // Asked for outside this service (no request of ours is pending): it joins the operator's account.
                id: newId("transfer", ctx.now),
                repositoryId: repository,
                name,
                direction: "in",
                domainId: null,
                accountId: OPERATOR_ACCOUNT_ID,
                otherRegistrar: trn.acID,
                status: "pending",
                period: 1,
                requestedAt: ctx.at,
                actBy: null,
                actedAt: null,
                version: 1,
              };
        const inserted = transfer === latest ? [] : [registryTransferInsert(ctx.db, transfer)];
        if (inserted.length > 0) await ctx.db.batch([inserted[0]!]);
        // The registry holds it for us now: it joins the account even past its limits (registryDecided), never refused for want of room.
        const joined = await registryDecided(ctx, (decided, past) =>
          joinDomain(decided, cat, transfer, asked.view, { operation: "transfer_approve", status: ended, svTRID, note, ...past }),
        );
        return r("applied", joined.id, `${name} was transferred in from ${trn.acID}: it joined account ${transfer.accountId}.`);
      });
    }
    return retryLostRaces(async () => {
      const [latest] = await latestRegistryTransfer(ctx.db, repository, name);
      if (latest?.direction !== "in" || latest.status !== "pending") return r("applied", null, `${name}: no request of ours was pending.`);
      const after = { ...latest, status: ended, actedAt: ctx.at, version: latest.version + 1 };
      await ctx.db.batch([
        registryTransferEnd(ctx.db, latest, ended, ctx.at),
        eventInsert(ctx.db, {
          at: ctx.at,
          actor: ctx.actor,
          account: latest.accountId,
          type: "domain",
          id: latest.id,
          operation: ended === "rejected" ? "transfer_reject" : "transfer_cancel",
          before: presentRegistryTransfer(latest),
          after: { ...presentRegistryTransfer(after), ...(svTRID ? { registry_sv_trid: svTRID } : {}) },
        }),
      ]);
      return r("applied", null, `Our request for ${name} was ${ended} by ${trn.acID}.`);
    });
  }
  return null;
}

/** The `registry_…` notes of an event's `after`. */
function notes(values: Record<string, unknown>, svTRID: string | undefined) {
  return Object.fromEntries([
    ...Object.entries(values).map(([k, v]) => [`$.registry_${k}`, jsonValue(v)]),
    ...(svTRID ? [["$.registry_sv_trid", jsonValue(svTRID)]] : []),
  ]);
}

const jsonValue = (v: unknown) => sql`json(${JSON.stringify(v)})`;

/** A pending action settled (panData): the domain follows the registry's info, or leaves if the registry no longer has it. */
async function settledMessage(
  settings: ConnectorSettings,
  ctx: WriteContext,
  cat: Awaited<ReturnType<typeof catalog>>,
  repository: string,
  us: string,
  pan: PanData,
  message: RegistryMessage["message"],
  clTRID: string,
): Promise<RegistryMessageReport | null> {
  const note = { message: message.msgQ.msg ?? null, result: pan.paResult, pending_trid: pan.paTRID ?? null };
  return followRegistryInfo(settings, ctx, cat, repository, us, pan.name, clTRID, {
    operation: "settled",
    note,
    onNone: "remove",
    followed: (name, fields) =>
      `${name}'s pending action was ${pan.paResult ? "approved" : "refused"}; it follows the registry (${fields || "nothing differed"}).`,
  });
}

/**
 * A domain:infData handed over again from the gateway's set-aside record, after the messages
 * behind it were applied: its own state may be older than ours (a hold it adds lifted since),
 * so the domain follows the registry's <domain:info> now instead, as a settled action does
 * (docs/decisions.md). One the registry no longer holds is kept, left to the reconciliation.
 */
async function replayedChange(
  settings: ConnectorSettings,
  ctx: WriteContext,
  cat: Awaited<ReturnType<typeof catalog>>,
  repository: string,
  us: string,
  message: RegistryMessage["message"],
  clTRID: string,
): Promise<RegistryMessageReport | null> {
  const view = registryDomainView({ resData: message.resData as unknown as ResData[], extensions: [] });
  if (!view) return null;
  return followRegistryInfo(settings, ctx, cat, repository, us, view.name, clTRID, {
    operation: "update",
    note: { message: message.msgQ.msg ?? null, replayed: true },
    onNone: { keep: message },
    followed: (name, fields) =>
      `Handed over again after newer messages: ${name} follows the registry's info now, not the message's (${fields || "nothing here differed"}).`,
  });
}

/**
 * The domain of this name we hold follows the registry's <domain:info>, asked now (not a
 * message's own account of it): marked when another registrar sponsors it; when the registry
 * no longer holds it, it leaves (a settled action: a create refused, a purge) or the message
 * is kept. Null when we hold no such domain.
 */
async function followRegistryInfo(
  settings: ConnectorSettings,
  ctx: WriteContext,
  cat: Awaited<ReturnType<typeof catalog>>,
  repository: string,
  us: string,
  domainName: string,
  clTRID: string,
  how: {
    operation: "settled" | "update";
    note: Record<string, unknown>;
    onNone: "remove" | { keep: RegistryMessage["message"] };
    followed: (name: string, fields: string) => string;
  },
): Promise<RegistryMessageReport | null> {
  const name = domainName.toLowerCase();
  const found = await ourDomain(ctx, repository, name);
  if (!found) return null;
  const asked = await askRegistry(settings, repository, us, name, clTRID);
  const { operation, note } = how;
  const r = (domain: string, detail: string): RegistryMessageReport => ({ message_id: "", kind: "", outcome: "applied", domain, detail });
  if (asked.found === "none" && how.onNone !== "remove") {
    const kept = how.onNone.keep;
    const first = kept.resData[0] as { kind?: unknown } | undefined;
    return keep(
      ctx,
      repository,
      kept,
      String(first?.kind ?? "none"),
      `handed over again after newer messages, and the registry no longer holds ${name}: stale, left to the reconciliation`,
    );
  }
  return retryLostRaces(async () => {
    const current = await ourDomain(ctx, repository, name);
    if (!current) return r(found.id, `${name} had already left this service.`);
    if (asked.found === "none") {
      const refusedCreate = current.statuses.includes("pendingCreate");
      await removeDomain(ctx, current, { operation: refusedCreate ? "settled" : "purge", svTRID: asked.svTRID, note });
      return r(
        current.id,
        refusedCreate
          ? `The registry refused the registration of ${name}: it left account ${current.accountId}.`
          : `The registry no longer holds ${name}: purged.`,
      );
    }
    if (asked.found === "theirs") {
      await markMissing(ctx, current, asked.view.clID, { operation, svTRID: asked.svTRID, note, roid: asked.view.roid });
      return r(current.id, `${name} is sponsored by ${asked.view.clID} at the registry: marked.`);
    }
    const differences = await registryDecided(ctx, (decided, past) =>
      followView(decided, cat, current, asked.view, { operation, svTRID: asked.svTRID, note, always: true, ...past }),
    );
    return r(current.id, how.followed(name, differences.map((d) => d.field).join(", ")));
  });
}

/**
 * A transfer message handed over again after newer messages: why it is stale (the registry's
 * info, asked now, no longer agrees), or null to apply it. A `pending` of ours to lose counts
 * only while the info shows pendingTransfer (else its transfer ended since: applying it would
 * start one that never ends); a rejection or cancellation only once the info no longer shows
 * it (else it would end a newer request). Other transfer messages settle on their own.
 */
async function staleTransfer(
  settings: ConnectorSettings,
  ctx: WriteContext,
  repository: string,
  us: string,
  trn: TrnData,
  clTRID: string,
): Promise<string | null> {
  if (trn.acID !== us || trn.reID === us) return null;
  const ended = ENDED[trn.trStatus as keyof typeof ENDED];
  const starts = trn.trStatus === "pending";
  if (!starts && ended !== "rejected" && ended !== "cancelled") return null;
  const name = trn.name.toLowerCase();
  if (!(await ourDomain(ctx, repository, name))) return null;
  const asked = await askRegistry(settings, repository, us, name, clTRID);
  const pendingThere = asked.found !== "none" && asked.view.statuses.includes("pendingTransfer");
  if (starts === pendingThere) return null;
  return starts
    ? `handed over again after newer messages, and the registry's info shows no pendingTransfer of ${name} now: stale, its transfer ended since`
    : `handed over again after newer messages, and the registry's info shows ${name} pendingTransfer again: stale, a newer request is pending`;
}

/** The registry changed the domain itself and says how (a domain:infData in the message): ours follows. */
async function changedMessage(
  ctx: WriteContext,
  cat: Awaited<ReturnType<typeof catalog>>,
  repository: string,
  us: string,
  message: RegistryMessage["message"],
): Promise<RegistryMessageReport | null> {
  const view = registryDomainView({ resData: message.resData as unknown as ResData[], extensions: [] });
  if (!view) return null;
  if (!(await ourDomain(ctx, repository, view.name))) return null;
  const note = { message: message.msgQ.msg ?? null };
  return retryLostRaces(async () => {
    const current = await ourDomain(ctx, repository, view.name);
    if (!current) return null;
    if (view.clID !== us) {
      await markMissing(ctx, current, view.clID, { operation: "update", svTRID: message.trID?.svTRID, note, roid: view.roid });
      return { message_id: "", kind: "", outcome: "applied" as const, domain: current.id, detail: `${view.name} is sponsored by ${view.clID}: marked.` };
    }
    const differences = await registryDecided(ctx, (decided, past) =>
      followView(decided, cat, current, view, { operation: "update", svTRID: message.trID?.svTRID, note, always: true, ...past }),
    );
    return {
      message_id: "",
      kind: "",
      outcome: "applied" as const,
      domain: current.id,
      detail: `The registry changed ${view.name}: ${differences.map((d) => d.field).join(", ") || "nothing here differed"}.`,
    };
  });
}
