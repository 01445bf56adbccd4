// The sweep's third step (docs/lifecycle.md): grace periods that ended leave rgp_status;
// the end of redemptionPeriod starts pendingDelete; the end of pendingDelete purges the
// domain (sweep-purge.ts). At a connected repository the registry does the last two: only
// the ended grace periods of its live domains leave rgp_status here.
import { writeChange } from "../db/resource-write";
import { graceStep } from "../registry/lifecycle";
import { domainCollection } from "../resources/domains/collection";
import { dueGraceEnds } from "./sweep-due";
import { purge } from "./sweep-purge";
import { attempt, graceOf, readDomain, type Step, stepped } from "./sweep-step";

export const graceEndStep: Step = {
  due: (db, at, position, limit, connected) => dueGraceEnds(db, at, position, limit, connected),
  act: async (ctx, cat, id, _room, connected) => [
    await attempt(async () => {
      const current = await readDomain(ctx.db, id);
      if (!current) return "skipped";
      // A deleted domain of a connected repository: its registry ends redemption and purges it (docs/registries.md).
      if (current.deletedAt !== null && connected.includes(current.repositoryId)) return "skipped";
      const step = graceStep(current, graceOf(cat, current), ctx.now);
      if (!step) return "skipped";
      if (step.kind === "purge") return purge(ctx, current);
      await writeChange(ctx, domainCollection, "update", current, stepped(ctx, current, { rgp: step.rgp }));
      return step.kind === "pending_delete" ? "redemptions_ended" : "grace_periods_ended";
    }),
  ],
};
