import { and, asc, eq, gt, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import type { ResourceRef } from "../../db/ref";
import { catalog } from "../../db/catalog";
import { hostColumns } from "../../db/hosts";
import { hostsNamed } from "../../db/links";
import { nameContaining } from "../../db/sql";
import { domains, hostAddresses, hosts } from "../../db/schema";
import type { Statement } from "../../db/write";
import type { PageRequest } from "../../http/pagination";
import { registrableDomainOf } from "../../registry/extensions";
import { readTogether } from "../../db/write";

export interface HostFilters {
  /** Only this account's hosts (an operator's filter; a customer sees only its own anyway). */
  account?: string | undefined;
  name?: string | undefined;
  q?: string | undefined;
  /** Superordinate domain, by id or by (normalised) name. */
  domain?: ResourceRef | undefined;
  address?: string | undefined;
  /** The repository whose sub-listing this is: hosts its domains use or are superordinate to. */
  heldBy?: string | undefined;
}

export function listHosts(db: Database, filters: HostFilters, page: PageRequest) {
  const conditions: (SQL | undefined)[] = [];
  if (filters.account !== undefined) conditions.push(eq(hosts.accountId, filters.account));
  if (filters.name !== undefined) conditions.push(eq(hosts.name, filters.name));
  if (filters.q !== undefined) conditions.push(nameContaining(hosts.name, filters.q));
  if (filters.domain !== undefined) {
    conditions.push(
      filters.domain.kind === "id"
        ? eq(hosts.domainId, filters.domain.id)
        : sql`"hosts"."domain_id" = (select d.id from domains d where d.name = ${filters.domain.name})`,
    );
  }
  if (filters.address !== undefined) {
    conditions.push(sql`"hosts"."id" in (select ha.host_id from host_addresses ha where ha.address = ${filters.address})`);
  }
  if (filters.heldBy !== undefined) {
    // `+d.repository_id`: reach the host's domains through its own links, not by walking
    // every domain of the repository for each host.
    conditions.push(
      sql`(exists (select 1 from domain_nameservers dn join domains d on d.id = dn.domain_id where dn.host_id = "hosts"."id" and +d.repository_id = ${filters.heldBy})
        or exists (select 1 from domains d where d.id = "hosts"."domain_id" and +d.repository_id = ${filters.heldBy}))`,
    );
  }
  if (page.after) conditions.push(gt(hosts.id, page.after.id));
  return db
    .select(hostColumns)
    .from(hosts)
    .where(and(...conditions))
    .orderBy(asc(hosts.id))
    .limit(page.limit + 1);
}

export function findHost(db: Database, ref: ResourceRef) {
  return db
    .select(hostColumns)
    .from(hosts)
    .where(ref.kind === "id" ? eq(hosts.id, ref.id) : eq(hosts.name, ref.name));
}

/** Names of (up to `limit`) domains that use the host as a name server. */
export async function domainsUsingHost(db: Database, hostId: string, limit = 5): Promise<{ names: string[]; more: boolean }> {
  const rows = await db
    .select({ name: domains.name })
    .from(domains)
    .where(sql`"domains"."id" in (select dn.domain_id from domain_nameservers dn where dn.host_id = ${hostId})`)
    .orderBy(asc(domains.name))
    .limit(limit + 1);
  return { names: rows.slice(0, limit).map((r) => r.name), more: rows.length > limit };
}

/** One row per glue address, so that the `address` filter is an index search. */
export function addressWrites(db: Database, hostId: string, addresses: readonly string[]): Statement[] {
  return addresses.length === 0 ? [] : [db.insert(hostAddresses).values(addresses.map((address) => ({ hostId, address })))];
}

/** A superordinate domain as host writes read it: who sponsors it, and its lock (src/registry/host-lock.ts). */
const superordinateColumns = { id: domains.id, name: domains.name, accountId: domains.accountId, serverStatuses: domains.serverStatuses };

/** Where a host of this name would stand: its superordinate domain here, if any (RFC 5732 §1.1), and whether the name is taken. */
export async function placeHost(db: Database, name: string) {
  const candidate = registrableDomainOf(name, (await catalog(db)).extensions);
  const [taken, superordinate] = await readTogether(db, [
    hostsNamed(db, [name]),
    db
      .select(superordinateColumns)
      .from(domains)
      .where(candidate ? eq(domains.name, candidate) : sql`0`),
  ]);
  return { taken: taken[0] ?? null, superordinate: superordinate[0] ?? null };
}

/**
 * The superordinate domain of the host `ref` names, read with the host (the write
 * routine's `reads`): what the registry lock of that domain says of the host's write.
 */
export function superordinateOfHost(db: Database, ref: ResourceRef) {
  const host = ref.kind === "id" ? sql`h.id = ${ref.id}` : sql`h.name = ${ref.name}`;
  return db.select(superordinateColumns).from(domains).where(sql`"domains"."id" = (select h.domain_id from main.hosts h where ${host})`);
}
