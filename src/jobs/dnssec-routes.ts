// The DNSSEC run's route (docs/dnssec-rollovers.md): an operator takes every due step now,
// as the hourly cron trigger does.
import { z } from "@hono/zod-openapi";
import { scheduledRunRoute } from "../http/scheduled-run-route";

const tags = ["DNSSEC"];

export const DnssecRunRequestSchema = z
  .object({
    as_of: z.string().max(64).optional().openapi({
      example: "2030-01-01T00:00:00.000Z",
      description:
        "Run as if it were this time (RFC 3339): every step due by then is taken. Honoured only by a local development server (`npm start` sets `CLOCK_OVERRIDE`, obeyed for loopback requests only); elsewhere 422 `policy_violation` naming `as_of`.",
    }),
  })
  .strict()
  .openapi("DnssecRunRequest");

const count = (description: string) => z.number().int().openapi({ example: 0, description });

export const DnssecRunReportSchema = z
  .object({
    as_of: z.string().openapi({ format: "date-time", example: "2030-01-01T00:00:00.000Z", description: "The time the run acted at." }),
    zones: count("Zones with a step due that the run took (at most 50 a run)."),
    steps: count("Key state changes made."),
    failed: count("Zones whose step did not commit (due again at the next run; the service's log says why)."),
    more: z.boolean().openapi({ description: "The run stopped at its bound with zones still due; the next run continues." }),
  })
  .openapi("DnssecRunReport");

export const runDnssec = scheduledRunRoute({
  operationId: "runDnssec",
  access: { scope: "write", operator: true },
  path: "/dnssec/run",
  tags,
  summary: "Run the DNSSEC key lifecycle now",
  description:
    "Takes every zone whose keys have a step due through it, as the hourly cron trigger does: keys published, made active, retired and removed when their waits are over, rolls the policy asks for started, DS sets changed at the parent. Each step is an event (`dnssec.key.*`, `dnssec.ds.*`, `dnssec.rollover.stalled`). `as_of` only on a local development server. Operators' tokens only.",
  body: DnssecRunRequestSchema,
  report: DnssecRunReportSchema,
  example: { as_of: "2030-01-01T00:00:00.000Z", zones: 1, steps: 2, failed: 0, more: false },
});
