// A domain's operations at its repository's registry, when the repository has a connector
// (docs/registries.md, "What goes to the registry"): the contacts and hosts a domain uses
// created there first when the registry does not hold them from us, then the domain's own
// command; the registry's answer decides, and D1 is written only after its success, in the
// write's one batch (with the rows that record what the registry now holds). A request's
// operation may run again when its batch lost a race (src/http/writes.ts): each command is
// sent once per request (`once`), so a retried decision reuses the registry's answer and
// never sends a transform twice.
import type { Context } from "hono";
import { type SQL, sql } from "drizzle-orm";
import { accepted, resDataOf } from "../../connector/answers";
import {
  type ContactFields,
  contactCreateCommand,
  domainAtRegistry,
  domainUpdateCommand,
  dsData,
  hostCreateCommand,
  type RegistryContacts,
} from "../../connector/commands";
import { type ConnectorSettings, isConnected } from "../../connector/config";
import { clientTransactionId, registryCommand } from "../../connector/gateway";
import { registryContactId } from "../../epp/ids";
import type { EppCommand, EppResponse } from "../../epp/types";
import type { Database } from "../../db/client";
import { type RegistryObjectRow, registryObjectInsert, registryObjectsHeld, registryObjectsOf } from "../../db/registry-objects";
import { contacts as contactsTable, hosts as hostsTable } from "../../db/schema";
import { inArray } from "drizzle-orm";
import type { AppEnv } from "../../env";
import { ApiError } from "../../http/problem";
import { generateAuthInfo } from "../../registry/auth-info";

/** What the registry answered a command that it accepted. */
export interface RegistryDone {
  outcome: "done" | "pending";
  svTRID: string;
  /** The clTRID it was sent under (a panData settling it names it in `paTRID.clTRID`). */
  clTRID: string;
  response: EppResponse;
}

/** A connected repository's registry, as one request's operation uses it. */
export interface DomainRegistry {
  repository: string;
  /** Sends the command (once per request and key) and answers its acceptance, or throws its problem. */
  send(key: string, command: EppCommand, what: string): Promise<RegistryDone>;
  /** Sends the command and answers the registry's response whatever its code (for answers read as data: 2302 on a create). */
  ask(key: string, command: EppCommand): Promise<EppResponse>;
}

/** The registry of a connected repository; null for a builtin one (the service is its registry). */
export function domainRegistry(c: Context<AppEnv>, repository: string): DomainRegistry | null {
  if (!isConnected(c.env, repository)) return null;
  return registryWith(c.env, repository, clientTransactionId(c.get("requestId")));
}

/** A connected repository's registry for work that is no request's (the sweep): its commands under `clTRID`. */
export function registryWith(settings: ConnectorSettings, repository: string, clTRID: string): DomainRegistry {
  const sent = new Map<string, Promise<EppResponse>>();
  const ask = (key: string, command: EppCommand) => {
    let answer = sent.get(key);
    if (!answer) {
      answer = registryCommand(settings, repository, command, clTRID).then((reply) => reply.response);
      // A failure is not kept: a retry of the decision may send again what never reached the registry.
      answer.catch(() => sent.delete(key));
      sent.set(key, answer);
    }
    return answer;
  };
  return {
    repository,
    ask,
    async send(key, command, what) {
      const response = await ask(key, command);
      const { outcome, svTRID } = accepted(response, what);
      return { outcome, svTRID, clTRID, response };
    },
  };
}

/** The event of a registry write names the registry's transaction (`registry_sv_trid` in its `after`). */
export function registryTransaction(svTRID: string | undefined): Record<string, SQL> | undefined {
  return svTRID ? { "$.registry_sv_trid": sql`${svTRID}` } : undefined;
}

/**
 * What a registration needs of D1 before its commands: the ids the registry holds its
 * contacts and hosts by. One statement for the registration's first read batch, so that a
 * connected registration whose objects the registry holds costs the round trips of a
 * builtin one: nothing more is read before the registry is asked. An object the registry
 * does not hold yet costs, besides its create there, one read of what the create carries
 * (the contact's fields, the host's glue). `holdings` reads its answer.
 */
export function registryHoldingReads(db: Database, repository: string, contactIds: readonly string[], hostNames: readonly string[]) {
  return [registryObjectsHeld(db, repository, { contacts: contactIds, hosts: hostNames })] as const;
}

/** What registryHoldingReads read, for contactsAtRegistry and hostsAtRegistry: the rows of each kind. */
export interface RegistryHoldings {
  contacts: RegistryObjectRow[];
  hosts: RegistryObjectRow[];
}

