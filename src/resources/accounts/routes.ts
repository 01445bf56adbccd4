import { collectionRoutes } from "../../http/collection-routes";
import { JSON_MEDIA_TYPE } from "../../http/json-body";
import { errorResponses, IF_MATCH_HEADER_DOC } from "../../http/openapi";
import { defineRoute } from "../../http/route";
import { ACCOUNT_CREATE_EXAMPLE, ACCOUNT_EXAMPLE, ACCOUNT_PATCH_EXAMPLE, ME_EXAMPLE } from "./examples";
import {
  ACCOUNT_CREATE_READ_ONLY,
  ACCOUNT_PATCH_READ_ONLY,
  AccountCreateSchema,
  AccountListQuery,
  AccountListSchema,
  AccountPatchSchema,
  AccountSchema,
  MeSchema,
} from "./schemas";

const tags = ["Accounts"];
const accounts = collectionRoutes({
  path: "/accounts",
  member: { param: "account", description: "Account id (`acc_…`).", example: "acc_01M8188MZ3N4D5RW2QKJ7H8V6E" },
  tags,
  operationIds: { one: "Account", many: "Accounts" },
  noun: { one: "account", many: "accounts" },
  schema: AccountSchema,
  example: ACCOUNT_EXAMPLE,
});

const OPERATORS_ONLY = "Operators' tokens only: a customer's token answers 403 `forbidden`, as does any token restricted to zones or domains.";

export const listAccounts = accounts.list({
  access: { scope: "read", operator: true },
  description: `Accounts in creation order, keyset-paginated. Filters combine with AND. ${OPERATORS_ONLY}`,
  query: AccountListQuery,
  page: AccountListSchema,
});

export const getAccount = accounts.get({
  access: { scope: "read" },
  description:
    "One account by id, with its `limits` and what it holds (`usage`). A customer's token reads its own account only: any other is 404, as an unknown id is. The `ETag` is the account's own (for `If-Match` on PATCH); limits and usage are live, so this read always answers 200.",
  conditional: false,
});

export const createAccount = accounts.create({
  access: { scope: "write", operator: true },
  description: `A customer (or, with \`role\`, another operator). Names are unique (409 \`already_exists\`); \`role\` cannot change later. Mint its first token with \`POST /tokens\` and \`account\`. ${OPERATORS_ONLY}`,
  readOnly: ACCOUNT_CREATE_READ_ONLY,
  body: AccountCreateSchema,
  example: ACCOUNT_CREATE_EXAMPLE,
});

export const updateAccount = accounts.update({
  access: { scope: "write", operator: true },
  summary: "Rename, suspend or reactivate an account",
  description: `\`name\` and \`status\` change; \`role\` is read-only (422 \`read_only_field\`). Suspending an account makes every token of it answer 403 \`forbidden\` within 10 seconds (the token cache time); its objects are kept, and its webhooks pause (nothing sent, nothing lost) until it is active again, when they resume in commit order. The built-in operator account (\`acc_00000000000000000000000000\`) cannot be suspended (422 \`policy_violation\`). ${OPERATORS_ONLY} ${IF_MATCH_HEADER_DOC}`,
  readOnly: ACCOUNT_PATCH_READ_ONLY,
  body: AccountPatchSchema,
  example: ACCOUNT_PATCH_EXAMPLE,
  response: { example: { ...ACCOUNT_EXAMPLE, status: "suspended" } },
});

export const deleteAccount = accounts.delete({
  access: { scope: "write", operator: true },
  description: `Only an account that holds nothing: with contacts, domains, hosts, zones or active (unrevoked) tokens it answers 409 \`object_linked\`, counting them. Its revoked tokens and its events stay, as history. The built-in operator account cannot be deleted (422 \`policy_violation\`). ${OPERATORS_ONLY} ${IF_MATCH_HEADER_DOC}`,
  errors: [404, 409, 412, 422],
});

export const getMe = defineRoute({
  operationId: "getMe",
  access: { scope: "read", narrow: "self", records: "self" },
  method: "get",
  path: "/me",
  tags,
  summary: "Who am I",
  description:
    "The calling token's account and the token itself (never its secret). Any token may ask, one restricted to zones or domains too. With authentication off (local development) the account is the operator's and `token` is null.",
  responses: {
    200: { description: "The caller.", content: { [JSON_MEDIA_TYPE]: { schema: MeSchema, example: ME_EXAMPLE } } },
    ...errorResponses(),
  },
});
