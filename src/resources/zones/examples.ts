// The zones' examples in the OpenAPI document: example.com's zone (src/http/example-world.ts),
// signed, with a declared secondary, and the master file it exports.
import type { z } from "@hono/zod-openapi";
import { ACCOUNT_ID, CREATED, DOMAIN_ID, UPDATED, ZONE_ID } from "../../http/example-world";
import type { ZoneCreateSchema, ZonePatchSchema, ZoneSchema } from "./schemas";

export const ZONE_CREATE_EXAMPLE = { name: "example.com", default_ttl: 3600, nameservers: ["ns1.example.net", "ns2.example.net"] } satisfies z.input<
  typeof ZoneCreateSchema
>;

export const ZONE_PATCH_EXAMPLE = { default_ttl: 1800, soa: { minimum: 600 } } satisfies z.input<typeof ZonePatchSchema>;

export const ZONE_EXAMPLE = {
  id: ZONE_ID,
  account: ACCOUNT_ID,
  name: "example.com",
  unicode_name: "example.com",
  domain: DOMAIN_ID,
  default_ttl: 3600,
  soa: { mname: "ns1.example.net", rname: "hostmaster.example.com", serial: 2026112201, refresh: 7200, retry: 900, expire: 1209600, minimum: 300 },
  record_count: 3,
  // Signed with RFC 6605 §6.1's public key, as the DNSSEC examples (src/resources/dnssec/examples.ts).
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
