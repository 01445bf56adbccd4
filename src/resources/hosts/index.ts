// The hosts collection: each operation in its own file, wired to its route here.
import { createRouter } from "../../http/router";
import { createHost } from "./create";
import { deleteHost } from "./delete";
import { getHost, listHosts, listRepositoryHosts } from "./read";
import * as routes from "./routes";
import { updateHost } from "./update";

export const hostsRouter = createRouter()
  .openapi(routes.listHosts, listHosts)
  .openapi(routes.listRepositoryHosts, listRepositoryHosts)
  .openapi(routes.getHost, getHost)
  .openapi(routes.createHost, createHost)
  .openapi(routes.updateHost, updateHost)
  .openapi(routes.deleteHost, deleteHost);
