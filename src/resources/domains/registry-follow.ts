// A domain of a connected repository follows its registry (docs/registries.md, "The
// registry decides"): what a `<domain:info>` shows becomes ours in one write with its event
// (`reconciled`, `settled`, …) listing what differed; a domain the registry no longer has
// for us is marked, never silently deleted; one that left us (transferred away, deleted by
// the registry) leaves its account; one transferred in joins the gaining account with the
// registry's dates. The reconciliation job and the poll messages (src/jobs/) and the
// transfer routes use these; every registry command goes through the gateway
// (src/connector/gateway.ts) with the clTRID the caller gives.
import { and, eq, inArray, ne, type SQL, sql } from "drizzle-orm";
import type { Catalog } from "../../db/catalog";
import { presentHost } from "../../db/hosts";
import { newId } from "../../db/ids";
import { hostsNamed } from "../../db/links";
import { pendingAuthInfoOf, registryDomainUpsert, type RegistryTransferRow, registryTransferEnd } from "../../db/registry-state";
import type { EventOperation } from "../../db/events";
import { COUNTED_NOT_HELD, exceededQuota, pastLimitNote, RAISES_NO_COUNT } from "../../db/quota-check";
import { writeChange, writeRemoval } from "../../db/resource-write";
import { contacts, domainNameservers, domains, hosts, registryObjects } from "../../db/schema";
import { rowStatements, type Statement, versionStep, type WriteContext } from "../../db/write";
import { type Difference, followRegistry, type OurContacts, type RegistryDomainView, registryDomainView } from "../../connector/follow";
import type { ConnectorSettings } from "../../connector/config";
import { registryCommand } from "../../connector/gateway";
import { generateAuthInfo } from "../../registry/auth-info";
import { earliestEnd, transferLockedUntil, withGracePeriod } from "../../registry/lifecycle";
import { domainCollection } from "./collection";
import { nameserverLinks, replaceNameserverLinks } from "./links";
import { presentDomain } from "./present";
import { type DomainWithLinks, accountZoneNamed } from "./queries";

/** What a write driven by the registry records beside the domain. */
export interface RegistryNote {
  /** The event's operation. */
  operation: EventOperation;
  /** The registry's transaction id of the command or message behind the write. */
  svTRID?: string;
  /** Written into the event's `after` as `registry_…` fields (the poll message, the pending action's result). */
  note?: Record<string, unknown>;
  /** Write (and record an event) even when nothing of the domain differs (a settled pending action). */
  always?: boolean;
  /** Set `registry.reconciled_at` (a reconciliation's comparison). */
  reconciledAt?: string;
  /** Statements of the same batch (a transfer's row ended with the domain's write). */
  alongside?: Statement[];
  /** Fields of the event's `after` read in the write's batch (registryDecided's `registry_over_quota`). */
  afterFromDatabase?: Record<string, SQL>;
}

function afterNotes(differences: readonly Difference[], note: RegistryNote) {
  const notes: Record<string, SQL> = { ...note.afterFromDatabase, "$.registry_differences": sql`json(${JSON.stringify(differences)})` };
  if (note.svTRID) notes["$.registry_sv_trid"] = sql`${note.svTRID}`;
  for (const [key, value] of Object.entries(note.note ?? {})) notes[`$.registry_${key}`] = sql`json(${JSON.stringify(value)})`;
  return notes;
}

/**
 * Our contacts the registry's registrant, admin, tech and billing ids stand for (ones the
 * domain's account holds, as registry_objects records them): one query for all four roles.
 */
async function contactsOf(ctx: WriteContext, current: DomainWithLinks, view: RegistryDomainView): Promise<OurContacts> {
  const wanted = { registrant: view.registrant, ...view.contacts };
  const ids = [...new Set(Object.values(wanted).filter((id): id is string => id !== null))];
  const rows =
    ids.length === 0
      ? []
      : await ctx.db
          .select({ id: registryObjects.objectId, registryId: registryObjects.registryId, accountId: contacts.accountId })
          .from(registryObjects)
          .innerJoin(contacts, eq(contacts.id, registryObjects.objectId))
          .where(
            and(eq(registryObjects.repositoryId, current.repositoryId), eq(registryObjects.objectType, "contact"), inArray(registryObjects.registryId, ids)),
          );
  const of = (registryId: string | null) =>
    registryId === null ? null : rows.find((r) => r.registryId === registryId && r.accountId === current.accountId)?.id;
  return { registrant: of(wanted.registrant), admin: of(wanted.admin), tech: of(wanted.tech), billing: of(wanted.billing) };
}

