// The D1 cost of every operation of the OpenAPI document, as upper bounds that
// test/cost.test.ts holds each measured figure to (the isolate warm; list pages of 10, on
// the data that file seeds). The floor (issue 18): a single-resource read is 1 round trip,
// a single-object write at most 2 (one read batch, one write batch), a list page reads at
// most its limit and a small constant of rows. `why` explains what each figure rests on
// where an operation is not at its floor (and a few that are, but not obviously).
// Raise a bound only with a reason in `why`: a new round trip is a network trip on the edge.
// Every event written costs three index rows more than before migration 0023, which added the
// (account_id, kind, seq) ranges a customer's event filters read, so those filters read
// what they answer: test/event-filters.test.ts).
export interface CostBound {
  round_trips: number;
  rows_read: number;
  rows_written: number;
  why?: string;
}

export const COST_BOUNDS: Record<string, CostBound> = {
  getIndex: {
    round_trips: 0,
    rows_read: 0,
    rows_written: 0,
    why: "no D1: the index, the problem types and the catalog are served from the isolate (the catalog read once per isolate)",
  },
  listProblemTypes: { round_trips: 0, rows_read: 0, rows_written: 0, why: "no D1 (a table in the code)" },
  getProblemType: { round_trips: 0, rows_read: 0, rows_written: 0, why: "no D1 (a table in the code)" },
  listExtensions: { round_trips: 0, rows_read: 0, rows_written: 0, why: "no D1 once warm: the catalog is read once per isolate" },
  getExtension: { round_trips: 0, rows_read: 0, rows_written: 0, why: "no D1 once warm (catalog cached per isolate)" },
  listRepositories: { round_trips: 0, rows_read: 0, rows_written: 0, why: "no D1 once warm (catalog cached per isolate)" },
  getRepository: { round_trips: 0, rows_read: 0, rows_written: 0, why: "no D1 once warm (catalog cached per isolate)" },
  listRepositoryDomains: { round_trips: 1, rows_read: 99, rows_written: 0, why: "as listDomains: ≈ 9 rows per domain on the page" },
  listRepositoryContacts: {
    round_trips: 1,
    rows_read: 23,
    rows_written: 0,
    why: "contacts are walked in id order and each kept if a domain of the repository uses it (an exists() over its links), so rows read grow with the contacts walked until the page fills, not with the page: a repository that holds few of many contacts reads many",
  },
  listRepositoryHosts: {
    round_trips: 1,
    rows_read: 30,
    rows_written: 0,
    why: "as listRepositoryContacts: hosts walked in id order, each kept if a domain of the repository names it or is its superordinate domain",
  },
  listContacts: { round_trips: 1, rows_read: 12, rows_written: 0 },
  getContact: { round_trips: 1, rows_read: 2, rows_written: 0 },
  listDomains: {
    round_trips: 1,
    rows_read: 99,
    rows_written: 0,
    why: "1 statement; rows read ≈ 9 per domain on the page: each row's name servers and contacts come with it as subqueries of the one statement (getDomain reads 9)",
  },
  getDomain: { round_trips: 1, rows_read: 9, rows_written: 0 },
  listHosts: { round_trips: 1, rows_read: 13, rows_written: 0 },
  getHost: { round_trips: 1, rows_read: 1, rows_written: 0 },
  listZones: { round_trips: 1, rows_read: 2, rows_written: 0 },
  getZone: { round_trips: 1, rows_read: 2, rows_written: 0 },
  listRecords: { round_trips: 1, rows_read: 22, rows_written: 0, why: "each record's zone name comes with it (a subquery per row): ≈ 2 rows per record" },
  listZoneRecords: {
    round_trips: 1,
    rows_read: 25,
    rows_written: 0,
    why: "the zone (its 404, its visibility) and the page in one batch; a `name` filter on a zone given by id takes 2 round trips (the zone's name resolves the owner name)",
  },
  getRecord: { round_trips: 1, rows_read: 2, rows_written: 0 },
  listEvents: { round_trips: 1, rows_read: 11, rows_written: 0 },
  getEvent: { round_trips: 1, rows_read: 1, rows_written: 0 },
  listAccounts: { round_trips: 1, rows_read: 2, rows_written: 0 },
  getAccount: { round_trips: 1, rows_read: 1, rows_written: 0 },
  getMe: { round_trips: 1, rows_read: 2, rows_written: 0 },
  listTokens: { round_trips: 1, rows_read: 5, rows_written: 0 },
  getToken: { round_trips: 1, rows_read: 1, rows_written: 0 },
  getDnssec: {
    round_trips: 1,
    rows_read: 2,
    rows_written: 0,
    why: "the zone (its 404, its visibility) and its active keys in one batch, the keys finding the zone through the shadowed zones",
  },
  "getZone text/dns": {
    round_trips: 1,
    rows_read: 2,
    rows_written: 0,
    why: "1 round trip from the Cache API: the zone's row (version, visibility, with its DNSSEC keys) is read, the body comes from caches.default keyed by zone id and version; the first export of a version also reads every record",
  },
  pdnsLookup: { round_trips: 1, rows_read: 14, rows_written: 0, why: "one statement: the question's name, the wildcards and the zone's apex" },
  pdnsList: { round_trips: 1, rows_read: 34, rows_written: 0, why: "the whole zone: rows grow with the zone (the PowerDNS list call asks for all of it)" },
  pdnsGetDomainInfo: { round_trips: 1, rows_read: 2, rows_written: 0 },
  pdnsGetAllDomains: { round_trips: 1, rows_read: 3, rows_written: 0, why: "one statement: the zones and the catalog zone's one row (dns_catalog)" },
  pdnsGetAllDomainMetadata: { round_trips: 1, rows_read: 1, rows_written: 0 },
  pdnsGetDomainMetadata: { round_trips: 0, rows_read: 0, rows_written: 0 },
  pdnsGetBeforeAndAfterNamesAbsolute: { round_trips: 1, rows_read: 12, rows_written: 0 },
  pdnsGetDomainKeys: { round_trips: 1, rows_read: 1, rows_written: 0 },
  pdnsGetUpdatedMasters: {
    round_trips: 1,
    rows_read: 3,
    rows_written: 0,
    why: "one statement: the zones due a NOTIFY from a partial index that holds only them (none here), and the catalog's one row",
  },
  pdnsSetNotified: { round_trips: 1, rows_read: 1, rows_written: 1, why: "one UPDATE of the zone by rowid: its notified serial" },
  createContact: { round_trips: 1, rows_read: 3, rows_written: 12 },
  updateContact: { round_trips: 2, rows_read: 7, rows_written: 10 },
  deleteContact: { round_trips: 2, rows_read: 5, rows_written: 9 },
  createDomain: {
    round_trips: 2,
    rows_read: 64,
    rows_written: 31,
    why: "1 read batch (registrant, contacts, name-server hosts, the name's holder, catalog rules) and 1 write batch; rows read are the guards' index probes",
  },
  updateDomain: { round_trips: 2, rows_read: 14, rows_written: 16 },
  renewDomain: { round_trips: 2, rows_read: 14, rows_written: 15 },
  deleteDomain: {
    round_trips: 4,
    rows_read: 22,
    rows_written: 13,
    why: "4 round trips: the domain and its subordinate hosts are read on their own before the routine's read batch; not merged (a write path)",
  },
  restoreDomain: { round_trips: 2, rows_read: 13, rows_written: 12 },
  requestTransfer: {
    round_trips: 2,
    rows_read: 19,
    rows_written: 13,
    why: "the failed-request counts of the domain and the account are read with the domain (one round trip) and checked again by a guard in the write's batch (docs/safety.md § Transfers and auth_info): 6 rows of index probes",
  },
  getTransfer: {
    round_trips: 1,
    rows_read: 4,
    rows_written: 0,
    why: "the transfer by its domain reference in one statement (the domain by name a subquery): no read of the domain first",
  },
  rejectTransfer: {
    round_trips: 3,
    rows_read: 17,
    rows_written: 14,
    why: "3 round trips: the transfer, then the domain in the routine's read batch, then the write; not merged (a write path)",
  },
  cancelTransfer: { round_trips: 3, rows_read: 18, rows_written: 14, why: "as rejectTransfer" },
  approveTransfer: {
    round_trips: 4,
    rows_read: 19,
    rows_written: 24,
    why: "4 round trips: the transfer, the gaining account's contacts, the domain (read batch), the write; not merged (a write path)",
  },
  createHost: { round_trips: 2, rows_read: 4, rows_written: 17 },
  updateHost: {
    round_trips: 2,
    rows_read: 10,
    rows_written: 16,
    why: "a host no domain uses (one that domains use reads them, in a third round trip: their delegation changes with it, src/resources/hosts/delegation.ts)",
  },
  deleteHost: { round_trips: 2, rows_read: 5, rows_written: 9 },
  createZone: {
    round_trips: 2,
    rows_read: 11,
    rows_written: 30,
    why: "the catalog zone's serial moves with it (a trigger of drizzle/0017 updates dns_catalog's one row), and the new zone enters zones_unnotified_idx (due a NOTIFY)",
  },
  "createZone text/dns": {
    round_trips: 2,
    rows_read: 308,
    rows_written: 822,
    why: "2 round trips whatever the size (100 records here): records travel as JSON into json_each; rows grow with the records (index probes of the record rules); the catalog zone's serial and zones_unnotified_idx as for createZone",
  },
  updateZone: {
    round_trips: 2,
    rows_read: 10,
    rows_written: 10,
    why: "A serial that moves also moves the zone's entry in zones_unnotified_idx (due a NOTIFY to the DNS secondaries): one more row written.",
  },
  deleteZone: {
    round_trips: 4,
    rows_read: 21,
    rows_written: 12,
    why: "the catalog zone's serial moves with it (a trigger of drizzle/0017). 4 round trips: the routine's read, then the master file's size and the records (the delete event keeps the file when an import could take it back), then the write",
  },
  createRecord: {
    round_trips: 4,
    rows_read: 34,
    rows_written: 18,
    why: "4 round trips: the zone, the record's RRset and the names' neighbourhood (the integrity rules) are three statements that could be one read batch; not merged in the last hour (a write path). The write batch reads that neighbourhood again first (its integrity guard: a write committed meanwhile makes it decide again). A serial that moves also moves the zone's entry in zones_unnotified_idx (due a NOTIFY to the DNS secondaries): one more row written.",
  },
  updateRecord: {
    round_trips: 4,
    rows_read: 43,
    rows_written: 15,
    why: "4 round trips: the record, the neighbourhood (integrity), the routine's read batch, the write; the write batch reads the neighbourhood again first (the integrity guard). A serial that moves also moves the zone's entry in zones_unnotified_idx (due a NOTIFY to the DNS secondaries): one more row written.",
  },
  deleteRecord: {
    round_trips: 3,
    rows_read: 32,
    rows_written: 12,
    why: "3 round trips: the neighbourhood (integrity) is read on its own beside the routine's read batch, and again by the write batch's integrity guard. A serial that moves also moves the zone's entry in zones_unnotified_idx (due a NOTIFY to the DNS secondaries): one more row written.",
  },
  applyZoneChanges: {
    round_trips: 2,
    rows_read: 81,
    rows_written: 97,
    why: "4 changes (an add, a replace, a remove, a delete) on a zone of 31 records: 1 read batch (the zone and all its records: the rules are checked on the whole zone as the changes leave it) and 1 write batch, whose first statement moves the zone's version from the one read (the guard: no row scan at commit). Rows read grow with the zone, not with the changes",
  },
  "applyZoneChanges 1000 changes": {
    round_trips: 2,
    rows_read: 6041,
    rows_written: 19001,
    why: "2 round trips whatever the number of changes: records, TTLs and events travel as JSON chunks into a few set-based statements. Rows grow with the records written (≈ 19 per new record: its row, its indexes, its event and the event's indexes, the count trigger)",
  },
  enableDnssec: {
    round_trips: 4,
    rows_read: 6,
    rows_written: 14,
    why: "4 round trips: the zone, its active keys, the same-named domain (one-click DS), then the write; the reads could be one batch. A serial that moves also moves the zone's entry in zones_unnotified_idx (due a NOTIFY to the DNS secondaries): one more row written.",
  },
  disableDnssec: { round_trips: 4, rows_read: 9, rows_written: 11, why: "as enableDnssec" },
  createAccount: { round_trips: 1, rows_read: 3, rows_written: 11 },
  updateAccount: { round_trips: 2, rows_read: 5, rows_written: 10 },
  createToken: { round_trips: 2, rows_read: 5, rows_written: 13 },
  deleteToken: { round_trips: 2, rows_read: 12, rows_written: 9 },
  runSweep: {
    round_trips: 3,
    rows_read: 3,
    rows_written: 0,
    why: "3 round trips when nothing is due (one index probe per kind of due step); each domain a step changes is a write of its own",
  },
  deleteAccount: { round_trips: 3, rows_read: 11, rows_written: 12, why: "3 round trips: what the account holds is counted before the routine's read batch" },
};
