// Reads of the catalog: it is served from the per-isolate copy (src/db/catalog.ts), so a
// page is cut from that copy in memory, in id order, as a keyset page of D1 rows would be.

/** Rows after the cursor's id, in id order, at most limit + 1 (see pageResponse). */
export function pageOf<T extends { id: string }>(rows: Iterable<T>, after: string | null, limit: number): T[] {
  const out: T[] = [];
  for (const row of rows) {
    if (after !== null && row.id <= after) continue;
    out.push(row);
    if (out.length > limit) break;
  }
  return out;
}
