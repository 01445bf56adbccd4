// The sweep's third step (docs/lifecycle.md): grace periods that ended leave rgp_status;
// the end of redemptionPeriod starts pendingDelete; the end of pendingDelete purges the
// domain (sweep-purge.ts).
import { writeChange } from "../db/resource-write";
import { graceStep } from "../registry/lifecycle";
import { domainCollection } from "../resources/domains/collection";
import { dueGraceEnds } from "./sweep-due";
import { purge } from "./sweep-purge";
import { attempt, graceOf, readDomain, type Step, stepped } from "./sweep-step";

export const graceEndStep: Step = {
  due: (db, at, position, limit) => dueGraceEnds(db, at, position, limit),
  act: async (ctx, cat, id) => [
    await attempt(async () => {
      const current = await readDomain(ctx.db, id);
      if (!current) return "skipped";
      const step = graceStep(current, graceOf(cat, current), ctx.now);
      if (!step) return "skipped";
      if (step.kind === "purge") return purge(ctx, current);
      await writeChange(ctx, domainCollection, "update", current, stepped(ctx, current, { rgp: step.rgp }));
      return step.kind === "pending_delete" ? "redemptions_ended" : "grace_periods_ended";
    }),
  ],
};
