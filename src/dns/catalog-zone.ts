// The name of the catalog zone (RFC 9432) the DNS primary serves: configuration
// (DNS_CATALOG_ZONE), read the same way by the DNS backend, which answers every name at or
// under it from the catalog alone (src/serving/catalog.ts), and by zone creation,
// which refuses those names to everyone (docs/accounts.md, "Names no customer may hold").
import { normalizeName } from "./name";

/** The default name: RFC 6761 §6.4 reserves `.invalid`, which no public zone holds. */
export const DEFAULT_CATALOG_ZONE = "catalog.invalid";

/**
 * The configured catalog name as stored names are written (lowercase A-labels, no
 * trailing dot), the default when none is configured, or null when the setting is not a
 * domain name.
 */
export function catalogZoneFrom(configured: string | undefined): string | null {
  const text = (configured ?? "").trim() || DEFAULT_CATALOG_ZONE;
  const name = normalizeName(text, { underscore: true });
  return name.ok ? name.name : null;
}
