// Queries that domains and hosts both need: who is superordinate to a host, which host
// objects exist, and the subtree of hosts under a domain.
import { and, eq, gt, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { reversedName } from "../dns/name";
import type { Database } from "./client";
import { domains, hosts } from "./schema";

export function domainsNamed(db: Database, names: readonly string[]) {
  return db
    .select({ id: domains.id, name: domains.name })
    .from(domains)
    .where(inArray(domains.name, [...names]));
}

export function hostsNamed(db: Database, names: readonly string[]) {
  return db
    .select({ id: hosts.id, name: hosts.name, domainId: hosts.domainId })
    .from(hosts)
    .where(inArray(hosts.name, [...names]));
}

/** Hosts named `domainName` or below it: one range of the reversed-name index. */
export function hostsWithin(domainName: string): SQL {
  const reversed = reversedName(domainName);
  return or(eq(hosts.reversedName, reversed), and(gt(hosts.reversedName, `${reversed}.`), lt(hosts.reversedName, `${reversed}/`)))!;
}

/**
 * Hosts under a newly registered domain that were external until now become its
 * subordinates (RFC 5732 §1.1: they are now in-bailiwick).
 */
export function adoptSubordinateHosts(db: Database, domainId: string, domainName: string, at: string) {
  return db
    .update(hosts)
    .set({ domainId, version: sql`${hosts.version} + 1`, updatedAt: at })
    .where(and(hostsWithin(domainName), isNull(hosts.domainId)));
}
