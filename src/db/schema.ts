// Every table of the service. Timestamps are RFC 3339 UTC text with milliseconds
// (fixed width, so text order is time order). `version` rises with every write and is
// what `If-Match` checks atomically. Names are stored normalised (lowercase A-labels).
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { DsData, RgpEntry } from "../registry/lifecycle";
import type { Price, YearlyPrices } from "../registry/prices";
import type { DsState, KeyRole, KeyState, SigningProcess } from "../dns/dnssec/rollover";
import type { SigningPolicy } from "../dns/dnssec/signing-policy";

const timestamps = {
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
};

export const repositories = sqliteTable("repositories", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  roidSuffix: text("roid_suffix").notNull(),
  ...timestamps,
});

export const extensions = sqliteTable(
  "extensions",
  {
    id: text("id").primaryKey(),
    unicodeName: text("unicode_name").notNull(),
    type: text("type", { enum: ["generic", "country-code", "sponsored"] }).notNull(),
    repositoryId: text("repository_id")
      .notNull()
      .references(() => repositories.id),
    periodMin: integer("period_min").notNull(),
    periodMax: integer("period_max").notNull(),
    graceAdd: integer("grace_add").notNull(),
    graceRenew: integer("grace_renew").notNull(),
    graceAutoRenew: integer("grace_auto_renew").notNull(),
    graceTransfer: integer("grace_transfer").notNull(),
    graceRedemption: integer("grace_redemption").notNull(),
    gracePendingDelete: integer("grace_pending_delete").notNull(),
    nameserversMin: integer("nameservers_min").notNull(),
    nameserversMax: integer("nameservers_max").notNull(),
    idn: integer("idn", { mode: "boolean" }).notNull(),
    dnssec: integer("dnssec", { mode: "boolean" }).notNull(),
    /** Days after a registration or a transfer during which the domain cannot be transferred (ICANN transfer policy: 60; 0 where the registry has no lock). */
    transferLockDays: integer("transfer_lock_days").notNull().default(60),
    /** Days a transfer waits for the losing account before it is approved automatically (ICANN transfer policy: 5). */
    pendingTransferDays: integer("pending_transfer_days").notNull().default(5),
    /** One year of each operation, decimal strings (src/registry/prices.ts derives every period). */
    prices: text("prices", { mode: "json" }).$type<YearlyPrices>().notNull(),
    ...timestamps,
  },
  (t) => [index("extensions_repository_idx").on(t.repositoryId, t.id)],
);

/**
 * Names a repository prices on its own (`premium`, with `prices` in the extensions' shape)
 * or keeps from registration (`reserved`): catalog data, drizzle/0021.
 */
export const repositoryNames = sqliteTable(
  "repository_names",
  {
    name: text("name").primaryKey(),
    repositoryId: text("repository_id")
      .notNull()
      .references(() => repositories.id),
    extensionId: text("extension_id")
      .notNull()
      .references(() => extensions.id),
    kind: text("kind", { enum: ["premium", "reserved"] }).notNull(),
    prices: text("prices", { mode: "json" }).$type<YearlyPrices>(),
    ...timestamps,
  },
  (t) => [index("repository_names_repository_idx").on(t.repositoryId, t.kind, t.name)],
);

/**
 * The account created by migration 0009 that owns every object that existed before
 * accounts did (migration 0010's default); `npm start` (authentication off) acts as it.
 */
export const OPERATOR_ACCOUNT_ID = "acc_00000000000000000000000000";

/**
 * Who owns what (docs/accounts.md): every contact, domain, host, zone, token and event belongs
 * to one account, its sponsor (EPP clID). Operators see every account's objects.
 */
export const accounts = sqliteTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    role: text("role", { enum: ["operator", "customer"] }).notNull(),
    status: text("status", { enum: ["active", "suspended"] }).notNull(),
    /** An operator's overrides of the configured quotas: a JSON object (src/registry/limits.ts). */
    limits: text("limits", { mode: "json" }).$type<Partial<Record<string, number>>>(),
    version: integer("version").notNull().default(1),
    ...timestamps,
  },
  (t) => [uniqueIndex("accounts_name_unique").on(t.name)],
);

/**
 * What each account holds, kept by triggers in the same transaction as every write
 * (drizzle/0024_account_quotas.sql), so a quota check reads one row.
 */
export const accountUsage = sqliteTable(
  "account_usage",
  {
    accountId: text("account_id")
      .primaryKey()
      .references(() => accounts.id, { onDelete: "cascade", onUpdate: "cascade" }),
    zones: integer("zones").notNull().default(0),
    records: integer("records").notNull().default(0),
    domains: integer("domains").notNull().default(0),
    contacts: integer("contacts").notNull().default(0),
    hosts: integer("hosts").notNull().default(0),
    tokens: integer("tokens").notNull().default(0),
    tsigKeys: integer("tsig_keys").notNull().default(0),
    webhooks: integer("webhooks").notNull().default(0),
    /** Set by the write routine's quota check when a count passes its limit: a trigger aborts the batch (src/db/quota-check.ts). */
    overQuota: text("over_quota"),
    /**
     * During a batch that changed a count: what the account held before it, a JSON array in
     * the order of QUOTA_KINDS (drizzle/0033). Cleared by the batch's quota check.
     */
    countsBefore: text("counts_before"),
  },
  (t) => [index("account_usage_in_batch").on(t.accountId).where(sql`counts_before IS NOT NULL`)],
);

