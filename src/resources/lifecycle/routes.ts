import { defineRoute } from "../../http/route";
import { errorResponses } from "../../http/openapi";
import { JSON_MEDIA_TYPE } from "../../http/json-body";
import { SWEEP_REPORT_EXAMPLE } from "./examples";
import { SweepReportSchema, SweepRequestSchema } from "./schemas";

export const runSweep = defineRoute({
  operationId: "runSweep",
  access: { scope: "write", operator: true },
  method: "post",
  path: "/lifecycle/sweep",
  tags: ["Lifecycle"],
  summary: "Run the lifecycle sweep now",
  description:
    "Applies every time-driven step of the domain lifecycle that is due, as the hourly cron trigger does: transfers past `act_by` are approved, expired domains renew themselves (`auto_renew`) or enter redemption, ended grace periods leave `rgp_status`, an ended `redemptionPeriod` starts `pendingDelete`, and an ended `pendingDelete` purges the domain. Idempotent: a second run at the same time finds nothing due. Answers what it did. The body is optional. Operators' tokens only: a customer's token answers 403 `forbidden`, as does any token restricted to zones or domains.",
  request: {
    body: {
      required: false,
      description: "Optional: `as_of`.",
      content: { [JSON_MEDIA_TYPE]: { schema: SweepRequestSchema, example: { as_of: "2030-01-01T00:00:00.000Z" } } },
    },
  },
  responses: {
    200: { description: "What the run did.", content: { [JSON_MEDIA_TYPE]: { schema: SweepReportSchema, example: SWEEP_REPORT_EXAMPLE } } },
    ...errorResponses(400, 413, 415, 422),
  },
});
