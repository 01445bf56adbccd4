// The hosts' examples in the OpenAPI document: ns1.example.com, subordinate to the example
// world's domain (src/http/example-world.ts), and its RDAP nameserver view (RFC 9083 §5.2).
import type { z } from "@hono/zod-openapi";
import { ACCOUNT_ID, CREATED, DOMAIN_ID, HOST_ID, rdapRegistered, rdapSelfLink } from "../../http/example-world";
import type { RdapNameserverResponseSchema } from "../../rdap/schemas";
import type { HostCreateSchema, HostPatchSchema, HostSchema } from "./schemas";

export const HOST_CREATE_EXAMPLE = { name: "ns1.example.com", addresses: ["192.0.2.53", "2001:db8::53"] } satisfies z.input<typeof HostCreateSchema>;

export const HOST_PATCH_EXAMPLE = { addresses: ["192.0.2.54", "2001:db8::54"] } satisfies z.input<typeof HostPatchSchema>;

export const HOST_EXAMPLE = {
  id: HOST_ID,
  account: ACCOUNT_ID,
  name: "ns1.example.com",
  unicode_name: "ns1.example.com",
  addresses: ["192.0.2.53", "2001:db8::53"],
  domain: DOMAIN_ID,
  status: ["ok"],
  created_at: CREATED,
  updated_at: CREATED,
} satisfies z.output<typeof HostSchema>;

export const RDAP_NAMESERVER_EXAMPLE = {
  objectClassName: "nameserver",
  handle: HOST_ID,
  ldhName: "ns1.example.com",
  unicodeName: "ns1.example.com",
  ipAddresses: { v4: ["192.0.2.53"], v6: ["2001:db8::53"] },
  status: ["active"],
  events: rdapRegistered(CREATED, CREATED),
  links: rdapSelfLink("/hosts/ns1.example.com"),
  rdapConformance: ["rdap_level_0"],
} satisfies z.output<typeof RdapNameserverResponseSchema>;
