// The serving tier's configuration (docs/serving.md, "The tier"): the hidden primary
// (PowerDNS on this service's remote backend) and a secondary (BIND 9.18, `named`) that
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
 * second and NOTIFYs the tier's secondaries (`also-notify`) and each zone's ALSO-NOTIFY
 * metadata addresses (the zone's declared secondaries), never the zone's NS names (public
 * names, not the tier); zone transfers go to the tier's secondaries' addresses
 * (`allow-axfr-ips`) and to the addresses and TSIG keys a zone's metadata allows
 * (ALLOW-AXFR-FROM, TSIG-ALLOW-AXFR).
 */
export function primarySettings({ secondaries, axfrFrom }) {
  return [
    "primary=yes",
    // How often PowerDNS asks which zones' serials moved: the NOTIFY delay, at most 1 s.
    "xfr-cycle-interval=1",
    "only-notify=",
    `also-notify=${secondaries.map(({ address, port }) => `${address}:${port}`).join(",")}`,
    `allow-axfr-ips=${axfrFrom.join(",")}`,
    // NOTIFYs leave from loopback, the address the secondaries take them from.
    "query-local-address=127.0.0.1",
  ];
}

/** Bounds of the secondary's SOA retry, seconds: a zone loaded at start is checked within the upper one. */
export const MIN_RETRY_SECONDS = 4;
export const MAX_RETRY_SECONDS = 15;

/**
 * named.conf for a secondary on 127.0.0.1:`port` keeping its zones in `dir`: the catalog
 * zone transferred from the primary on 127.0.0.1:`primaryPort`, and every member zone it
 * lists, created (and removed) by BIND itself, each kept in a file of its own so that a
 * restart serves them at once and transfers only what changed meanwhile.
 */
export function secondaryConfig({ dir, port, primaryPort, catalog }) {
  const primary = `127.0.0.1 port ${primaryPort}`;
  return `// written by scripts/dns.mjs (npm run dns)
options {
  directory "${dir}";
  pid-file "${join(dir, "named.pid")}";
  session-keyfile "${join(dir, "session.key")}";
  managed-keys-directory "${dir}";
  listen-on port ${port} { 127.0.0.1; };
  listen-on-v6 { none; };
  recursion no;
  // A secondary: it answers from its copies, notifies nobody, validates nothing.
  notify no;
  dnssec-validation no;
  minimal-responses yes;
  // PowerDNS answers IXFR with the whole zone: ask for AXFR at once.
  request-ixfr no;
  // Transfers and SOA checks leave from the address the primary allows.
  transfer-source 127.0.0.1;
  query-source address 127.0.0.1;
  // Its copies may be transferred on loopback only (the end-to-end checks compare them).
  allow-transfer { 127.0.0.1; };
  // NOTIFY from the primary moves a zone at once; a lost one is caught by the SOA refresh.
  allow-notify { 127.0.0.1; };
  // The SOA retry, bounded (docs/serving.md, "Restarts"). BIND checks a zone it loaded
  // from its file at start against the primary only at a random time between a quarter of
  // the zone's SOA retry and the whole (225-900 s for a retry of 900), and a failed check
  // waits the retry again. A change made while this secondary was down reaches it by that
  // check alone once the primary's NOTIFY, sent meanwhile, has been given up (PowerDNS
  // tries five times over 34 s): with these bounds, within ${MAX_RETRY_SECONDS} s of the start.
  min-retry-time ${MIN_RETRY_SECONDS};
  max-retry-time ${MAX_RETRY_SECONDS};
  catalog-zones {
    zone "${catalog}" default-primaries { ${primary}; } zone-directory "zones" in-memory no min-update-interval 1;
  };
};
controls { };
// The catalog lists every zone served: answered on loopback only, like its transfers.
zone "${catalog}" { type secondary; primaries { ${primary}; }; file "catalog.db"; allow-query { 127.0.0.1; }; };
`;
}
