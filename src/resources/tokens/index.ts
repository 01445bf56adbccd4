// The tokens collection (docs/accounts.md): each operation in its own file, wired to its route here.
import { createRouter } from "../../http/router";
import { createToken } from "./create";
import { deleteToken } from "./delete";
import { getToken, listTokens } from "./read";
import * as routes from "./routes";

export const tokensRouter = createRouter()
  .openapi(routes.listTokens, listTokens)
  .openapi(routes.getToken, getToken)
  .openapi(routes.createToken, createToken)
  .openapi(routes.deleteToken, deleteToken);
