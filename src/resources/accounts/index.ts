// The accounts collection (docs/accounts.md) and GET /v1/me: each operation in its own file,
// wired to its route here.
import { createRouter } from "../../http/router";
import { createAccount } from "./create";
import { deleteAccount } from "./delete";
import { getMe } from "./me";
import { getAccount, listAccounts } from "./read";
import * as routes from "./routes";
import { updateAccount } from "./update";

export const accountsRouter = createRouter()
  .openapi(routes.listAccounts, listAccounts)
  .openapi(routes.getAccount, getAccount)
  .openapi(routes.createAccount, createAccount)
  .openapi(routes.updateAccount, updateAccount)
  .openapi(routes.deleteAccount, deleteAccount)
  .openapi(routes.getMe, getMe);