export function holdings([rows]: readonly [RegistryObjectRow[]], contactIds: readonly string[], hostNames: readonly string[]): RegistryHoldings {
  return {
    contacts: rows.filter((r) => r.objectType === "contact" && contactIds.includes(r.objectId)),
    hosts: rows.filter((r) => r.objectType === "host" && hostNames.includes(r.objectId)),
  };
}

/** How many ids are tried for one contact when the registry holds the first ones from another registrar. */
const CONTACT_ID_ATTEMPTS = 3;

/**
 * The registry's ids of our contacts, each created there first when the registry does not
 * hold it from us (RFC 5733 §3.2.1), with the rows that record what it now holds. An id the
 * registry already has (2302) is ours when its info shows our contact's email (a create of
 * ours whose D1 write never committed), else the next derived id is tried. `known`: what
 * registryHoldingReads read in the caller's batch (else read here).
 */
export async function contactsAtRegistry(
  registry: DomainRegistry,
  db: Database,
  ids: readonly string[],
  at: string,
  known?: RegistryHoldings["contacts"],
): Promise<{ registryIds: Map<string, string>; rows: ReturnType<typeof registryObjectInsert>[] }> {
  const wanted = [...new Set(ids)];
  const registryIds = new Map<string, string>();
  const rows: ReturnType<typeof registryObjectInsert>[] = [];
  if (wanted.length === 0) return { registryIds, rows };
  const held = known ?? (await registryObjectsOf(db, registry.repository, "contact", wanted));
  for (const row of held) if (wanted.includes(row.objectId)) registryIds.set(row.objectId, row.registryId);
  const missing = wanted.filter((id) => !registryIds.has(id));
  if (missing.length === 0) return { registryIds, rows };
  const found = await db.select().from(contactsTable).where(inArray(contactsTable.id, missing));
  for (const contact of found) {
    const { registryId, roid } = await contactCreatedAtRegistry(registry, contact, contact.id, contact.id);
    registryIds.set(contact.id, registryId);
    rows.push(registryObjectInsert(db, { repositoryId: registry.repository, objectType: "contact", objectId: contact.id, registryId, roid, createdAt: at }));
  }
  return { registryIds, rows };
}

/**
 * One contact created at the registry (RFC 5733 §3.2.1) under the id derived from `derivedFrom`
 * (registryContactId: the same every time, so that a create whose answer was lost, or a
 * request tried again, finds its own). An id the registry already has (2302) is ours when its
 * info shows the contact's email, else the next derived id is tried. `ours`: the contact's id
 * here, for the messages.
 */
export async function contactCreatedAtRegistry(
  registry: DomainRegistry,
  fields: ContactFields,
  ours: string,
  derivedFrom: string,
): Promise<{ registryId: string; roid: string | null }> {
  for (let attempt = 0; attempt < CONTACT_ID_ATTEMPTS; attempt++) {
    const id = registryContactId(derivedFrom, { attempt });
    const response = await registry.ask(`contact:create:${id}`, contactCreateCommand(fields, id, generateAuthInfo()));
    if (response.code === 2302) {
      const info = await registry.ask(`contact:info:${id}`, { kind: "contact:info", id });
      const data = resDataOf(info, "contact:infData");
      if (info.code === 1000 && data && data.email.toLowerCase() === fields.email.toLowerCase()) return { registryId: id, roid: data.roid };
      continue;
    }
    accepted(response, `Creating contact ${ours} at the ${registry.repository} registry`);
    return { registryId: id, roid: null };
  }
  throw new ApiError(
    "unavailable",
    `The ${registry.repository} registry holds every id tried for contact ${ours} from another registrar; nothing was changed.`,
  );
}

/** The registry ids of a domain's contacts by role. */
export function registryContacts(
  assigned: { registrant: string | null; admin: string | null; tech: string | null; billing: string | null },
  ids: ReadonlyMap<string, string>,
): RegistryContacts {
  const of = (id: string | null) => (id === null ? null : (ids.get(id) ?? null));
  return { registrant: of(assigned.registrant), admin: of(assigned.admin), tech: of(assigned.tech), billing: of(assigned.billing) };
}

/**
 * Host objects for name servers (RFC 5732 §3.2.1), created at the registry first when it
 * does not hold them from us: an external host without addresses, a subordinate one with
 * its glue (the addresses we hold for it). A host the registry already has (2302) is used
 * as it is. The caller leaves out hosts subordinate to a domain the registry does not hold
 * yet, and creates them once it does. `known`: what registryHoldingReads read in the
 * caller's batch (else read here).
 */
