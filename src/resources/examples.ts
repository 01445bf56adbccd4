// The examples of the OpenAPI document: one small, consistent world (Ada's contact,
// registrant of example.com, whose zone has a www record), taken from real responses of
// the service, so that every request and response example of every operation fits the
// others. Typed against the schemas they illustrate (`satisfies`), and checked against
// the generated JSON Schemas by test/openapi-contract.test.ts.
import type { z } from "@hono/zod-openapi";
import type { AccountCreateSchema, AccountPatchSchema, AccountSchema, MeSchema } from "./accounts/schemas";
import type { ExtensionSchema, RepositoryDetailSchema, RepositorySchema } from "./catalog/schemas";
import { priceTable } from "../registry/prices";
import type { ContactCreateSchema, ContactPatchSchema, ContactSchema } from "./contacts/schemas";
import type {
  DomainCheckSchema,
  DomainCreateSchema,
  DomainPatchSchema,
  DomainRenewSchema,
  DomainSchema,
  PricedDomainSchema,
  TransferRequestSchema,
  TransferSchema,
} from "./domains/schemas";
import type { ArchiveReportSchema, EventArchiveSchema, EventSchema } from "./events/schemas";
import type { HostCreateSchema, HostPatchSchema, HostSchema } from "./hosts/schemas";
import type { SweepReportSchema } from "./lifecycle/schemas";
import type { RecordCreateSchema, RecordPatchSchema, RecordSchema, ZoneChangesResultSchema, ZoneChangesSchema } from "./records/schemas";
import type { TokenCreatedSchema, TokenCreateSchema, TokenSchema } from "./tokens/schemas";
import type {
  DeliverySchema,
  DispatchReportSchema,
  ReplayResultSchema,
  ReplaySchema,
  WebhookCreateSchema,
  WebhookPatchSchema,
  WebhookSchema,
  WebhookWithSecretSchema,
} from "./webhooks/schemas";
import type { ZoneCreateSchema, ZonePatchSchema, ZoneSchema } from "./zones/schemas";
import type { RdapDomainResponseSchema, RdapEntityResponseSchema, RdapEntitySchema, RdapNameserverResponseSchema } from "../rdap/schemas";

/** The customer account the example world belongs to (ACCOUNT_EXAMPLE). */
const SPONSOR_ID = "acc_01M8188MZ3N4D5RW2QKJ7H8V6E";
const CONTACT_ID = "con_01M8188N2Z6P103C52X9QNCPXA";
const DOMAIN_ID = "dom_01M8188N7KGV55FM9V33GNPK9N";
const HOST_ID = "hst_01M8188N87QCN9Z8DNP0VKTJA4";
const ZONE_ID = "zon_01M8188N8SQFVFC6JYFR70GY5G";
const RECORD_ID = "rec_01M8188PP25TBW5CKWSXGWHH2W";
const CREATED = "2026-11-22T09:09:16.511Z";
const UPDATED = "2026-11-22T09:09:18.218Z";
const CATALOG_DATE = "2026-01-01T00:00:00.000Z";
const BASE = "https://domain-api.example.workers.dev/v1";

export const EXTENSION_EXAMPLE = {
  id: "com",
  name: "com",
  unicode_name: "com",
  type: "generic",
  repository: "verisign",
  periods: { min: 1, max: 10 },
  grace_periods: { add: 5, renew: 5, auto_renew: 45, transfer: 5, redemption: 30, pending_delete: 5 },
  nameservers: { min: 0, max: 13 },
  idn: true,
  dnssec: true,
  transfer_lock_days: 60,
  pending_transfer_days: 5,
  prices: priceTable({ currency: "USD", register: "12.00", renew: "12.00", transfer: "12.00", restore: "40.00" }, { min: 1, max: 10 }),
  created_at: CATALOG_DATE,
  updated_at: CATALOG_DATE,
} satisfies z.output<typeof ExtensionSchema>;

export const REPOSITORY_EXAMPLE = {
  id: "verisign",
  name: "Verisign",
  roid_suffix: "VRSN",
  extensions: ["com", "net"],
  created_at: CATALOG_DATE,
  updated_at: CATALOG_DATE,
} satisfies z.output<typeof RepositorySchema>;

