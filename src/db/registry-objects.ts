// The ids a connected registry holds our contacts and hosts by (drizzle/0037,
// docs/registries.md): read before a registry write to learn what the registry already
// holds from us, written in the same batch as the write that created them there.
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Database } from "./client";
import { registryObjects } from "./schema";

export type RegistryObjectRow = typeof registryObjects.$inferSelect;
export type RegistryObjectType = RegistryObjectRow["objectType"];

/** The rows of these objects at one repository. */
export function registryObjectsOf(db: Database, repositoryId: string, type: RegistryObjectType, objectIds: readonly string[]) {
  return db
    .select()
    .from(registryObjects)
    .where(
      and(
        eq(registryObjects.repositoryId, repositoryId),
        eq(registryObjects.objectType, type),
        inArray(registryObjects.objectId, objectIds.length > 0 ? [...objectIds] : [""]),
      ),
    );
}

/**
 * The rows of these contacts and hosts at one repository, in one statement: what a
 * registration reads in its first batch (src/resources/domains/registry.ts). Both types and
 * all the ids as two IN lists, so that SQLite probes the primary key for each pair (an OR of
 * the two kinds would read every row of the repository through its registry-id index); a
 * contact id (con_…) is never a host name, and the caller keeps each kind's own rows.
 */
export function registryObjectsHeld(db: Database, repositoryId: string, objects: { contacts: readonly string[]; hosts: readonly string[] }) {
  const ids = [...new Set([...objects.contacts, ...objects.hosts])];
  return db
    .select()
    .from(registryObjects)
    .where(
      and(
        eq(registryObjects.repositoryId, repositoryId),
        inArray(registryObjects.objectType, ["contact", "host"]),
        inArray(registryObjects.objectId, ids.length > 0 ? ids : [""]),
      ),
    );
}

/** Every repository that holds this object from us. */
export function registriesHolding(db: Database, objectId: string) {
  return db.select().from(registryObjects).where(eq(registryObjects.objectId, objectId));
}

/** Records that the registry now holds the object (a create answered 1000, or found ours when asked). */
export function registryObjectInsert(db: Database, row: RegistryObjectRow) {
  return db.insert(registryObjects).values(row).onConflictDoNothing();
}

/** Forgets the object at every registry (its delete, in the same batch). */
export function registryObjectsDelete(db: Database, objectId: string) {
  return db.delete(registryObjects).where(eq(registryObjects.objectId, objectId));
}

/** An event of a registry write names the registry's transaction: `registry_sv_trid` in its `after` (the last one, when several registries took it). */
export function registryTransactionAfter(svTRIDs: readonly string[]): Record<string, SQL> | undefined {
  const last = svTRIDs.at(-1);
  return last ? { "$.registry_sv_trid": sql`${last}` } : undefined;
}
