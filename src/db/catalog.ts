// The catalog (repositories and extensions) is data shipped by migration and never
// written over the API, so each isolate reads it once and keeps it in memory.
import { asc } from "drizzle-orm";
import type { Database } from "./client";
import { extensions, repositories } from "./schema";

export type ExtensionRow = typeof extensions.$inferSelect;
export type RepositoryRow = typeof repositories.$inferSelect;

export interface Catalog {
  repositories: ReadonlyMap<string, RepositoryRow>;
  /** Extensions by id (their ASCII name without the leading dot). */
  extensions: ReadonlyMap<string, ExtensionRow>;
  /** Extension ids per repository, in name order. */
  extensionsOf: ReadonlyMap<string, string[]>;
}

let cached: Promise<Catalog> | null = null;

async function readCatalog(db: Database): Promise<Catalog> {
  const [repositoryRows, extensionRows] = await db.batch([
    db.select().from(repositories).orderBy(asc(repositories.id)),
    db.select().from(extensions).orderBy(asc(extensions.id)),
  ]);
  const extensionsOf = new Map<string, string[]>(repositoryRows.map((r) => [r.id, []]));
  for (const e of extensionRows) extensionsOf.get(e.repositoryId)?.push(e.id);
  return {
    repositories: new Map(repositoryRows.map((r) => [r.id, r])),
    extensions: new Map(extensionRows.map((e) => [e.id, e])),
    extensionsOf,
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