/** One repository with its premium and reserved names (drizzle/0021). */
export const REPOSITORY_DETAIL_EXAMPLE = {
  ...REPOSITORY_EXAMPLE,
  premium_names: [
    {
      name: "vacation.com",
      unicode_name: "vacation.com",
      extension: "com",
      prices: priceTable({ currency: "USD", register: "2500.00", renew: "2500.00", transfer: "2500.00", restore: "40.00" }, { min: 1, max: 10 }),
    },
  ],
  reserved_names: ["nic.com", "nic.net", "whois.com", "whois.net"],
} satisfies z.output<typeof RepositoryDetailSchema>;

const ADDRESS = { street: ["12 Example Row"], city: "London", postal_code: "N1 9GU", country_code: "GB" };

export const CONTACT_CREATE_EXAMPLE = {
  name: "Ada Lovelace",
  organization: "Analytical Engines Ltd",
  email: "ada@example.org",
  phone: "+44.2071234567",
  address: ADDRESS,
} satisfies z.input<typeof ContactCreateSchema>;

export const CONTACT_PATCH_EXAMPLE = { phone: "+44.2079460000", fax: null } satisfies z.input<typeof ContactPatchSchema>;

export const CONTACT_EXAMPLE = {
  id: CONTACT_ID,
  account: SPONSOR_ID,
  ...CONTACT_CREATE_EXAMPLE,
  fax: null,
  address: { ...ADDRESS, state: null },
  privacy: false,
  status: ["linked"],
  created_at: CREATED,
  updated_at: CREATED,
} satisfies z.output<typeof ContactSchema>;

export const DOMAIN_CREATE_EXAMPLE = {
  name: "example.com",
  period: 2,
  registrant: CONTACT_ID,
  contacts: { admin: CONTACT_ID, tech: CONTACT_ID },
  nameservers: ["ns1.example.net", "ns2.example.net"],
  price: "24.00",
} satisfies z.input<typeof DomainCreateSchema>;

export const DOMAIN_PATCH_EXAMPLE = { auto_renew: false, status: ["clientTransferProhibited"] } satisfies z.input<typeof DomainPatchSchema>;

export const DOMAIN_RENEW_EXAMPLE = { period: 1, current_expires_at: "2028-11-22T09:09:16.659Z" } satisfies z.input<typeof DomainRenewSchema>;

export const DOMAIN_EXAMPLE = {
  id: DOMAIN_ID,
  account: SPONSOR_ID,
  name: "example.com",
  unicode_name: "example.com",
  extension: "com",
  repository: "verisign",
  status: ["clientTransferProhibited"],
  registrant: CONTACT_ID,
  contacts: { admin: CONTACT_ID, tech: CONTACT_ID, billing: null },
  nameservers: ["ns1.example.net", "ns2.example.net"],
  auto_renew: false,
  expires_at: "2028-11-22T09:09:16.659Z",
  rgp_status: [{ status: "addPeriod", ends_at: "2026-11-27T09:09:16.511Z" }],
  transfer_locked_until: "2027-01-21T09:09:16.511Z",
  ds: [],
  auth_info: "Y_ITuVdpEM-P9UDzifbC",
  zone: ZONE_ID,
  created_at: CREATED,
  updated_at: UPDATED,
} satisfies z.output<typeof DomainSchema>;

/** The registration's answer: the domain and what two years of .com cost. */
export const PRICED_DOMAIN_EXAMPLE = { ...DOMAIN_EXAMPLE, price: { currency: "USD", amount: "24.00" } } satisfies z.output<typeof PricedDomainSchema>;

/** The renewal's answer: a year more, and what it cost. */
export const RENEWED_DOMAIN_EXAMPLE = {
  ...DOMAIN_EXAMPLE,
  expires_at: "2029-11-22T09:09:16.659Z",
  rgp_status: [
    { status: "addPeriod", ends_at: "2026-11-27T09:09:16.511Z" },
    { status: "renewPeriod", ends_at: "2026-11-27T09:09:18.218Z" },
  ],
  price: { currency: "USD", amount: "12.00" },
} satisfies z.output<typeof PricedDomainSchema>;

/** The restore's answer: back from redemption, and the restore fee. */
export const RESTORED_DOMAIN_EXAMPLE = { ...DOMAIN_EXAMPLE, rgp_status: [], price: { currency: "USD", amount: "40.00" } } satisfies z.output<
  typeof PricedDomainSchema
>;