export async function hostsAtRegistry(
  registry: DomainRegistry,
  db: Database,
  allAccounts: Database,
  names: readonly string[],
  at: string,
  known?: RegistryHoldings["hosts"],
): Promise<ReturnType<typeof registryObjectInsert>[]> {
  if (names.length === 0) return [];
  const glueOf = (wanted: readonly string[]) =>
    allAccounts
      .select({ name: hostsTable.name, addresses: hostsTable.addresses, domainId: hostsTable.domainId })
      .from(hostsTable)
      .where(inArray(hostsTable.name, [...wanted]));
  // Known: the glue is read only for hosts to create. Else both at once.
  const [heldRows, knownGlue] = known ? [known, null] : await Promise.all([registryObjectsOf(db, registry.repository, "host", names), glueOf(names)]);
  const held = new Set(heldRows.map((r) => r.objectId));
  const missing = names.filter((name) => !held.has(name));
  if (missing.length === 0) return [];
  const hostRows = knownGlue ?? (await glueOf(missing));
  const glue = new Map(hostRows.filter((h) => h.domainId !== null).map((h) => [h.name, h.addresses]));
  const rows: ReturnType<typeof registryObjectInsert>[] = [];
  for (const name of names) {
    if (held.has(name)) continue;
    const response = await registry.ask(`host:create:${name}`, hostCreateCommand(name, glue.get(name) ?? []));
    if (response.code === 2302) continue;
    accepted(response, `Creating host ${name} at the ${registry.repository} registry`);
    rows.push(registryObjectInsert(db, { repositoryId: registry.repository, objectType: "host", objectId: name, registryId: name, roid: null, createdAt: at }));
  }
  return rows;
}

type DomainState = Parameters<typeof domainAtRegistry>[0] & { name: string };

/**
 * A domain's change at its registry (RFC 5731 §3.2.5): the contacts and name servers it
 * newly names created there first, then one `<domain:update>` from what the registry holds
 * to what the change leaves (none when nothing it holds differs). Answers the rows to write
 * in the change's batch, the registry's transaction id and whether it took the update
 * (`done`) or holds it for review (1001: `pending`, settled by its poll message).
 */
export async function updateAtRegistry(
  registry: DomainRegistry,
  db: Database,
  allAccounts: Database,
  before: DomainState,
  after: DomainState,
  at: string,
): Promise<{ rows: ReturnType<typeof registryObjectInsert>[]; svTRID?: string; clTRID?: string; outcome?: "done" | "pending" }> {
  const contactIds = [before.registrantId, before.adminId, before.techId, before.billingId, after.registrantId, after.adminId, after.techId, after.billingId];
  const contacts = await contactsAtRegistry(
    registry,
    db,
    contactIds.filter((id): id is string => id !== null),
    at,
  );
  const added = after.nameservers.filter((n) => !before.nameservers.includes(n));
  const hostRows = await hostsAtRegistry(registry, db, allAccounts, added, at);
  const command = domainUpdateCommand(before.name, domainAtRegistry(before, contacts.registryIds), domainAtRegistry(after, contacts.registryIds));
  const rows = [...contacts.rows, ...hostRows];
  if (!command) return { rows };
  const done = await registry.send("domain:update", command, `Updating ${before.name} at the ${registry.repository} registry`);
  return { rows, svTRID: done.svTRID, clTRID: done.clTRID, outcome: done.outcome };
}

/**
 * A domain's DS set replaced at its registry (secDNS:update with `<secDNS:rem><secDNS:all>`,
 * then the set: RFC 5910 §5.2.5), for writes that set it whole (DNSSEC's one-click DS,
 * src/resources/dnssec/): whatever an earlier attempt of the same request left there, the
 * registry ends with exactly this set. Nothing for a builtin repository; otherwise whether
 * the registry took it (1000: `done`) or holds it for review (1001: `pending`, settled by its
 * poll message), and its transaction id.
 */
export async function replaceDsAtRegistry(
  c: Context<AppEnv>,
  domain: { name: string; repositoryId: string },
  ds: readonly { key_tag: number; algorithm: number; digest_type: number; digest: string }[],
): Promise<{ outcome: "done" | "pending"; svTRID: string } | undefined> {
  const registry = domainRegistry(c, domain.repositoryId);
  if (!registry) return undefined;
  const command: EppCommand = { kind: "domain:update", name: domain.name, ds: { rem: "all", ...(ds.length > 0 ? { add: dsData(ds) } : {}) } };
  const { outcome, svTRID } = await registry.send("domain:update:ds", command, `Publishing ${domain.name}'s DS at the ${registry.repository} registry`);
  return { outcome, svTRID };
}
