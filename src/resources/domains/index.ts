import { and, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { catalog, type Catalog } from "../../db/catalog";
import type { Database } from "../../db/client";
import { writeFailure } from "../../db/errors";
import { eventInsert, previousStatementChanged, rowExists } from "../../db/events";
import { newId } from "../../db/ids";
import { failUnless } from "../../db/guards";
import { adoptableHosts, adoptSubordinateHosts, contactsHaveAddress, domainsNamed, hostsNamed, linksNameservers } from "../../db/registry";
import { domainNameservers, domains, hosts } from "../../db/schema";
import { isIdnName, reversedName, toUnicodeName } from "../../dns/name";
import { actorOf } from "../../http/actor";
import { checkIfMatch } from "../../http/etag";
import { notFound, resourceRef } from "../../http/lookup";
import { pageRequest, pageResponse } from "../../http/pagination";
import { queryError } from "../../http/query";
import { ApiError, type FieldError } from "../../http/problem";
import { sendResource, sendWritten } from "../../http/respond";
import { createRouter } from "../../http/router";
import { nameList } from "../../http/text";
import { withVersionRetry, VersionConflict } from "../../http/writes";
import type { DomainContactRole } from "../../registry/contacts";
import { matchRegistrableName } from "../../registry/extensions";
import { normalizeHostName } from "../../registry/hosts";
import { expiryAfter, periodProblem } from "../../registry/periods";
import { canonicalStatuses, clientStatusProblem, deleteProhibited, domainStatus, updateProhibited, type ClientStatus } from "../../registry/statuses";
import { checkContacts, checkNameserverCount, contactsNeedingAddress, normalizeNameservers, planNameservers, superordinateCandidates } from "./links";
import { newFindings, throwFindings, type Findings } from "../../http/findings";
import { contactsById, domainPosition, findDomain, listDomains, subordinateHostNames, zoneNamed, type DomainFilters, type DomainWithLinks } from "./queries";
import { presentHost } from "../hosts/present";
import type { HostWithLinks } from "../hosts/queries";
import * as routes from "./routes";
import { domainRdapView } from "./rdap";
import { rdapContext, sendRdap, wantsRdap } from "../../http/rdap";
import type { Domain, DomainListItem, DomainListQueryInput } from "./schemas";

export function presentDomainListItem(row: DomainWithLinks): DomainListItem {
  return {
    id: row.id,
    name: row.name,
    unicode_name: toUnicodeName(row.name),
    extension: row.extensionId,
    repository: row.repositoryId,
    status: domainStatus(row.statuses, row.nameservers.length),
    registrant: row.registrantId,
    contacts: { admin: row.adminId, tech: row.techId, billing: row.billingId },
    nameservers: row.nameservers,
    auto_renew: row.autoRenew,
    expires_at: row.expiresAt,
    zone: row.zoneId,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export function presentDomain(row: DomainWithLinks): Domain {
  const { zone, created_at, updated_at, ...rest } = presentDomainListItem(row);
  return { ...rest, auth_info: row.authInfo, zone, created_at, updated_at };
}

/** Filters as given in the query, normalised like names in bodies. */
function domainFilters(query: DomainListQueryInput): DomainFilters {
  const errors: FieldError[] = [];
  const name = (field: "name" | "nameserver" | "extension", value: string | undefined) => {
    if (value === undefined) return undefined;
    const normalized = normalizeHostName(field === "extension" ? `x.${value.replace(/^\./, "")}` : value);
    if (!normalized.ok) {
      errors.push({ field, message: `"${value}" ${normalized.error}` });
      return undefined;
    }
    return field === "extension" ? normalized.name.slice(2) : normalized.name;
  };
  const filters: DomainFilters = {
    name: name("name", query.name),
    nameserver: name("nameserver", query.nameserver),
    extension: name("extension", query.extension),
    q: query.q?.toLowerCase(),
    repository: query.repository,
    status: query.status,
    registrant: query.registrant,
    contact: query.contact,
    expiresBefore: query.expires_before,
    expiresAfter: query.expires_after,
  };
  if (errors.length > 0) throw queryError(errors);
  return filters;
}

function generateAuthInfo(): string {
  // 20 characters from a 64-symbol alphabet: 120 bits, well beyond guessing.
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  return Array.from(crypto.getRandomValues(new Uint8Array(20)), (b) => alphabet[b % 64]).join("");
}

function checkStatuses(statuses: readonly string[] | undefined, findings: Findings): ClientStatus[] {
  if (!statuses) return [];
  statuses.forEach((status, index) => {
    const problem = clientStatusProblem(status);
    if (problem) findings.invalid.push({ field: `status[${index}]`, message: problem });
  });
  return canonicalStatuses(statuses as ClientStatus[]);
}

const HOST_ROWS_PER_INSERT = 10;

/** The external host objects a domain write creates for name servers nobody has created. */
function externalHostRows(names: readonly string[], at: string): HostWithLinks[] {
  return names.map((name) => ({
    id: newId("host", new Date(at)),
    name,
    reversedName: reversedName(name),
    domainId: null,
    addresses: [],
    version: 1,
    createdAt: at,
    updatedAt: at,
    linked: true,
  }));
}

/**
 * Links a domain to its name servers, in order, creating the external hosts it names,
 * each with its `create` event: only a host this batch really inserted gets one.
 */
function nameserverWrites(
  db: Database,
  domainId: string,
  names: readonly string[],
  newHosts: readonly HostWithLinks[],
  at: string,
  actor: string,
): BatchItem<"sqlite">[] {
  const writes: BatchItem<"sqlite">[] = [];
  // D1 binds at most 100 parameters a statement: a host row has 8 columns.
  for (let i = 0; i < newHosts.length; i += HOST_ROWS_PER_INSERT) {
    const chunk = newHosts.slice(i, i + HOST_ROWS_PER_INSERT);
    writes.push(
      db
        .insert(hosts)
        .values(chunk.map(({ linked: _linked, version: _version, ...row }) => row))
        // Another request may create the same external host at the same moment: either row serves.
        .onConflictDoNothing({ target: hosts.name }),
    );
  }
  for (const host of newHosts) {
    writes.push(
      eventInsert(
        db,
        { at, actor, type: "host", id: host.id, operation: "create", before: null, after: presentHost(host) },
        { onlyIf: rowExists(hosts, eq(hosts.id, host.id)) },
      ),
    );
  }
  if (names.length > 0) {
    const position = sql.join(
      names.map((name, index) => sql`when ${name} then ${index}`),
      sql` `,
    );
    writes.push(
      db.insert(domainNameservers).select(
        db
          .select({
            domainId: sql<string>`${domainId}`.as("domain_id"),
            hostId: hosts.id,
            position: sql<number>`case ${hosts.name} ${position} end`.as("position"),
          })
          .from(hosts)
          .where(inArray(hosts.name, [...names])),
      ),
      // A host read as existing may be deleted or renamed before this batch runs: the
      // insert…select above would then link fewer hosts than named, so the batch fails.
      failUnless(db, { type: "domain", id: domainId }, linksNameservers(domainId, names.length)),
    );
  }
  return writes;
}

/**
 * The contacts this write assigns still have the postal address their roles need when the
 * batch commits: a PATCH of the contact may clear it between the check and the write.
 */
function contactPolicyGuard(db: Database, domainId: string, assigned: Partial<Record<DomainContactRole, string | null>>): BatchItem<"sqlite">[] {
  const ids = contactsNeedingAddress(assigned);
  return ids.length === 0 ? [] : [failUnless(db, { type: "domain", id: domainId }, contactsHaveAddress(ids))];
}

async function requireRepository(db: Database, repository: string): Promise<Catalog> {
  const cat = await catalog(db);
  if (!cat.repositories.has(repository)) throw notFound("repository", repository);
  return cat;
}

export const domainsRouter = createRouter()
  .openapi(routes.listDomains, async (c) => {
    const query = c.req.valid("query");
    const filters = domainFilters(query);
    const page = await pageRequest(c, query);
    const rows = await listDomains(c.get("db"), filters, query.sort, page);
    return c.json(await pageResponse(c, page, rows, (r) => domainPosition(r, query.sort), presentDomainListItem), 200);
  })
  .openapi(routes.listRepositoryDomains, async (c) => {
    const { repository } = c.req.valid("param");
    const query = c.req.valid("query");
    const db = c.get("db");
    await requireRepository(db, repository);
    const filters = domainFilters(query);
    filters.heldBy = repository;
    const page = await pageRequest(c, query);
    const rows = await listDomains(db, filters, query.sort, page);
    return c.json(await pageResponse(c, page, rows, (r) => domainPosition(r, query.sort), presentDomainListItem), 200);
  })
  .openapi(routes.getDomain, async (c) => {
    const segment = c.req.valid("param").domain;
    const row = await findDomain(c.get("db"), resourceRef(segment, "domain")).get();
    if (!row) throw notFound("domain", segment);
    if (wantsRdap(c.req.header("accept"))) return sendRdap(c, await domainRdapView(c.get("db"), presentDomain(row), rdapContext(c)));
    return sendResource(c, presentDomain(row), row.version);
  })
  .openapi(routes.createDomain, async (c) => {
    const input = c.req.valid("json");
    const db = c.get("db");
    const cat = await catalog(db);
    // A guard that fails (a named host vanished meanwhile) sends the whole create round again.
    const created = await withVersionRetry(c, async () => {
      const findings = newFindings();

      // The name, its extension and the period (RFC 5731 §3.2.1).
      const normalized = normalizeHostName(input.name);
      const name = normalized.ok ? normalized.name : "";
      if (!normalized.ok) findings.invalid.push({ field: "name", message: `"${input.name}" ${normalized.error}` });
      const match = normalized.ok ? matchRegistrableName(name, cat.extensions) : null;
      if (match && !match.ok) findings.invalid.push({ field: "name", message: `${name} ${match.error}` });
      const extension = match?.ok ? match.match.extension : undefined;
      const period = input.period ?? extension?.periodMin ?? 1;
      if (extension && !extension.idn && isIdnName(name)) {
        findings.policy.push({ field: "name", message: `.${extension.id} does not register internationalised (IDN) names` });
      }
      if (!Number.isInteger(period)) findings.invalid.push({ field: "period", message: "must be a whole number of years" });
      else if (extension) {
        const problem = periodProblem(period, { min: extension.periodMin, max: extension.periodMax }, extension.id);
        if (problem) findings.policy.push({ field: "period", message: problem });
      }

      const statuses = checkStatuses(input.status, findings);
      const nameservers = normalizeNameservers(input.nameservers ?? [], findings);
      if (extension) checkNameserverCount((input.nameservers ?? []).length, extension, findings);
      const assigned: Record<DomainContactRole, string | null> = {
        registrant: input.registrant ?? null,
        admin: input.contacts?.admin ?? null,
        tech: input.contacts?.tech ?? null,
        billing: input.contacts?.billing ?? null,
      };
      const contactIds = [...new Set(Object.values(assigned).filter((id): id is string => id !== null))];

      const [taken, contactRows, knownHosts, managed, zone, adopted] = await db.batch([
        domainsNamed(db, name ? [name] : []),
        contactsById(db, contactIds),
        hostsNamed(db, nameservers),
        domainsNamed(db, superordinateCandidates(nameservers, cat.extensions)),
        zoneNamed(db, name),
        adoptableHosts(db, name),
      ]);
      checkContacts(assigned, new Map(contactRows.map((r) => [r.id, r])), findings);
      const managedNames = new Set([...managed.map((d) => d.name), name]);
      const newExternal = planNameservers(nameservers, new Set(knownHosts.map((h) => h.name)), managedNames, cat.extensions, findings);
      throwFindings(findings);
      if (!extension) throw new ApiError("validation_failed", `${name} has no extension here.`); // reported above; narrows the type
      if (taken.length > 0) throw new ApiError("already_exists", `The domain ${name} is already registered.`);

      const now = new Date();
      const at = now.toISOString();
      const row: DomainWithLinks = {
        id: newId("domain", now),
        name,
        extensionId: extension.id,
        repositoryId: extension.repositoryId,
        registrantId: assigned.registrant,
        adminId: assigned.admin,
        techId: assigned.tech,
        billingId: assigned.billing,
        statuses,
        authInfo: input.auth_info ?? generateAuthInfo(),
        autoRenew: input.auto_renew ?? true,
        expiresAt: expiryAfter(now, period).toISOString(),
        version: 1,
        createdAt: at,
        updatedAt: at,
        nameservers,
        zoneId: zone[0]?.id ?? null,
      };
      const { nameservers: _names, zoneId: _zone, ...domainRow } = row;
      const actor = actorOf(c);
      try {
        await db.batch([
          db.insert(domains).values(domainRow),
          ...contactPolicyGuard(db, row.id, assigned),
          eventInsert(db, { at, actor, type: "domain", id: row.id, operation: "create", before: null, after: presentDomain(row) }),
          ...nameserverWrites(db, row.id, nameservers, externalHostRows(newExternal, at), at, actor),
          adoptSubordinateHosts(db, row.id, name, at),
          // The hosts it adopts change too (their `domain`); each gets an `update` event.
          ...adopted.map((host) => {
            const next = { ...host, domainId: row.id, version: host.version + 1, updatedAt: at, linked: host.linked || nameservers.includes(host.name) };
            return eventInsert(
              db,
              { at, actor, type: "host", id: host.id, operation: "update", before: presentHost(host), after: presentHost(next) },
              { onlyIf: rowExists(hosts, and(eq(hosts.id, host.id), eq(hosts.domainId, row.id), eq(hosts.version, next.version))!) },
            );
          }),
        ] as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
      } catch (error) {
        if (writeFailure(error) === "unique") throw new ApiError("already_exists", `The domain ${name} is already registered.`);
        throw error;
      }
      return row;
    });
    return sendWritten(c, presentDomain(created), created.version, 201, `/v1/domains/${created.id}`);
  })
  .openapi(routes.updateDomain, async (c) => {
    const segment = c.req.valid("param").domain;
    const patch = c.req.valid("json");
    const db = c.get("db");
    const cat = await catalog(db);
    const ref = resourceRef(segment, "domain");

    const updated = await withVersionRetry(c, async () => {
      const findings = newFindings();
      const nextStatuses = patch.status === undefined ? undefined : checkStatuses(patch.status ?? [], findings);
      const nameservers = patch.nameservers === undefined ? undefined : normalizeNameservers(patch.nameservers ?? [], findings);
      const assigned: Partial<Record<DomainContactRole, string | null>> = {};
      if (patch.registrant !== undefined) assigned.registrant = patch.registrant;
      if (patch.contacts === null) Object.assign(assigned, { admin: null, tech: null, billing: null });
      else if (patch.contacts) {
        for (const role of ["admin", "tech", "billing"] as const) if (patch.contacts[role] !== undefined) assigned[role] = patch.contacts[role];
      }
      const contactIds = [...new Set(Object.values(assigned).filter((id): id is string => typeof id === "string"))];

      const [currentRows, contactRows, knownHosts, managed] = await db.batch([
        findDomain(db, ref),
        contactsById(db, contactIds),
        hostsNamed(db, nameservers ?? []),
        domainsNamed(db, superordinateCandidates(nameservers ?? [], cat.extensions)),
      ]);
      const current = currentRows[0];
      if (!current) throw notFound("domain", segment);
      checkIfMatch(c, current.version, presentDomain(current));
      // RFC 5731 §2.3: clientUpdateProhibited forbids every change but its own removal.
      if (updateProhibited(current.statuses, nextStatuses)) {
        throw new ApiError(
          "status_prohibits",
          `${current.name} has clientUpdateProhibited; remove it (set status without it) before or while changing anything else.`,
        );
      }
      const extension = cat.extensions.get(current.extensionId)!;
      if (nameservers) checkNameserverCount((patch.nameservers ?? []).length, extension, findings);
      checkContacts(assigned, new Map(contactRows.map((r) => [r.id, r])), findings);
      const newExternal = nameservers
        ? planNameservers(nameservers, new Set(knownHosts.map((h) => h.name)), new Set([...managed.map((d) => d.name), current.name]), cat.extensions, findings)
        : [];
      throwFindings(findings);

      const next: DomainWithLinks = {
        ...current,
        registrantId: assigned.registrant === undefined ? current.registrantId : assigned.registrant,
        adminId: assigned.admin === undefined ? current.adminId : assigned.admin,
        techId: assigned.tech === undefined ? current.techId : assigned.tech,
        billingId: assigned.billing === undefined ? current.billingId : assigned.billing,
        statuses: nextStatuses ?? current.statuses,
        authInfo: patch.auth_info ?? current.authInfo,
        autoRenew: patch.auto_renew ?? current.autoRenew,
        nameservers: nameservers ?? current.nameservers,
      };
      if (JSON.stringify(presentDomain(next)) === JSON.stringify(presentDomain(current))) return current;

      const at = new Date().toISOString();
      const nameserversChanged = JSON.stringify(next.nameservers) !== JSON.stringify(current.nameservers);
      const written = { ...next, version: current.version + 1, updatedAt: at };
      const actor = actorOf(c);
      await db.batch([
        db
          .update(domains)
          .set({
            registrantId: next.registrantId,
            adminId: next.adminId,
            techId: next.techId,
            billingId: next.billingId,
            statuses: next.statuses,
            authInfo: next.authInfo,
            autoRenew: next.autoRenew,
            version: current.version + 1,
            updatedAt: at,
          })
          .where(eq(domains.id, current.id)),
        eventInsert(
          db,
          { at, actor, type: "domain", id: current.id, operation: "update", before: presentDomain(current), after: presentDomain(written) },
          { onlyIf: previousStatementChanged },
        ),
        ...contactPolicyGuard(db, current.id, assigned),
        ...(nameserversChanged
          ? [
              db.delete(domainNameservers).where(eq(domainNameservers.domainId, current.id)),
              ...nameserverWrites(db, current.id, next.nameservers, externalHostRows(newExternal, at), at, actor),
            ]
          : []),
      ] as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
      return written;
    });
    return sendWritten(c, presentDomain(updated), updated.version, 200);
  })
  .openapi(routes.deleteDomain, async (c) => {
    const segment = c.req.valid("param").domain;
    const db = c.get("db");
    const ref = resourceRef(segment, "domain");
    await withVersionRetry(c, async () => {
      const [currentRows] = await db.batch([findDomain(db, ref)]);
      const current = currentRows[0];
      if (!current) throw notFound("domain", segment);
      checkIfMatch(c, current.version, presentDomain(current));
      if (deleteProhibited(current.statuses)) {
        throw new ApiError("status_prohibits", `${current.name} has clientDeleteProhibited; remove that status first.`);
      }
      const subordinateProblem = async () => {
        const rows = await subordinateHostNames(db, current.id);
        const names = rows.slice(0, 5).map((r) => r.name);
        return new ApiError("object_linked", `${current.name} has subordinate hosts (${nameList(names, rows.length > 5)}); delete or rename them first.`);
      };
      const subordinate = await subordinateHostNames(db, current.id, 0);
      if (subordinate.length > 0) throw await subordinateProblem();
      try {
        const [result] = await db.batch([
          db.delete(domains).where(and(eq(domains.id, current.id), eq(domains.version, current.version))),
          eventInsert(
            db,
            {
              at: new Date().toISOString(),
              actor: actorOf(c),
              type: "domain",
              id: current.id,
              operation: "delete",
              before: presentDomain(current),
              after: null,
            },
            { onlyIf: previousStatementChanged },
          ),
        ]);
        if (result.meta.changes === 0) throw new VersionConflict();
      } catch (error) {
        // A subordinate host was created between the check and the delete.
        if (writeFailure(error) === "foreign_key") throw await subordinateProblem();
        throw error;
      }
    });
    return c.body(null, 204);
  });