/** An availability check of four names (docs/lifecycle.md#availability-and-prices). */
export const DOMAIN_CHECK_EXAMPLE = {
  data: [
    {
      name: "example-shop.com",
      unicode_name: "example-shop.com",
      available: true,
      reason: null,
      premium: false,
      prices: priceTable({ currency: "USD", register: "12.00", renew: "12.00", transfer: "12.00", restore: "40.00" }, { min: 1, max: 10 }),
    },
    {
      name: "vacation.com",
      unicode_name: "vacation.com",
      available: true,
      reason: null,
      premium: true,
      prices: priceTable({ currency: "USD", register: "2500.00", renew: "2500.00", transfer: "2500.00", restore: "40.00" }, { min: 1, max: 10 }),
    },
    { name: "example.com", unicode_name: "example.com", available: false, reason: "registered", premium: false, prices: null },
    { name: "nic.com", unicode_name: "nic.com", available: false, reason: "reserved", premium: false, prices: null },
  ],
} satisfies z.output<typeof DomainCheckSchema>;

/** A domain deleted after its add grace period: in redemption (docs/lifecycle.md). */
export const DOMAIN_DELETED_EXAMPLE = {
  ...DOMAIN_EXAMPLE,
  status: ["clientTransferProhibited", "pendingDelete"],
  rgp_status: [{ status: "redemptionPeriod", ends_at: "2026-12-22T09:09:18.218Z" }],
  updated_at: UPDATED,
} satisfies z.output<typeof DomainSchema>;

export const TRANSFER_REQUEST_EXAMPLE = { auth_info: "Y_ITuVdpEM-P9UDzifbC", period: 1, price: "12.00" } satisfies z.input<typeof TransferRequestSchema>;

export const TRANSFER_EXAMPLE = {
  domain: DOMAIN_ID,
  name: "example.com",
  status: "pending",
  gaining_account: "acc_01JD3Q6Y4T8N0V4W5X6Y7Z8A9C",
  losing_account: SPONSOR_ID,
  period: 1,
  requested_at: UPDATED,
  act_by: "2026-11-27T09:09:18.218Z",
  acted_at: null,
  price: { currency: "USD", amount: "12.00" },
} satisfies z.output<typeof TransferSchema>;

/** Lists leave `auth_info` out (docs/model.md#domains). */
export const { auth_info: _authInfo, ...DOMAIN_LIST_ITEM_EXAMPLE } = DOMAIN_EXAMPLE;

export const HOST_CREATE_EXAMPLE = { name: "ns1.example.com", addresses: ["192.0.2.53", "2001:db8::53"] } satisfies z.input<typeof HostCreateSchema>;

export const HOST_PATCH_EXAMPLE = { addresses: ["192.0.2.54", "2001:db8::54"] } satisfies z.input<typeof HostPatchSchema>;

export const HOST_EXAMPLE = {
  id: HOST_ID,
  account: SPONSOR_ID,
  name: "ns1.example.com",
  unicode_name: "ns1.example.com",
  addresses: ["192.0.2.53", "2001:db8::53"],
  domain: DOMAIN_ID,
  status: ["ok"],
  created_at: CREATED,
  updated_at: CREATED,
} satisfies z.output<typeof HostSchema>;

export const ZONE_CREATE_EXAMPLE = { name: "example.com", default_ttl: 3600, nameservers: ["ns1.example.net", "ns2.example.net"] } satisfies z.input<
  typeof ZoneCreateSchema
>;

export const ZONE_PATCH_EXAMPLE = { default_ttl: 1800, soa: { minimum: 600 } } satisfies z.input<typeof ZonePatchSchema>;

export const ZONE_EXAMPLE = {
  id: ZONE_ID,
  account: SPONSOR_ID,
  name: "example.com",
  unicode_name: "example.com",
  domain: DOMAIN_ID,
  default_ttl: 3600,
  soa: { mname: "ns1.example.net", rname: "hostmaster.example.com", serial: 2026112201, refresh: 7200, retry: 900, expire: 1209600, minimum: 300 },
  record_count: 3,
  // Signed with RFC 6605 §6.1's public key, as DNSSEC_STATE_EXAMPLE below.
  dnssec: {
    enabled: true,
    records: [
      { name: "@", type: "DNSKEY", ttl: 300, content: "257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==" },
      { name: "@", type: "CDS", ttl: 300, content: "55648 13 2 5CF0895FFC0F5544C1260E1F35ED9B80A648D87B8AA335312B552EC003D1D830" },
      { name: "@", type: "CDNSKEY", ttl: 300, content: "257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==" },
    ],
  },
  secondaries: [{ address: "198.51.100.53", port: 53, tsig_key: null }],
  created_at: CREATED,
  updated_at: UPDATED,
} satisfies z.output<typeof ZoneSchema>;

