import { defineRoute } from "../../http/route";
import {
  createdResponse,
  errorResponses,
  IF_MATCH_HEADER_DOC,
  jsonBody,
  listResponse,
  mergePatchBody,
  noContentResponse,
  resourceResponse,
} from "../../http/openapi";
import { pathParams } from "../../http/params";
import { JSON_MEDIA_TYPE } from "../../http/json-body";
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
import { ACCOUNT_CREATE_EXAMPLE, ACCOUNT_EXAMPLE, ACCOUNT_PATCH_EXAMPLE, ME_EXAMPLE } from "../examples";

const tags = ["Accounts"];
const AccountParams = pathParams("account", "Account id (`acc_…`).", "acc_01M8188MZ3N4D5RW2QKJ7H8V6E");

const OPERATORS_ONLY = "Operators' tokens only: a customer's token answers 403 `forbidden`, as does any token restricted to zones or domains.";

export const listAccounts = defineRoute({
  operationId: "listAccounts",
  access: { scope: "read", operator: true },
  method: "get",
  path: "/accounts",
  tags,
  summary: "List accounts",
  description: `Accounts in creation order, keyset-paginated. Filters combine with AND. ${OPERATORS_ONLY}`,
  request: { query: AccountListQuery },
  responses: { 200: listResponse(AccountListSchema, "A page of accounts.", [ACCOUNT_EXAMPLE]), ...errorResponses(400) },
});

export const getAccount = defineRoute({
  operationId: "getAccount",
  access: { scope: "read" },
  method: "get",
  path: "/accounts/{account}",
  tags,
  summary: "Get an account",
  description:
    "One account by id, with its `limits` and what it holds (`usage`). A customer's token reads its own account only: any other is 404, as an unknown id is. The `ETag` is the account's own (for `If-Match` on PATCH); limits and usage are live, so this read always answers 200.",
  request: { params: AccountParams },
  responses: { 200: resourceResponse(AccountSchema, "The account.", ACCOUNT_EXAMPLE), ...errorResponses(404) },
});

export const createAccount = defineRoute({
  operationId: "createAccount",
  access: { scope: "write", operator: true },
  method: "post",
  path: "/accounts",
  tags,
  summary: "Create an account",
  description: `A customer (or, with \`role\`, another operator). Names are unique (409 \`already_exists\`); \`role\` cannot change later. Mint its first token with \`POST /tokens\` and \`account\`. ${OPERATORS_ONLY}`,
  readOnly: ACCOUNT_CREATE_READ_ONLY,
  request: { body: jsonBody(AccountCreateSchema, "The new account.", ACCOUNT_CREATE_EXAMPLE) },
  responses: { 201: createdResponse(AccountSchema, "The account was created.", ACCOUNT_EXAMPLE), ...errorResponses(400, 409, 413, 415, 422) },
});

export const updateAccount = defineRoute({
  operationId: "updateAccount",
  access: { scope: "write", operator: true },
  method: "patch",
  path: "/accounts/{account}",
  tags,
  summary: "Rename, suspend or reactivate an account",
  description: `\`name\` and \`status\` change; \`role\` is read-only (422 \`read_only_field\`). Suspending an account makes every token of it answer 403 \`forbidden\` within 10 seconds (the token cache time); its objects are kept. The built-in operator account (\`acc_00000000000000000000000000\`) cannot be suspended (422 \`policy_violation\`). ${OPERATORS_ONLY} ${IF_MATCH_HEADER_DOC}`,
  readOnly: ACCOUNT_PATCH_READ_ONLY,
  request: { params: AccountParams, body: mergePatchBody(AccountPatchSchema, "Fields to change.", ACCOUNT_PATCH_EXAMPLE) },
  responses: {
    200: resourceResponse(AccountSchema, "The updated account.", { ...ACCOUNT_EXAMPLE, status: "suspended" }),
    ...errorResponses(400, 404, 409, 412, 413, 415, 422),
  },
});

export const deleteAccount = defineRoute({
  operationId: "deleteAccount",
  access: { scope: "write", operator: true },
  method: "delete",
  path: "/accounts/{account}",
  tags,
  summary: "Delete an account",
  description: `Only an account that holds nothing: with contacts, domains, hosts, zones or active (unrevoked) tokens it answers 409 \`object_linked\`, counting them. Its revoked tokens and its events stay, as history. The built-in operator account cannot be deleted (422 \`policy_violation\`). ${OPERATORS_ONLY} ${IF_MATCH_HEADER_DOC}`,
  request: { params: AccountParams },
  responses: { 204: noContentResponse, ...errorResponses(404, 409, 412, 422) },
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
