// DNSSEC for hosted zones (docs/dnssec.md): POST|GET|PATCH|DELETE /zones/{zone}/dnssec, and
// its key rolls (docs/dnssec-rollovers.md): POST …/dnssec/rollover, POST …/dnssec/ds-seen.
import { createRouter } from "../../http/router";
import { disableDnssecHandler } from "./disable";
import { enableDnssecHandler } from "./enable";
import { patchDnssecHandler } from "./policy";
import { readDnssecHandler } from "./read";
import { reportDsSeenHandler, startRolloverHandler } from "./rollover";
import * as routes from "./routes";

export const dnssecRouter = createRouter()
  .openapi(routes.enableDnssec, enableDnssecHandler)
  .openapi(routes.getDnssec, readDnssecHandler)
  .openapi(routes.updateDnssec, patchDnssecHandler)
  .openapi(routes.disableDnssec, disableDnssecHandler)
  .openapi(routes.startRollover, startRolloverHandler)
  .openapi(routes.reportDsSeen, reportDsSeenHandler);
