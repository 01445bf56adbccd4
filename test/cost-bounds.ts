// The D1 cost of every operation of the OpenAPI document, as upper bounds that
// test/cost.test.ts holds each measured figure to (the isolate warm; list pages of 10, on
// the data that file seeds). The floor (issue 18): a single-resource read is 1 round trip,
// a single-object write at most 2 (one read batch, one write batch), a list page reads at
// most its limit and a small constant of rows. `why` explains what each figure rests on
// where an operation is not at its floor (and a few that are, but not obviously).
// Raise a bound only with a reason in `why`: a new round trip is a network trip on the edge.
// Every object created or deleted also moves its account's usage row (quotas, migration 0024:
// one row written by the trigger), and every write's batch ends with the write routine's
// quota check (src/db/quota-check.ts, migration 0033), one statement: 2 rows read when the batch
// moved no count (the partial index of the accounts noted in this batch, empty); when it
// moved one, the account's note written and cleared (3 rows written) and 4 rows read (the
// noted usage row, its index entry, the account's overrides when a count grew), where a
// create's own quota guard read 1 and a delete's nothing. A transfer's approval notes both
// accounts and reads the gaining account's overrides: 11 rows read and 5 written more. A
// zone's creation
// reads the names above and below it (ownership, migration 0015), and the DNS backend's
// lookups read them too. Every event written costs three index rows more than before
// migration 0023, which added the
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
  checkDomains: {
    round_trips: 1,
    rows_read: 80,
    rows_written: 0,
    why: "50 names in one statement (the names any account holds, probed in the unique name index: rows read grow with the names asked, here 47 registrable of which 30 held, not with the domains stored); the catalog, with its premium and reserved names, is the isolate's copy",
  },
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
  listEventArchive: { round_trips: 1, rows_read: 1, rows_written: 0 },
  getEventArchive: { round_trips: 1, rows_read: 1, rows_written: 0, why: "the object's row (its visibility); the object itself streams from R2" },
  listAccounts: { round_trips: 1, rows_read: 2, rows_written: 0 },
  getAccount: { round_trips: 1, rows_read: 2, rows_written: 0, why: "the account and its usage row (account_usage) in one batch" },
  getMe: { round_trips: 1, rows_read: 3, rows_written: 0, why: "the account, the token and the account's usage row in one batch" },
  listTokens: { round_trips: 1, rows_read: 5, rows_written: 0 },
  getToken: { round_trips: 1, rows_read: 1, rows_written: 0 },
  getDnssec: {
    round_trips: 1,
    rows_read: 2,
    rows_written: 0,
    why: "the zone (its 404, its visibility, and by a correlated subquery on domains_name_unique its same-named domain: the parent's timing for awaiting_parent) and its listed keys in one batch, the keys finding the zone through the shadowed zones",
  },
  "getZone text/dns": {
    round_trips: 1,
    rows_read: 2,
    rows_written: 0,
    why: "1 round trip from the Cache API: the zone's row (version, visibility, with its DNSSEC keys) is read, the body comes from caches.default keyed by zone id and version; the first export of a version also reads every record",
  },
  pdnsLookup: { round_trips: 1, rows_read: 22, rows_written: 0, why: "one statement: the question's name, the wildcards and the zone's apex" },
  pdnsList: {
    round_trips: 1,
    rows_read: 41,
    rows_written: 0,
    why: "the whole zone: rows grow with the zone (the PowerDNS list call asks for all of it); one probe more of the zone's keys, for a signed zone's row of CDS and CDNSKEY (none here)",
  },
  pdnsGetDomainInfo: { round_trips: 1, rows_read: 8, rows_written: 0 },
  pdnsGetAllDomains: { round_trips: 1, rows_read: 25, rows_written: 0, why: "one statement: the zones and the catalog zone's one row (dns_catalog)" },
  pdnsGetAllDomainMetadata: {
    round_trips: 1,
    rows_read: 1,
    rows_written: 0,
    why: "one statement: who may transfer the zone (its declared secondaries, its account's live TSIG keys that transfer it: docs/dns-update.md) and whether it is signed (an active key, probed by the zone's index: none here); PowerDNS caches it (60 s)",
  },
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
  createContact: { round_trips: 1, rows_read: 9, rows_written: 17 },
  updateContact: { round_trips: 2, rows_read: 9, rows_written: 13 },
  deleteContact: { round_trips: 2, rows_read: 11, rows_written: 16 },
  createDomain: {
    round_trips: 2,
    rows_read: 69,
    rows_written: 36,
    why: "1 read batch (registrant, contacts, name-server hosts, the name's holder, catalog rules) and 1 write batch; rows read are the guards' index probes. The domain enters domains_repository_expires_idx (drizzle/0045: reconciliation's overdue domains of a repository, one range): 1 row written",
  },
  updateDomain: { round_trips: 2, rows_read: 16, rows_written: 16 },
  renewDomain: { round_trips: 2, rows_read: 16, rows_written: 15 },
  deleteDomain: {
    round_trips: 4,
    rows_read: 24,
    rows_written: 13,
    why: "4 round trips: the domain and its subordinate hosts are read on their own before the routine's read batch; not merged (a write path)",
  },
  restoreDomain: { round_trips: 2, rows_read: 15, rows_written: 15 },
  receiveRegistryMessage: {
    round_trips: 5,
    rows_read: 23,
    rows_written: 22,
    why: "a transfer another registrar asked for (the poll message's commonest kind that changes a domain): the message noted by its id (1: a message handed over twice is applied once), the domain and its pending transfer read (2), the domain's version step with its transfer_request event and the transfer's row (1), the message marked applied (1); the catalog is the isolate's",
  },
  runReconciliation: {
    round_trips: 4,
    rows_read: 62,
    rows_written: 2,
    why: "where the pass stands (1), the overdue domains and the batch's domain ids in id order in one batch (1: up to 50 overdue from one range of domains_repository_expires_idx, and up to 101 index entries of the repository, however many it holds; here the seeded .com domains), the first domain (1), its <domain:info> (through the gateway, no D1: here out of reach, so the run stops at it), the pass's place saved (1). A domain that differs adds its write (2 round trips); one that does not, one upsert of its registry row",
  },
  requestTransfer: {
    round_trips: 2,
    rows_read: 24,
    rows_written: 18,
    why: "the failed-request counts of the domain and the account are read with the domain (one round trip) and checked again by a guard in the write's batch (docs/safety.md § Transfers and auth_info): 6 rows of index probes. The transfer enters two indexes by account (gaining, losing: drizzle/0028), which an account's delete reads instead of every transfer: 2 rows written. The gaining account's room for what the approval will bring it (the domain, its subordinate hosts, copies of its contacts: src/db/quota-check.ts promisedQuotaGuard) reads its usage row, its overrides and the domain's hosts.",
  },
  getTransfer: {
    round_trips: 1,
    rows_read: 5,
    rows_written: 0,
    why: "the transfer by its domain reference in one statement (the domain by name a subquery): no read of the domain first; beside it in the same batch, the latest transfer with another registrar (registry_transfers by name or domain: one index probe, drizzle/0042)",
  },
  rejectTransfer: {
    round_trips: 3,
    rows_read: 20,
    rows_written: 14,
    why: "3 round trips: the transfer, then the domain in the routine's read batch, then the write; not merged (a write path). The transfer's version step reads its row once more, in the version trigger transfers have like every versioned table (drizzle/0027)",
  },
  cancelTransfer: { round_trips: 3, rows_read: 21, rows_written: 14, why: "as rejectTransfer" },
  approveTransfer: {
    round_trips: 4,
    rows_read: 34,
    rows_written: 32,
    why: "4 round trips: the transfer, the gaining account's contacts, the domain (read batch), the write; not merged (a write path); one row of it the transfers' version trigger (as rejectTransfer), one the domain's new expiry in domains_repository_expires_idx (drizzle/0045). The write moves counts of both accounts, so the quota check reads both notes and the gaining account's overrides (its limits hold at the approval too)",
  },
  createHost: {
    round_trips: 2,
    rows_read: 12,
    rows_written: 24,
    why: "a guard in the write's batch reads its superordinate domain again, for the registry lock (src/registry/host-lock.ts): 1 row",
  },
  updateHost: {
    round_trips: 2,
    rows_read: 14,
    rows_written: 19,
    why: "a host no domain uses (one that domains use reads them, in a third round trip: their delegation changes with it, src/resources/hosts/delegation.ts). Its superordinate domain is read with it and its lock checked again by a guard in the write's batch (src/registry/host-lock.ts): 2 rows",
  },
  deleteHost: {
    round_trips: 2,
    rows_read: 12,
    rows_written: 16,
    why: "the host's superordinate domain is read with it, for the registry lock (src/registry/host-lock.ts): 1 row (the host's index probe; an external host has none)",
  },
  createZone: {
    round_trips: 2,
    rows_read: 31,
    rows_written: 40,
    why: "the catalog zone's serial moves with it (a trigger of drizzle/0017 updates dns_catalog's one row), and the new zone enters zones_unnotified_idx (due a NOTIFY)",
  },
  "createZone text/dns": {
    round_trips: 2,
    rows_read: 427,
    rows_written: 931,
    why: "2 round trips whatever the size (100 records here): records travel as JSON into json_each; rows grow with the records (index probes of the record rules); the catalog zone's serial and zones_unnotified_idx as for createZone",
  },
  updateZone: {
    round_trips: 2,
    rows_read: 12,
    rows_written: 13,
    why: "A serial that moves also moves the zone's entry in zones_unnotified_idx (due a NOTIFY to the DNS secondaries): one more row written.",
  },
  deleteZone: {
    round_trips: 3,
    rows_read: 25,
    rows_written: 19,
    why: "the catalog zone's serial moves with it (a trigger of drizzle/0017). 3 round trips: the routine's read, then the records (the delete event keeps the file when an import could take it back: the zone row knows the file's size, zones.record_bytes of drizzle/0028), then the write. The routine's read also reads the zone's DNSSEC keys and the domain of its name (a DS of the keys refuses the delete: src/registry/zone-ds.ts): 1 row here",
  },
  createRecord: {
    round_trips: 2,
    rows_read: 58,
    rows_written: 25,
    why: "2 round trips: one read batch (the zone, and one statement with the records at the owner and the integrity check's neighbourhood: src/resources/records/integrity-reads.ts) and one write batch (the record, its events, the integrity, room and quota guards, the idempotency record). The names the integrity check's lookups pass through (the owner, its ancestors to the apex and the wildcard beside each, the same for the in-zone targets of the record and of the apex NS) are worked out in SQL by one recursive expression from what the statement reads (the zone by its reference, the record by its id): D1 counts that expression's own working rows as read, about 19 of the rows here (17 more than the 4 round trips read); the table rows read are what the check read before (the zone or the record, the apex NS, the records at the names). The write batch reads the neighbourhood again first (its integrity guard: a write committed meanwhile fails the batch, and the write reads and decides again — a retry is a new read batch and write batch; the bound counts the uncontended path). A serial that moves also moves the zone's entry in zones_unnotified_idx (due a NOTIFY to the DNS secondaries): one more row written.",
  },
  updateRecord: {
    round_trips: 2,
    rows_read: 63,
    rows_written: 19,
    why: "2 round trips: the record and, in the same read batch, the records at its owner (and at its new owner when it moves) with the integrity check's neighbourhood, then the write batch. The names the integrity check's lookups pass through (the owner, its ancestors to the apex and the wildcard beside each, the same for the in-zone targets of the record and of the apex NS) are worked out in SQL by one recursive expression from what the statement reads (the zone by its reference, the record by its id): D1 counts that expression's own working rows as read, about 20 of the rows here (18 more than the 4 round trips read); the table rows read are what the check read before (the zone or the record, the apex NS, the records at the names). The write batch reads the neighbourhood again first (its integrity guard: a write committed meanwhile fails the batch, and the write reads and decides again — a retry is a new read batch and write batch; the bound counts the uncontended path). A serial that moves also moves the zone's entry in zones_unnotified_idx (due a NOTIFY to the DNS secondaries): one more row written. A record whose line changes length moves the zone's size (zones.record_bytes, drizzle/0028): one more row written, whatever the zone's size.",
  },
  deleteRecord: {
    round_trips: 2,
    rows_read: 67,
    rows_written: 19,
    why: "2 round trips: the record and, in the same read batch, its neighbourhood for the integrity check, then the write batch. The statement also decides in SQL whether the check needs the zone whole (a DNAME or a delegation removed, or a name left empty near a wildcard alias: src/dns/zone-integrity.ts), reading it only then. The names the integrity check's lookups pass through (the owner, its ancestors to the apex and the wildcard beside each, the same for the in-zone targets of the record and of the apex NS) are worked out in SQL by one recursive expression from what the statement reads (the zone by its reference, the record by its id): D1 counts that expression's own working rows as read, about 30 of the rows here (29 more than the 3 round trips read); the table rows read are what the check read before (the zone or the record, the apex NS, the records at the names). The write batch reads the neighbourhood again first (its integrity guard: a write committed meanwhile fails the batch, and the write reads and decides again — a retry is a new read batch and write batch; the bound counts the uncontended path). A serial that moves also moves the zone's entry in zones_unnotified_idx (due a NOTIFY to the DNS secondaries): one more row written.",
  },
  applyZoneChanges: {
    round_trips: 2,
    rows_read: 92,
    rows_written: 107,
    why: "4 changes (an add, a replace, a remove, a delete) on a zone of 31 records: 1 read batch (the zone and all its records: the rules are checked on the whole zone as the changes leave it) and 1 write batch, whose first statement moves the zone's version from the one read (the guard: no row scan at commit). Rows read grow with the zone, not with the changes",
  },
  "applyZoneChanges 1000 changes": {
    round_trips: 2,
    rows_read: 7046,
    rows_written: 20005,
    why: "2 round trips whatever the number of changes: records, TTLs and events travel as JSON chunks into a few set-based statements. Rows grow with the records written (≈ 19 per new record: its row, its indexes, its event and the event's indexes, the count trigger)",
  },
  enableDnssec: {
    round_trips: 4,
    rows_read: 21,
    rows_written: 40,
    why: "4 round trips: the zone, its active keys, the same-named domain (one-click DS), then the write; the reads could be one batch. Each key's event (dnssec.key.active) and the DS set's (dnssec.ds.submitted, or .seen one-click) are written beside the zone's update, each an event row and its indexes; the batch's first guard (no key yet: a roll has several live keys, so no unique index says it) reads the zone's keys. A serial that moves also moves the zone's entry in zones_unnotified_idx (due a NOTIFY to the DNS secondaries): one more row written. The write batch's guard reads the zone row and its new key twice: still room for the DNSKEY, CDS and CDNSKEY its keys add to the export (the zone size limit, src/resources/dnssec/room.ts).",
  },
  updateDnssec: {
    round_trips: 4,
    rows_read: 1043,
    rows_written: 13,
    why: "the zone, its keys, and the zone's largest TTL (a policy's lifetimes are checked against the zone's own timings, docs/dnssec-rollovers.md), then the write; the largest TTL is read over the zone's records (here the 1 000 of the change batch above): rows grow with the zone, to be read from an index on (zone, ttl)",
  },
  disableDnssec: { round_trips: 4, rows_read: 11, rows_written: 14, why: "as enableDnssec, without its room guard" },
  startDnssecRollover: {
    round_trips: 4,
    rows_read: 1060,
    rows_written: 29,
    why: "the zone; one batch of its keys, its largest record TTL (TTLsig: read over the zone's records, 1 031 here after the bulk change above, so rows read grow with the zone; an index on (zone_id, ttl) would make it one seek but cost every record write a row more, and writes are the dear part) and the same-named domain; the write (the new key, the zone's serial and roll, its events) with its room guard (the zone row and its three live keys, twice: the records and the bytes its keys add to the export, src/resources/dnssec/room.ts); the state read back. Rows written: the key, the zone (and zones_unnotified_idx), two events with their indexes",
  },
  reportDnssecDsSeen: {
    round_trips: 4,
    rows_read: 1055,
    rows_written: 17,
    why: "as startDnssecRollover: the zone, one read batch (its records' largest TTL grows with the zone), the write (the keys' DS states, the zone's next step, dnssec.ds.seen), the state read back",
  },
  runDnssec: {
    round_trips: 3,
    rows_read: 1040,
    rows_written: 2,
    why: "one zone due: the due zones by zones_dnssec_due_idx (at most 50 a run), one read batch per zone (its keys, its records' largest TTL, its domain), one write per zone; a zone waiting for the DS TTL writes its next look alone (no serial step, no event). A step that changes keys writes as startDnssecRollover does",
  },
  createAccount: { round_trips: 1, rows_read: 5, rows_written: 16 },
  updateAccount: { round_trips: 2, rows_read: 7, rows_written: 13 },
  createToken: { round_trips: 2, rows_read: 13, rows_written: 20 },
  deleteToken: { round_trips: 2, rows_read: 18, rows_written: 16 },
  runSweep: {
    round_trips: 3,
    rows_read: 3,
    rows_written: 0,
    why: "3 round trips when nothing is due (one index probe per kind of due step); each domain a step changes is a write of its own",
  },
  runEventArchive: {
    round_trips: 1,
    rows_read: 1,
    rows_written: 0,
    why: "1 round trip when nothing is due (the oldest due event, from events_at_idx); each pass then reads an account's oldest events twice (their sizes, then the events), and each object is an R2 put and get and one D1 batch",
  },
  listWebhooks: { round_trips: 1, rows_read: 1, rows_written: 0 },
  getWebhook: { round_trips: 1, rows_read: 1, rows_written: 0 },
  createWebhook: {
    round_trips: 1,
    rows_read: 12,
    rows_written: 19,
    why: "the write batch alone: the account's webhook count (the quota) is checked inside it, after the insert (src/db/write.ts), so racing creates cannot pass the limit",
  },
  updateWebhook: { round_trips: 2, rows_read: 8, rows_written: 13 },
  deleteWebhook: { round_trips: 2, rows_read: 17, rows_written: 18, why: "its delivery records go with it (a cascade)" },
  rotateWebhookSecret: { round_trips: 2, rows_read: 8, rows_written: 12 },
  listWebhookDeliveries: {
    round_trips: 2,
    rows_read: 5,
    rows_written: 0,
    why: "the webhook (its 404, its visibility), then the page: the stored records it needs, newest first (each holds a pass's attempts, drizzle/0030), found by the webhook's index and counted by a window (the index entry, the record, the window's and the subquery's rows: 4 for a page within one record); the two could be one batch",
  },
  replayWebhook: {
    round_trips: 5,
    rows_read: 5,
    rows_written: 1,
    why: "the webhook, the event the time or cursor names, the account's role, the first event sent again, then the cursor moved back; not on a hot path",
  },
  pingWebhook: {
    round_trips: 3,
    rows_read: 6,
    rows_written: 4,
    why: "the webhook, its account's status (a suspended account's webhooks send nothing, not even a ping: docs/webhooks.md), then the delivery record, a record of one attempt (drizzle/0030: two indexes, not three); the test delivery itself is no D1 work",
  },
  dispatchWebhooks: {
    round_trips: 8,
    rows_read: 241,
    rows_written: 7,
    why: "the owed webhooks (one index probe each into the events of its account), then one pass for all of them (src/delivery/pass.ts): their lease (and, in the same batch, the mark on those another pass holds: turned_away, drizzle/0029), their accounts' roles (kept by the isolate a minute), the events after their cursors, the bodies of those a filter selects, the attempts recorded with the cursors when the webhook's turn ends (from JSON: each webhook's lease probed once, with its id's row, and a record row per job of attempts, drizzle/0030), and the lease let go with one look at the webhooks a pass was turned away from meanwhile (reading the webhook and its account: 2 rows more, and the mark cleared); rows read grow with the events a webhook's filter passes over, a page of up to 200 at a time (a job's worth, src/delivery/send.ts: 121 rows read with pages of 100); the state moved by one UPDATE … FROM JSON for all the pass's webhooks reads its tuple, the webhook and the join's row (3 where an update by key read 1); before each job, beside the bodies' read (so no later), one look that the lease still holds the webhook, enabled, its account active (lease.ts, stillSending: a suspension after the lease sends nothing more), a round trip more than the 7 before it, and about 5 rows (232 before)",
  },
  "dispatchWebhooks 10 webhooks": {
    round_trips: 7,
    rows_read: 377,
    rows_written: 61,
    why: "ten webhooks owed new events cost about one's round trips (45 round trips and 255 rows read when each had its pass): the webhooks' reads asked at about the same time go together in one round trip (src/delivery/coalesce.ts), and each turn's last record waits for the others', one batch before the release, whenever the sender's jobs came back: 6 here. The lease's mark and the release's look at marked webhooks read each webhook's row (and its account's) once more, and the record reads each webhook's id from its JSON and probes its lease once, beside its attempts' rows (one attempt each here; with a hundred, a record reads 102 rows where a probe per attempt read 200): 293 rows read; and the webhooks' states move in one UPDATE … FROM their JSON (src/delivery/lease.ts), each state's tuple, a probe of the webhook by its key and the join's row read, about 3 a webhook: 323 rows read, where ten updates of one row each read 293 but made the batch's statements grow with the webhooks. Each webhook's attempts are one stored record (drizzle/0030: a row and two index entries, where each attempt was a row and three): 61 rows written, 71 before, and with a job of 200 attempts a webhook writes 3 rows where it wrote 800. A suspended account's webhooks pause (lease.ts): the lease reads each webhook's account (1 row each), and before the jobs one look for all ten, beside the bodies' read, that the lease still holds them, enabled, their accounts active (the webhook, its account and the JSON's value: 3 rows each, about 5 a webhook in all): 7 round trips and 371 rows read, where 6 and 323 let a pass send after a suspension",
  },
  createTsigKey: { round_trips: 2, rows_read: 12, rows_written: 19, why: "the zones the key names (its account's), then the write" },
  getTsigKey: { round_trips: 1, rows_read: 1, rows_written: 0 },
  listTsigKeys: { round_trips: 1, rows_read: 1, rows_written: 0 },
  updateTsigKey: {
    round_trips: 2,
    rows_read: 11,
    rows_written: 12,
    why: "the key, read with the zones whose declared secondaries transfer with it and the zones the patch names (both of the key's account, found by the key's id: src/resources/tsig-keys/queries.ts), then the write",
  },
  pdnsGetTSIGKey: {
    round_trips: 1,
    rows_read: 2,
    rows_written: 0,
    why: "the key's row, and its `allow` read as JSON (json_each: one row) to hand out only a key that transfers",
  },
  pdnsDnsUpdate: {
    round_trips: 2,
    rows_read: 36,
    rows_written: 28,
    why: "one signed message replacing an A RRset in a zone of 30 records: one read batch (the zone, the key, whether the message was seen, the records at its names and the names around them that the integrity rules look at, the account's status) and one write batch (the records, the zone's serial, the events, the message as seen); the number of both does not grow with the update's size (test/dns-update.test.ts). The staged connector calls it replaces cost 4 round trips and 2 095 rows read at commit alone",
  },
  deleteTsigKey: {
    round_trips: 2,
    rows_read: 14,
    rows_written: 16,
    why: "the key's row read with the zones whose secondaries use it (found by the key's id: its account's row read once more), then the delete with its event; the write routine's quota check (drizzle/0033) reads and clears the account's usage mark the delete's count sets",
  },
  deleteAccount: {
    round_trips: 3,
    rows_read: 13,
    rows_written: 13,
    why: "3 round trips: what the account holds, and the transfers it took part in (two index ranges, drizzle/0028), are counted before the routine's read batch",
  },
};
