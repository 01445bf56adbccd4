// The serving tier's configuration (docs/serving.md, "The tier"): the hidden primary
// (PowerDNS on this service's remote backend) and a secondary (Knot DNS 3.2, `knotd`) that
// learns the zones from the primary's RFC 9432 catalog zone, takes NOTIFY from the
// primary and transfers each zone into its own storage. scripts/dns.mjs writes both;
// the end-to-end tests and the DNS bench run them through it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./wrangler.mjs";

/** The catalog zone's name as wrangler.toml configures the service (DNS_CATALOG_ZONE), else the default. */
export function configuredCatalogZone() {
  try {
    const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
    const value = /^\s*DNS_CATALOG_ZONE\s*=\s*"([^"]*)"/m.exec(toml)?.[1]?.trim();
    if (value) return value.replace(/\.$/, "").toLowerCase();
  } catch {}
  return "catalog.invalid";
}

/**
 * pdns.conf lines that make PowerDNS the tier's primary: it polls getUpdatedMasters every
 * second and NOTIFYs the addresses of each zone's ALSO-NOTIFY metadata — the tier's
 * secondaries, which the service names for every zone (DNS_TIER_SECONDARIES), and the
 * zone's declared secondaries — never the zone's NS names (public names, not the tier).
 * No `also-notify`: PowerDNS 4.7 starts its NOTIFY loop before it reads that setting
 * (CommunicatorClass::go), so the first pass after a start could find a zone changed while
 * it was down, NOTIFY nobody and record the zone as notified (docs/serving.md, "Restarts");
 * the metadata is read from the backend for each zone it NOTIFYs. Zone transfers go to
 * the tier's secondaries' addresses (`allow-axfr-ips`) and to the addresses and TSIG keys
 * a zone's metadata allows (ALLOW-AXFR-FROM, TSIG-ALLOW-AXFR).
 * @param {{ axfrFrom: string[] }} tier
 * @returns {string[]}
 */
export function primarySettings({ axfrFrom }) {
  return [
    "primary=yes",
    // How often PowerDNS asks which zones' serials moved: the NOTIFY delay, at most 1 s.
    "xfr-cycle-interval=1",
    "only-notify=",
    `allow-axfr-ips=${axfrFrom.join(",")}`,
    // NOTIFYs leave from loopback, the address the secondaries take them from.
    "query-local-address=127.0.0.1",
    // NOTIFYs unsigned. PowerDNS signs every NOTIFY of a zone with the first key of its
    // TSIG-ALLOW-AXFR (a declared secondary's key), whoever it goes to, and the tier's
    // secondaries, which hold no customer's key, refuse it (NOTAUTH, BADKEY): every change
    // to such a zone reached them only at its SOA refresh, 2 hours later. A NOTIFY only
    // makes a secondary ask its primary for the SOA (RFC 1996 §5); the declared secondary's
    // SOA query and transfer are still signed with its key (docs/decisions.md).
    "send-signed-notify=no",
  ];
}

/**
 * start.mjs arguments that make the service name the secondary on 127.0.0.1:`port` as the
 * tier's (DNS_TIER_SECONDARIES): `npm run dns --port <port>` checks that it does.
 * @param {number} port
 * @returns {string[]}
 */
export function tierSecondaryVar(port) {
  return ["--var", `DNS_TIER_SECONDARIES:127.0.0.1:${port}`];
}

/**
 * Bounds of the secondary's SOA checks, seconds (docs/serving.md, "Restarts"): a refresh
 * or retry is never sooner than the lower, a failed check is tried again within the upper.
 */
export const MIN_RETRY_SECONDS = 4;
export const MAX_RETRY_SECONDS = 15;

/**
 * knot.conf for a secondary (Knot DNS 3.2, `knotd`) on 127.0.0.1:`port` keeping its zones
 * in `dir`: the catalog zone transferred from the primary on 127.0.0.1:`primaryPort`
 * (`catalog-role: interpret`), and every member zone it lists, created (and removed) by
 * Knot itself from the `member` template, each kept in a zone file of its own so that a
 * restart serves them at once and transfers only what changed meanwhile. One UDP worker:
 * PowerDNS answers from one receiver thread by default (README, "Speed and cost").
 * `alsoListen` ("127.A.B.C:PORT", `npm run dns --also-listen`): one more address it answers on.
 * @param {{ dir: string, port: number, primaryPort: number, catalog: string, alsoListen?: string | null }} options
 * @returns {string}
 */
export function secondaryConfig({ dir, port, primaryPort, catalog, alsoListen = null }) {
  const listen = alsoListen ? `[ 127.0.0.1@${port}, ${alsoListen.replace(/:(\d+)$/, "@$1")} ]` : `127.0.0.1@${port}`;
  return `# written by scripts/dns.mjs (npm run dns)
server:
  listen: ${listen}
  rundir: "${dir}"
  udp-workers: 1
  tcp-workers: 1
  background-workers: 2
database:
  storage: "${dir}"
log:
  - target: stderr
    any: info
remote:
  # The hidden primary; transfers and SOA checks leave from the address it allows.
  - id: primary
    address: 127.0.0.1@${primaryPort}
    via: 127.0.0.1
acl:
  # NOTIFY from the primary moves a zone at once; a lost one is caught by the SOA refresh.
  - id: notify-from-primary
    address: 127.0.0.1
    action: notify
  # Its copies may be transferred on loopback only (the end-to-end checks compare them).
  - id: transfer-to-loopback
    address: 127.0.0.1
    action: transfer
template:
  # Every zone the catalog lists. Knot asks the primary for IXFR and takes the whole
  # zone when PowerDNS answers with it (RFC 1995 allows that).
  - id: member
    storage: "${join(dir, "zones")}"
    file: "%s.zone"
    master: primary
    acl: [ notify-from-primary, transfer-to-loopback ]
    # The zone file is written at once after each transfer, and read whole at start.
    zonefile-sync: 0
    # The SOA checks, bounded (docs/serving.md, "Restarts").
    refresh-min-interval: ${MIN_RETRY_SECONDS}
    retry-min-interval: ${MIN_RETRY_SECONDS}
    retry-max-interval: ${MAX_RETRY_SECONDS}
zone:
  # The catalog lists every zone served (RFC 9432); Knot adds and removes member zones by it.
  - domain: "${catalog}"
    storage: "${dir}"
    file: catalog.zone
    master: primary
    acl: [ notify-from-primary, transfer-to-loopback ]
    zonefile-sync: 0
    refresh-min-interval: ${MIN_RETRY_SECONDS}
    retry-min-interval: ${MIN_RETRY_SECONDS}
    retry-max-interval: ${MAX_RETRY_SECONDS}
    catalog-role: interpret
    catalog-template: member
`;
}
