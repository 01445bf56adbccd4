// Every table of the service. Timestamps are RFC 3339 UTC text with milliseconds
// (fixed width, so text order is time order). `version` rises with every write and is
// what `If-Match` checks atomically. Names are stored normalised (lowercase A-labels).
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { DsData, RgpEntry } from "../registry/lifecycle";
import type { Price, YearlyPrices } from "../registry/prices";

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
 * Who owns what (contract §11): every contact, domain, host, zone, token and event belongs
 * to one account, its sponsor (EPP clID). Operators see every account's objects.
 */
export const accounts = sqliteTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    role: text("role", { enum: ["operator", "customer"] }).notNull(),
    status: text("status", { enum: ["active", "suspended"] }).notNull(),
    version: integer("version").notNull().default(1),
    ...timestamps,
  },
  (t) => [uniqueIndex("accounts_name_unique").on(t.name)],
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
    /** The last completed transfer: with `created_at`, where the transfer lock starts (contract §12). */
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
  (t) => [index("transfers_domain_idx").on(t.domainId, t.requestedAt), index("transfers_act_by_idx").on(t.status, t.actBy, t.id)],
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

export const zones = sqliteTable(
  "zones",
  {
    id: text("id").primaryKey(),
    accountId: sponsor(),
    name: text("name").notNull(),
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
    version: integer("version").notNull().default(1),
    ...timestamps,
  },
  (t) => [uniqueIndex("zones_name_unique").on(t.name), index("zones_account_idx").on(t.accountId, t.id)],
);

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
    /** Restrictions (contract §11), JSON; null = none. */
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
/** What an event records (contract §12 adds the lifecycle's operations to create, update, delete). */
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
  "expire",
  "restore",
  "purge",
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
    resourceType: text("resource_type", { enum: ["contact", "domain", "host", "zone", "record", "account", "token"] }).notNull(),
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
 * DNSSEC signing keys of a zone (contract §14). A zone is signed while it has an active
 * key. The private key is sealed (AES-256-GCM under DNSSEC_KEY_SECRET, src/dns/dnssec/sealed.ts)
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
  },
  // One active key per zone for now (a rollover, later, adds a second one: RFC 7583).
  (t) => [uniqueIndex("zone_keys_active_unique").on(t.zoneId).where(sql`active = 1`), index("zone_keys_zone_idx").on(t.zoneId, t.id)],
);

export const schema = {
  accounts,
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
  zoneKeys,
};
