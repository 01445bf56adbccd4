import { defineRoute } from "../../http/route";
import {
  CONDITIONAL_GET,
  createdResponse,
  errorResponses,
  IF_MATCH_HEADER_DOC,
  jsonBody,
  listResponse,
  mergePatchBody,
  noContentResponse,
  notModifiedResponse,
  resourceResponse,
} from "../../http/openapi";
import { pathParams } from "../../http/params";
import type { TsigKey } from "./schemas";
import {
  TSIG_KEY_PATCH_READ_ONLY,
  TSIG_KEY_READ_ONLY,
  TsigKeyCreatedSchema,
  TsigKeyCreateSchema,
  TsigKeyListQuery,
  TsigKeyListSchema,
  TsigKeyPatchSchema,
  TsigKeySchema,
} from "./schemas";

const tags = ["TSIG keys"];
const KeyParams = pathParams("key", "TSIG key id (`tsk_…`).", "tsk_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B");

const KEY_EXAMPLE: TsigKey = {
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
};

const OWN =
  "Visible and manageable only by the key's account: another account's key is 404 to a customer's token. Tokens restricted to zones or domains, or with `records` rules, cannot use these routes (403).";

export const listTsigKeys = defineRoute({
  operationId: "listTsigKeys",
  access: { scope: "read" },
  method: "get",
  path: "/tsig-keys",
  tags,
  summary: "List TSIG keys",
  description: `The TSIG keys (RFC 8945) of the caller's account (an operator's token: of every account; filter with \`account\`), in creation order, keyset-paginated; never a secret. ${OWN}`,
  request: { query: TsigKeyListQuery },
  responses: { 200: listResponse(TsigKeyListSchema, "A page of keys.", [KEY_EXAMPLE]), ...errorResponses(400) },
});

export const getTsigKey = defineRoute({
  operationId: "getTsigKey",
  access: { scope: "read" },
  method: "get",
  path: "/tsig-keys/{key}",
  tags,
  summary: "Get a TSIG key",
  description: `One key by id, never its secret. ${OWN}${CONDITIONAL_GET}`,
  request: { params: KeyParams },
  responses: { 200: resourceResponse(TsigKeySchema, "The key.", KEY_EXAMPLE), 304: notModifiedResponse, ...errorResponses(404) },
});

export const createTsigKey = defineRoute({
  operationId: "createTsigKey",
  access: { scope: "write" },
  method: "post",
  path: "/tsig-keys",
  tags,
  summary: "Create a TSIG key",
  description: `A key for DNS clients: \`update\` signs DNS UPDATE messages (RFC 2136) sent to the primary, \`transfer\` signs zone transfers (a declared secondary's). The service generates the secret (32 random bytes for hmac-sha256, 64 for hmac-sha512) and answers it once as \`secret\` (base64); it is stored encrypted and reaches only the DNS backend. \`zones\` (zones of the key's account, 422 otherwise) is required; \`records\` narrows what an UPDATE may touch, as a token's \`records\` does. A zone takes one key that allows \`update\` (409 \`already_exists\` naming the other key): PowerDNS does not tell the service which key signed an update. Names are DNS names unique in the service (409). At most the account's \`tsig_keys\` limit (422 \`quota_exceeded\`). An operator's token may create a key for another account (\`account\`). ${OWN}`,
  readOnly: TSIG_KEY_READ_ONLY,
  request: {
    body: jsonBody(TsigKeyCreateSchema, "The new key.", {
      name: "acme-writer.example.com",
      allow: ["update"],
      zones: ["example.com"],
      records: [{ name: "_acme-challenge", types: ["TXT"] }],
    }),
  },
  responses: {
    201: createdResponse(TsigKeyCreatedSchema, "The key was created; `secret` is shown only here.", {
      ...KEY_EXAMPLE,
      secret: "q2VbYg8mX3YQKZq0yUQ6xq8m1tRk8Z0cJ2u0Q7w9bVs=",
    }),
    ...errorResponses(400, 409, 413, 415, 422, 503),
  },
});

export const updateTsigKey = defineRoute({
  operationId: "updateTsigKey",
  access: { scope: "write" },
  method: "patch",
  path: "/tsig-keys/{key}",
  tags,
  summary: "Change a TSIG key's rights",
  description: `\`allow\`, \`zones\`, \`records\` and \`expires_at\` change; \`name\`, \`algorithm\` and the secret never do (422 \`read_only_field\`: a new secret is a new key). The primary sees the change from its next message on. A change that would stop the key working for a zone whose declared secondary transfers with it is 409 \`object_linked\`. ${OWN} ${IF_MATCH_HEADER_DOC}`,
  readOnly: TSIG_KEY_PATCH_READ_ONLY,
  request: { params: KeyParams, body: mergePatchBody(TsigKeyPatchSchema, "Fields to change.", { expires_at: "2027-01-01T00:00:00Z" }) },
  responses: { 200: resourceResponse(TsigKeySchema, "The key as it now is.", KEY_EXAMPLE), ...errorResponses(404, 409, 412, 413, 415, 422) },
});

export const deleteTsigKey = defineRoute({
  operationId: "deleteTsigKey",
  access: { scope: "write" },
  method: "delete",
  path: "/tsig-keys/{key}",
  tags,
  summary: "Delete a TSIG key",
  description: `The key stops working at once: the DNS backend reads keys afresh for every signed message (no cache). A key a zone's declared secondary transfers with is 409 \`object_linked\` until the zone stops naming it. ${OWN} ${IF_MATCH_HEADER_DOC}`,
  request: { params: KeyParams },
  responses: { 204: noContentResponse, ...errorResponses(404, 409, 412) },
});