/**
 * The sponsoring account of an owned row. The default exists for the migration of rows
 * made before accounts; every write names the account it writes for.
 */
const sponsor = () => text("account_id").notNull().default(OPERATOR_ACCOUNT_ID);

export const contacts = sqliteTable(
  "contacts",
  {
    id: text("id").primaryKey(),
    accountId: sponsor(),
    name: text("name").notNull(),
    /** The name lowercased (Unicode-aware, unlike SQLite's LIKE): what `q` searches. */
    nameKey: text("name_key").notNull(),
    organization: text("organization"),
    email: text("email").notNull(),
    /** The address lowercased: the `email` filter matches case-insensitively. */
    emailKey: text("email_key").notNull(),
    phone: text("phone"),
    fax: text("fax"),
    /** JSON array of 0–3 street lines. */
    street: text("street", { mode: "json" }).$type<string[]>().notNull(),
    city: text("city"),
    state: text("state"),
    postalCode: text("postal_code"),
    countryCode: text("country_code"),
    privacy: integer("privacy", { mode: "boolean" }).notNull(),
    version: integer("version").notNull().default(1),
    ...timestamps,
  },
  (t) => [index("contacts_email_idx").on(t.emailKey, t.id), index("contacts_account_idx").on(t.accountId, t.id)],
);

export const domains = sqliteTable(
  "domains",
  {
    id: text("id").primaryKey(),
    accountId: sponsor(),
    name: text("name").notNull(),
    extensionId: text("extension_id")
      .notNull()
      .references(() => extensions.id),
    repositoryId: text("repository_id")
      .notNull()
      .references(() => repositories.id),
    registrantId: text("registrant_id").references(() => contacts.id),
    adminId: text("admin_id").references(() => contacts.id),
    techId: text("tech_id").references(() => contacts.id),
    billingId: text("billing_id").references(() => contacts.id),
    /** JSON array of the client statuses set on the domain, in canonical order. */
    statuses: text("statuses", { mode: "json" }).$type<string[]>().notNull(),
    /** JSON array of the registry lock's server statuses (RFC 5731 §2.3), set by the operator only, in canonical order. */
    serverStatuses: text("server_statuses", { mode: "json" }).$type<string[]>().notNull().default([]),
    authInfo: text("auth_info").notNull(),
    autoRenew: integer("auto_renew", { mode: "boolean" }).notNull(),
    expiresAt: text("expires_at").notNull(),
    /** The last completed transfer: with `created_at`, where the transfer lock starts (docs/lifecycle.md). */
    lastTransferAt: text("last_transfer_at"),
    /** JSON array of the running grace periods (RFC 3915 rgpStatus), each `{status, ends_at}`. */
    rgp: text("rgp", { mode: "json" }).$type<RgpEntry[]>().notNull().default([]),
    /** The earliest `ends_at` in `rgp`: what the sweep keys on (null when none runs). */
    rgpEndsAt: text("rgp_ends_at"),
    /** When the domain entered pendingDelete (a DELETE after addPeriod, or an expiry without auto-renew). */
    deletedAt: text("deleted_at"),
    /** JSON array of DS data (RFC 5910 dsData): `{key_tag, algorithm, digest_type, digest}`. */
    ds: text("ds", { mode: "json" }).$type<DsData[]>().notNull().default([]),
    version: integer("version").notNull().default(1),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("domains_name_unique").on(t.name),
    index("domains_rgp_ends_idx").on(t.rgpEndsAt, t.id),
    index("domains_extension_idx").on(t.extensionId, t.id),
    index("domains_repository_idx").on(t.repositoryId, t.id),
    index("domains_repository_expires_idx").on(t.repositoryId, t.expiresAt),
    index("domains_registrant_idx").on(t.registrantId, t.id),
    index("domains_admin_idx").on(t.adminId, t.id),
    index("domains_tech_idx").on(t.techId, t.id),
    index("domains_billing_idx").on(t.billingId, t.id),
    index("domains_expires_idx").on(t.expiresAt, t.id),
    index("domains_account_idx").on(t.accountId, t.id),
    index("domains_account_name_idx").on(t.accountId, t.name),
  ],
);

/**
 * Transfers between accounts (RFC 5731 §3.2.4): one row per request, the latest one per
 * domain is the domain's transfer. A pending one waits until `act_by` for the losing account.
 */
