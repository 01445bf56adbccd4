// The host object (RFC 5732) as it is read and shown: its row with whether a domain
// links it, the lookups several collections make, and its representation — what reads
// answer and what its events keep (src/db/events.ts). It lives below the collections
// because two of them write host events: the hosts collection, and the domains' writes,
// which create external hosts for the names they are given and adopt the hosts under a
// newly registered name (src/resources/domains/links.ts). The hosts collection builds on
// the domains one (a host's change is a change of the domains that name it), so the
// host's own shape cannot live in its folder without the two folders importing each
// other (CONTRIBUTING.md, "The layout").
import { getTableColumns, inArray, sql } from "drizzle-orm";
import { toUnicodeName } from "../dns/name";
import { objectStatus } from "../registry/statuses";
import type { Database } from "./client";
import { hosts } from "./schema";

export type HostRow = typeof hosts.$inferSelect;
export type HostWithLinks = HostRow & { linked: boolean };

/** A host is linked while a domain uses it as a name server (RFC 5732 §2.2). */
// Correlated subqueries name the outer table explicitly (drizzle leaves it out).
export const hostLinked = sql<number>`exists (select 1 from domain_nameservers dn where dn.host_id = "hosts"."id")`.mapWith((v) => v === 1);

/** A host's columns as reads select them: its row and whether it is linked. */
export const hostColumns = { ...getTableColumns(hosts), linked: hostLinked };

/** The hosts with these names (a domain's name servers, for its RDAP view). */
export function hostsWithNames(db: Database, names: readonly string[]) {
  return db
    .select(hostColumns)
    .from(hosts)
    .where(inArray(hosts.name, [...names]));
}

/** A host as the API shows it; the collection's `HostSchema` is held to it by the type of `hostCollection`. */
export interface HostRepresentation {
  id: string;
  account: string;
  name: string;
  unicode_name: string;
  addresses: string[];
  domain: string | null;
  status: ("ok" | "linked")[];
  created_at: string;
  updated_at: string;
}

export function presentHost(row: HostWithLinks): HostRepresentation {
  return {
    id: row.id,
    account: row.accountId,
    name: row.name,
    unicode_name: toUnicodeName(row.name),
    addresses: row.addresses,
    domain: row.domainId,
    status: objectStatus(row.linked) as HostRepresentation["status"],
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
