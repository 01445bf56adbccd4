// DNSSEC for hosted zones (docs/dnssec.md): POST|GET|PATCH|DELETE /zones/{zone}/dnssec.
import { createRouter } from "../../http/router";
import { disableDnssecHandler } from "./disable";
import { enableDnssecHandler } from "./enable";
import { patchDnssecHandler } from "./policy";
import { readDnssecHandler } from "./read";
import * as routes from "./routes";

export const dnssecRouter = createRouter()
  .openapi(routes.enableDnssec, enableDnssecHandler)
  .openapi(routes.getDnssec, readDnssecHandler)
  .openapi(routes.updateDnssec, patchDnssecHandler)
  .openapi(routes.disableDnssec, disableDnssecHandler);