export const transfers = sqliteTable(
  "transfers",
  {
    id: text("id").primaryKey(),
    domainId: text("domain_id")
      .notNull()
      .references(() => domains.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    gainingAccountId: text("gaining_account_id")
      .notNull()
      .references(() => accounts.id),
    losingAccountId: text("losing_account_id")
      .notNull()
      .references(() => accounts.id),
    status: text("status", { enum: ["pending", "approved", "rejected", "cancelled", "auto_approved"] }).notNull(),
    period: integer("period").notNull(),
    requestedAt: text("requested_at").notNull(),
    actBy: text("act_by").notNull(),
    actedAt: text("acted_at"),
    /** What the transfer costs, as the gaining account was told when it asked (null: asked before prices existed). */
    price: text("price", { mode: "json" }).$type<Price>(),
    version: integer("version").notNull().default(1),
  },
  (t) => [
    index("transfers_domain_idx").on(t.domainId, t.requestedAt),
    index("transfers_act_by_idx").on(t.status, t.actBy, t.id),
    // An account that took part in a transfer is kept: its delete counts them here (drizzle/0028).
    index("transfers_gaining_account_idx").on(t.gainingAccountId),
    index("transfers_losing_account_idx").on(t.losingAccountId),
  ],
);

export const hosts = sqliteTable(
  "hosts",
  {
    id: text("id").primaryKey(),
    accountId: sponsor(),
    name: text("name").notNull(),
    /** Labels in reverse order (`com.example.ns1`): hosts under a domain form one index range. */
    reversedName: text("reversed_name").notNull(),
    /** The superordinate domain managed here (subordinate host), or null (external host). */
    domainId: text("domain_id").references(() => domains.id),
    /** JSON array of canonical IP addresses (glue), in the order given. */
    addresses: text("addresses", { mode: "json" }).$type<string[]>().notNull(),
    version: integer("version").notNull().default(1),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("hosts_name_unique").on(t.name),
    index("hosts_reversed_name_idx").on(t.reversedName),
    index("hosts_domain_idx").on(t.domainId, t.id),
    index("hosts_account_idx").on(t.accountId, t.id),
  ],
);

/** One row per host address, so that the `address` filter is an index search. */
export const hostAddresses = sqliteTable(
  "host_addresses",
  {
    hostId: text("host_id")
      .notNull()
      .references(() => hosts.id, { onDelete: "cascade" }),
    address: text("address").notNull(),
  },
  (t) => [primaryKey({ columns: [t.hostId, t.address] }), index("host_addresses_address_idx").on(t.address, t.hostId)],
);

/** A domain's nameservers, in the order the client gave them. */
export const domainNameservers = sqliteTable(
  "domain_nameservers",
  {
    domainId: text("domain_id")
      .notNull()
      .references(() => domains.id, { onDelete: "cascade" }),
    hostId: text("host_id")
      .notNull()
      .references(() => hosts.id),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.domainId, t.hostId] }), index("domain_nameservers_host_idx").on(t.hostId, t.domainId)],
);

/** A secondary a zone's account declares: NOTIFYed, and allowed to transfer the zone (with its key when it names one). */
export interface ZoneSecondary {
  address: string;
  port: number;
  tsig_key: string | null;
}

