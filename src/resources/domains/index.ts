// The domains collection: each operation in its own file, wired to its route here.
import { createRouter } from "../../http/router";
import { checkDomains } from "./check";
import { createDomain } from "./create";
import { deleteDomain } from "./delete";
import { getDomain, listDomains, listRepositoryDomains } from "./read";
import { renewDomain } from "./renew";
import { restoreDomain } from "./restore";
import { approveTransfer, cancelTransfer, rejectTransfer } from "./transfer-act";
import { getTransfer } from "./transfer-read";
import { requestTransfer } from "./transfer-request";
import * as routes from "./routes";
import { updateDomain } from "./update";

export const domainsRouter = createRouter()
  .openapi(routes.listDomains, listDomains)
  .openapi(routes.listRepositoryDomains, listRepositoryDomains)
  // Before GET /domains/{domain}, which would take `check` for a domain id.
  .openapi(routes.checkDomains, checkDomains)
  .openapi(routes.getDomain, getDomain)
  .openapi(routes.createDomain, createDomain)
  .openapi(routes.updateDomain, updateDomain)
  .openapi(routes.deleteDomain, deleteDomain)
  .openapi(routes.renewDomain, renewDomain)
  .openapi(routes.restoreDomain, restoreDomain)
  .openapi(routes.requestTransfer, requestTransfer)
  .openapi(routes.getTransfer, getTransfer)
  .openapi(routes.approveTransfer, approveTransfer)
  .openapi(routes.rejectTransfer, rejectTransfer)
  .openapi(routes.cancelTransfer, cancelTransfer);
