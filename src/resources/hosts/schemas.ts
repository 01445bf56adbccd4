import { z } from "@hono/zod-openapi";
import { paginationQuery } from "../../http/pagination";
import { searchParam } from "../../http/query";
import { AccountFilterSchema, AccountRefSchema, listSchema, SponsorInputSchema, TimestampSchema } from "../../http/openapi";
import { MAX_GLUE_ADDRESSES } from "../../registry/hosts";

const addresses = z
  .array(z.string().max(64))
  .max(MAX_GLUE_ADDRESSES, { error: `a host has at most ${MAX_GLUE_ADDRESSES} addresses` })
  .openapi({ example: ["192.0.2.53", "2001:db8::53"], description: "IPv4/IPv6 glue; subordinate hosts need 1–13, external hosts none." });

export const HostSchema = z
  .object({
    id: z.string().openapi({ example: "hst_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" }),
    account: AccountRefSchema,
    name: z.string().openapi({ example: "ns1.example.com" }),
    unicode_name: z.string().openapi({ example: "ns1.example.com" }),
    addresses: z.array(z.string()).openapi({ example: ["192.0.2.53", "2001:db8::53"], description: "Canonical (IPv6 compressed, lowercase)." }),
    domain: z.string().nullable().openapi({ description: "Superordinate domain managed here (subordinate host), or null (external host)." }),
    status: z.array(z.enum(["ok", "linked"])).openapi({ example: ["linked"], description: '`["linked"]` while a domain uses the host as name server.' }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .openapi("Host");

export const HostCreateSchema = z
  .object({
    name: z.string().max(1024).openapi({ example: "ns1.example.com", description: "A host name of at least 2 labels." }),
    addresses: addresses.optional(),
    account: SponsorInputSchema,
  })
  .openapi("HostCreate");

export const HostPatchSchema = z
  .object({
    name: z.string().max(1024).optional().openapi({ description: "Rename; domains that use the host follow the new name." }),
    addresses: addresses.nullable().optional(),
  })
  .openapi("HostPatch");

export const HOST_READ_ONLY = ["id", "unicode_name", "domain", "status", "created_at", "updated_at"] as const;

export const HostListQuery = z.object({
  ...paginationQuery,
  account: AccountFilterSchema,
  name: z.string().max(1024).optional().openapi({ description: "Exact host name." }),
  q: searchParam(
    "Case-insensitive substring of the name, typed as A-labels (`xn--mnchen-3ya`) or in Unicode (`münchen`: each Unicode label is also searched as its A-label).",
  ),
  domain: z.string().max(1024).optional().openapi({ description: "Superordinate domain, by id or name." }),
  address: z.string().max(64).optional().openapi({ description: "An IP address of the host (any notation)." }),
});

export const HostListSchema = listSchema(HostSchema, "HostList");

export type Host = z.infer<typeof HostSchema>;
export type HostCreate = z.infer<typeof HostCreateSchema>;
export type HostPatch = z.infer<typeof HostPatchSchema>;