export const zones = sqliteTable(
  "zones",
  {
    id: text("id").primaryKey(),
    accountId: sponsor(),
    name: text("name").notNull(),
    /**
     * Labels in reverse order (`org.example.alice`, as hosts.reversed_name): the zones below
     * a zone form one index range, which the ownership rules read (src/registry/zone-ownership.ts).
     * Written with `name`; drizzle/0015 refuses a row whose reversed name does not fit it.
     */
    reversedName: text("reversed_name").notNull().default(""),
    defaultTtl: integer("default_ttl").notNull(),
    soaMname: text("soa_mname").notNull(),
    soaRname: text("soa_rname").notNull(),
    soaSerial: integer("soa_serial").notNull(),
    soaRefresh: integer("soa_refresh").notNull(),
    soaRetry: integer("soa_retry").notNull(),
    soaExpire: integer("soa_expire").notNull(),
    soaMinimum: integer("soa_minimum").notNull(),
    /** Kept in step by every record write (same batch), so lists need not count. */
    recordCount: integer("record_count").notNull().default(0),
    /**
     * The bytes of the zone's record lines as its master file writes them, kept by triggers
     * (drizzle/0028), which refuse a write past MAX_ZONE_RECORD_BYTES: every zone exports
     * within what an import takes.
     */
    recordBytes: integer("record_bytes").notNull().default(0),
    /** Declared secondaries (docs/serving.md): JSON `[{address, port, tsig_key}]`, at most 10. */
    secondaries: text("secondaries", { mode: "json" }).$type<ZoneSecondary[]>().notNull().default([]),
    version: integer("version").notNull().default(1),
    /**
     * The serial the DNS primary last sent NOTIFY for (the remote backend's setNotified;
     * drizzle/0017). Null or another value than soa_serial: the zone is due a NOTIFY.
     */
    notifiedSerial: integer("notified_serial"),
    /** The DNSSEC signing policy (docs/dnssec-rollovers.md); null: DEFAULT_SIGNING_POLICY. drizzle/0040. */
    dnssecPolicy: text("dnssec_policy", { mode: "json" }).$type<SigningPolicy>(),
    /** The key roll running (one at a time), or the first signing or the way out; null: keys at rest. */
    dnssecRollover: text("dnssec_rollover", { mode: "json" }).$type<SigningProcess>(),
    /** When the zone's keys may next have a step to take; the scheduled run reads the due ones by index. */
    dnssecNextStepAt: text("dnssec_next_step_at"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("zones_name_unique").on(t.name),
    index("zones_account_idx").on(t.accountId, t.id),
    index("zones_reversed_name_idx").on(t.reversedName),
    // Only the zones due a NOTIFY: the primary's poll reads what changed, not every zone.
    index("zones_unnotified_idx").on(t.soaSerial).where(sql`notified_serial IS NOT soa_serial`),
    // Only the zones whose keys have a step to take: the DNSSEC run reads the due ones.
    index("zones_dnssec_due_idx").on(t.dnssecNextStepAt).where(sql`dnssec_next_step_at IS NOT NULL`),
  ],
);

/**
 * The RFC 9432 catalog zone the DNS primary serves (src/serving/catalog.ts): one
 * row, its SOA serial and the serial last NOTIFYed. Triggers of drizzle/0017 move the
 * serial whenever a member may have come or gone (a zone created, deleted, renamed or
 * moved, an account suspended or made active again).
 */
export const dnsCatalog = sqliteTable("dns_catalog", {
  id: integer("id").primaryKey(),
  serial: integer("serial").notNull(),
  notifiedSerial: integer("notified_serial"),
});

export const records = sqliteTable(
  "records",
  {
    id: text("id").primaryKey(),
    zoneId: text("zone_id")
      .notNull()
      .references(() => zones.id, { onDelete: "cascade" }),
    /** Owner name relative to the zone, `@` for the apex. */
    name: text("name").notNull(),
    type: text("type").notNull(),
    /** RDATA in canonical presentation form. */
    content: text("content").notNull(),
    ttl: integer("ttl").notNull(),
    comment: text("comment"),
    version: integer("version").notNull().default(1),
    /**
     * The owner name's labels reversed (src/dns/name-order.ts ownerOrder): the zone's names
     * in canonical order, so that "does any name exist below this one" is one range seek
     * (the DNS backend's empty non-terminal question). Written with `name` by every write;
     * drizzle/0013 refuses a row whose key does not fit its name.
     */
    ownerOrder: text("owner_order").notNull().default(""),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("records_identity_unique").on(t.zoneId, t.name, t.type, t.content),
    index("records_owner_order_idx").on(t.zoneId, t.ownerOrder),
    index("records_zone_idx").on(t.zoneId, t.id),
    index("records_type_idx").on(t.type, t.id),
    index("records_name_idx").on(t.name, t.id),
  ],
);

/**
 * API tokens. Only a SHA-256 hash of each token's secret is stored; the secret is shown
 * once, when the token is minted (scripts/token.mjs).
 */
export const apiTokens = sqliteTable(
  "api_tokens",
  {
    /** The public part of the token (`tok_…`), by which a request's token is found. */
    id: text("id").primaryKey(),
    accountId: sponsor(),
    /** The token that minted this one (null: minted by the CLI); revoking a token revokes its descendants. */
    parentId: text("parent_id"),
    name: text("name").notNull(),
    scope: text("scope", { enum: ["read", "write", "dns"] }).notNull(),
    /** Hex SHA-256 of the secret part. */
    secretHash: text("secret_hash").notNull(),
    /** Restrictions (docs/accounts.md), JSON; null = none. */
    zones: text("zones", { mode: "json" }).$type<string[]>(),
    domains: text("domains", { mode: "json" }).$type<string[]>(),
    records: text("records", { mode: "json" }).$type<{ name: string; types: string[] }[]>(),
    allowedIps: text("allowed_ips", { mode: "json" }).$type<string[]>(),
    expiresAt: text("expires_at"),
    /** Set at most once a minute per isolate, when the token is checked (src/http/auth.ts). */
    lastUsedAt: text("last_used_at"),
    createdAt: text("created_at").notNull(),
    revokedAt: text("revoked_at"),
  },
  (t) => [
    uniqueIndex("api_tokens_account_name_unique").on(t.accountId, t.name),
    index("api_tokens_account_idx").on(t.accountId, t.id),
    index("api_tokens_parent_idx").on(t.parentId),
  ],
);

/**
 * The audit trail: one row per resource a successful write changed, inserted in the same
 * D1 batch as the write. `before` / `after` are the resource's API representation (JSON
 * text; null before a create and after a delete), never holding a domain's `auth_info`.
 * Rows are never updated or deleted. D1 keeps a row under 2 MB, which bounds what
 * `before` + `after` may hold (src/db/events.ts).
 */
/** What an event records (docs/lifecycle.md adds the lifecycle's operations to create, update, delete). */
export const EVENT_OPERATIONS = [
  "create",
  "update",
  "delete",
  "renew",
  "auto_renew",
  "transfer_request",
  "transfer_approve",
  "transfer_reject",
  "transfer_cancel",
  "transfer_auto_approve",
  "transfer_auth_failed",
  "expire",
  "restore",
  "purge",
  // A connected registry's word (docs/registries.md): a pending action it settled, what a
  // reconciliation found different, a poll message of a kind the service does not read.
  "settled",
  "reconciled",
  "registry_message",
  // DNSSEC key lifecycle (docs/dnssec-rollovers.md "Events"): with the types `dnssec.key`,
  // `dnssec.ds` and `dnssec.rollover` they name dnssec.key.published, dnssec.ds.seen, …
  "published",
  "ready",
  "active",
  "retired",
  "removed",
  "submitted",
  "seen",
  "stalled",
] as const;

/** The kinds of resource an event is about (`type` in /v1/events). */
export const EVENT_RESOURCE_TYPES = [
  "contact",
  "domain",
  "host",
  "zone",
  "record",
  "rrset",
  "account",
  "token",
  "tsig_key",
  "webhook",
  "repository",
  // A DNSSEC key roll's steps (docs/dnssec-rollovers.md "Events"): the key, the zone's DS set, the zone's roll.
  "dnssec.key",
  "dnssec.ds",
  "dnssec.rollover",
] as const;

export const events = sqliteTable(
  "events",
  {
    /**
     * Commit order, assigned by the database in the write's batch (one more than the
     * largest so far; D1 runs one write at a time): the keyset of the list. Ids are minted
     * in the Worker before the write commits, so id order is not commit order.
     */
    seq: integer("seq").primaryKey(),
    /** `evt_` + ULID. */
    id: text("id").notNull(),
    /** The sponsoring account of the resource at the time: events are visible as their object is. */
    accountId: sponsor(),
    at: text("at").notNull(),
    /** Id of the token that made the write (`tok_…`; "local" with authentication off). Older rows hold the token's name. */
    actor: text("actor").notNull(),
    resourceType: text("resource_type", { enum: EVENT_RESOURCE_TYPES }).notNull(),
    resourceId: text("resource_id").notNull(),
    operation: text("operation", { enum: EVENT_OPERATIONS }).notNull(),
    before: text("before", { mode: "json" }),
    after: text("after", { mode: "json" }),
  },
  (t) => [
    uniqueIndex("events_id_unique").on(t.id),
    index("events_resource_idx").on(t.resourceId, t.seq),
    index("events_type_idx").on(t.resourceType, t.seq),
    index("events_operation_idx").on(t.operation, t.seq),
    index("events_actor_idx").on(t.actor, t.seq),
    index("events_at_idx").on(t.at),
    index("events_account_idx").on(t.accountId, t.seq),
    // A customer's filters: the account's events of one kind, in commit order (0023).
    index("events_account_operation_idx").on(t.accountId, t.operation, t.seq),
    index("events_account_type_idx").on(t.accountId, t.resourceType, t.seq),
    index("events_account_actor_idx").on(t.accountId, t.actor, t.seq),
  ],
);

/**
 * The audit trail's archive index (drizzle/0022): one row per R2 object of archived events
 * (gzip'd newline-delimited JSON, one object per account, day and batch), written in the
 * D1 batch that deletes the object's events (src/jobs/event-archive.ts).
 */
export const eventArchives = sqliteTable(
  "event_archives",
  {
    /** `arc_` and the ULID of the object's first event: two runs archiving the same events name one object. */
    id: text("id").primaryKey(),
    /** The account whose events the object holds: visible as events are. */
    accountId: text("account_id").notNull(),
    /** The UTC day (YYYY-MM-DD) of the events' `at`. */
    day: text("day").notNull(),
    /** The R2 object key: `events/<account>/<day>/<first event id>.ndjson.gz`. */
    key: text("key").notNull(),
    firstEvent: text("first_event").notNull(),
    lastEvent: text("last_event").notNull(),
    /** The commit order (`events.seq`) of the first and last event the object holds. */
    firstSeq: integer("first_seq").notNull(),
    lastSeq: integer("last_seq").notNull(),
    count: integer("count").notNull(),
    /** The object's size in R2 (gzip'd). */
    bytes: integer("bytes").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("event_archives_key_unique").on(t.key),
    index("event_archives_account_idx").on(t.accountId, t.firstSeq),
    index("event_archives_account_last_seq_idx").on(t.accountId, t.lastSeq),
    index("event_archives_first_seq_idx").on(t.firstSeq),
    index("event_archives_last_seq_idx").on(t.lastSeq),
  ],
);

/**
 * Idempotency keys of POST requests (kept 24 h): the first response is stored and
 * replayed to retries that carry the same key and the same request.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    /** SHA-256 of the token name and the client's key: keys are per token. */
    id: text("id").primaryKey(),
    /** SHA-256 of the method, path, query, content type and body. */
    requestHash: text("request_hash").notNull(),
    state: text("state", { enum: ["in_flight", "done"] }).notNull(),
    status: integer("status"),
    /** JSON object of the headers to replay (Content-Type, Location, ETag). */
    headers: text("headers"),
    body: text("body"),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("idempotency_keys_expires_idx").on(t.expiresAt)],
);