export const RECORD_CREATE_EXAMPLE = {
  zone: "example.com",
  name: "www",
  type: "A",
  content: "192.0.2.10",
  ttl: 3600,
  comment: "the web server",
} satisfies z.input<typeof RecordCreateSchema>;

export const RECORD_PATCH_EXAMPLE = { content: "192.0.2.11", comment: null } satisfies z.input<typeof RecordPatchSchema>;

export const RECORD_EXAMPLE = {
  id: RECORD_ID,
  zone: ZONE_ID,
  name: "www",
  fqdn: "www.example.com",
  type: "A",
  content: "192.0.2.10",
  ttl: 3600,
  comment: "the web server",
  created_at: UPDATED,
  updated_at: UPDATED,
} satisfies z.output<typeof RecordSchema>;

// POST /zones/{zone}/changes: an ACME challenge added, www set to two addresses, an old
// address taken out, a legacy MX set deleted; the answer shows each RRset as it now stands.
export const ZONE_CHANGES_EXAMPLE = {
  changes: [
    { action: "add", name: "_acme-challenge", type: "TXT", ttl: 60, contents: ['"token-1"'] },
    { action: "replace", name: "www", type: "A", ttl: 300, contents: ["192.0.2.1", "192.0.2.2"] },
    { action: "remove", name: "old", type: "A", contents: ["192.0.2.9"] },
    { action: "delete", name: "legacy", type: "MX" },
  ],
} satisfies z.input<typeof ZoneChangesSchema>;

const CHANGED = "2026-11-22T09:12:40.107Z";
const changedRecord = (id: string, name: string, type: string, content: string, ttl: number, createdAt: string) => ({
  id,
  zone: ZONE_ID,
  name,
  fqdn: `${name}.example.com`,
  type,
  content,
  ttl,
  comment: null,
  created_at: createdAt,
  updated_at: CHANGED,
});

export const ZONE_CHANGES_RESULT_EXAMPLE = {
  serial: 2026112203,
  rrsets: [
    {
      name: "_acme-challenge",
      fqdn: "_acme-challenge.example.com",
      type: "TXT",
      ttl: 60,
      records: [changedRecord("rec_01M818AH2Q4ZG4W7N3B5V0XK8C", "_acme-challenge", "TXT", '"token-1"', 60, CHANGED)],
    },
    {
      name: "www",
      fqdn: "www.example.com",
      type: "A",
      ttl: 300,
      records: [
        changedRecord("rec_01M818AH2QK1N6F3D9RZB7TQ4M", "www", "A", "192.0.2.1", 300, CHANGED),
        changedRecord("rec_01M818AH2QWV8C2H5J0MXE3S6P", "www", "A", "192.0.2.2", 300, CHANGED),
      ],
    },
    {
      name: "old",
      fqdn: "old.example.com",
      type: "A",
      ttl: 3600,
      records: [{ ...changedRecord("rec_01M8188PQ9ZB5E7W2CX4K6N0TD", "old", "A", "192.0.2.8", 3600, CREATED), updated_at: UPDATED }],
    },
    { name: "legacy", fqdn: "legacy.example.com", type: "MX", ttl: null, records: [] },
  ],
} satisfies z.output<typeof ZoneChangesResultSchema>;

export const EVENT_EXAMPLE = {
  id: "evt_01M8188PRAZ776Y7KHQ8XACA72",
  at: UPDATED,
  // The domain's sponsor: events are visible as their resource is.
  account: DOMAIN_LIST_ITEM_EXAMPLE.account,
  token: "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B",
  type: "domain",
  resource: DOMAIN_ID,
  operation: "update",
  // A domain as events record it: without its `auth_info` (src/db/events.ts).
  before: { ...DOMAIN_LIST_ITEM_EXAMPLE, status: ["ok"], auto_renew: true, updated_at: CREATED },
  after: DOMAIN_LIST_ITEM_EXAMPLE,
} satisfies z.output<typeof EventSchema>;

