// What a record write answers beside the record when the record deserves a look: BIND loads
// such records with a warning, and so does the API (docs/dns.md "What loads with a warning").
import { deprecatedDnssecWarning } from "../../dns/rdata/dnssec-deprecated";

export function recordWarnings(record: { type: string; content: string }): { warnings: { field: string; message: string }[] } | undefined {
  const warning = deprecatedDnssecWarning(record.type, record.content);
  return warning ? { warnings: [{ field: "content", message: warning }] } : undefined;
}
