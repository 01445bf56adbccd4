// DELETE /v1/hosts/{host}: a host a domain uses as a name server is linked and stays
// (RFC 5732 §3.2.2, EPP 2305); the foreign key holds that at commit time too.
import type { RouteHandler } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { hosts } from "../../db/schema";
import type { AppEnv } from "../../env";
import { deleteResource } from "../../http/mutate";
import { ApiError } from "../../http/problem";
import { nameList } from "../../http/text";
import { hostCollection } from "./collection";
import { domainsUsingHost, type HostWithLinks } from "./queries";
import type * as routes from "./routes";

async function hostLinked(db: Database, host: HostWithLinks): Promise<ApiError> {
  const users = await domainsUsingHost(db, host.id);
  return new ApiError(
    "object_linked",
    `The host ${host.name} is a name server of ${nameList(users.names, users.more)}; change those domains' name servers first.`,
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
