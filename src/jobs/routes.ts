// The operator's triggers of the scheduled jobs (docs/lifecycle.md, docs/capacity.md): each
// does at once what the cron trigger does on its schedule, at the present time or, on a
// local development server, at `as_of`.
import { scheduledRunRoute } from "../http/scheduled-run-route";
import { ARCHIVE_REPORT_EXAMPLE, ArchiveReportSchema, ArchiveRunRequestSchema } from "./event-archive-schemas";
import { SWEEP_REPORT_EXAMPLE } from "./sweep-examples";
import { SweepReportSchema, SweepRequestSchema } from "./sweep-schemas";

export const runSweep = scheduledRunRoute({
  operationId: "runSweep",
  access: { scope: "write", operator: true },
  path: "/lifecycle/sweep",
  tags: ["Lifecycle"],
  summary: "Run the lifecycle sweep now",
  description:
    "Applies every time-driven step of the domain lifecycle that is due, as the hourly cron trigger does: transfers past `act_by` are approved, expired domains renew themselves (`auto_renew`) or enter redemption, ended grace periods leave `rgp_status`, an ended `redemptionPeriod` starts `pendingDelete`, and an ended `pendingDelete` purges the domain. A connected repository's domains (docs/registries.md) are left to their registry: no automatic renewal, expiry, end of redemption or purge of them here (their registry's poll messages and reconciliation bring what it did), only their ended grace periods leave `rgp_status`; 503 `not_configured` when `REGISTRY_CONNECTORS` cannot be read. Idempotent: a second run at the same time finds nothing due. Answers what it did. The body is optional. Operators' tokens only: a customer's token answers 403 `forbidden`, as does any token restricted to zones or domains.",
  body: SweepRequestSchema,
  report: SweepReportSchema,
  example: SWEEP_REPORT_EXAMPLE,
});

export const runEventArchive = scheduledRunRoute({
  operationId: "runEventArchive",
  access: { scope: "write", operator: true },
  path: "/events/archive/run",
  tags: ["Events"],
  summary: "Archive due events now",
  description:
    "Moves the events older than the hot window to the archive now, as the hourly cron trigger does: in bounded passes (one account's oldest events each), each day's events written to R2 as one gzip'd NDJSON object, read back, and only then deleted from the database, in one batch with the object's row in the listing. Two runs at once, or a run that stopped half-way, lose and double nothing (docs/capacity.md). `more` true: the run stopped at its bound; run it again. The newest event of the database is never archived. The body is optional. Operators' tokens only: a customer's token answers 403 `forbidden`, as does any token restricted to zones or domains.",
  body: ArchiveRunRequestSchema,
  report: ArchiveReportSchema,
  example: ARCHIVE_REPORT_EXAMPLE,
});
