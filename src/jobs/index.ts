// The scheduled jobs (src/index.ts runs them from the cron trigger, through src/app.ts) and
// the operator's routes that run them now: the lifecycle sweep (docs/lifecycle.md), the events
// archive (docs/capacity.md), the DNSSEC run (docs/dnssec-rollovers.md), and the registry jobs: poll messages applied, reconciliation
// (docs/registries.md). Jobs stand above the collections: they use the collections'
// queries and write routine, and no collection imports a job.
import { createRouter } from "../http/router";
import * as dnssecRoutes from "./dnssec-routes";
import { runDnssecNow } from "./dnssec-run";
import { runEventArchive } from "./event-archive-run";
import * as registryRoutes from "./registry-routes";
import { receiveRegistryMessage, runReconciliation } from "./registry-run";
import * as routes from "./routes";
import { runSweep } from "./sweep-run";

export const jobsRouter = createRouter()
  .openapi(routes.runSweep, runSweep)
  .openapi(routes.runEventArchive, runEventArchive)
  .openapi(registryRoutes.receiveRegistryMessage, receiveRegistryMessage)
  .openapi(registryRoutes.runReconciliation, runReconciliation)
  .openapi(dnssecRoutes.runDnssec, runDnssecNow);
