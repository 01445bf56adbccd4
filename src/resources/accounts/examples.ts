// The accounts' examples in the OpenAPI document: the example world's customer account
// (src/http/example-world.ts), and GET /v1/me as its own token.
import type { z } from "@hono/zod-openapi";
import { ACCOUNT_ID, CREATED, CUSTOMER_TOKEN_ID, OPERATOR_TOKEN_ID, UPDATED } from "../../http/example-world";
import { TOKEN_EXAMPLE } from "../tokens/examples";
import type { AccountCreateSchema, AccountPatchSchema, AccountSchema, MeSchema } from "./schemas";

export const ACCOUNT_CREATE_EXAMPLE = { name: "Example Reseller" } satisfies z.input<typeof AccountCreateSchema>;

export const ACCOUNT_PATCH_EXAMPLE = { status: "suspended" } satisfies z.input<typeof AccountPatchSchema>;

export const ACCOUNT_EXAMPLE = {
  id: ACCOUNT_ID,
  name: "Example Reseller",
  role: "customer",
  status: "active",
  created_at: CREATED,
  updated_at: CREATED,
} satisfies z.output<typeof AccountSchema>;

/** GET /v1/me as the customer's own token (minted for it by the operator's). */
export const ME_EXAMPLE = {
  account: ACCOUNT_EXAMPLE,
  token: {
    ...TOKEN_EXAMPLE,
    id: CUSTOMER_TOKEN_ID,
    name: "reseller-automation",
    parent: OPERATOR_TOKEN_ID,
    zones: null,
    records: null,
    expires_at: null,
    last_used_at: UPDATED,
    created_at: CREATED,
  },
} satisfies z.output<typeof MeSchema>;
