// A host's name and addresses are part of the delegation of every domain that names it as
// a name server (the parent zone's NS records and glue, RFC 1034 §4.2.2). So a change to
// them is a change to those domains: refused while a domain of another account uses the
// host (docs/decisions.md, "A host other accounts use"), and otherwise recorded on each
// domain that uses it, which gets a new version, `updated_at` and an `update` event.
import { sql } from "drizzle-orm";
import { chunkedEventInserts } from "../../db/events";
import { guard } from "../../db/guards";
import { hostUsersAre } from "../../db/links";
import { domains } from "../../db/schema";
import type { Statement, WriteContext } from "../../db/write";
import { ApiError } from "../../http/problem";
import { presentDomain } from "../domains/present";
import type { DomainWithLinks } from "../domains/queries";

/** The refusal: it says that other accounts' domains use the host, and nothing of them. */
export function usedByOtherAccounts(host: string): ApiError {
  return new ApiError(
    "object_linked",
    `The host ${host} is a name server of a domain of another account: its name and addresses are part of that domain's delegation and cannot change while it uses the host. Create a host of another name for the new name or addresses.`,
  );
}

/**
 * The statements that make a host's change its users' change too: a guard that the users
 * are still exactly those read (none of another account), each user's version and
 * `updated_at` moved on in one statement, and their `update` events (the `nameservers`
 * of each with the host's new name).
 */
export function delegationWrites(
  ctx: WriteContext,
  host: { id: string; accountId: string; name: string },
  nextName: string,
  users: readonly DomainWithLinks[],
): { beforeWrite: Statement[]; alongside: Statement[] } {
  const { db, at, actor } = ctx;
  const usersAsRead = guard(
    db,
    "the host's users are those read",
    hostUsersAre(
      host.id,
      host.accountId,
      users.map((d) => [d.id, d.version] as const),
    ),
  );
  if (users.length === 0) return { beforeWrite: [usersAsRead], alongside: [] };
  const ids = JSON.stringify(users.map((d) => d.id));
  const events = users.map((domain) => {
    const next: DomainWithLinks = {
      ...domain,
      nameservers: domain.nameservers.map((name) => (name === host.name ? nextName : name)),
      version: domain.version + 1,
      updatedAt: at,
    };
    return {
      at,
      actor,
      account: domain.accountId,
      type: "domain" as const,
      id: domain.id,
      operation: "update" as const,
      before: presentDomain(domain),
      after: presentDomain(next),
      guard: next.version,
    };
  });
  return {
    beforeWrite: [usersAsRead],
    alongside: [
      db
        .update(domains)
        .set({ version: sql`${domains.version} + 1`, updatedAt: at })
        .where(sql`${domains.id} in (select value from json_each(${ids}))`),
      ...chunkedEventInserts(
        db,
        events,
        ({ resourceId, guard: version }) => sql`exists (select 1 from domains d where d.id = ${resourceId} and d.version = ${version})`,
      ),
    ],
  };
}
