// The tokens' examples in the OpenAPI document: the customer's ACME client token, minted by
// the customer's own token (src/http/example-world.ts), for TXT records at _acme-challenge
// of example.com, for an hour.
import type { z } from "@hono/zod-openapi";
import { ACCOUNT_ID, ACME_TOKEN_ID, CUSTOMER_TOKEN_ID, UPDATED } from "../../http/example-world";
import type { TokenCreatedSchema, TokenCreateSchema, TokenSchema } from "./schemas";

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
