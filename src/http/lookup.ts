// Resources addressed by id or by name (docs/conventions.md): a path segment with a dot is a
// name, normalised like names in bodies (so `Example.COM.` and `münchen.de` work);
// one without a dot is an id.
import { type Catalog, catalog } from "../db/catalog";
import type { Database } from "../db/client";
import type { ResourceRef } from "../db/ref";
import { normalizeName } from "../dns/name";
import { ApiError, type FieldError } from "./problem";

export function resourceRef(segment: string, what: string): ResourceRef {
  if (!segment.includes(".")) return { kind: "id", id: segment };
  const normalized = normalizeName(segment, { underscore: true });
  if (!normalized.ok) throw new ApiError("not_found", `No ${what} is named "${segment}": the name ${normalized.error}.`);
  return { kind: "name", name: normalized.name };
}

export function notFound(what: string, segment: string): ApiError {
  return new ApiError("not_found", `No ${what} has the ${segment.includes(".") ? "name" : "id"} "${segment}".`);
}

/** A filter that names a resource by id or name; a bad one is added to `errors`. */
export function refParam(value: string | undefined, what: string, field: string, errors: FieldError[]): ResourceRef | undefined {
  if (value === undefined) return undefined;
  try {
    return resourceRef(value, what);
  } catch {
    errors.push({ field, message: `"${value}" is neither a ${what} id nor a valid ${what} name` });
    return undefined;
  }
}

/** A repository of the catalog (the `{repository}` of `/repositories/{repository}/…`), or 404. */
export async function requireRepository(db: Database, repository: string): Promise<Catalog> {
  const cat = await catalog(db);
  if (!cat.repositories.has(repository)) throw notFound("repository", repository);
  return cat;
}
