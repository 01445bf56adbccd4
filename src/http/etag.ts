// Entity tags (RFC 9110 §8.8.3). A resource's ETag is its row version plus a hash of its
// representation: the version lets a write check `If-Match` atomically in SQL, the hash
// changes when a computed part of the resource (a status, a linked name) changes.
import type { Context } from "hono";
import { ApiError } from "./problem";

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function entityTag(version: number, representation: unknown): string {
  return `"${version}-${fnv1a(JSON.stringify(representation)).toString(36)}"`;
}

function listedTags(header: string): string[] {
  return header
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
}

/** `If-None-Match` uses the weak comparison (RFC 9110 §13.1.2). */
export function noneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (t: string) => (t.startsWith("W/") ? t.slice(2) : t);
  return listedTags(header).some((t) => t === "*" || bare(t) === etag);
}

/**
 * Checks `If-Match` (strong comparison, RFC 9110 §13.1.1) against the resource as it is
 * now, before a write. The write itself then requires the same row version (the version
 * triggers), so a change committed in between still fails the write.
 */
export function checkIfMatch(c: Context, version: number, representation: unknown): void {
  const header = c.req.header("if-match");
  if (header === undefined) return;
  const tags = listedTags(header);
  if (tags.includes("*")) return;
  const current = entityTag(version, representation);
  if (!tags.includes(current)) {
    throw new ApiError("precondition_failed", `If-Match ${header} does not match the current ETag ${current}.`);
  }
}
