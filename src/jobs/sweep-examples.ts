// The lifecycle's example in the OpenAPI document: what one sweep did.
import type { z } from "@hono/zod-openapi";
import type { SweepReportSchema } from "./sweep-schemas";

export const SWEEP_REPORT_EXAMPLE = {
  as_of: "2030-01-01T00:00:00.000Z",
  transfers_approved: 1,
  auto_renewed: 12,
  expired: 3,
  grace_periods_ended: 40,
  redemptions_ended: 2,
  purged: 1,
  skipped: 0,
  more: false,
} satisfies z.input<typeof SweepReportSchema>;