/**
 * A write the registry decided (a domain it now holds for an account, a name server it
 * names: docs/safety.md, "Quotas"), held to the account's limits as any write first. One that
 * would take an account past a limit is made all the same, its counts moved and not held
 * (COUNTED_NOT_HELD), its event noting the limit passed in `after.registry_over_quota`
 * (`{account, quota, limit}`); the account then shows it in `over_quota`. Refusing it
 * would leave our copy without what the registry holds, and the poll message behind it would
 * be handed over again forever.
 */
export async function registryDecided<T>(
  ctx: WriteContext,
  write: (ctx: WriteContext, note: Pick<RegistryNote, "afterFromDatabase">) => Promise<T>,
): Promise<T> {
  try {
    return await write(ctx, {});
  } catch (error) {
    const exceeded = exceededQuota(error);
    if (!exceeded || ctx.limits === RAISES_NO_COUNT || ctx.limits === COUNTED_NOT_HELD) throw error;
    return write(
      { ...ctx, limits: COUNTED_NOT_HELD },
      { afterFromDatabase: { "$.registry_over_quota": pastLimitNote(exceeded.accountId, exceeded.kind, ctx.limits) } },
    );
  }
}

/**
 * The clTRID of the command a pending action's settlement settles: a panData poll message's
 * `paTRID.clTRID` (its `settled` write carries the paTRID as `note.pending_trid`), or null.
 * Reconciliation and the other messages name no command.
 */
function settledCommand(note: RegistryNote): string | null {
  if (note.operation !== "settled") return null;
  const trid = note.note?.pending_trid;
  if (typeof trid !== "object" || trid === null) return null;
  const clTRID = (trid as { clTRID?: unknown }).clTRID;
  return typeof clTRID === "string" ? clTRID : null;
}

/**
 * Brings the domain to what the registry holds (the registry sponsors it for us): one write
 * with its event, whose `after` carries `registry_differences` (each field's value here and
 * at the registry) and the registry's svTRID. Answers what differed; nothing is written but
 * the comparison's time when nothing did (unless `note.always`).
 */