/** An archive object of the example account: one UTC day of its events, gzip'd NDJSON in R2. */
export const EVENT_ARCHIVE_EXAMPLE = {
  id: "arc_01M3W0B1N4Q8R2T6V9X3Z5C7E1",
  account: SPONSOR_ID,
  day: "2026-10-01",
  first_event: "evt_01M3W0B1N4Q8R2T6V9X3Z5C7E1",
  last_event: "evt_01M3X7K2D9F5H8J3L6N0P4R7T2",
  count: 412,
  bytes: 48213,
  created_at: "2026-11-01T00:17:03.418Z",
} satisfies z.output<typeof EventArchiveSchema>;

/** The first lines of that object, after gunzip: events as GET /v1/events/{event} returns them. */
export const EVENT_ARCHIVE_LINES_EXAMPLE = `${JSON.stringify({ ...EVENT_EXAMPLE, id: "evt_01M3W0B1N4Q8R2T6V9X3Z5C7E1", at: "2026-10-01T07:12:44.301Z" })}\n…\n`;

export const ARCHIVE_REPORT_EXAMPLE = {
  as_of: "2026-11-22T09:17:00.000Z",
  archived_before: "2026-10-23T00:00:00.000Z",
  archived: 2412,
  objects: 7,
  more: false,
} satisfies z.input<typeof ArchiveReportSchema>;

const ACCOUNT_ID = "acc_01M8188MZ3N4D5RW2QKJ7H8V6E";
const OPERATOR_TOKEN_ID = "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B";
const CUSTOMER_TOKEN_ID = "tok_01M8188N0B8ZK1C9M4WQ5T7Y3D";
const ACME_TOKEN_ID = "tok_01M8188PT3D0XJ6Q2F7N9R4K8W";

export const ACCOUNT_CREATE_EXAMPLE = { name: "Example Reseller" } satisfies z.input<typeof AccountCreateSchema>;

export const ACCOUNT_PATCH_EXAMPLE = { status: "suspended" } satisfies z.input<typeof AccountPatchSchema>;

export const ACCOUNT_EXAMPLE = {
  id: ACCOUNT_ID,
  name: "Example Reseller",
  role: "customer",
  status: "active",
  created_at: CREATED,
  updated_at: CREATED,
} satisfies z.output<typeof AccountSchema>;

/** The customer's ACME client token: TXT records at _acme-challenge of example.com, for an hour. */
export const TOKEN_CREATE_EXAMPLE = {
  name: "acme-dns01",
  scope: "write",
  zones: ["example.com"],
  records: [{ name: "_acme-challenge", types: ["TXT"] }],
  expires_at: "2026-11-22T10:09:18.218Z",
} satisfies z.input<typeof TokenCreateSchema>;

export const TOKEN_EXAMPLE = {
  id: ACME_TOKEN_ID,
  name: "acme-dns01",
  account: ACCOUNT_ID,
  scope: "write",
  parent: CUSTOMER_TOKEN_ID,
  zones: ["example.com"],
  domains: null,
  records: [{ name: "_acme-challenge", types: ["TXT"] }],
  allowed_ips: null,
  expires_at: "2026-11-22T10:09:18.218Z",
  last_used_at: null,
  revoked_at: null,
  created_at: UPDATED,
} satisfies z.output<typeof TokenSchema>;

export const TOKEN_CREATED_EXAMPLE = {
  ...TOKEN_EXAMPLE,
  secret: `${ACME_TOKEN_ID}.Zk3q9Xv1bW7nR2tY5uP8sL0dF4hJ6mC1aE3gI5kO7qS`,
} satisfies z.output<typeof TokenCreatedSchema>;

/** GET /v1/me as the customer's own token (minted for it by the operator's). */
export const ME_EXAMPLE = {
  account: ACCOUNT_EXAMPLE,
  token: {
    ...TOKEN_EXAMPLE,
    id: CUSTOMER_TOKEN_ID,
    name: "reseller-automation",
    parent: OPERATOR_TOKEN_ID,
    zones: null,
    records: null,
    expires_at: null,
    last_used_at: UPDATED,
    created_at: CREATED,
  },
} satisfies z.output<typeof MeSchema>;

/** The master file `GET /zones/{zone}` with `Accept: text/dns` answers for ZONE_EXAMPLE. */
export const MASTER_FILE_EXAMPLE = [
  "$ORIGIN example.com.",
  "$TTL 3600",
  "@ 3600 IN SOA ns1.example.net. hostmaster.example.com. 2026112201 7200 900 1209600 300",
  "@ 3600 IN NS ns1.example.net.",
  "@ 3600 IN NS ns2.example.net.",
  "www 3600 IN A 192.0.2.10",
  "",
].join("\n");

