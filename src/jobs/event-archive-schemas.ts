// The events archive run's body and report (POST /v1/events/archive/run), and its example.
import { z } from "@hono/zod-openapi";
import { TimestampSchema } from "../http/openapi";

export const ArchiveRunRequestSchema = z
  .object({
    as_of: z.string().max(64).optional().openapi({
      example: "2030-01-01T00:00:00.000Z",
      description:
        "Run as if it were this time (RFC 3339): events stamped before UTC midnight `EVENT_HOT_DAYS` days before it are due. Honoured only by a local development server (`npm start` sets `CLOCK_OVERRIDE`, obeyed for loopback requests only); elsewhere 422 `policy_violation` naming `as_of`.",
    }),
  })
  .openapi("ArchiveRunRequest");

const count = (description: string) => z.number().int().openapi({ example: 0, description });

export const ArchiveReportSchema = z
  .object({
    as_of: TimestampSchema.openapi({ description: "The time the run acted at." }),
    archived_before: TimestampSchema.openapi({
      example: "2029-12-02T00:00:00.000Z",
      description: "Events stamped before this instant (UTC midnight, `EVENT_HOT_DAYS` days before `as_of`) were due.",
    }),
    archived: count("Events moved from the database to archive objects by this run."),
    objects: count("Archive objects this run wrote (or completed: one an interrupted run had written)."),
    more: z.boolean().openapi({ description: "The run stopped at its bound with events still due; the next run continues." }),
  })
  .openapi("ArchiveReport");

export const ARCHIVE_REPORT_EXAMPLE = {
  as_of: "2026-11-22T09:17:00.000Z",
  archived_before: "2026-10-23T00:00:00.000Z",
  archived: 2412,
  objects: 7,
  more: false,
} satisfies z.input<typeof ArchiveReportSchema>;
