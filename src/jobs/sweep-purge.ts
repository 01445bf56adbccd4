// The purge (docs/lifecycle.md): the end of pendingDelete. The domain, its subordinate hosts
// and its links go; a zone of the same name stays, unlinked (the link is by name and
// account); the purge event holds the domain as it was. Other domains that use one of its
// subordinate hosts as a name server lose that name server first, each in a write of its
// own with an update event (the host cannot outlive its domain, RFC 5732 §3.2.2), a group
// at a time; then one batch removes the hosts, each with its delete event, and the domain.
import { and, eq, ne, sql } from "drizzle-orm";
import { writeChange, writeRemoval } from "../db/resource-write";
import { domainNameservers, domains, hosts } from "../db/schema";
import { LostRace, retryOrGiveUp, rowStatements, versionStep, type WriteContext } from "../db/write";
import { lockedAgainstUpdate } from "../registry/statuses";
import { domainCollection } from "../resources/domains/collection";
import type { DomainWithLinks } from "../resources/domains/queries";
import { presentHost } from "../db/hosts";
import { ATTEMPTS, type Outcome, readDomain } from "./sweep-step";

/** How many other domains, or subordinate hosts, one write of a purge takes: its batch stays small. */
const PURGE_GROUP = 20;
/** Groups of other domains one purge attempt updates; the rest wait for the next run (the domain is counted in `skipped` meanwhile). */
const PURGE_GROUPS_PER_RUN = 5;

export async function purge(ctx: WriteContext, current: DomainWithLinks): Promise<Outcome> {
  const subordinate = sql`(select h.id from hosts h where h.domain_id = ${current.id})`;
  for (let group = 0; ; group++) {
    const users = await ctx.db
      .selectDistinct({ id: domainNameservers.domainId })
      .from(domainNameservers)
      .where(and(sql`${domainNameservers.hostId} in ${subordinate}`, ne(domainNameservers.domainId, current.id)))
      .limit(PURGE_GROUP);
    if (users.length === 0) break;
    // A host many domains use is let go of over several runs, so that one run stays bounded: still due, the next run goes on.
    if (group === PURGE_GROUPS_PER_RUN) return "deferred";
    for (const { id } of users) {
      const dropped = await retryOrGiveUp(() => dropSubordinateNameservers(ctx, current, id), ATTEMPTS);
      // A domain under serverUpdateProhibited keeps its name servers: the purge waits for the operator.
      if (dropped === "locked") return "skipped";
      if (dropped === null) throw new LostRace();
    }
  }

  const hostRows = await ctx.db
    .select()
    .from(hosts)
    .where(eq(hosts.domainId, current.id))
    .limit(PURGE_GROUP + 1);
  if (hostRows.length > PURGE_GROUP) return "skipped";
  const ownNames = new Set(current.nameservers);
  const hostWrites = hostRows.flatMap((host) =>
    rowStatements(ctx, {
      statement: ctx.db.delete(hosts).where(and(eq(hosts.id, host.id), eq(hosts.version, host.version))),
      event: {
        account: host.accountId,
        type: "host",
        id: host.id,
        operation: "delete",
        before: presentHost({ ...host, linked: ownNames.has(host.name) }),
        after: null,
      },
    }),
  );
  await writeRemoval(ctx, domainCollection, "purge", current, {
    // The version step collides with any write since the read; the delete comes last, after the rows that point at the domain.
    write: versionStep(ctx.db, domains, current, { ...current, version: current.version + 1 }),
    alongside: [
      ctx.db.delete(domainNameservers).where(eq(domainNameservers.domainId, current.id)),
      ...hostWrites,
      ctx.db.delete(domains).where(eq(domains.id, current.id)),
    ],
  });
  return "purged";
}

/** Another domain's name servers without the purged domain's subordinate hosts: an update of that domain. */
async function dropSubordinateNameservers(ctx: WriteContext, purged: DomainWithLinks, id: string): Promise<true | "locked"> {
  const user = await readDomain(ctx.db, id);
  if (!user) return true;
  if (lockedAgainstUpdate(user.serverStatuses)) return "locked";
  const gone = await ctx.db.select({ id: hosts.id, name: hosts.name }).from(hosts).where(eq(hosts.domainId, purged.id));
  const goneNames = new Set(gone.map((h) => h.name));
  const next: DomainWithLinks = { ...user, nameservers: user.nameservers.filter((n) => !goneNames.has(n)), version: user.version + 1, updatedAt: ctx.at };
  await writeChange(ctx, domainCollection, "update", user, {
    next,
    write: versionStep(ctx.db, domains, user, next),
    alongside: [
      ctx.db
        .delete(domainNameservers)
        .where(and(eq(domainNameservers.domainId, user.id), sql`${domainNameservers.hostId} in (select h.id from hosts h where h.domain_id = ${purged.id})`)),
    ],
  });
  return true;
}