const selfLink = (path: string) => [{ value: `${BASE}${path}`, rel: "self", href: `${BASE}${path}`, type: "application/rdap+json" }];
const registered = (at: string, changed: string) => [
  { eventAction: "registration", eventDate: at },
  { eventAction: "last changed", eventDate: changed },
];

const RDAP_ENTITY = {
  objectClassName: "entity" as const,
  handle: CONTACT_ID,
  vcardArray: [
    "vcard",
    [
      ["version", {}, "text", "4.0"],
      ["fn", {}, "text", "Ada Lovelace"],
      ["org", {}, "text", "Analytical Engines Ltd"],
      ["email", {}, "text", "ada@example.org"],
      ["tel", { type: "voice" }, "uri", "tel:+44.2071234567"],
      ["adr", { cc: "GB" }, "text", ["", "", "12 Example Row", "London", "", "N1 9GU", "GB"]],
    ],
  ],
  status: ["associated"],
  events: registered(CREATED, CREATED),
  links: selfLink(`/contacts/${CONTACT_ID}`),
} satisfies z.output<typeof RdapEntitySchema>;

export const RDAP_ENTITY_EXAMPLE = { ...RDAP_ENTITY, rdapConformance: ["rdap_level_0"] } satisfies z.output<typeof RdapEntityResponseSchema>;

export const RDAP_NAMESERVER_EXAMPLE = {
  objectClassName: "nameserver",
  handle: HOST_ID,
  ldhName: "ns1.example.com",
  unicodeName: "ns1.example.com",
  ipAddresses: { v4: ["192.0.2.53"], v6: ["2001:db8::53"] },
  status: ["active"],
  events: registered(CREATED, CREATED),
  links: selfLink("/hosts/ns1.example.com"),
  rdapConformance: ["rdap_level_0"],
} satisfies z.output<typeof RdapNameserverResponseSchema>;

export const RDAP_DOMAIN_EXAMPLE = {
  objectClassName: "domain",
  handle: `${DOMAIN_ID}-VRSN`,
  ldhName: "example.com",
  unicodeName: "example.com",
  status: ["client transfer prohibited"],
  events: [
    { eventAction: "registration", eventDate: CREATED },
    { eventAction: "expiration", eventDate: DOMAIN_EXAMPLE.expires_at },
    { eventAction: "last changed", eventDate: UPDATED },
  ],
  nameservers: [
    ["hst_01M8188N6Y0D78YMHC5S0SW5TD", "ns1.example.net"],
    ["hst_01M8188N7KGV55FM9V33GNPK9Q", "ns2.example.net"],
  ].map(([handle, name]) => ({
    objectClassName: "nameserver" as const,
    handle: handle!,
    ldhName: name!,
    unicodeName: name!,
    ipAddresses: { v4: [], v6: [] },
    status: ["associated"],
    events: registered(CREATED, CREATED),
    links: selfLink(`/hosts/${name}`),
  })),
  secureDNS: { delegationSigned: false, dsData: [] },
  entities: [
    { ...RDAP_ENTITY, roles: ["registrant", "administrative", "technical"] },
    {
      objectClassName: "entity",
      handle: "acc_00000000000000000000000000",
      vcardArray: [
        "vcard",
        [
          ["version", {}, "text", "4.0"],
          ["fn", {}, "text", "operator"],
          ["kind", {}, "text", "org"],
        ],
      ],
      roles: ["registrar"],
      status: ["active"],
      events: [],
      links: selfLink("/accounts/acc_00000000000000000000000000"),
    },
  ],
  links: selfLink("/domains/example.com"),
  rdapConformance: ["rdap_level_0"],
} satisfies z.output<typeof RdapDomainResponseSchema>;

/** DNSSEC on example.com (docs/dnssec.md), with RFC 6605 §6.1's public key as the example key. */
export const DNSSEC_STATE_EXAMPLE = {
  enabled: true,
  denial: "nsec",
  keys: [
    {
      id: "key_01JD0000000000000000000000",
      key_tag: 55648,
      algorithm: 13,
      flags: 257,
      active: true,
      dnskey: "257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==",
      ds: [
        "55648 13 2 5CF0895FFC0F5544C1260E1F35ED9B80A648D87B8AA335312B552EC003D1D830",
        "55648 13 4 4A73889EA34599AF1FE38084DEB3E601C800A17E0483F59BF9314841462197CEBD188E14CB1797EEFF7D62DDC7E134EC",
      ],
      created_at: CREATED,
    },
  ],
};

