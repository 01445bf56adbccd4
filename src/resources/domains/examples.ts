// The domains' examples in the OpenAPI document: example.com, Ada's domain (src/http/example-world.ts)
// through its life (registered, renewed, deleted, restored, transferred), an availability
// check, and its RDAP view (RFC 9083 §5.3).
import type { z } from "@hono/zod-openapi";
import { ACCOUNT_ID, CONTACT_ID, CREATED, DOMAIN_ID, rdapRegistered, rdapSelfLink, UPDATED, ZONE_ID } from "../../http/example-world";
import type { RdapDomainResponseSchema } from "../../rdap/schemas";
import { priceTable } from "../../registry/prices";
import { RDAP_ENTITY } from "../contacts/examples";
import type {
  DomainCheckSchema,
  DomainCreateSchema,
  DomainPatchSchema,
  DomainRenewSchema,
  DomainSchema,
  PricedDomainSchema,
  TransferRequestSchema,
  TransferSchema,
} from "./schemas";

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
  account: ACCOUNT_ID,
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
  registry: { roid: "1234-VRSN", registrar: null, missing_since: null, reconciled_at: "2026-11-23T04:00:00.000Z" },
  auth_info: "Y_ITuVdpEM-P9UDzifbC",
  zone: ZONE_ID,
  created_at: CREATED,
  updated_at: UPDATED,
} satisfies z.output<typeof DomainSchema>;

/** Lists leave `auth_info` out (docs/model.md#domains). */
export const { auth_info: _authInfo, ...DOMAIN_LIST_ITEM_EXAMPLE } = DOMAIN_EXAMPLE;

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
  losing_account: ACCOUNT_ID,
  registrar: null,
  period: 1,
  requested_at: UPDATED,
  act_by: "2026-11-27T09:09:18.218Z",
  acted_at: null,
  price: { currency: "USD", amount: "12.00" },
} satisfies z.output<typeof TransferSchema>;

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
    events: rdapRegistered(CREATED, CREATED),
    links: rdapSelfLink(`/hosts/${name}`),
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
      links: rdapSelfLink("/accounts/acc_00000000000000000000000000"),
    },
  ],
  links: rdapSelfLink("/domains/example.com"),
  rdapConformance: ["rdap_level_0"],
} satisfies z.output<typeof RdapDomainResponseSchema>;
