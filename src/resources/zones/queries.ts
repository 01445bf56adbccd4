import { and, asc, eq, gt, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import type { ResourceRef } from "../../db/ref";
import { domains, records, zones } from "../../db/schema";
import { nameContaining } from "../../db/sql";
import { zoneColumns } from "../../db/zones";
import type { PageRequest } from "../../http/pagination";

export interface ZoneFilters {
  /** Only this account's zones (an operator's filter; a customer sees only its own anyway). */
  account?: string | undefined;
  name?: string | undefined;
  q?: string | undefined;
  domain?: ResourceRef | undefined;
}

export function listZones(db: Database, filters: ZoneFilters, page: PageRequest) {
  const conditions: (SQL | undefined)[] = [];
  if (filters.account !== undefined) conditions.push(eq(zones.accountId, filters.account));
  if (filters.name !== undefined) conditions.push(eq(zones.name, filters.name));
  if (filters.q !== undefined) conditions.push(nameContaining(zones.name, filters.q));
  if (filters.domain !== undefined) {
    // The link is by name: a zone belongs to the domain of the same name, if one exists.
    conditions.push(
      filters.domain.kind === "name"
        ? sql`"zones"."name" = (select d.name from domains d where d.name = ${filters.domain.name})`
        : sql`"zones"."name" = (select d.name from domains d where d.id = ${filters.domain.id})`,
    );
  }
  if (page.after) conditions.push(gt(zones.id, page.after.id));
  return db
    .select(zoneColumns)
    .from(zones)
    .where(and(...conditions))
    .orderBy(asc(zones.id))
    .limit(page.limit + 1);
}

/** Every record of a zone, for the master-file export. */
export function zoneRecords(db: Database, zoneId: string) {
  return db.select({ name: records.name, type: records.type, ttl: records.ttl, content: records.content }).from(records).where(eq(records.zoneId, zoneId));
}

/** The domain a zone of this name links (docs/dns.md#zones: by name; §11: within its account), as SQL. */
export function linkedDomainId(name: string, accountId: string): SQL {
  return sql`select d.id from domains d where d.name = ${name} and d.account_id = ${accountId}`;
}

/** The domain a zone of this name links, read. */
export function linkedDomain(db: Database, name: string, accountId: string) {
  return db
    .select({ id: domains.id })
    .from(domains)
    .where(and(eq(domains.name, name), eq(domains.accountId, accountId)));
}
