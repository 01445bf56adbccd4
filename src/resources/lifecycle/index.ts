// The domain lifecycle's time-driven steps (docs/lifecycle.md): POST /v1/lifecycle/sweep, and
// the sweep itself, which the cron trigger runs too (src/index.ts, through src/app.ts).
import { createRouter } from "../../http/router";
import * as routes from "./routes";
import { runSweep } from "./run";

export const lifecycleRouter = createRouter().openapi(routes.runSweep, runSweep);