export async function followView(
  ctx: WriteContext,
  cat: Catalog,
  current: DomainWithLinks,
  view: RegistryDomainView,
  note: RegistryNote,
): Promise<Difference[]> {
  // A pending update of ours (PATCH answered 1001): the auth_info it asked for is settled only
  // by the panData that names that update's clTRID (drizzle/0047) — applied when it approves
  // (paResult 1) and the info shows none, dropped either way. A renew may settle while the
  // update is pending: a panData naming another command neither applies nor drops it.
  // Without a panData (reconciliation, an infData message) an update seen settled drops it.
  const updateSettled = current.statuses.includes("pendingUpdate") && !view.statuses.includes("pendingUpdate");
  const command = settledCommand(note);
  const asked = updateSettled || command !== null ? await pendingAuthInfoOf(ctx.db, current.id) : null;
  const settlesAsked = asked !== null && command === asked.clTRID;
  const dropAsked = asked !== null && (settlesAsked || (updateSettled && note.operation !== "settled"));
  const followed = settlesAsked && note.note?.result === true && view.authInfo === undefined ? { ...view, authInfo: asked.authInfo } : view;
  const ours = await contactsOf(ctx, current, followed);
  const { next: fields, differences } = followRegistry(
    {
      statuses: current.statuses,
      serverStatuses: current.serverStatuses,
      expiresAt: current.expiresAt,
      nameservers: current.nameservers,
      ds: current.ds,
      registrantId: current.registrantId,
      adminId: current.adminId,
      techId: current.techId,
      billingId: current.billingId,
      authInfo: current.authInfo,
      deleted: current.deletedAt !== null,
    },
    followed,
    ours,
  );
  const registry = {
    roid: view.roid,
    sponsor: null,
    missingSince: null,
    reconciledAt: note.reconciledAt ?? current.registry?.reconciledAt ?? null,
  };
  const upsert = registryDomainUpsert(ctx.db, {
    domainId: current.id,
    repositoryId: current.repositoryId,
    ...registry,
    ...(dropAsked ? { pendingAuthInfo: null } : {}),
  });
  const registryChanged = current.registry?.roid !== registry.roid || current.registry?.sponsor != null || current.registry?.missingSince != null;
  if (differences.length === 0 && !note.always && !registryChanged) {
    await upsert;
    return differences;
  }
  const extension = cat.extensions.get(current.extensionId)!;
  let { rgp, deletedAt } = current;
  if (fields.deleted && current.deletedAt === null) {
    deletedAt = ctx.at;
    rgp = withGracePeriod([], ctx.now, { status: "redemptionPeriod", days: extension.graceRedemption });
  } else if (!fields.deleted && current.deletedAt !== null) {
    deletedAt = null;
    rgp = current.rgp.filter((e) => e.status !== "redemptionPeriod" && e.status !== "pendingDelete");
  }
  const next: DomainWithLinks = {
    ...current,
    statuses: fields.statuses,
    serverStatuses: fields.serverStatuses,
    expiresAt: fields.expiresAt,
    ds: fields.ds,
    registrantId: fields.registrantId,
    adminId: fields.adminId,
    techId: fields.techId,
    billingId: fields.billingId,
    authInfo: fields.authInfo,
    nameservers: fields.nameservers,
    deletedAt,
    rgp,
    rgpEndsAt: earliestEnd(rgp) ?? (deletedAt ? ctx.at : null),
    registry,
    version: current.version + 1,
    updatedAt: ctx.at,
  };
  let links: { alongside: Statement[]; guards: Statement[] } = { alongside: [], guards: [] };
  if (fields.nameservers !== current.nameservers) {
    // Name servers are names: a host nobody holds here yet is created as an external host of the domain's account.
    const known = new Set((await hostsNamed(ctx.allAccounts, fields.nameservers)).map((h) => h.name));
    links = replaceNameserverLinks(
      ctx,
      current,
      fields.nameservers,
      fields.nameservers.filter((n) => !known.has(n)),
    );
  }
  await writeChange(ctx, domainCollection, note.operation, current, {
    next,
    write: versionStep(ctx.db, domains, current, next),
    afterFromDatabase: afterNotes(differences, note),
    alongside: [...links.alongside, upsert, ...(note.alongside ?? [])],
    guards: links.guards,
  });
  return differences;
}

/**
 * The registry no longer holds the domain for us: it has no such object (2303), or another
 * registrar sponsors it (`sponsor`). Marked (`registry.missing_since`, `registry.registrar`)
 * with a `reconciled` event, never deleted: an operator decides. Answers whether anything
 * changed (a domain already marked so is left as it is, its comparison time moved on).
 */
export async function markMissing(
  ctx: WriteContext,
  current: DomainWithLinks,
  sponsor: string | null,
  note: RegistryNote & { roid?: string },
): Promise<boolean> {
  const registry = {
    roid: note.roid ?? current.registry?.roid ?? null,
    sponsor,
    missingSince: current.registry?.missingSince ?? ctx.at,
    reconciledAt: note.reconciledAt ?? current.registry?.reconciledAt ?? null,
  };
  const upsert = registryDomainUpsert(ctx.db, { domainId: current.id, repositoryId: current.repositoryId, ...registry });
  if (current.registry?.missingSince && current.registry.sponsor === sponsor) {
    await upsert;
    return false;
  }
  const differences: Difference[] = [
    { field: "registrar", ours: "this service", registry: sponsor === null ? "no such domain (2303)" : `sponsored by ${sponsor}` },
  ];
  const next: DomainWithLinks = { ...current, registry, version: current.version + 1, updatedAt: ctx.at };
  await writeChange(ctx, domainCollection, note.operation, current, {
    next,
    write: versionStep(ctx.db, domains, current, next),
    afterFromDatabase: afterNotes(differences, note),
    alongside: [upsert],
  });
  return true;
}