/** A zone that is not signed. */
export const DNSSEC_OFF_EXAMPLE = { enabled: false, keys: [] as never[] };

export const SWEEP_REPORT_EXAMPLE = {
  as_of: "2030-01-01T00:00:00.000Z",
  transfers_approved: 1,
  auto_renewed: 12,
  expired: 3,
  grace_periods_ended: 40,
  redemptions_ended: 2,
  purged: 1,
  skipped: 0,
  more: false,
} satisfies z.input<typeof SweepReportSchema>;

const WEBHOOK_ID = "whk_01M8188Q3C8M6S3V9W2D4H7KQA";

export const WEBHOOK_CREATE_EXAMPLE = {
  url: "https://hooks.example.net/dns",
  description: "DNS changes to the provisioning system",
  event_types: ["domain.*", "record.create"],
} satisfies z.input<typeof WebhookCreateSchema>;

export const WEBHOOK_PATCH_EXAMPLE = { event_types: null, enabled: true } satisfies z.input<typeof WebhookPatchSchema>;

export const WEBHOOK_EXAMPLE = {
  id: WEBHOOK_ID,
  account: SPONSOR_ID,
  ...WEBHOOK_CREATE_EXAMPLE,
  enabled: true,
  disabled_reason: null,
  previous_secret_expires_at: null,
  created_at: CREATED,
  updated_at: CREATED,
} satisfies z.output<typeof WebhookSchema>;

export const WEBHOOK_CREATED_EXAMPLE = {
  ...WEBHOOK_EXAMPLE,
  secret: "whsec_pN7dKq2vY9xW3sL8mB4cR6tF1hJ5gZ0aQeUiOyTr0Mk=",
} satisfies z.output<typeof WebhookWithSecretSchema>;

export const WEBHOOK_ROTATED_EXAMPLE = {
  ...WEBHOOK_EXAMPLE,
  previous_secret_expires_at: "2026-11-23T09:09:18.218Z",
  updated_at: UPDATED,
  secret: "whsec_3fQk8ZrW1mN5bV7xC2yL9dT4gH6jP0sAeUoIiYtRrMk=",
} satisfies z.output<typeof WebhookWithSecretSchema>;

export const DELIVERY_EXAMPLE = {
  id: "dlv_01M8188Q9X3G2H5J7K8M0N1P2Q",
  kind: "event",
  event: EVENT_EXAMPLE.id,
  message_id: EVENT_EXAMPLE.id,
  attempt: 1,
  at: UPDATED,
  status_code: 204,
  duration_ms: 42,
  error: null,
  outcome: "succeeded",
  next_attempt_at: null,
} satisfies z.output<typeof DeliverySchema>;

export const DELIVERY_RETRYING_EXAMPLE = {
  ...DELIVERY_EXAMPLE,
  id: "dlv_01M8188Q9X3G2H5J7K8M0N1P2R",
  status_code: 503,
  duration_ms: 18,
  error: "HTTP 503: upstream unavailable",
  outcome: "retrying",
  next_attempt_at: "2026-11-22T09:09:23.218Z",
} satisfies z.output<typeof DeliverySchema>;

export const REPLAY_EXAMPLE = { since: "2026-11-22T00:00:00Z" } satisfies z.input<typeof ReplaySchema>;

export const REPLAY_RESULT_EXAMPLE = { webhook: WEBHOOK_ID, from_event: EVENT_EXAMPLE.id } satisfies z.output<typeof ReplayResultSchema>;

export const PING_EXAMPLE = {
  ...DELIVERY_EXAMPLE,
  id: "dlv_01M8188QB2C4D6E8F0G1H3J5K7",
  kind: "ping",
  event: null,
  message_id: "png_01M8188QB2C4D6E8F0G1H3J5K6",
} satisfies z.output<typeof DeliverySchema>;

export const DISPATCH_REPORT_EXAMPLE = {
  as_of: "2030-01-01T00:00:00.000Z",
  webhooks: 2,
  delivered: 14,
  retrying: 1,
  failed: 0,
  disabled: 0,
  more: false,
} satisfies z.output<typeof DispatchReportSchema>;
