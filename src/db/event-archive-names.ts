// How archive objects are named: their ids, R2 keys and media type (docs/capacity.md).
// Apart from the run (archive.ts) and the object (archive-object.ts), which both use them.

/** The archive objects' ids: `arc_` and the ULID of the object's first event. */
export const ARCHIVE_ID_PREFIX = "arc_";

/** The media type an archive object is stored and served as: a gzip file of NDJSON lines. */
export const ARCHIVE_MEDIA_TYPE = "application/gzip";

/** The R2 key of the object whose first event is `first`. */
export function archiveKey(accountId: string, day: string, firstEventId: string): string {
  return `events/${accountId}/${day}/${firstEventId}.ndjson.gz`;
}

/** `arc_` and the ULID of the object's first event (`evt_…`). */
export function archiveId(firstEventId: string): string {
  return ARCHIVE_ID_PREFIX + firstEventId.slice(firstEventId.indexOf("_") + 1);
}
