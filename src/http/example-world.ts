// The one small, consistent world the OpenAPI examples describe (Ada's contact, registrant
// of example.com, whose zone has a www record), taken from real responses of the service:
// the ids and times every collection's examples share, so that the examples of one fit
// the others'. Each collection keeps its own examples beside its schemas
// (src/resources/<collection>/examples.ts), typed against them (`satisfies`) and checked
// against the generated JSON Schemas by test/openapi-contract.test.ts.

/** The customer account the example world belongs to: the sponsor of every object in it. */
export const ACCOUNT_ID = "acc_01M8188MZ3N4D5RW2QKJ7H8V6E";
export const CONTACT_ID = "con_01M8188N2Z6P103C52X9QNCPXA";
export const DOMAIN_ID = "dom_01M8188N7KGV55FM9V33GNPK9N";
export const HOST_ID = "hst_01M8188N87QCN9Z8DNP0VKTJA4";
export const ZONE_ID = "zon_01M8188N8SQFVFC6JYFR70GY5G";
export const RECORD_ID = "rec_01M8188PP25TBW5CKWSXGWHH2W";
export const WEBHOOK_ID = "whk_01M8188Q3C8M6S3V9W2D4H7KQA";

/** The operator's token, which minted the customer's own (CUSTOMER_TOKEN_ID), which minted its ACME client's. */
export const OPERATOR_TOKEN_ID = "tok_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B";
export const CUSTOMER_TOKEN_ID = "tok_01M8188N0B8ZK1C9M4WQ5T7Y3D";
export const ACME_TOKEN_ID = "tok_01M8188PT3D0XJ6Q2F7N9R4K8W";

/** When the world's objects were created, and when the domain, its zone and its record last changed. */
export const CREATED = "2026-11-22T09:09:16.511Z";
export const UPDATED = "2026-11-22T09:09:18.218Z";

/** The deployment the RDAP examples' links point at. */
const BASE = "https://domain-api.example.workers.dev/v1";

/** An RDAP object's `links` (RFC 9083 §4.2): itself. */
export const rdapSelfLink = (path: string) => [{ value: `${BASE}${path}`, rel: "self", href: `${BASE}${path}`, type: "application/rdap+json" }];

/** An RDAP object's `events` (RFC 9083 §4.5): registered, last changed. */
export const rdapRegistered = (at: string, changed: string) => [
  { eventAction: "registration", eventDate: at },
  { eventAction: "last changed", eventDate: changed },
];