/**
 * Failed transfer requests (a wrong auth_info, RFC 5731 §2.6), counted per domain
 * (`domain:dom_…`) and per requesting account (`account:acc_…`) so that every isolate and
 * every token of an account meet one count (src/registry/auth-info.ts has the rules,
 * src/resources/domains/transfer-failures.ts the statements). Times in milliseconds since
 * the epoch, so that the lock's arithmetic stays in one SQL expression.
 */
export const transferAuthFailures = sqliteTable("transfer_auth_failures", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull(),
  lastFailedAt: integer("last_failed_at").notNull(),
  /** Until when every transfer request of the key is refused (429); 0: not locked. */
  lockedUntil: integer("locked_until").notNull(),
  /** A random id of the request that counted the last failure: its own lock does not refuse it. */
  lastRequest: text("last_request").notNull(),
});

/**
 * DNSSEC signing keys of a zone (docs/dnssec.md). A zone is signed while it has an active
 * key. The private key is sealed (AES-256-GCM under DNSSEC_KEY_SECRET, src/crypto/sealed.ts)
 * and leaves the service only through the PowerDNS connector's getDomainKeys. Rows are
 * always reached through a zone the caller can see (by zone_id), never listed on their own.
 */
export const zoneKeys = sqliteTable(
  "zone_keys",
  {
    id: text("id").primaryKey(),
    zoneId: text("zone_id")
      .notNull()
      .references(() => zones.id, { onDelete: "cascade" }),
    keyTag: integer("key_tag").notNull(),
    algorithm: integer("algorithm").notNull(),
    flags: integer("flags").notNull(),
    /** The DNSKEY public key field, base64 (RFC 4034 §2.2). */
    publicKey: text("public_key").notNull(),
    /** "v1.<nonce>.<ciphertext>": the private key sealed, bound to this row's id. */
    privateKeySealed: text("private_key_sealed").notNull(),
    active: integer("active", { mode: "boolean" }).notNull(),
    createdAt: text("created_at").notNull(),
    // The key's lifecycle (src/dns/dnssec/rollover.ts SigningKey; drizzle/0040): its role, its
    // RFC 7583 state and the instants it reached each, where its DS stands at the parent.
    role: text("role", { enum: ["ksk", "zsk", "csk"] })
      .$type<KeyRole>()
      .notNull()
      .default("csk"),
    state: text("state").$type<KeyState>().notNull().default("active"),
    prePublishedAt: text("pre_published_at"),
    publishedAt: text("published_at"),
    readyAt: text("ready_at"),
    activeAt: text("active_at"),
    retiredAt: text("retired_at"),
    removedAt: text("removed_at"),
    dsState: text("ds_state").$type<DsState>().notNull().default("absent"),
    dsSince: text("ds_since"),
    nextStepAt: text("next_step_at"),
  },
  // A roll has several live keys (active = 1: not removed), drizzle/0041 (WIP).
  (t) => [index("zone_keys_live_idx").on(t.zoneId).where(sql`active = 1`), index("zone_keys_zone_idx").on(t.zoneId, t.id)],
);

