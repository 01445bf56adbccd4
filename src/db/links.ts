// The links between domains, hosts and contacts, as several resources query them: which
// domains and host objects have these names, the subtree of hosts under a domain (who is
// superordinate to a host), the hosts a registration adopts,
// and the guard conditions that hold links at commit time (src/db/guards.ts).
import { and, eq, gt, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { reversedName } from "../dns/name";
import type { Database } from "./client";
import { hostColumns } from "./hosts";
import { domains, hosts } from "./schema";

export function domainsNamed(db: Database, names: readonly string[]) {
  return db
    .select({ id: domains.id, name: domains.name, accountId: domains.accountId })
    .from(domains)
    .where(inArray(domains.name, [...names]));
}

export function hostsNamed(db: Database, names: readonly string[]) {
  return db
    .select({ id: hosts.id, name: hosts.name, domainId: hosts.domainId, accountId: hosts.accountId })
    .from(hosts)
    .where(inArray(hosts.name, [...names]));
}

/** Hosts named `domainName` or below it: one range of the reversed-name index. */
export function hostsWithin(domainName: string): SQL {
  const reversed = reversedName(domainName);
  return or(eq(hosts.reversedName, reversed), and(gt(hosts.reversedName, `${reversed}.`), lt(hosts.reversedName, `${reversed}/`)))!;
}

/**
 * A domain of another account than the host's uses it as a name server: the host's name
 * and addresses are then part of that account's delegation (docs/decisions.md, "A host
 * other accounts use").
 */
export function hostUsedByOtherAccounts(hostId: string, accountId: string): SQL {
  return sql`exists (select 1 from domain_nameservers dn join main.domains d on d.id = dn.domain_id where dn.host_id = ${hostId} and d.account_id <> ${accountId})`;
}

/**
 * Guard condition: the domains that use the host as a name server are exactly these, each
 * at the version read (`[[id, version], …]`), and none of another account.
 */
export function hostUsersAre(hostId: string, accountId: string, users: readonly (readonly [string, number])[]): SQL {
  return sql`not ${hostUsedByOtherAccounts(hostId, accountId)}
    and (select count(*) from domain_nameservers dn where dn.host_id = ${hostId}) = ${users.length}
    and (select count(*) from json_each(${JSON.stringify(users)}) u join main.domains d on d.id = json_extract(u.value, '$[0]') and d.version = json_extract(u.value, '$[1]')) = ${users.length}`;
}

/**
 * The external hosts under `domainName` that its registration adopts (below): the
 * registering account's own — a subordinate host is sponsored by its domain's sponsor.
 */
export function adoptableHosts(db: Database, domainName: string, accountId: string) {
  return db
    .select(hostColumns)
    .from(hosts)
    .where(and(hostsWithin(domainName), isNull(hosts.domainId), eq(hosts.accountId, accountId)));
}

/**
 * Hosts under a newly registered domain that were external until now become its
 * subordinates (RFC 5732 §1.1: they are now in-bailiwick).
 */
export function adoptSubordinateHosts(db: Database, domain: { id: string; name: string; accountId: string }, at: string) {
  return db
    .update(hosts)
    .set({ domainId: domain.id, version: sql`${hosts.version} + 1`, updatedAt: at })
    .where(and(hostsWithin(domain.name), isNull(hosts.domainId), eq(hosts.accountId, domain.accountId)));
}

/** Guard condition: the domain links exactly `count` name servers (none vanished before its write). */
export function linksNameservers(domainId: string, count: number): SQL {
  return sql`(select count(*) from domain_nameservers dn where dn.domain_id = ${domainId}) = ${count}`;
}

/**
 * Guard condition: each of these contacts has a city and a country, the postal address a
 * registrant, admin or tech contact needs (registry/contacts.ts missingAddressFields).
 */
export function contactsHaveAddress(ids: readonly string[]): SQL {
  const unique = [...new Set(ids)];
  return sql`(select count(*) from contacts c where c.id in (${sql.join(
    unique.map((id) => sql`${id}`),
    sql`, `,
  )}) and coalesce(c.city, '') <> '' and coalesce(c.country_code, '') <> '') = ${unique.length}`;
}

/** Guard condition: no domain uses the contact as its registrant, admin or tech contact. */
export function contactNotInAddressedRole(contactId: string): SQL {
  return sql`not exists (select 1 from domains d where d.registrant_id = ${contactId})
    and not exists (select 1 from domains d where d.admin_id = ${contactId})
    and not exists (select 1 from domains d where d.tech_id = ${contactId})`;
}
