import { scheduledRunRoute } from "../../http/scheduled-run-route";
import { SWEEP_REPORT_EXAMPLE } from "./examples";
import { SweepReportSchema, SweepRequestSchema } from "./schemas";

export const runSweep = scheduledRunRoute({
  operationId: "runSweep",
  access: { scope: "write", operator: true },
  path: "/lifecycle/sweep",
  tags: ["Lifecycle"],
  summary: "Run the lifecycle sweep now",
  description:
    "Applies every time-driven step of the domain lifecycle that is due, as the hourly cron trigger does: transfers past `act_by` are approved, expired domains renew themselves (`auto_renew`) or enter redemption, ended grace periods leave `rgp_status`, an ended `redemptionPeriod` starts `pendingDelete`, and an ended `pendingDelete` purges the domain. Idempotent: a second run at the same time finds nothing due. Answers what it did. The body is optional. Operators' tokens only: a customer's token answers 403 `forbidden`, as does any token restricted to zones or domains.",
  body: SweepRequestSchema,
  report: SweepReportSchema,
  example: SWEEP_REPORT_EXAMPLE,
});
