import { collectionRoutes } from "../../http/collection-routes";
import { IF_MATCH_HEADER_DOC } from "../../http/openapi";
import { TSIG_KEY_CREATE_EXAMPLE, TSIG_KEY_CREATED_EXAMPLE, TSIG_KEY_EXAMPLE, TSIG_KEY_PATCH_EXAMPLE } from "./examples";
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

const keys = collectionRoutes({
  path: "/tsig-keys",
  member: { param: "key", description: "TSIG key id (`tsk_…`).", example: "tsk_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B" },
  tags: ["TSIG keys"],
  operationIds: { one: "TsigKey", many: "TsigKeys" },
  noun: { one: "TSIG key", many: "TSIG keys" },
  schema: TsigKeySchema,
  example: TSIG_KEY_EXAMPLE,
});

const OWN =
  "Visible and manageable only by the key's account: another account's key is 404 to a customer's token. Tokens restricted to zones or domains, or with `records` rules, cannot use these routes (403).";

export const listTsigKeys = keys.list({
  access: { scope: "read" },
  description: `The TSIG keys (RFC 8945) of the caller's account (an operator's token: of every account; filter with \`account\`), in creation order, keyset-paginated; never a secret. ${OWN}`,
  query: TsigKeyListQuery,
  page: TsigKeyListSchema,
  response: { description: "A page of keys." },
});

export const getTsigKey = keys.get({
  access: { scope: "read" },
  description: `One key by id, never its secret. ${OWN}`,
  response: { description: "The key." },
});

export const createTsigKey = keys.create({
  access: { scope: "write" },
  description: `A key for DNS clients: \`update\` signs DNS UPDATE messages (RFC 2136) sent to the tier's update gateway, \`transfer\` signs zone transfers (a declared secondary's). The service generates the secret (32 random bytes for hmac-sha256, 64 for hmac-sha512) and answers it once as \`secret\` (base64); it is stored encrypted and reaches only the DNS backend. \`zones\` (zones of the key's account, 422 otherwise) is required; \`records\` narrows what an UPDATE may touch, as a token's \`records\` does. A zone takes any number of update keys, each held to its own \`records\`. Names are DNS names unique in the service (409). At most the account's \`tsig_keys\` limit (422 \`quota_exceeded\`). An operator's token may create a key for another account (\`account\`). ${OWN}`,
  readOnly: TSIG_KEY_READ_ONLY,
  body: TsigKeyCreateSchema,
  bodyDescription: "The new key.",
  example: TSIG_KEY_CREATE_EXAMPLE,
  response: { schema: TsigKeyCreatedSchema, description: "The key was created; `secret` is shown only here.", example: TSIG_KEY_CREATED_EXAMPLE },
  errors: [400, 409, 413, 415, 422, 503],
});

export const updateTsigKey = keys.update({
  access: { scope: "write" },
  summary: "Change a TSIG key's rights",
  description: `\`allow\`, \`zones\`, \`records\` and \`expires_at\` change; \`name\`, \`algorithm\` and the secret never do (422 \`read_only_field\`: a new secret is a new key). The DNS backend sees the change from the next message on. A change that would stop the key working for a zone whose declared secondary transfers with it is 409 \`object_linked\`. ${OWN} ${IF_MATCH_HEADER_DOC}`,
  readOnly: TSIG_KEY_PATCH_READ_ONLY,
  body: TsigKeyPatchSchema,
  example: TSIG_KEY_PATCH_EXAMPLE,
  response: { description: "The key as it now is." },
  errors: [404, 409, 412, 413, 415, 422],
});

export const deleteTsigKey = keys.delete({
  access: { scope: "write" },
  description: `The key stops working at once: the DNS backend reads keys afresh for every signed message (no cache). A key a zone's declared secondary transfers with is 409 \`object_linked\` until the zone stops naming it. ${OWN} ${IF_MATCH_HEADER_DOC}`,
});
