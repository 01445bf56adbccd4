// The catalog (repositories and extensions) is data shipped by migration and never
// written over the API, so each isolate reads it once and keeps it in memory.
import { asc } from "drizzle-orm";
import type { Database } from "./client";
import { extensions, repositories, repositoryNames } from "./schema";

export type ExtensionRow = typeof extensions.$inferSelect;
export type RepositoryRow = typeof repositories.$inferSelect;
export type RepositoryNameRow = typeof repositoryNames.$inferSelect;

export interface Catalog {
  repositories: ReadonlyMap<string, RepositoryRow>;
  /** Extensions by id (their ASCII name without the leading dot). */
  extensions: ReadonlyMap<string, ExtensionRow>;
  /** Extension ids per repository, in name order. */
  extensionsOf: ReadonlyMap<string, string[]>;
  /** The premium and reserved names of every repository, by name (drizzle/0021). */
  names: ReadonlyMap<string, RepositoryNameRow>;
  /** Those names per repository, in name order. */
  namesOf: ReadonlyMap<string, RepositoryNameRow[]>;
}

let cached: Promise<Catalog> | null = null;

async function readCatalog(db: Database): Promise<Catalog> {
  const [repositoryRows, extensionRows, nameRows] = await db.batch([
    db.select().from(repositories).orderBy(asc(repositories.id)),
    db.select().from(extensions).orderBy(asc(extensions.id)),
    db.select().from(repositoryNames).orderBy(asc(repositoryNames.name)),
  ]);
  const extensionsOf = new Map<string, string[]>(repositoryRows.map((r) => [r.id, []]));
  for (const e of extensionRows) extensionsOf.get(e.repositoryId)?.push(e.id);
  const namesOf = new Map<string, RepositoryNameRow[]>(repositoryRows.map((r) => [r.id, []]));
  for (const n of nameRows) namesOf.get(n.repositoryId)?.push(n);
  return {
    repositories: new Map(repositoryRows.map((r) => [r.id, r])),
    extensions: new Map(extensionRows.map((e) => [e.id, e])),
    extensionsOf,
    names: new Map(nameRows.map((n) => [n.name, n])),
    namesOf,
  };
}

export function catalog(db: Database): Promise<Catalog> {
  if (!cached) {
    cached = readCatalog(db);
    // A failed read (database not migrated yet) is retried by the next request.
    cached.catch(() => {
      cached = null;
    });
  }
  return cached;
}
