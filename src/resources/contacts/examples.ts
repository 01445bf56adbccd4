// The contacts' examples in the OpenAPI document: Ada's contact (src/http/example-world.ts),
// and the RDAP entity it is (RFC 9083 §5.1), which the domain's RDAP view shows too.
import type { z } from "@hono/zod-openapi";
import { ACCOUNT_ID, CONTACT_ID, CREATED, rdapRegistered, rdapSelfLink } from "../../http/example-world";
import type { RdapEntityResponseSchema, RdapEntitySchema } from "../../rdap/schemas";
import type { ContactCreateSchema, ContactPatchSchema, ContactSchema } from "./schemas";

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
  account: ACCOUNT_ID,
  ...CONTACT_CREATE_EXAMPLE,
  fax: null,
  address: { ...ADDRESS, state: null },
  privacy: false,
  status: ["linked"],
  created_at: CREATED,
  updated_at: CREATED,
} satisfies z.output<typeof ContactSchema>;

/** The contact as an RDAP entity. */
export const RDAP_ENTITY = {
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
  events: rdapRegistered(CREATED, CREATED),
  links: rdapSelfLink(`/contacts/${CONTACT_ID}`),
} satisfies z.output<typeof RdapEntitySchema>;

export const RDAP_ENTITY_EXAMPLE = { ...RDAP_ENTITY, rdapConformance: ["rdap_level_0"] } satisfies z.output<typeof RdapEntityResponseSchema>;
