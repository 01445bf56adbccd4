// DELETE /v1/hosts/{host}: a host a domain uses as a name server is linked and stays
// (RFC 5732 §3.2.2, EPP 2305); the foreign key holds that at commit time too.
import type { RouteHandler } from "@hono/zod-openapi";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { hosts } from "../../db/schema";
import type { AppEnv } from "../../env";
import { deleteResource } from "../../http/mutate";
import { ApiError } from "../../http/problem";
import { nameList } from "../../http/text";
import { hostCollection } from "./collection";
import type { HostWithLinks } from "../../db/hosts";
import { domainsUsingHost, superordinateOfHost } from "./queries";
import { hostLockProblem } from "../../registry/host-lock";
import { resourceRef } from "../../http/lookup";
import { guard } from "../../db/guards";
import { noneLockedAgainstUpdate } from "../../db/domain-rules";
import type * as routes from "./routes";
import { anyConnected, atEveryRegistry } from "../../connector/holders";
import { clientTransactionId } from "../../connector/gateway";
import { registriesHolding, registryObjectsDelete } from "../../db/registry-objects";
import type { EppResponse } from "../../epp/types";

/** Whether a domain the caller does not see uses the host: read through the caller's view (src/access/visibility.ts). */
const unseenUser = (hostId: string) =>
  sql`select exists (select 1 from domain_nameservers dn where dn.host_id = ${hostId} and dn.domain_id not in (select d.id from domains d)) as unseen`;

/**
 * The refusal names the domains the caller sees that use the host (those it can change),
 * and says only that another account's domain does when one does: never which, nor how
 * many.
 */
async function hostLinked(db: Database, host: HostWithLinks): Promise<ApiError> {
  const [users, unseen] = await Promise.all([domainsUsingHost(db, host.id), db.get<{ unseen: number }>(unseenUser(host.id))]);
  const byOthers = unseen?.unseen === 1;
  if (users.names.length === 0)
    return new ApiError("object_linked", `The host ${host.name} is a name server of a domain of another account; it stays while a domain uses it.`);
  const seen = nameList(users.names, users.more);
  return new ApiError(
    "object_linked",
    byOthers
      ? `The host ${host.name} is a name server of ${seen} and of a domain of another account; it stays while a domain uses it.`
      : `The host ${host.name} is a name server of ${seen}; change those domains' name servers first.`,
  );
}

export const deleteHost: RouteHandler<typeof routes.deleteHost, AppEnv> = (c) => {
  const segment = c.req.valid("param").host;
  const sent = new Map<string, Promise<EppResponse>>();
  return deleteResource(c, hostCollection, segment, {
    // The domain the host is under: its registry lock holds its hosts (src/registry/host-lock.ts).
    reads: (db) => [superordinateOfHost(c.get("dbAllAccounts") ?? db, resourceRef(segment, "host"))] as const,
    async remove({ db }, current, [superordinateRows]) {
      const superordinate = superordinateRows.find((domain) => domain.id === current.domainId) ?? null;
      const locked = hostLockProblem({
        operation: "delete",
        name: current.name,
        nextName: current.name,
        addressesChanged: false,
        superordinate,
        nextSuperordinate: null,
        users: [],
      });
      if (locked) throw new ApiError("status_prohibits", locked);
      if (current.linked) throw await hostLinked(db, current);
      // Every connected registry that holds the host from us deletes it first.
      const holders = anyConnected(c.env) ? await registriesHolding(db, current.name) : [];
      await atEveryRegistry(
        c.env,
        clientTransactionId(c.get("requestId")),
        holders,
        (name) => ({ kind: "host:delete", name }),
        (repository) => `Deleting host ${current.name} at the ${repository} registry`,
        sent,
      );
      return {
        ...(holders.length > 0 ? { alongside: [registryObjectsDelete(db, current.name)] } : {}),
        // A lock set on the superordinate domain after the read refuses the delete at commit too.
        beforeWrite: current.domainId ? [guard(db, "the superordinate domain is not locked against update", noneLockedAgainstUpdate([current.domainId]))] : [],
        write: db.delete(hosts).where(and(eq(hosts.id, current.id), eq(hosts.version, current.version))),
      };
    },
    failure: async (kind, current) => (kind === "foreign_key" ? hostLinked(c.get("db"), current) : undefined),
  });
};
