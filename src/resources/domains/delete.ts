// DELETE /v1/domains/{domain} (RFC 5731 §3.2.2, RFC 3915 §3.3): refused under
// clientDeleteProhibited, and while hosts subordinate to the domain exist (EPP 2305).
// Inside addPeriod the domain goes at once (204) and a zone of the same name stays and
// loses its link; afterwards it enters redemptionPeriod in pendingDelete (202), from
// which POST …/restore brings it back and after which the sweep purges it. Under a
// connected repository the registry deletes first and its answer decides: 1000, purged
// (204); 1001, pendingDelete in its redemption period (202).
import type { RouteHandler } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { catalog } from "../../db/catalog";
import type { Database } from "../../db/client";
import { domains } from "../../db/schema";
import { versionStep } from "../../db/write";
import type { AppEnv } from "../../env";
import { deleteResource, findResource, updateResource } from "../../http/mutate";
import { ApiError } from "../../http/problem";
import { nameList } from "../../http/text";
import { earliestEnd, inGracePeriod, withGracePeriod } from "../../registry/lifecycle";
import { prohibitingStatus, shownStatuses } from "../../registry/statuses";
import { checkIfMatch } from "../../http/etag";
import { domainCollection } from "./collection";
import { presentDomain } from "./present";
import { domainRegistry, registryTransaction } from "./registry";
import { type DomainWithLinks, subordinateHostNames } from "./queries";
import type * as routes from "./routes";

async function hasSubordinateHosts(db: Database, domain: DomainWithLinks): Promise<ApiError> {
  const rows = await subordinateHostNames(db, domain.id);
  const names = rows.slice(0, 5).map((r) => r.name);
  return new ApiError("object_linked", `${domain.name} has subordinate hosts (${nameList(names, rows.length > 5)}); delete or rename them first.`);
}

/** The checks both kinds of delete make: the statuses that forbid it, the subordinate hosts. */
async function checkDeletable(db: Database, current: DomainWithLinks): Promise<void> {
  const prohibiting = prohibitingStatus("delete", shownStatuses(current));
  if (prohibiting) throw new ApiError("status_prohibits", `${current.name} has ${prohibiting}; remove that status first.`);
  if ((await subordinateHostNames(db, current.id, 0)).length > 0) throw await hasSubordinateHosts(db, current);
}

export const deleteDomain: RouteHandler<typeof routes.deleteDomain, AppEnv> = async (c) => {
  const segment = c.req.valid("param").domain;
  const found = await findResource(c, domainCollection, segment);
  let purge = inGracePeriod(found.rgp, "addPeriod", new Date());
  let svTRID: string | undefined;
  const registry = domainRegistry(c, found.repositoryId);
  if (registry) {
    // Our checks first (If-Match, the statuses, subordinate hosts), then the registry's word.
    checkIfMatch(c, found.version, presentDomain(found));
    if (found.deletedAt !== null) throw new ApiError("status_prohibits", `${found.name} is already deleted (pendingDelete).`);
    await checkDeletable(c.get("db"), found);
    const done = await registry.send(
      "domain:delete",
      { kind: "domain:delete", name: found.name },
      `Deleting ${found.name} at the ${registry.repository} registry`,
    );
    purge = done.outcome === "done";
    svTRID = done.svTRID;
  }
  if (purge) {
    return deleteResource(c, domainCollection, segment, {
      async remove({ db }, current) {
        await checkDeletable(db, current);
        return { write: db.delete(domains).where(and(eq(domains.id, current.id), eq(domains.version, current.version))) };
      },
      // A subordinate host was created between the check and the delete.
      failure: async (kind, current) => (kind === "foreign_key" ? hasSubordinateHosts(c.get("db"), current) : undefined),
    });
  }

  // RFC 3915 §3.3: after addPeriod a delete starts the redemption period; the other grace periods end.
  const cat = await catalog(c.get("db"));
  const answer = await updateResource(c, domainCollection, segment, {
    event: "delete",
    async update(ctx, current) {
      await checkDeletable(ctx.db, current);
      const extension = cat.extensions.get(current.extensionId)!;
      const rgp = withGracePeriod([], ctx.now, { status: "redemptionPeriod", days: extension.graceRedemption });
      const next = { ...current, deletedAt: ctx.at, rgp, rgpEndsAt: earliestEnd(rgp) ?? ctx.at, version: current.version + 1, updatedAt: ctx.at };
      return {
        next,
        write: versionStep(ctx.db, domains, current, next),
        afterFromDatabase: registryTransaction(svTRID),
      };
    },
  });
  return c.json(await answer.json(), 202);
};
