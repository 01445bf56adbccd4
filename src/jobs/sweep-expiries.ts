// The sweep's second step (docs/lifecycle.md): a registration that ran out renews itself
// with auto_renew (auto_renew event), or enters redemption (expire event). Auto-renew renews
// one year at a time, as often as the domain is overdue, an event each, as a registry bills
// each year: a domain years overdue is renewed up to now in one run, within the run's bound.
// A domain of a connected repository is its registry's to renew or delete: never here.
import { eq } from "drizzle-orm";
import { writeChange } from "../db/resource-write";
import { domains } from "../db/schema";
import { versionStep } from "../db/write";
import { expiryStep } from "../registry/lifecycle";
import { domainCollection } from "../resources/domains/collection";
import type { DomainWithLinks } from "../resources/domains/queries";
import { dueExpiries } from "./sweep-due";
import { attempt, graceOf, type Outcome, readDomain, type Step, stepped } from "./sweep-step";

export const expiryStepOfSweep: Step = {
  due: (db, at, position, limit, connected) => dueExpiries(db, at, position, limit, connected),
  act: async (ctx, cat, id, room, connected) => {
    const outcomes: Outcome[] = [];
    // The domain as the last renewal left it: the next one steps on from it without reading it again.
    let renewed: DomainWithLinks | undefined;
    for (;;) {
      let known = renewed;
      renewed = undefined;
      const outcome = await attempt(async () => {
        const current = known ?? (await readDomain(ctx.db, id));
        // A lost race reads the domain again.
        known = undefined;
        // A connected repository's registry renews or deletes it (docs/registries.md): not ours to do.
        if (!current || connected.includes(current.repositoryId)) return "skipped";
        const step = expiryStep(current, graceOf(cat, current), ctx.now);
        if (!step) return "skipped";
        // Still due at the run's bound: the next run goes on.
        if (outcomes.length === room) return "deferred";
        if (step.kind === "auto_renew") {
          const change = stepped(ctx, current, { expiresAt: step.expiresAt, rgp: step.rgp });
          // The renewal is conditional on the expiry it renews, as a client's renew is.
          change.write = versionStep(ctx.db, domains, current, change.next, { also: eq(domains.expiresAt, current.expiresAt) });
          renewed = await writeChange(ctx, domainCollection, "auto_renew", current, change);
          return "auto_renewed";
        }
        await writeChange(ctx, domainCollection, "expire", current, stepped(ctx, current, { deletedAt: ctx.at, rgp: step.rgp }));
        return "expired";
      });
      // Renewed up to now: nothing more is due.
      if (outcome === "skipped" && outcomes.length > 0) return outcomes;
      outcomes.push(outcome);
      if (outcome !== "auto_renewed") return outcomes;
    }
  },
};
