import { collectionRoutes } from "../../http/collection-routes";
import { IF_MATCH_HEADER_DOC } from "../../http/openapi";
import { TOKEN_CREATE_EXAMPLE, TOKEN_CREATED_EXAMPLE, TOKEN_EXAMPLE } from "./examples";
import { TOKEN_READ_ONLY, TokenCreatedSchema, TokenCreateSchema, TokenListQuery, TokenListSchema, TokenSchema } from "./schemas";

const tokens = collectionRoutes({
  path: "/tokens",
  member: { param: "token", description: "Token id (`tok_…`, the part of the bearer token before the dot).", example: "tok_01M8188PT3D0XJ6Q2F7N9R4K8W" },
  tags: ["Tokens"],
  operationIds: { one: "Token", many: "Tokens" },
  noun: { one: "token", many: "tokens" },
  schema: TokenSchema,
  example: TOKEN_EXAMPLE,
  readOnly: TOKEN_READ_ONLY,
});

const NARROW = "A token restricted to `zones` or `domains` reaches no token but itself (403 `forbidden` for any other).";

export const listTokens = tokens.list({
  access: { scope: "read" },
  description: `The tokens of the caller's account (an operator's token: of every account; filter with \`account\`), revoked ones included, in creation order, keyset-paginated; never a secret. ${NARROW}`,
  query: TokenListQuery,
  page: TokenListSchema,
});

export const getToken = tokens.get({
  access: { scope: "read", narrow: "self", records: "self" },
  description: `One token by id, never its secret. Another account's token is 404 to a customer's token. ${NARROW}`,
});

export const createToken = tokens.create({
  access: { scope: "write" },
  summary: "Mint a token",
  description: `A token for the caller's account (an operator's token may name another with \`account\`; from a customer's token \`account\` is 422 \`read_only_field\`), whose parent is the calling token. The answer has one extra field, \`secret\`: the bearer token, shown this once (only its SHA-256 is kept). **Attenuation:** the new token has at most the caller's rights — scope not wider (\`read\` < \`write\`; \`dns\` only from an unrestricted operator token), \`zones\` and \`domains\` within the caller's, every \`records\` rule covered by one of the caller's, \`allowed_ips\` inside the caller's, \`expires_at\` not later; anything wider is 403 \`forbidden\` naming the widening. Names are unique within the account and never reused (409 \`already_exists\`). With \`Idempotency-Key\`, a retry by the same token with the same body gets the same answer for 24 hours, without \`secret\`: the secret is never stored, so a client that lost the first answer revokes that token and mints another. ${NARROW}`,
  body: TokenCreateSchema,
  bodyDescription: "The new token and its restrictions (each optional; absent or null = none).",
  example: TOKEN_CREATE_EXAMPLE,
  response: { schema: TokenCreatedSchema, description: "The token was minted; `secret` is shown only here.", example: TOKEN_CREATED_EXAMPLE },
});

export const deleteToken = tokens.delete({
  access: { scope: "write", narrow: "self", records: "self" },
  summary: "Revoke a token",
  description: `Revokes the token and every token minted from it, transitively, in one transaction; they stop working within 10 seconds on every isolate (the token cache time). A revoked token stays readable, with \`revoked_at\`; revoking it again answers 204 and changes nothing. Besides itself, a token revokes only tokens whose rights lie within its own (403 \`forbidden\` otherwise). ${NARROW} ${IF_MATCH_HEADER_DOC}`,
});
