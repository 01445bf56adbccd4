// Sets whose size the input decides (an import's records, the events of the hosts a new
// domain adopts) travel to D1 as JSON arrays, one bound string per statement, unpacked by
// SQLite's json_each: a statement per 900 kB whatever the number of rows, each string
// under D1's string limit (D1_LIMITS.stringBytes) and one bound parameter of its 100.
import { D1_LIMITS } from "./d1-limits";

const JSON_CHUNK_BYTES = D1_LIMITS.stringBytes - 100_000;

const NON_ASCII = /[^\x00-\x7f]/;
const utf8 = new TextEncoder();

export function utf8Bytes(text: string): number {
  return NON_ASCII.test(text) ? utf8.encode(text).byteLength : text.length;
}

/** A JSON array of some of the rows, and how many it holds. */
export interface JsonChunk {
  json: string;
  count: number;
}

/** The rows as JSON array chunks, each row encoded once as it is read from `rows` (no copy of the set first). */
export function jsonChunks<T>(rows: Iterable<T>, encode: (row: T) => string): JsonChunk[] {
  const chunks: JsonChunk[] = [];
  let parts: string[] = [];
  let size = 2;
  for (const row of rows) {
    const json = encode(row);
    const bytes = utf8Bytes(json) + 1;
    if (size + bytes > JSON_CHUNK_BYTES && parts.length > 0) {
      chunks.push({ json: `[${parts.join(",")}]`, count: parts.length });
      parts = [];
      size = 2;
    }
    parts.push(json);
    size += bytes;
  }
  if (parts.length > 0) chunks.push({ json: `[${parts.join(",")}]`, count: parts.length });
  return chunks;
}
