import { defineRoute } from "../../http/route";
import {
  CONDITIONAL_GET,
  createdResponse,
  errorResponses,
  IF_MATCH_HEADER_DOC,
  jsonBody,
  listResponse,
  noContentResponse,
  notModifiedResponse,
  resourceResponse,
} from "../../http/openapi";
import { pathParams } from "../../http/params";
import { TOKEN_READ_ONLY, TokenCreatedSchema, TokenCreateSchema, TokenListQuery, TokenListSchema, TokenSchema } from "./schemas";
import { TOKEN_CREATE_EXAMPLE, TOKEN_CREATED_EXAMPLE, TOKEN_EXAMPLE } from "../examples";

const tags = ["Tokens"];
const TokenParams = pathParams("token", "Token id (`tok_…`, the part of the bearer token before the dot).", "tok_01M8188PT3D0XJ6Q2F7N9R4K8W");

const NARROW = "A token restricted to `zones` or `domains` reaches no token but itself (403 `forbidden` for any other).";

export const listTokens = defineRoute({
  operationId: "listTokens",
  access: { scope: "read" },
  method: "get",
  path: "/tokens",
  tags,
  summary: "List tokens",
  description: `The tokens of the caller's account (an operator's token: of every account; filter with \`account\`), revoked ones included, in creation order, keyset-paginated; never a secret. ${NARROW}`,
  request: { query: TokenListQuery },
  responses: { 200: listResponse(TokenListSchema, "A page of tokens.", [TOKEN_EXAMPLE]), ...errorResponses(400) },
});

export const getToken = defineRoute({
  operationId: "getToken",
  access: { scope: "read", narrow: "self", records: "self" },
  method: "get",
  path: "/tokens/{token}",
  tags,
  summary: "Get a token",
  description: `One token by id, never its secret. Another account's token is 404 to a customer's token. ${NARROW}${CONDITIONAL_GET}`,
  request: { params: TokenParams },
  responses: { 200: resourceResponse(TokenSchema, "The token.", TOKEN_EXAMPLE), 304: notModifiedResponse, ...errorResponses(404) },
});

export const createToken = defineRoute({
  operationId: "createToken",
  access: { scope: "write" },
  method: "post",
  path: "/tokens",
  tags,
  summary: "Mint a token",
  description: `A token for the caller's account (an operator's token may name another with \`account\`; from a customer's token \`account\` is 422 \`read_only_field\`), whose parent is the calling token. The answer has one extra field, \`secret\`: the bearer token, shown this once (only its SHA-256 is kept). **Attenuation:** the new token has at most the caller's rights — scope not wider (\`read\` < \`write\`; \`dns\` only from an unrestricted operator token), \`zones\` and \`domains\` within the caller's, every \`records\` rule covered by one of the caller's, \`allowed_ips\` inside the caller's, \`expires_at\` not later; anything wider is 403 \`forbidden\` naming the widening. Names are unique within the account and never reused (409 \`already_exists\`). With \`Idempotency-Key\`, a retry by the same token with the same body gets the same answer for 24 hours, without \`secret\`: the secret is never stored, so a client that lost the first answer revokes that token and mints another. ${NARROW}`,
  readOnly: TOKEN_READ_ONLY,
  request: { body: jsonBody(TokenCreateSchema, "The new token and its restrictions (each optional; absent or null = none).", TOKEN_CREATE_EXAMPLE) },
  responses: {
    201: createdResponse(TokenCreatedSchema, "The token was minted; `secret` is shown only here.", TOKEN_CREATED_EXAMPLE),
    ...errorResponses(400, 409, 413, 415, 422),
  },
});

export const deleteToken = defineRoute({
  operationId: "deleteToken",
  access: { scope: "write", narrow: "self", records: "self" },
  method: "delete",
  path: "/tokens/{token}",
  tags,
  summary: "Revoke a token",
  description: `Revokes the token and every token minted from it, transitively, in one transaction; they stop working within 10 seconds on every isolate (the token cache time). A revoked token stays readable, with \`revoked_at\`; revoking it again answers 204 and changes nothing. Besides itself, a token revokes only tokens whose rights lie within its own (403 \`forbidden\` otherwise). ${NARROW} ${IF_MATCH_HEADER_DOC}`,
  request: { params: TokenParams },
  responses: { 204: noContentResponse, ...errorResponses(404, 409, 412) },
});