/** What a TSIG key may do: sign DNS UPDATE messages (RFC 2136), sign zone transfers (AXFR/IXFR). */
export const TSIG_KEY_USES = ["update", "transfer"] as const;
export type TsigKeyUse = (typeof TSIG_KEY_USES)[number];

/**
 * TSIG keys (RFC 8945) of an account (docs/dns-update.md). The secret is generated by the
 * service, sealed like a DNSSEC private key (AES-256-GCM under DNSSEC_KEY_SECRET, bound to
 * the key's id) and handed only to the PowerDNS connector's getTSIGKey. `name` is the key's
 * DNS name as clients send it, unique in the service (PowerDNS finds a key by name).
 */
export const tsigKeys = sqliteTable(
  "tsig_keys",
  {
    id: text("id").primaryKey(),
    accountId: sponsor(),
    /** Absolute is implied: stored lower case, no trailing dot. */
    name: text("name").notNull(),
    algorithm: text("algorithm", { enum: ["hmac-sha256", "hmac-sha512"] }).notNull(),
    /** "v1.<nonce>.<ciphertext>" (src/crypto/sealed.ts), bound to this row's id. */
    secretSealed: text("secret_sealed").notNull(),
    allow: text("allow", { mode: "json" }).$type<TsigKeyUse[]>().notNull(),
    zones: text("zones", { mode: "json" }).$type<string[]>().notNull(),
    records: text("records", { mode: "json" }).$type<{ name: string; types: string[] }[]>(),
    expiresAt: text("expires_at"),
    version: integer("version").notNull().default(1),
    ...timestamps,
  },
  (t) => [uniqueIndex("tsig_keys_name_unique").on(t.name), index("tsig_keys_account_idx").on(t.accountId, t.id)],
);

/**
 * The signed DNS UPDATE messages seen lately (RFC 8945 §5.2.3 accepts a message for its
 * fudge, 300 s either side): a (key, time signed, MAC) seen before is a replay, answered
 * BADSIG and applied never (docs/dns-update.md). A row goes in with the update's own batch
 * (the unique index refuses a second), and rows older than twice the window are pruned by
 * the next update's batch.
 */
export const dnsUpdateSeen = sqliteTable(
  "dns_update_seen",
  {
    keyId: text("key_id").notNull(),
    /** The TSIG's Time Signed, seconds since the epoch. */
    signedAt: integer("signed_at").notNull(),
    /** The request's MAC, base64. */
    mac: text("mac").notNull(),
  },
  (t) => [uniqueIndex("dns_update_seen_unique").on(t.keyId, t.signedAt, t.mac), index("dns_update_seen_signed_at_idx").on(t.signedAt)],
);

