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
import { domainsUsingHost } from "./queries";
import type * as routes from "./routes";

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

export const deleteHost: RouteHandler<typeof routes.deleteHost, AppEnv> = (c) =>
  deleteResource(c, hostCollection, c.req.valid("param").host, {
    async remove({ db }, current) {
      if (current.linked) throw await hostLinked(db, current);
      return { write: db.delete(hosts).where(and(eq(hosts.id, current.id), eq(hosts.version, current.version))) };
    },
    failure: async (kind, current) => (kind === "foreign_key" ? hostLinked(c.get("db"), current) : undefined),
  });
