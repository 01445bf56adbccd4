// DELETE /v1/zones/{zone}: the zone and every record go together (ON DELETE CASCADE), in
// one batch; one event stands for all, and keeps the records as a master file. A domain
// of the same name stays.
import type { RouteHandler } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { jsonBytes, MAX_EVENT_PAYLOAD_BYTES } from "../../db/events";
import { zones } from "../../db/schema";
import type { Database } from "../../db/client";
import type { ZoneWithLinks } from "../../db/zones";
import type { AppEnv } from "../../env";
import { deleteResource } from "../../http/mutate";
import { zoneCollection } from "./collection";
import { MAX_MASTER_FILE_BYTES, MAX_MASTER_FILE_RECORDS } from "./master-file";
import { zoneMasterFilePieces } from "./master-file-export";
import { utf8Bytes } from "../../db/json-chunks";
import { presentZone } from "./present";
import type * as routes from "./routes";

/**
 * What a zone's delete event keeps in `before`: the zone and, in `master_file`, every
 * record, so that `POST /zones` (text/dns) brings it back. A file that import could not
 * take back (over its limits) or too large for an event row (D1's 2 MB row limit) is left
 * out (`master_file: null`).
 */
async function zoneBeforeDelete(db: Database, zone: ZoneWithLinks) {
  // The file is kept when POST /zones could import it back (its limits) and it fits the
  // event row. The zone row keeps the size of its records' lines (zones.record_bytes,
  // drizzle/0028), so a zone whose file cannot be kept is never read into the Worker.
  if (zone.recordCount > MAX_MASTER_FILE_RECORDS) return { ...presentZone(zone), master_file: null };
  if (zone.recordBytes > Math.min(MAX_EVENT_PAYLOAD_BYTES, MAX_MASTER_FILE_BYTES)) return { ...presentZone(zone), master_file: null };
  const pieces = await zoneMasterFilePieces(db, zone);
  let masterFile: string | null = "";
  let bytes = 0;
  for (const piece of pieces) {
    bytes += utf8Bytes(piece);
    if (bytes > MAX_EVENT_PAYLOAD_BYTES) {
      masterFile = null;
      break;
    }
    masterFile += piece;
  }
  const before = { ...presentZone(zone), master_file: masterFile };
  if (jsonBytes(before) > MAX_EVENT_PAYLOAD_BYTES) before.master_file = null;
  return before;
}

export const deleteZone: RouteHandler<typeof routes.deleteZone, AppEnv> = (c) =>
  deleteResource(c, zoneCollection, c.req.valid("param").zone, {
    async remove({ db }, current) {
      // Every record write raises the zone's version, so the version guard below also
      // makes sure the records read here are the ones deleted.
      const before = await zoneBeforeDelete(db, current);
      return { write: db.delete(zones).where(and(eq(zones.id, current.id), eq(zones.version, current.version))), before };
    },
  });