/**
 * Webhooks (docs/webhooks.md): where an account's events are POSTed, signed per Standard
 * Webhooks. The events table is the outbox: `cursor_seq` is how far along the events
 * sequence (`events.seq`, commit order) this webhook has been dealt with — every matching
 * event up to it delivered or given up — so a delivery is owed exactly when a matching
 * event with a larger seq exists, and nothing but this row has to survive a crash. The
 * event after the cursor is the one being attempted: `attempts` failed so far, tried again
 * from `next_attempt_at` (src/delivery/schedule.ts). One deliverer at a time
 * holds `lease_id` until `lease_until` (wall-clock milliseconds), so attempts go in commit
 * order. Secrets are sealed (AES-256-GCM, src/delivery/secrets.ts) and never
 * leave the service but as signatures.
 */
export const webhooks = sqliteTable(
  "webhooks",
  {
    /** `whk_` + ULID. */
    id: text("id").primaryKey(),
    accountId: sponsor(),
    url: text("url").notNull(),
    description: text("description"),
    /** `<type>.<operation>` patterns (`*` for any part), JSON; null = every event. */
    eventTypes: text("event_types", { mode: "json" }).$type<string[]>(),
    enabled: integer("enabled", { mode: "boolean" }).notNull(),
    disabledReason: text("disabled_reason"),
    /** The signing secret (`whsec_…`), sealed and bound to the webhook's id. */
    secretSealed: text("secret_sealed").notNull(),
    /** The secret before the last rotation, still signing until `previous_secret_expires_at`. */
    previousSecretSealed: text("previous_secret_sealed"),
    previousSecretExpiresAt: text("previous_secret_expires_at"),
    /**
     * Written by a request to a loopback deployment (npm start): only such a webhook may
     * name a loopback address, and its secrets may be sealed with the development key.
     */
    loopback: integer("loopback", { mode: "boolean" }).notNull().default(false),
    /** The host the API was called at when the URL was set: the service itself, which the URL may not name. */
    apiHost: text("api_host").notNull(),
    /** The last `events.seq` dealt with (delivered, given up, or before the webhook existed or was enabled). */
    cursorSeq: integer("cursor_seq").notNull(),
    /** Failed attempts at the event after the cursor. */
    attempts: integer("attempts").notNull().default(0),
    /** When the event after the cursor may be attempted again; null = at once. */
    nextAttemptAt: text("next_attempt_at"),
    /** The first failed attempt since the last success (null while deliveries succeed). */
    failingSince: text("failing_since"),
    leaseId: text("lease_id"),
    leaseUntil: integer("lease_until"),
    /** A pass found it held by another's lease and left it: the holder looks again when it lets go (drizzle/0029). */
    turnedAway: integer("turned_away", { mode: "boolean" }).notNull().default(false),
    version: integer("version").notNull().default(1),
    ...timestamps,
  },
  (t) => [index("webhooks_account_idx").on(t.accountId, t.id), index("webhooks_enabled_idx").on(t.enabled, t.id)],
);

/**
 * A webhook's delivery attempts, a row per record (drizzle/0030): the attempts one
 * delivery pass made at one webhook and recorded together (a job's worth, up to
 * MAX_JOB_EVENTS), or one ping. `attempts` is a JSON array of tuples, oldest first:
 * [delivery id (`dlv_` + ULID), message id (the event's `evt_…` or the ping's `png_…`),
 * attempt number, status code, duration in ms, error, outcome, next attempt time]
 * (src/resources/webhooks/queries.ts, StoredAttempt). A row per attempt made every delivered
 * event cost D1 a row and three index entries per webhook, which at ten webhooks was most
 * of what a write's events cost D1 to deliver (docs/webhooks.md, "Delivery"). Kept for
 * WEBHOOK_DELIVERY_DAYS; `seq`, then the position in `attempts`, orders them (newest first
 * in the listing).
 */
export const webhookDeliveryRecords = sqliteTable(
  "webhook_delivery_records",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["event", "ping"] }).notNull(),
    /** When the attempts were made (the pass's clock). */
    at: text("at").notNull(),
    /** How many attempts `attempts` holds: the listing reads only the rows a page needs. */
    count: integer("count").notNull(),
    attempts: text("attempts").notNull(),
  },
  (t) => [index("webhook_delivery_records_webhook_idx").on(t.webhookId, t.seq), index("webhook_delivery_records_at_idx").on(t.at)],
);

/**
 * Where the queue consumer last looked in the events sequence (one row): the accounts of
 * the events after it are those whose webhooks may be owed something. Only a shortcut:
 * every webhook's own cursor decides what it is owed, and the cron looks at every webhook.
 */
export const webhookDispatch = sqliteTable("webhook_dispatch", {
  id: integer("id").primaryKey(),
  seq: integer("seq").notNull(),
});

/**
 * Always empty: a write's assertion inserts a row here only when it fails, and the CHECK
 * refuses that row, rolling the write's batch back (src/db/write.ts, drizzle/0027).
 */
export const writeAssertions = sqliteTable(
  "write_assertions",
  {
    holds: integer("holds").notNull(),
    rule: text("rule").notNull(),
  },
  (t) => [check("write_assertion_holds", sql`${t.holds} = 1`)],
);

