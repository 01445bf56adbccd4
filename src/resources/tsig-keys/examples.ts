// The TSIG keys' examples in the OpenAPI document: a key an ACME client signs its DNS
// UPDATEs with, allowed only TXT records at _acme-challenge of example.com.
import type { z } from "@hono/zod-openapi";
import type { TsigKeyCreatedSchema, TsigKeyCreateSchema, TsigKeyPatchSchema, TsigKeySchema } from "./schemas";

export const TSIG_KEY_CREATE_EXAMPLE = {
  name: "acme-writer.example.com",
  allow: ["update"],
  zones: ["example.com"],
  records: [{ name: "_acme-challenge", types: ["TXT"] }],
} satisfies z.input<typeof TsigKeyCreateSchema>;

export const TSIG_KEY_PATCH_EXAMPLE = { expires_at: "2027-01-01T00:00:00Z" } satisfies z.input<typeof TsigKeyPatchSchema>;

export const TSIG_KEY_EXAMPLE = {
  id: "tsk_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B",
  account: "acc_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B",
  name: "acme-writer.example.com.",
  algorithm: "hmac-sha256",
  allow: ["update"],
  zones: ["example.com"],
  records: [{ name: "_acme-challenge", types: ["TXT"] }],
  expires_at: null,
  created_at: "2026-11-25T09:30:00.000Z",
  updated_at: "2026-11-25T09:30:00.000Z",
} satisfies z.output<typeof TsigKeySchema>;

export const TSIG_KEY_CREATED_EXAMPLE = {
  ...TSIG_KEY_EXAMPLE,
  secret: "q2VbYg8mX3YQKZq0yUQ6xq8m1tRk8Z0cJ2u0Q7w9bVs=",
} satisfies z.output<typeof TsigKeyCreatedSchema>;
