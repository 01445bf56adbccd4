// PATCH bodies are JSON Merge Patch (RFC 7396), applied one way for every resource: the
// patch is merged onto the writable part of the resource as the API shows it, and the
// merged document is read like a creation's body. What a client may not write is derived
// from the schemas: the fields a resource shows that its patch schema does not take.
import type { z } from "@hono/zod-openapi";

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * RFC 7396 §2 MergePatch(target, patch): members of `patch` replace those of `target`,
 * objects merge member by member, `null` removes a member (the resource reads it as
 * cleared), arrays and other values are replaced whole. Absent members (undefined, as a
 * validated body leaves optional fields) change nothing.
 */
export function mergePatch<T>(target: T, patch: unknown): T {
  if (!isObject(patch)) return patch as T;
  const merged: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete merged[key];
    else merged[key] = mergePatch(merged[key], value);
  }
  return merged as T;
}

/** The fields a resource shows that its PATCH schema does not take: 422 read_only_field when sent. */
export function readOnlyFields(resource: z.ZodObject, patch: z.ZodObject): string[] {
  return Object.keys(resource.shape).filter((field) => !Object.hasOwn(patch.shape, field));
}
