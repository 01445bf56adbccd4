import { and, asc, eq, getTableColumns, gt, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import type { ResourceRef } from "../../db/ref";
import { contacts, domains } from "../../db/schema";
import type { PageRequest } from "../../http/pagination";
import { textContaining } from "../../db/sql";

export type ContactRow = typeof contacts.$inferSelect;
export type ContactWithLinks = ContactRow & { linked: boolean };

/** A contact is linked while any domain uses it, in any role (RFC 5733 §2.2). */
const usedBy = (contact: SQL) => sql`(d.registrant_id = ${contact} or d.admin_id = ${contact} or d.tech_id = ${contact} or d.billing_id = ${contact})`;
// Correlated subqueries name the outer table explicitly (drizzle leaves it out).
const linked = sql<number>`exists (select 1 from domains d where ${usedBy(sql`"contacts"."id"`)})`.mapWith((v) => v === 1);

const columns = { ...getTableColumns(contacts), linked };

export interface ContactFilters {
  /** Only this account's contacts (an operator's filter; a customer sees only its own anyway). */
  account?: string | undefined;
  email?: string | undefined;
  q?: string | undefined;
  /** Only contacts the repository holds: used by a domain of that repository. */
  repository?: string | undefined;
}

export function listContacts(db: Database, filters: ContactFilters, page: PageRequest) {
  const conditions: (SQL | undefined)[] = [];
  if (filters.account !== undefined) conditions.push(eq(contacts.accountId, filters.account));
  if (filters.email !== undefined) conditions.push(eq(contacts.emailKey, filters.email.toLowerCase()));
  if (filters.q !== undefined) conditions.push(textContaining(contacts.nameKey, filters.q));
  if (filters.repository !== undefined) {
    // `+d.repository_id` keeps SQLite from walking every domain of the repository per
    // contact: the contact's own role indexes find its few domains instead.
    conditions.push(sql`exists (select 1 from domains d where +d.repository_id = ${filters.repository} and ${usedBy(sql`"contacts"."id"`)})`);
  }
  if (page.after) conditions.push(gt(contacts.id, page.after.id));
  return db
    .select(columns)
    .from(contacts)
    .where(and(...conditions))
    .orderBy(asc(contacts.id))
    .limit(page.limit + 1);
}

/** Contacts are found by id only: a reference by name finds none. */
export function findContact(db: Database, ref: ResourceRef) {
  return db
    .select(columns)
    .from(contacts)
    .where(ref.kind === "id" ? eq(contacts.id, ref.id) : sql`0`);
}

/** Names of (up to `limit`) domains that use the contact, in the given roles. */
export async function domainsUsingContact(db: Database, id: string, roles: { billing: boolean }, limit = 5): Promise<{ names: string[]; more: boolean }> {
  const rows = await db
    .select({ name: domains.name })
    .from(domains)
    .where(or(eq(domains.registrantId, id), eq(domains.adminId, id), eq(domains.techId, id), roles.billing ? eq(domains.billingId, id) : undefined))
    .orderBy(asc(domains.name))
    .limit(limit + 1);
  return { names: rows.slice(0, limit).map((r) => r.name), more: rows.length > limit };
}

/** The contacts with these ids (a domain's, for its RDAP view). */
export function contactsWithIds(db: Database, ids: readonly string[]) {
  return db
    .select(columns)
    .from(contacts)
    .where(inArray(contacts.id, [...ids]));
}
