// DELETE /v1/domains/{domain} (RFC 5731 §3.2.2): refused under clientDeleteProhibited,
// and while hosts subordinate to the domain exist (EPP 2305); a zone of the same name
// stays and loses its link.
import type { RouteHandler } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { domains } from "../../db/schema";
import type { AppEnv } from "../../env";
import { deleteResource } from "../../http/mutate";
import { ApiError } from "../../http/problem";
import { nameList } from "../../http/text";
import { prohibitingStatus } from "../../registry/statuses";
import { domainCollection } from "./collection";
import { type DomainWithLinks, subordinateHostNames } from "./queries";
import type * as routes from "./routes";

async function hasSubordinateHosts(db: Database, domain: DomainWithLinks): Promise<ApiError> {
  const rows = await subordinateHostNames(db, domain.id);
  const names = rows.slice(0, 5).map((r) => r.name);
  return new ApiError("object_linked", `${domain.name} has subordinate hosts (${nameList(names, rows.length > 5)}); delete or rename them first.`);
}

export const deleteDomain: RouteHandler<typeof routes.deleteDomain, AppEnv> = (c) =>
  deleteResource(c, domainCollection, c.req.valid("param").domain, {
    async remove({ db }, current) {
      const prohibiting = prohibitingStatus("delete", current.statuses);
      if (prohibiting) throw new ApiError("status_prohibits", `${current.name} has ${prohibiting}; remove that status first.`);
      if ((await subordinateHostNames(db, current.id, 0)).length > 0) throw await hasSubordinateHosts(db, current);
      return { write: db.delete(domains).where(and(eq(domains.id, current.id), eq(domains.version, current.version))) };
    },
    // A subordinate host was created between the check and the delete.
    failure: async (kind, current) => (kind === "foreign_key" ? hasSubordinateHosts(c.get("db"), current) : undefined),
  });
