// The DNS backend's examples in the OpenAPI document: PowerDNS reading the example world's
// zone (example.com, number 1) through the remote backend.
import type { z } from "@hono/zod-openapi";
import type { DomainInfoSchema, DomainKeysResultSchema, LookupResultSchema, NsecNeighboursResultSchema } from "./schemas";

export const LOOKUP_EXAMPLE = {
  result: [{ qtype: "A", qname: "www.example.com.", content: "192.0.2.10", ttl: 3600, domain_id: 1 }],
} satisfies z.output<typeof LookupResultSchema>;

/** `list`: the SOA and every record, for AXFR. */
export const ZONE_TRANSFER_EXAMPLE = {
  result: [
    {
      qtype: "SOA",
      qname: "example.com.",
      content: "ns1.example.net. hostmaster.example.com. 2026112201 7200 900 1209600 300",
      ttl: 3600,
      domain_id: 1,
    },
    { qtype: "NS", qname: "example.com.", content: "ns1.example.net.", ttl: 3600, domain_id: 1 },
    { qtype: "A", qname: "www.example.com.", content: "192.0.2.10", ttl: 3600, domain_id: 1 },
  ],
} satisfies z.output<typeof LookupResultSchema>;

export const DOMAIN_INFO_EXAMPLE = {
  id: 1,
  zone: "example.com.",
  kind: "master" as const,
  serial: 2026112202,
  notified_serial: 2026112201,
  last_check: 0,
  masters: [],
} satisfies z.output<typeof DomainInfoSchema>;

/** RFC 6605 §6.1's published key, as the DNSSEC examples of the API show it. */
export const DOMAIN_KEYS_EXAMPLE = {
  result: [
    {
      id: 55648,
      flags: 257,
      active: true,
      published: true,
      content: "Private-key-format: v1.2\nAlgorithm: 13 (ECDSAP256SHA256)\nPrivateKey: GU6SnQ/Ou+xC5RumuIUIuJZteXT2z0O/ok1s38Et6mQ=\n",
    },
  ],
} satisfies z.output<typeof DomainKeysResultSchema>;

export const NSEC_NEIGHBOURS_EXAMPLE = { result: { before: "www.", after: "_443._tcp.www.", unhashed: "www." } } satisfies z.output<
  typeof NsecNeighboursResultSchema
>;
