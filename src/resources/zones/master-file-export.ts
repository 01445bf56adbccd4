// GET /v1/zones/{zone} with Accept: text/dns: the zone as an RFC 1035 master file, rendered
// in pieces (src/dns/master-file) and streamed, never built whole.
import type { Database } from "../../db/client";
import type { ZoneWithLinks } from "../../db/zones";
import { renderMasterFilePieces } from "../../dns/master-file";
import { SIGNING_APEX_TYPES } from "../../serving/dnssec";
import { presentZone, signingRecords } from "./present";
import { zoneRecords } from "./queries";

/**
 * The zone as an RFC 1035 master file, in pieces: its export, and what its delete event
 * keeps. The export (`signing: true`) adds the apex DNSKEY, CDS and CDNSKEY of a signed
 * zone, as PowerDNS serves them (docs/dnssec.md); the delete event's file leaves them out,
 * since the keys go with the zone and an import of that file makes an unsigned zone.
 */
export async function zoneMasterFilePieces(db: Database, zone: ZoneWithLinks, options: { signing?: boolean } = {}): Promise<Generator<string>> {
  const rows = await zoneRecords(db, zone.id);
  const signing = options.signing ? signingRecords(zone) : [];
  // A signed zone's apex DNSKEY, CDS and CDNSKEY are its keys' (as the tier serves them):
  // stored ones (an imported export's) are left out, as the tier leaves them out.
  const served = signing.length > 0 ? rows.filter((r) => !(r.name === "@" && SIGNING_APEX_TYPES.has(r.type))) : rows;
  const records = [...served, ...signing];
  return renderMasterFilePieces({ name: zone.name, defaultTtl: zone.defaultTtl, soa: presentZone(zone).soa, records });
}

/** The export's body: the pieces encoded one at a time, as the client reads them. */
export function masterFileStream(pieces: Generator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    pull(controller) {
      const next = pieces.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
}
