import { z } from "@hono/zod-openapi";
import { paginationQuery } from "../../http/pagination";
import { searchParam } from "../../http/query";
import { AccountFilterSchema, AccountRefSchema, listSchema, SponsorInputSchema, TimestampSchema } from "../../http/openapi";
import { readOnlyFields } from "../../http/patch";
import { isCountryCode } from "../../registry/countries";

// RFC 5733 §2.5: telephone numbers in EPP form, `+CC.NUMBER`.
const phone = z
  .string()
  .regex(/^\+[0-9]{1,3}\.[0-9]{1,14}$/, { error: "must be in EPP form +CC.NUMBER, e.g. +44.2071234567" })
  .openapi({ example: "+44.2071234567" });

const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => s.trim().length > 0, { error: "must not be blank" })
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), { error: "must not contain control characters" });

const countryCode = z
  .string()
  .refine(isCountryCode, { error: "is not an ISO 3166-1 alpha-2 country code" })
  .transform((s) => s.toUpperCase())
  .openapi({ example: "GB", description: "ISO 3166-1 alpha-2, stored upper-case." });

const addressFields = {
  street: z
    .array(text(255))
    .max(3, { error: "has at most 3 lines" })
    .nullable()
    .optional()
    .openapi({ example: ["12 Example Row"] }),
  city: text(255).nullable().optional().openapi({ example: "London" }),
  state: text(255).nullable().optional().openapi({ example: null }),
  postal_code: text(16).nullable().optional().openapi({ example: "N1 9GU" }),
  country_code: countryCode.nullable().optional(),
};

export const AddressInputSchema = z.strictObject(addressFields).openapi("AddressInput");

export const AddressSchema = z
  .object({
    street: z.array(z.string()).openapi({ example: ["12 Example Row"] }),
    city: z.string().nullable().openapi({ example: "London" }),
    state: z.string().nullable().openapi({ example: null }),
    postal_code: z.string().nullable().openapi({ example: "N1 9GU" }),
    country_code: z.string().nullable().openapi({ example: "GB" }),
  })
  .openapi("Address");

const email = z.email({ error: "is not an email address" }).max(254).openapi({ example: "ada@example.org" });

export const ContactSchema = z
  .object({
    id: z.string().openapi({ example: "con_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" }),
    account: AccountRefSchema,
    name: z.string().openapi({ example: "Ada Lovelace" }),
    organization: z.string().nullable().openapi({ example: "Analytical Ltd" }),
    email: z.string().openapi({ example: "ada@example.org" }),
    phone: z.string().nullable().openapi({ example: "+44.2071234567" }),
    fax: z.string().nullable().openapi({ example: null }),
    address: AddressSchema,
    privacy: z.boolean().openapi({ description: "Ask for the contact's data to be withheld from public directory services." }),
    status: z.array(z.enum(["ok", "linked"])).openapi({ description: '`["linked"]` while any domain uses the contact, else `["ok"]`.', example: ["ok"] }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .openapi("Contact");

export const ContactCreateSchema = z
  .object({
    name: text(255).openapi({ example: "Ada Lovelace" }),
    organization: text(255).nullable().optional().openapi({ example: "Analytical Ltd" }),
    email,
    phone: phone.nullable().optional(),
    fax: phone.nullable().optional(),
    address: AddressInputSchema.optional(),
    privacy: z.boolean().optional().openapi({ description: "Default false." }),
    account: SponsorInputSchema,
  })
  .openapi("ContactCreate");

export const ContactPatchSchema = z
  .object({
    name: text(255).optional(),
    organization: text(255).nullable().optional(),
    email: email.optional(),
    phone: phone.nullable().optional(),
    fax: phone.nullable().optional(),
    address: AddressInputSchema.nullable().optional(),
    privacy: z.boolean().optional(),
  })
  .openapi("ContactPatch");

export const CONTACT_READ_ONLY = readOnlyFields(ContactSchema, ContactPatchSchema);

export const ContactListQuery = z.object({
  ...paginationQuery,
  account: AccountFilterSchema,
  email: z.string().max(254).optional().openapi({ description: "Exact email address (case-insensitive)." }),
  q: searchParam("Case-insensitive substring of the name."),
});

export const ContactListSchema = listSchema(ContactSchema, "ContactList");

export type Contact = z.infer<typeof ContactSchema>;
export type ContactCreate = z.infer<typeof ContactCreateSchema>;
export type ContactPatch = z.infer<typeof ContactPatchSchema>;
export type AddressInput = z.infer<typeof AddressInputSchema>;
