// The TSIG keys collection (docs/dns-update.md): each operation in its own file, wired to its route here.
import { createRouter } from "../../http/router";
import { createTsigKey } from "./create";
import { deleteTsigKey } from "./delete";
import { getTsigKey, listTsigKeys } from "./read";
import * as routes from "./routes";
import { updateTsigKey } from "./update";

export const tsigKeysRouter = createRouter()
  .openapi(routes.listTsigKeys, listTsigKeys)
  .openapi(routes.getTsigKey, getTsigKey)
  .openapi(routes.createTsigKey, createTsigKey)
  .openapi(routes.updateTsigKey, updateTsigKey)
  .openapi(routes.deleteTsigKey, deleteTsigKey);