/**
 * The domain leaves its account (transferred to another registrar, deleted by the
 * registry): the domain and its name server links go, with one event (`operation`) whose
 * `before` is the domain as it was, with the registry's notes. Its subordinate hosts go with
 * it (at the registry they are the new sponsor's, or gone); one another domain of ours still
 * names stays as an external host (its name only), with an `update` event.
 */
export async function removeDomain(ctx: WriteContext, current: DomainWithLinks, note: RegistryNote): Promise<void> {
  const subordinate = await ctx.allAccounts.select().from(hosts).where(eq(hosts.domainId, current.id));
  const usedElsewhere = new Set(
    subordinate.length === 0
      ? []
      : (
          await ctx.allAccounts
            .selectDistinct({ hostId: domainNameservers.hostId })
            .from(domainNameservers)
            .where(
              and(
                inArray(
                  domainNameservers.hostId,
                  subordinate.map((h) => h.id),
                ),
                ne(domainNameservers.domainId, current.id),
              ),
            )
        ).map((r) => r.hostId),
  );
  const ownNames = new Set(current.nameservers);
  const hostWrites = subordinate.flatMap((host) => {
    const before = presentHost({ ...host, linked: ownNames.has(host.name) || usedElsewhere.has(host.id) });
    if (usedElsewhere.has(host.id)) {
      const after = { ...host, domainId: null, addresses: [], version: host.version + 1, updatedAt: ctx.at };
      return rowStatements(ctx, {
        statement: ctx.db
          .update(hosts)
          .set({ domainId: null, addresses: [], version: after.version, updatedAt: ctx.at })
          .where(and(eq(hosts.id, host.id), eq(hosts.version, host.version))),
        event: { account: host.accountId, type: "host", id: host.id, operation: "update", before, after: presentHost({ ...after, linked: true }) },
      });
    }
    return rowStatements(ctx, {
      statement: ctx.db.delete(hosts).where(and(eq(hosts.id, host.id), eq(hosts.version, host.version))),
      event: { account: host.accountId, type: "host", id: host.id, operation: "delete", before, after: null },
    });
  });
  const notes = Object.fromEntries(Object.entries(note.note ?? {}).map(([k, v]) => [`registry_${k}`, v]));
  await writeRemoval(ctx, domainCollection, note.operation, current, {
    before: { ...presentDomain(current), ...notes, ...(note.svTRID ? { registry_sv_trid: note.svTRID } : {}) },
    // The version step collides with any write since the read; the delete comes after the rows that point at the domain.
    write: versionStep(ctx.db, domains, current, { ...current, version: current.version + 1 }),
    alongside: [
      ...(note.alongside ?? []),
      ctx.db.delete(domainNameservers).where(eq(domainNameservers.domainId, current.id)),
      ...hostWrites,
      ctx.db.delete(domains).where(eq(domains.id, current.id)),
    ],
  });
}

/**
 * A domain transferred in (RFC 5731 §3.2.4, approved or auto-approved) joins the gaining
 * account: the registry's view (its dates, statuses, name servers, DS), our transfer ended
 * approved and pointing at the new domain, `transferPeriod` started and the transfer lock
 * with it. Its contacts stay the losing registrar's at the registry: the domain has none here
 * until the account sets them. Answers the domain.
 */
