// The bodies and answers of the registry jobs' routes (docs/registries.md): a poll message
// the gateway hands over, and a reconciliation run.
import { z } from "@hono/zod-openapi";
import { TimestampSchema } from "../http/openapi";

/** One element of an EPP answer as the codec reads it (src/epp/types.ts): `kind` and its fields. */
const Part = z.looseObject({ kind: z.string().max(64) });

/** A poll message as the codec reads it (`<poll op="req">`'s answer, RFC 5730 §2.9.2.3). */
const PollMessageSchema = z
  .looseObject({
    code: z.number().int(),
    msgQ: z.looseObject({
      count: z.number().int().min(0),
      id: z.string().min(1).max(128),
      qDate: z.string().max(64).optional(),
      msg: z.string().max(65_536).optional(),
    }),
    resData: z.array(Part).max(64).default([]),
    extensions: z.array(Part).max(64).default([]),
    trID: z.looseObject({ clTRID: z.string().max(64).optional(), svTRID: z.string().max(64) }).optional(),
  })
  .openapi({ description: "The registry's message as src/epp reads it: `msgQ` (its id, date and text), `resData` and `extensions` by `kind`." });

export const RegistryMessageSchema = z
  .object({
    repository: z.string().max(63).openapi({ example: "verisign", description: "The repository whose registry's queue the message came from." }),
    client_id: z.string().min(3).max(16).optional().openapi({
      example: "domain-api",
      description: "The registrar login the message came to (the gateway's `client_id` there); else the connector's, from REGISTRY_CONNECTORS.",
    }),
    message: PollMessageSchema,
    replayed: z.boolean().optional().openapi({
      description:
        "Handed over from the gateway's set-aside record, after newer messages of the queue: its own state may be stale, so the domain follows the registry's `<domain:info>` now instead (a transfer `pending` only while the info shows pendingTransfer).",
    }),
  })
  .openapi("RegistryMessage");

export type RegistryMessage = z.infer<typeof RegistryMessageSchema>;

export const REGISTRY_MESSAGE_EXAMPLE = {
  repository: "verisign",
  client_id: "domain-api",
  message: {
    code: 1301,
    msgQ: { count: 1, id: "12345", qDate: "2026-11-22T09:30:00.000Z", msg: "Transfer requested." },
    resData: [
      {
        kind: "domain:trnData",
        name: "example.com",
        trStatus: "pending",
        reID: "other-registrar",
        reDate: "2026-11-22T09:30:00.000Z",
        acID: "domain-api",
        acDate: "2026-11-27T09:30:00.000Z",
        exDate: "2028-11-22T09:09:16.659Z",
      },
    ],
    extensions: [],
    trID: { svTRID: "LR-00000042" },
  },
} satisfies z.input<typeof RegistryMessageSchema>;

export const MESSAGE_OUTCOMES = ["applied", "already_applied", "kept"] as const;

export const RegistryMessageReportSchema = z
  .object({
    message_id: z.string().openapi({ example: "12345" }),
    kind: z.string().openapi({
      example: "domain:trnData",
      description: "What the message was read as: the kind of its first `resData` (`domain:trnData`, `domain:panData`, `domain:infData`, …), or `none`.",
    }),
    outcome: z.enum(MESSAGE_OUTCOMES).openapi({
      description:
        "`applied`: our copy follows it (one write with its event); `already_applied`: handed over before, nothing done again; `kept`: a kind the service does not act on, kept as a `registry_message` event on the repository. The gateway acks the message on any 200.",
    }),
    domain: z.string().nullable().openapi({ example: "dom_01JD3Q6Y4T8N0V4W5X6Y7Z8A9B", description: "The domain it changed, if any." }),
    detail: z.string().openapi({ example: "other-registrar asked for example.com: it shows pendingTransfer until its account approves or rejects." }),
  })
  .openapi("RegistryMessageReport");

export type RegistryMessageReport = z.infer<typeof RegistryMessageReportSchema>;

const count = (description: string) => z.number().int().openapi({ example: 0, description });

const ReconcileReportSchemaShape = z.object({
  repository: z.string(),
  as_of: TimestampSchema.openapi({ description: "When the run compared." }),
  checked: count("Domains compared with the registry's `<domain:info>` in this run (a bounded batch)."),
  overdue: count(
    "Of the domains this run took, those taken first because they were overdue: expired here and not compared with the registry since (most overdue first, before the rest of the pass).",
  ),
  reconciled: count("Domains that differed and now follow the registry (`reconciled` events listing what differed)."),
  missing: count("Domains the registry no longer holds for this service (2303, or another registrar's): marked (`registry.missing_since`), not deleted."),
  purged: count(
    "Domains deleted here (in redemption) that the registry no longer holds (2303): it purged them, and they leave their account (`purge` events), as its poll message would have had them do.",
  ),
  unchanged: count("Domains that were as the registry holds them."),
  failed: count("Domains the registry could not be asked about now (the run stops at the first outage; the next run resumes there)."),
  more: z
    .boolean()
    .openapi({ description: "The pass has domains left: the next run (the cron trigger's, or this route again) continues after the last one compared." }),
  pass_complete: z.boolean().openapi({ description: "This run compared the last domain of the repository: the next run starts a new pass." }),
});

export const ReconcileReportSchema = ReconcileReportSchemaShape.openapi("ReconcileReport");

export const RECONCILE_REPORT_EXAMPLE = {
  repository: "verisign",
  as_of: "2026-11-22T09:30:00.000Z",
  checked: 50,
  overdue: 2,
  reconciled: 2,
  missing: 1,
  purged: 0,
  unchanged: 47,
  failed: 0,
  more: true,
  pass_complete: false,
} satisfies z.input<typeof ReconcileReportSchema>;

export const ReconcileRequestSchema = z
  .object({
    limit: z.number().int().min(1).max(100).optional().openapi({ example: 50, description: "Domains compared at most in this run (1–100; 50 unless told)." }),
  })
  .openapi("ReconcileRequest");
