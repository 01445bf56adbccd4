import { z } from "@hono/zod-openapi";
import { TimestampSchema } from "../http/openapi";

export const SweepRequestSchema = z
  .object({
    as_of: z.string().max(64).optional().openapi({
      example: "2030-01-01T00:00:00.000Z",
      description:
        "Run as if it were this time (RFC 3339). Honoured only by a local development server (`npm start` sets `CLOCK_OVERRIDE`, obeyed for loopback requests only, like `AUTH_DISABLED`); elsewhere 422 `policy_violation` naming `as_of`.",
    }),
  })
  .openapi("SweepRequest");

const count = (description: string) => z.number().int().openapi({ example: 0, description });

export const SweepReportSchema = z
  .object({
    as_of: TimestampSchema.openapi({ description: "The time the run acted at." }),
    transfers_approved: count("Pending transfers past `act_by`, approved automatically (`transfer_auto_approve` events)."),
    auto_renewed: count("Expired domains with `auto_renew` renewed for one year (`auto_renew` events, `autoRenewPeriod`)."),
    expired: count("Expired domains without `auto_renew` (or with `clientRenewProhibited`) put in `redemptionPeriod` and `pendingDelete` (`expire` events)."),
    grace_periods_ended: count("Domains whose ended grace periods left `rgp_status` (`update` events)."),
    redemptions_ended: count("Deleted domains whose `redemptionPeriod` ended, now in the `pendingDelete` phase (`update` events)."),
    purged: count("Domains removed with their subordinate hosts and links (`purge` events holding the domain)."),
    skipped: count("Due rows left for a later run: an expiry waiting on a pending transfer, or a row that kept losing races."),
    more: z.boolean().openapi({ description: "The run stopped at its bound with rows still due; the next run continues." }),
  })
  .openapi("SweepReport");

export type SweepRequest = z.infer<typeof SweepRequestSchema>;
