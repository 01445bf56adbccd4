// One object of the events archive (src/jobs/event-archive.ts): written to R2 unless
// it exists, read back, and then, through the write routine (src/db/write.ts), its row in
// the index and the deletion of exactly the events it holds, in one batch.
import { sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { eventArchives, events } from "../db/schema";
import { RAISES_NO_COUNT } from "../db/quota-check";
import { commitWrite, writeContextAt } from "../db/write";
import { ARCHIVE_MEDIA_TYPE, archiveId, archiveKey } from "../db/event-archive-names";
import { presentEvent } from "../db/event-json";
import type { EventRow } from "../db/event-json";

async function gzip(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function gunzip(bytes: ArrayBuffer): Promise<string> {
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
}

/** What an object says about itself (R2 custom metadata), as every run writes it. */
interface ObjectFacts {
  account: string;
  day: string;
  first_event: string;
  last_event: string;
  first_seq: string;
  last_seq: string;
  count: string;
}

/** The ids of an object's lines, checked against what the object says it holds. */
function heldIds(text: string, facts: Partial<ObjectFacts>, key: string): string[] {
  const lines = text.split("\n");
  if (lines.pop() !== "") throw new Error(`archive object ${key}: its last line is not ended`);
  const ids = lines.map((line) => (JSON.parse(line) as { id: string }).id);
  const agrees =
    ids.length > 0 &&
    ids.every((id) => typeof id === "string") &&
    String(ids.length) === facts.count &&
    ids[0] === facts.first_event &&
    ids.at(-1) === facts.last_event &&
    /^[0-9]+$/.test(facts.first_seq ?? "") &&
    /^[0-9]+$/.test(facts.last_seq ?? "");
  if (!agrees) throw new Error(`archive object ${key}: its lines do not match its metadata`);
  return ids;
}

/**
 * One object: written unless it exists, read back, and then, in one D1 batch, its row in
 * the index and the deletion of exactly the events it holds. Returns the events deleted.
 */
export async function archiveDay(db: Database, bucket: R2Bucket, accountId: string, rows: EventRow[], now: Date): Promise<number> {
  const first = rows[0]!;
  const last = rows.at(-1)!;
  const day = first.at.slice(0, 10);
  const key = archiveKey(accountId, day, first.id);
  const text = rows.map((row) => `${JSON.stringify(presentEvent(row))}\n`).join("");
  const facts: ObjectFacts = {
    account: accountId,
    day,
    first_event: first.id,
    last_event: last.id,
    first_seq: String(first.seq),
    last_seq: String(last.seq),
    count: String(rows.length),
  };
  const written = await bucket.put(key, await gzip(text), {
    onlyIf: { etagDoesNotMatch: "*" },
    httpMetadata: { contentType: ARCHIVE_MEDIA_TYPE },
    customMetadata: { ...facts },
  });
  // Read back whether this run wrote it or an earlier (or concurrent) one did: D1 forgets
  // only what the stored object holds.
  const stored = await bucket.get(key);
  if (!stored) throw new Error(`archive object ${key} was not found after it was written`);
  const storedText = await gunzip(await stored.arrayBuffer());
  if (written !== null && storedText !== text) throw new Error(`archive object ${key} reads back other than it was written`);
  const held = stored.customMetadata ?? {};
  const ids = heldIds(storedText, held, key);
  const [deleted] = await commitWrite(writeContextAt(db, now, "archive", RAISES_NO_COUNT), {
    alongside: [
      db
        .insert(eventArchives)
        .values({
          id: archiveId(ids[0]!),
          accountId,
          day,
          key,
          firstEvent: ids[0]!,
          lastEvent: ids.at(-1)!,
          firstSeq: Number(held.first_seq),
          lastSeq: Number(held.last_seq),
          count: ids.length,
          bytes: stored.size,
          createdAt: now.toISOString(),
        })
        .onConflictDoNothing(),
    ],
    // One statement whatever the count: the ids travel as one JSON array (D1 binds at most
    // 100 parameters to a statement). Last, so that its count comes back.
    last: [db.delete(events).where(sql`${events.id} in (select value from json_each(${JSON.stringify(ids)}))`)],
  });
  return (deleted as D1Result).meta.changes ?? 0;
}
