import { and, asc, desc, eq, getTableColumns, gt, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import type { ResourceRef } from "../../db/ref";
import { domainPendingTransfer, domainStatusCondition, domainTransferLockedUntil } from "../../db/domain-rules";
import { nameContaining } from "../../db/sql";
import { contacts, domains, hosts, zones } from "../../db/schema";
import type { PageRequest } from "../../http/pagination";
import type { DomainSort } from "./schemas";

export type DomainRow = typeof domains.$inferSelect;
/** What the connected registry says of a domain (drizzle/0042: registry_domains), as the domain's `registry` shows it. */
export interface DomainRegistryState {
  roid: string | null;
  /** The registry's clID when another registrar sponsors the domain there. */
  sponsor: string | null;
  missingSince: string | null;
  reconciledAt: string | null;
}

export type DomainWithLinks = DomainRow & {
  nameservers: string[];
  zoneId: string | null;
  pendingTransfer: boolean;
  transferLockedUntil: string | null;
  /** Null (or absent, for a row a write builds) when no connected registry said anything of it. */
  registry?: DomainRegistryState | null;
};

/** The domain's name server names in the order given, as one JSON array. */
// Subqueries spell out their tables: drizzle renders columns of a single-table query
// without the table name, which inside a correlated subquery would bind to the wrong table.
const nameserverNames = sql<
  string[]
>`(select json_group_array(name) from (select h.name as name from domain_nameservers dn join main.hosts h on h.id = dn.host_id where dn.domain_id = "domains"."id" order by dn.position))`.mapWith(
  (v: string) => JSON.parse(v) as string[],
);

/**
 * The zone served here under the same name and by the same account (docs/model.md#domains: linked
 * by name, both ways; only an account's own objects link).
 */
const zoneId = sql<string | null>`(select z.id from zones z where z.name = "domains"."name" and z.account_id = "domains"."account_id")`;

/** Whether a transfer of the domain waits for the losing account (docs/lifecycle.md: `pendingTransfer`). */
const pendingTransfer = sql<boolean>`${domainPendingTransfer}`.mapWith((v: number) => v === 1);

/** What the connected registry says of the domain (registry_domains, by its primary key), or null. */
const registryState =
  sql<DomainRegistryState | null>`(select json_object('roid', rd.roid, 'sponsor', rd.sponsor, 'missingSince', rd.missing_since, 'reconciledAt', rd.reconciled_at) from registry_domains rd where rd.domain_id = "domains"."id")`.mapWith(
    (v: string | null) => (v === null ? null : (JSON.parse(v) as DomainRegistryState)),
  );

const columns = {
  ...getTableColumns(domains),
  nameservers: nameserverNames,
  zoneId,
  pendingTransfer,
  transferLockedUntil: domainTransferLockedUntil,
  registry: registryState,
};

export interface DomainFilters {
  /** Only this account's domains (an operator's filter; a customer sees only its own anyway). */
  account?: string | undefined;
  name?: string | undefined;
  q?: string | undefined;
  extension?: string | undefined;
  repository?: string | undefined;
  /** The repository whose sub-listing this is (docs/model.md#repositories); ANDed with `repository`. */
  heldBy?: string | undefined;
  status?: string | undefined;
  registrant?: string | undefined;
  contact?: string | undefined;
  nameserver?: string | undefined;
  expiresBefore?: string | undefined;
  expiresAfter?: string | undefined;
}

const SORT_COLUMNS = { created_at: domains.id, name: domains.name, expires_at: domains.expiresAt } as const;

export function sortOrder(sort: DomainSort | undefined) {
  const spec = sort ?? "created_at";
  const descending = spec.startsWith("-");
  const field = (descending ? spec.slice(1) : spec) as keyof typeof SORT_COLUMNS;
  return { field, descending, column: SORT_COLUMNS[field] };
}

/** The keyset position of a row in the given order. */
export function domainPosition(row: DomainRow, sort: DomainSort | undefined) {
  const { field } = sortOrder(sort);
  return { key: field === "created_at" ? null : field === "name" ? row.name : row.expiresAt, id: row.id };
}

export function listDomains(db: Database, filters: DomainFilters, sort: DomainSort | undefined, page: PageRequest) {
  const conditions: (SQL | undefined)[] = [];
  if (filters.account !== undefined) conditions.push(eq(domains.accountId, filters.account));
  if (filters.name !== undefined) conditions.push(eq(domains.name, filters.name));
  if (filters.q !== undefined) conditions.push(nameContaining(domains.name, filters.q));
  if (filters.extension !== undefined) conditions.push(eq(domains.extensionId, filters.extension));
  if (filters.repository !== undefined) conditions.push(eq(domains.repositoryId, filters.repository));
  if (filters.heldBy !== undefined) conditions.push(eq(domains.repositoryId, filters.heldBy));
  if (filters.status !== undefined) conditions.push(domainStatusCondition(filters.status));
  if (filters.registrant !== undefined) conditions.push(eq(domains.registrantId, filters.registrant));
  if (filters.contact !== undefined) {
    const id = filters.contact;
    conditions.push(or(eq(domains.registrantId, id), eq(domains.adminId, id), eq(domains.techId, id), eq(domains.billingId, id)));
  }
  if (filters.nameserver !== undefined) {
    conditions.push(
      // Name servers are names: the host may be another account's (main.hosts sees them all).
      sql`"domains"."id" in (select dn.domain_id from domain_nameservers dn where dn.host_id = (select h.id from main.hosts h where h.name = ${filters.nameserver}))`,
    );
  }
  if (filters.expiresBefore !== undefined) conditions.push(lt(domains.expiresAt, filters.expiresBefore));
  if (filters.expiresAfter !== undefined) conditions.push(gt(domains.expiresAt, filters.expiresAfter));

  const { field, descending, column } = sortOrder(sort);
  if (page.after) {
    const compare = descending ? sql.raw("<") : sql.raw(">");
    conditions.push(
      field === "created_at"
        ? sql`"domains"."id" ${compare} ${page.after.id}`
        : sql`("domains".${sql.identifier(column.name)}, "domains"."id") ${compare} (${page.after.key}, ${page.after.id})`,
    );
  }
  const direction = descending ? desc : asc;
  const order = field === "created_at" ? [direction(domains.id)] : [direction(column), direction(domains.id)];
  return db
    .select(columns)
    .from(domains)
    .where(and(...conditions))
    .orderBy(...order)
    .limit(page.limit + 1);
}

export function findDomain(db: Database, ref: ResourceRef) {
  return db
    .select(columns)
    .from(domains)
    .where(ref.kind === "id" ? eq(domains.id, ref.id) : eq(domains.name, ref.name));
}

/** The domains that use a host as a name server, as reads show them (a host's change is theirs too). */
export function domainsUsingNameserver(db: Database, hostId: string) {
  return db
    .select(columns)
    .from(domains)
    .where(sql`"domains"."id" in (select dn.domain_id from domain_nameservers dn where dn.host_id = ${hostId})`)
    .orderBy(asc(domains.id));
}

export function contactsById(db: Database, ids: readonly string[]) {
  return db
    .select({ id: contacts.id, accountId: contacts.accountId, city: contacts.city, countryCode: contacts.countryCode })
    .from(contacts)
    .where(inArray(contacts.id, [...ids]));
}

export function subordinateHostNames(db: Database, domainId: string, limit = 5) {
  return db
    .select({ name: hosts.name })
    .from(hosts)
    .where(eq(hosts.domainId, domainId))
    .orderBy(asc(hosts.name))
    .limit(limit + 1);
}

/** The account's zone of this name, which a registration links. */
export function accountZoneNamed(db: Database, name: string, accountId: string) {
  return db
    .select({ id: zones.id })
    .from(zones)
    .where(and(eq(zones.name, name), eq(zones.accountId, accountId)));
}
