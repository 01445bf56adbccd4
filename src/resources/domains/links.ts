// How a domain write writes its links: the name server links (in order), the external
// hosts it creates for names nobody has created, the hosts a registration adopts, each
// changed host with its own event, and the guards that hold the links' rules at commit.
import { and, eq, exists, inArray, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { chunkedEventInserts, eventInsert, rowExists } from "../../db/events";
import { guard } from "../../db/guards";
import { newId } from "../../db/ids";
import { adoptSubordinateHosts, contactsHaveAddress, linksNameservers } from "../../db/links";
import { domainNameservers, hosts } from "../../db/schema";
import { reversedName } from "../../dns/name";
import type { Statement, WriteContext } from "../../db/write";
import { type AssignedContacts, contactsNeedingAddress } from "../../registry/contacts";
import { type HostWithLinks, presentHost } from "../../db/hosts";

// D1 binds at most 100 parameters a statement: a host row has 8 columns.
const HOST_ROWS_PER_INSERT = 10;

/** The external host objects a domain write creates for name servers nobody has created. */
function externalHostRows(names: readonly string[], accountId: string, at: string): HostWithLinks[] {
  return names.map((name) => ({
    id: newId("host", new Date(at)),
    accountId,
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
 * Links a domain to its name servers, in order, creating the external hosts named in
 * `external`, each with its `create` event (only a host this batch really inserted gets
 * one). The guard fails the batch when a host read as existing was deleted or renamed
 * before it ran: the insert…select would link fewer hosts than named.
 */
export function nameserverLinks(ctx: WriteContext, domain: { id: string; accountId: string }, names: readonly string[], external: readonly string[]) {
  const { db, at, actor } = ctx;
  const domainId = domain.id;
  // A new external name server host belongs to the domain's account (docs/accounts.md).
  const newHosts = externalHostRows(external, domain.accountId, at);
  const alongside: Statement[] = [];
  for (let i = 0; i < newHosts.length; i += HOST_ROWS_PER_INSERT) {
    const chunk = newHosts.slice(i, i + HOST_ROWS_PER_INSERT);
    // Another request may create the same external host at the same moment: either row serves.
    alongside.push(
      db
        .insert(hosts)
        .values(chunk.map(({ linked: _linked, version: _version, ...row }) => row))
        .onConflictDoNothing({ target: hosts.name }),
    );
  }
  for (const host of newHosts) {
    const event = {
      at,
      actor,
      account: host.accountId,
      type: "host" as const,
      id: host.id,
      operation: "create" as const,
      before: null,
      after: presentHost(host),
    };
    alongside.push(eventInsert(db, event, { onlyIf: rowExists(hosts, eq(hosts.id, host.id)) }));
  }
  if (names.length === 0) return { alongside, guards: [] };
  const position = sql.join(
    names.map((name, index) => sql`when ${name} then ${index}`),
    sql` `,
  );
  alongside.push(
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
  );
  return { alongside, guards: [guard(db, "every name server is linked", linksNameservers(domainId, names.length))] };
}

/** Replaces a domain's name server links. */
export function replaceNameserverLinks(ctx: WriteContext, domain: { id: string; accountId: string }, names: readonly string[], external: readonly string[]) {
  const links = nameserverLinks(ctx, domain, names, external);
  return { alongside: [ctx.db.delete(domainNameservers).where(eq(domainNameservers.domainId, domain.id)), ...links.alongside], guards: links.guards };
}

/**
 * The contacts a write assigns still have the postal address their roles need when the
 * batch commits: a PATCH of the contact may clear it between the check and the write.
 */
export function contactAddressGuards(db: Database, _domainId: string, assigned: AssignedContacts): Statement[] {
  const ids = contactsNeedingAddress(assigned);
  return ids.length === 0 ? [] : [guard(db, "the contacts have an address", contactsHaveAddress(ids))];
}

/**
 * The external hosts under a newly registered domain become its subordinates (RFC 5732
 * §1.1: they are now in-bailiwick); each gets an `update` event, written only if the
 * batch changed it as read.
 */
export function adoptionWrites(
  ctx: WriteContext,
  domain: { id: string; name: string; accountId: string },
  adopted: readonly HostWithLinks[],
  nameservers: readonly string[],
): Statement[] {
  const { db, at, actor } = ctx;
  // One event per adopted host, written in JSON chunks (their number is not the request's
  // to bound), each only if the adoption changed that host to exactly this version.
  const adoptionEvents = adopted.map((host) => {
    const next = { ...host, domainId: domain.id, version: host.version + 1, updatedAt: at, linked: host.linked || nameservers.includes(host.name) };
    return {
      at,
      actor,
      account: host.accountId,
      type: "host" as const,
      id: host.id,
      operation: "update" as const,
      before: presentHost(host),
      after: presentHost(next),
      guard: next.version,
    };
  });
  return [
    adoptSubordinateHosts(db, domain, at),
    ...chunkedEventInserts(db, adoptionEvents, ({ resourceId, guard }) =>
      exists(
        db
          .select({ one: sql`1` })
          .from(hosts)
          .where(and(sql`${hosts.id} = ${resourceId}`, eq(hosts.domainId, domain.id), sql`${hosts.version} = ${guard}`)),
      ),
    ),
  ];
}