export async function joinDomain(
  ctx: WriteContext,
  cat: Catalog,
  transfer: RegistryTransferRow,
  view: RegistryDomainView,
  note: RegistryNote & { status: "approved" | "auto_approved" },
): Promise<DomainWithLinks> {
  const extensionId = [...cat.extensions.values()].filter((e) => view.name.endsWith(`.${e.id}`)).sort((a, b) => b.id.length - a.id.length)[0]!.id;
  const extension = cat.extensions.get(extensionId)!;
  const [zone] = await accountZoneNamed(ctx.db, view.name, transfer.accountId);
  const known = new Set((await hostsNamed(ctx.allAccounts, view.nameservers)).map((h) => h.name));
  const authInfo = view.authInfo ?? generateAuthInfo();
  const followed = followRegistry(
    {
      statuses: [],
      serverStatuses: [],
      expiresAt: view.expiresAt ?? ctx.at,
      nameservers: [],
      ds: [],
      registrantId: null,
      adminId: null,
      techId: null,
      billingId: null,
      authInfo,
      deleted: false,
    },
    view,
    { registrant: null, admin: null, tech: null, billing: null },
  ).next;
  const rgp = withGracePeriod([], ctx.now, { status: "transferPeriod", days: extension.graceTransfer });
  const next: DomainWithLinks = {
    id: newId("domain", ctx.now),
    accountId: transfer.accountId,
    name: view.name,
    extensionId,
    repositoryId: transfer.repositoryId,
    registrantId: null,
    adminId: null,
    techId: null,
    billingId: null,
    statuses: followed.statuses,
    serverStatuses: followed.serverStatuses,
    authInfo,
    autoRenew: true,
    expiresAt: followed.expiresAt,
    lastTransferAt: ctx.at,
    rgp,
    rgpEndsAt: earliestEnd(rgp),
    deletedAt: null,
    ds: followed.ds,
    version: 1,
    createdAt: ctx.at,
    updatedAt: ctx.at,
    nameservers: view.nameservers,
    zoneId: zone?.id ?? null,
    pendingTransfer: false,
    transferLockedUntil: transferLockedUntil(ctx.at, ctx.at, extension.transferLockDays),
    registry: { roid: view.roid, sponsor: null, missingSince: null, reconciledAt: null },
  };
  const { nameservers: _n, zoneId: _z, pendingTransfer: _p, transferLockedUntil: _t, registry: _r, ...row } = next;
  const links = nameserverLinks(
    ctx,
    next,
    view.nameservers,
    view.nameservers.filter((n) => !known.has(n)),
  );
  return writeChange(ctx, domainCollection, note.status === "approved" ? "transfer_approve" : "transfer_auto_approve", null, {
    next,
    write: ctx.db.insert(domains).values(row),
    afterFromDatabase: afterNotes([], { ...note, note: { ...note.note, transfer: transfer.id } }),
    alongside: [
      ...links.alongside,
      registryDomainUpsert(ctx.db, { domainId: next.id, repositoryId: transfer.repositoryId, roid: view.roid }),
      registryTransferEnd(ctx.db, transfer, note.status, ctx.at, next.id),
    ],
    guards: links.guards,
  });
}

/** What asking the registry about one domain found. */
export type Asked =
  | { found: "ours"; view: RegistryDomainView; svTRID: string }
  | { found: "theirs"; view: RegistryDomainView; svTRID: string }
  | { found: "none"; svTRID: string };

/**
 * `<domain:info>` of one name (RFC 5731 §3.1.2) through the gateway: ours when the registry
 * names `clientId` as its sponsor, theirs when another registrar, none on 2303. Throws the
 * gateway's 503 when the registry cannot be asked, and a refusal of another code as 503 too
 * (the registry's answer does not say what it holds).
 */
export async function askRegistry(settings: ConnectorSettings, repository: string, clientId: string, name: string, clTRID: string): Promise<Asked> {
  const { response } = await registryCommand(settings, repository, { kind: "domain:info", name, hosts: "all" }, clTRID);
  if (response.code === 2303) return { found: "none", svTRID: response.trID.svTRID };
  const view = registryDomainView(response);
  if (response.code !== 1000 || !view) throw new RegistryAnswerUnread(`${name}: the registry answered ${response.code} to <domain:info>`);
  // The view carries the authInfo the registry shows its sponsor (RFC 5731 §3.1.2).
  return view.clID === clientId ? { found: "ours", view, svTRID: response.trID.svTRID } : { found: "theirs", view, svTRID: response.trID.svTRID };
}

/** An info answer that tells nothing of the domain (neither its data nor 2303). */
export class RegistryAnswerUnread extends Error {}

/**
 * A transfer with another registrar as the API shows transfers (TransferSchema): our side
 * is the losing account of a transfer out and the gaining account of one in; `registrar`
 * names the other side (its clID at the registry).
 */
export function presentRegistryTransfer(row: RegistryTransferRow) {
  return {
    domain: row.domainId,
    name: row.name,
    status: row.status,
    gaining_account: row.direction === "in" ? row.accountId : null,
    losing_account: row.direction === "out" ? row.accountId : null,
    registrar: row.otherRegistrar,
    period: row.period,
    requested_at: row.requestedAt,
    act_by: row.actBy,
    acted_at: row.actedAt,
    price: null,
  };
}
