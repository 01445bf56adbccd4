// The domains collection: each operation in its own file, wired to its route here.
import { createRouter } from "../../http/router";
import { createDomain } from "./create";
import { deleteDomain } from "./delete";
import { getDomain, listDomains, listRepositoryDomains } from "./read";
import * as routes from "./routes";
import { updateDomain } from "./update";

export const domainsRouter = createRouter()
  .openapi(routes.listDomains, listDomains)
  .openapi(routes.listRepositoryDomains, listRepositoryDomains)
  .openapi(routes.getDomain, getDomain)
  .openapi(routes.createDomain, createDomain)
  .openapi(routes.updateDomain, updateDomain)
  .openapi(routes.deleteDomain, deleteDomain);
