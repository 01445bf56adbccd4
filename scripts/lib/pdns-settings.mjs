// The PowerDNS settings of every PowerDNS this project runs (npm run dns, its end-to-end
// test's reference server, the DNS bench's SQLite peer): the same everywhere but the
// backend lines, so that their answers and speeds compare.

/**
 * pdns.conf lines (comments included) for a server on 127.0.0.1:`port`, every answer cache `cache` seconds (0: off).
 * @param {{ port: number, cache: number, threads?: number }} options
 * @returns {string[]}
 */
export function pdnsSettings({ port, cache, threads = 3 }) {
  return [
    "local-address=127.0.0.1",
    `local-port=${port}`,
    // Every cache of PowerDNS at most `cache` seconds: a change made through the API is
    // served within about twice that (a packet cached from a query result as old as the
    // query cache allows), the figure the README states.
    `cache-ttl=${cache}`,
    `query-cache-ttl=${cache}`,
    `negquery-cache-ttl=${cache}`,
    // Zone metadata (SOA-EDIT, PRESIGNED, …): the service keeps none, and with no cache
    // PowerDNS would ask for it several times per question.
    "zone-metadata-cache-ttl=60",
    // No zone cache: a zone created or deleted through the API is known at once (PowerDNS
    // finds a name's zone by asking SOA at the name and each name above it).
    "zone-cache-refresh-interval=0",
    // Without it PowerDNS 4.7 answers NXDOMAIN below a DNAME (RFC 6672 wants the synthesis).
    "dname-processing=yes",
    // A signed zone's CDS and CDNSKEY come from the backend (the DS set its keys' roll wants,
    // or RFC 8078's delete: docs/dnssec.md), answered, transferred and in the NSEC bitmap;
    // without it PowerDNS leaves them out of transfers and bitmaps. It also transfers an
    // unsigned zone's DNSKEY, CDS and CDNSKEY records, and gives them (and DNSKEY answers)
    // the SOA minimum as TTL, as it does a signed zone's.
    "direct-dnskey=yes",
    // Backend threads: for the remote backend, the HTTP requests PowerDNS keeps in flight.
    `distributor-threads=${threads}`,
    // No outbound DNS query at start-up for the security status of this version.
    "security-poll-suffix=",
    "disable-syslog=yes",
    "log-timestamp=no",
    "loglevel=4",
  ];
}