/**
 * The ids a connected registry holds our contacts and hosts by (drizzle/0037,
 * docs/registries.md): a row exists exactly when a create at that registry succeeded, written
 * in the same batch as the write that needed it.
 */
export const registryObjects = sqliteTable(
  "registry_objects",
  {
    repositoryId: text("repository_id")
      .notNull()
      .references(() => repositories.id),
    objectType: text("object_type", { enum: ["contact", "host"] }).notNull(),
    /** Our id (`con_…`, `hst_…`). */
    objectId: text("object_id").notNull(),
    /** The registry's id: a contact's clIDType id (src/epp/ids.ts), a host's name. */
    registryId: text("registry_id").notNull(),
    roid: text("roid"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.repositoryId, t.objectType, t.objectId] }),
    uniqueIndex("registry_objects_registry_id_unique").on(t.repositoryId, t.objectType, t.registryId),
    index("registry_objects_object_idx").on(t.objectId),
  ],
);

/**
 * What a connected registry says of a domain (drizzle/0042, docs/registries.md "The registry
 * decides"): its ROID, the registrar that sponsors it there when that is not us, since when the
 * registry no longer has it for us (marked, never silently deleted), and when reconciliation
 * last compared it.
 */
export const registryDomains = sqliteTable(
  "registry_domains",
  {
    domainId: text("domain_id")
      .primaryKey()
      .references(() => domains.id, { onDelete: "cascade" }),
    repositoryId: text("repository_id")
      .notNull()
      .references(() => repositories.id),
    roid: text("roid"),
    /** The registry's clID when it is not this registrar. */
    sponsor: text("sponsor"),
    missingSince: text("missing_since"),
    reconciledAt: text("reconciled_at"),
    /**
     * The auth_info a PATCH asked for while the registry holds that update pending (1001;
     * drizzle/0046): applied if it is approved and the registry's info shows none, dropped
     * once the update settles. Kept as `domains.auth_info` is; never in an event.
     */
    pendingAuthInfo: text("pending_auth_info"),
    /**
     * The clTRID of the update that asked for `pendingAuthInfo` (drizzle/0047): only the
     * panData whose `paTRID.clTRID` names it applies or drops the value.
     */
    pendingAuthInfoTrid: text("pending_auth_info_trid"),
  },
  (t) => [index("registry_domains_repository_idx").on(t.repositoryId, t.domainId)],
);

/**
 * Transfers between this registrar and another at a connected registry (drizzle/0042):
 * `out` another registrar asked for one of our domains, `in` one of our accounts asked for a
 * domain another registrar holds. `accountId` is our side; `otherRegistrar` the other's clID.
 */
export const registryTransfers = sqliteTable(
  "registry_transfers",
  {
    id: text("id").primaryKey(),
    repositoryId: text("repository_id")
      .notNull()
      .references(() => repositories.id),
    name: text("name").notNull(),
    direction: text("direction", { enum: ["in", "out"] }).notNull(),
    domainId: text("domain_id").references(() => domains.id, { onDelete: "set null" }),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    otherRegistrar: text("other_registrar"),
    status: text("status", { enum: ["pending", "approved", "rejected", "cancelled", "auto_approved"] }).notNull(),
    period: integer("period").notNull(),
    requestedAt: text("requested_at").notNull(),
    actBy: text("act_by"),
    actedAt: text("acted_at"),
    version: integer("version").notNull().default(1),
  },
  (t) => [
    index("registry_transfers_domain_idx").on(t.domainId, t.status),
    index("registry_transfers_name_idx").on(t.name, t.requestedAt),
    index("registry_transfers_account_idx").on(t.accountId),
  ],
);

/** Each poll message a registry's gateway handed over, so that one handed over twice is applied once (drizzle/0042; kept 30 days). */
export const registryMessages = sqliteTable(
  "registry_messages",
  {
    repositoryId: text("repository_id").notNull(),
    messageId: text("message_id").notNull(),
    kind: text("kind").notNull(),
    receivedAt: text("received_at").notNull(),
    appliedAt: text("applied_at"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
  },
  (t) => [primaryKey({ columns: [t.repositoryId, t.messageId] }), index("registry_messages_received_idx").on(t.receivedAt)],
);

/** Where each repository's reconciliation pass stands (drizzle/0042). */
export const registryReconciliations = sqliteTable("registry_reconciliations", {
  repositoryId: text("repository_id")
    .primaryKey()
    .references(() => repositories.id),
  afterDomainId: text("after_domain_id"),
  passStartedAt: text("pass_started_at"),
  lastRunAt: text("last_run_at"),
  lastPassEndedAt: text("last_pass_ended_at"),
});

export const schema = {
  accounts,
  dnsCatalog,
  repositories,
  extensions,
  contacts,
  domains,
  transfers,
  hosts,
  hostAddresses,
  domainNameservers,
  zones,
  records,
  apiTokens,
  idempotencyKeys,
  events,
  eventArchives,
  zoneKeys,
  transferAuthFailures,
  tsigKeys,
  dnsUpdateSeen,
  webhooks,
  webhookDeliveryRecords,
  webhookDispatch,
  writeAssertions,
  registryObjects,
  registryDomains,
  registryTransfers,
  registryMessages,
  registryReconciliations,
};
